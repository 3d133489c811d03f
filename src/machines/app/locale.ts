// Interface language (SPEC §1): es-CL by default, es-MX on request. Which one a user starts in:
//   1. their own choice, kept in the `i18n_redirected` cookie (written only when they pick one);
//   2. otherwise their institution's (a Mexican school's staff read es-MX as soon as the session says so);
//   3. otherwise es-CL (the login page of a browser that never chose).
// A failed load keeps the previous locale and says so.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { DEFAULT_LOCALE } from '../../i18n';
import type { Locale } from '../../../shared/contract';
import { loadLocale, readLocaleChoice } from '../../services/app/locale';
import type { ToastEvent } from './effects';

export interface LocaleInput {
  /** Forces a locale at start-up, as if chosen; otherwise the cookie decides. */
  locale?: Locale;
}

export interface LocaleContext {
  /** The locale whose texts are in use. */
  locale: Locale;
  /** The locale being loaded (meaningful in `loading`; null otherwise). */
  requested: Locale | null;
  /** The user's own choice (the cookie's, or picked now); null while they never chose. */
  choice: Locale | null;
  /** The signed-in user's institution's locale; null when signed out or not known yet. */
  institution: Locale | null;
}

export type LocaleEvent =
  /** The user picks a language: it wins from now on, and the cookie keeps it. */
  | { type: 'locale.change'; locale: Locale }
  /** The session's institution locale (null once signed out), from the app root. */
  | { type: 'locale.institution'; locale: Locale | null };

export type LocaleEmitted = ToastEvent;

/** What the user should read now: their choice, else their school's, else the default. */
const wantedOf = (context: Pick<LocaleContext, 'choice' | 'institution'>): Locale =>
  context.choice ?? context.institution ?? DEFAULT_LOCALE;

export const localeMachine = setup({
  types: {
    input: {} as LocaleInput,
    context: {} as LocaleContext,
    events: {} as LocaleEvent,
    emitted: {} as LocaleEmitted,
  },
  actors: { readLocaleChoice, loadLocale },
  actions: {
    assignCookieChoice: assign((_, params: { choice: Locale | null }) => ({ choice: params.choice })),
    assignChoice: assign(({ event }) => {
      assertEvent(event, 'locale.change');
      return { choice: event.locale, requested: event.locale };
    }),
    assignInstitution: assign(({ event }) => {
      assertEvent(event, 'locale.institution');
      return { institution: event.locale };
    }),
    /** Asks for what the user should read now (after the cookie was read, or the school became known). */
    requestWanted: assign(({ context }) => ({ requested: wantedOf(context) })),
    assignLocale: assign((_, params: { locale: Locale }) => ({ locale: params.locale, requested: null })),
    clearRequested: assign({ requested: null }),
    // es-CL.json has no locale-specific failure text; the generic request error fits.
    toastLoadFailed: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
  },
  guards: {
    isOtherLocale: ({ context, event }) => {
      assertEvent(event, 'locale.change');
      return event.locale !== context.locale;
    },
    /** During a load: another locale than the one loading, or the same one now chosen (so the cookie keeps it). */
    isNewRequest: ({ context, event }) => {
      assertEvent(event, 'locale.change');
      return event.locale !== context.requested || event.locale !== context.choice;
    },
    /** The school's locale applies only while the user never chose, and only when it changes what is read. */
    isInstitutionSwitch: ({ context, event }, params: { current: Locale | null }) => {
      assertEvent(event, 'locale.institution');
      return context.choice === null && event.locale !== null && event.locale !== params.current;
    },
  },
}).createMachine({
  id: 'locale',
  initial: 'starting',
  context: ({ input }) => ({ locale: DEFAULT_LOCALE, requested: null, choice: input?.locale ?? null, institution: null }),
  states: {
    // Reads the cookie: a choice made before, or none.
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'readLocaleChoice',
        src: 'readLocaleChoice',
        onDone: {
          target: 'loading',
          actions: [
            { type: 'assignCookieChoice', params: ({ context, event }) => ({ choice: context.choice ?? event.output }) },
            'requestWanted',
          ],
        },
        onError: { target: 'loading', actions: 'requestWanted' },
      },
      on: {
        'locale.change': { target: 'loading', actions: 'assignChoice' },
        'locale.institution': { actions: 'assignInstitution' },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadLocale',
        src: 'loadLocale',
        // Only a choice is remembered: a school's locale is applied anew at each sign-in.
        input: ({ context }) => ({ locale: context.requested ?? DEFAULT_LOCALE, remember: context.requested === context.choice }),
        onDone: { target: 'ready', actions: { type: 'assignLocale', params: ({ event }) => ({ locale: event.output }) } },
        onError: { target: 'ready', actions: ['clearRequested', 'toastLoadFailed'] },
      },
      on: {
        // The newer choice wins: re-entering restarts (and so cancels) the load in flight.
        'locale.change': { guard: 'isNewRequest', target: 'loading', reenter: true, actions: 'assignChoice' },
        'locale.institution': [
          {
            guard: { type: 'isInstitutionSwitch', params: ({ context }) => ({ current: context.requested }) },
            target: 'loading',
            reenter: true,
            actions: ['assignInstitution', 'requestWanted'],
          },
          { actions: 'assignInstitution' },
        ],
      },
    },
    ready: {
      on: {
        'locale.change': { guard: 'isOtherLocale', target: 'loading', actions: 'assignChoice' },
        'locale.institution': [
          {
            guard: { type: 'isInstitutionSwitch', params: ({ context }) => ({ current: context.locale }) },
            target: 'loading',
            actions: ['assignInstitution', 'requestWanted'],
          },
          { actions: 'assignInstitution' },
        ],
      },
    },
  },
});

export type LocaleSnapshot = SnapshotFrom<typeof localeMachine>;

export const selectLocale = (snapshot: LocaleSnapshot): Locale => snapshot.context.locale;
export const selectIsLocaleLoading = (snapshot: LocaleSnapshot): boolean => snapshot.hasTag('busy');
