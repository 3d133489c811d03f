// Interface language (SPEC §1): es-CL by default, es-MX on request. Start-up follows the
// `i18n_redirected` cookie; a failed load keeps the previous locale and says so.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { DEFAULT_LOCALE } from '../i18n';
import type { Locale } from '../../shared/contract';
import { loadLocale } from '../services/locale';
import type { ToastEvent } from './effects';

export interface LocaleInput {
  /** Forces a locale at start-up; otherwise the cookie decides. */
  locale?: Locale;
}

export interface LocaleContext {
  /** The locale whose texts are in use. */
  locale: Locale;
  /** The locale being loaded; null at start-up means "whatever the cookie says". */
  requested: Locale | null;
}

export type LocaleEvent = { type: 'locale.change'; locale: Locale };

export type LocaleEmitted = ToastEvent;

export const localeMachine = setup({
  types: {
    input: {} as LocaleInput,
    context: {} as LocaleContext,
    events: {} as LocaleEvent,
    emitted: {} as LocaleEmitted,
  },
  actors: { loadLocale },
  actions: {
    assignRequested: assign(({ event }) => {
      assertEvent(event, 'locale.change');
      return { requested: event.locale };
    }),
    assignLocale: assign((_, params: { locale: Locale }) => ({ locale: params.locale, requested: null })),
    clearRequested: assign({ requested: null }),
    // es-CL.json has no locale-specific failure text; the generic request error fits.
    toastLoadFailed: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
  },
  guards: {
    isOtherLocale: ({ context, event }) => event.locale !== context.locale,
    // At start-up (`requested: null`) the cookie's choice is unknown, so any explicit choice counts.
    isNewRequest: ({ context, event }) => event.locale !== context.requested,
  },
}).createMachine({
  id: 'locale',
  initial: 'loading',
  context: ({ input }) => ({ locale: DEFAULT_LOCALE, requested: input?.locale ?? null }),
  states: {
    loading: {
      invoke: {
        id: 'loadLocale',
        src: 'loadLocale',
        input: ({ context }) => ({ locale: context.requested }),
        onDone: { target: 'ready', actions: { type: 'assignLocale', params: ({ event }) => ({ locale: event.output }) } },
        onError: { target: 'ready', actions: ['clearRequested', 'toastLoadFailed'] },
      },
      on: {
        // The newer choice wins: re-entering restarts (and so cancels) the load in flight.
        'locale.change': { guard: 'isNewRequest', target: 'loading', reenter: true, actions: 'assignRequested' },
      },
    },
    ready: {
      on: {
        'locale.change': { guard: 'isOtherLocale', target: 'loading', actions: 'assignRequested' },
      },
    },
  },
});

export type LocaleSnapshot = SnapshotFrom<typeof localeMachine>;

export const selectLocale = (snapshot: LocaleSnapshot): Locale => snapshot.context.locale;
export const selectIsLocaleLoading = (snapshot: LocaleSnapshot): boolean => snapshot.matches('loading');
