// /setup, the first start (shared/setup-contract.ts): asks the server whether the install still needs its
// first school; then the form (the setup code from the server's log, the school, its first administrator)
// and one `POST /setup`. The country fills in its time zone and locale (still editable). A refusal puts
// the server's Spanish text on each field it names and keeps everything typed; success signs the
// administrator in: the session signs in with what they typed, as after the login form, and opens the inbox.
import { assertEvent, assign, emit, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { COUNTRY_DEFAULTS, isCountry } from '../../../shared/school-rules';
import type { SetupInput } from '../../../shared/setup-contract';
import { type ApiFailure, toApiFailure } from '../../services/http/client';
import { fetchSetupStatus, submitSetup } from '../../services/setup/setup';
import type { Effect } from '../app/effects';

/** The form's fields, named as the server's field errors name them. */
export const SETUP_FIELDS = [
  'code',
  'school.name',
  'school.country',
  'school.timezone',
  'school.locale',
  'school.homeUrl',
  'admin.name',
  'admin.email',
  'admin.password',
] as const;
export type SetupField = (typeof SETUP_FIELDS)[number];

/** The DOM id of a field's control (`school.homeUrl` → `setup-school-homeUrl`). */
export const setupFieldId = (field: SetupField): string => `setup-${field.replace('.', '-')}`;

/** Why a submit failed without naming a field: too many wrong codes, no answer, or the server's fault. */
export type SetupFailure = 'throttled' | 'network' | 'server';

/**
 * The setup's answer already signed the administrator in; the app's session (systemId `session`) learns it
 * by signing in with the same e-mail and password, as the login form does, which also takes them to the
 * inbox. Telling it the answer instead would grow the session machine, which every visit downloads first,
 * for a screen an install uses once.
 */
export const SESSION_SYSTEM_ID = 'session';

export interface SetupContext {
  values: Record<SetupField, string>;
  errors: Partial<Record<SetupField, string>>;
  failure: SetupFailure | null;
}

export type SetupEvent = { type: 'setup.change'; field: SetupField; value: string } | { type: 'setup.submit' } | { type: 'setup.retry' };

const isSetupField = (key: string): key is SetupField => (SETUP_FIELDS as readonly string[]).includes(key);

/** A new school starts as a Chilean one, the product's first market; the country changes both defaults. */
export function initialValues(): Record<SetupField, string> {
  const defaults = COUNTRY_DEFAULTS.CL;
  return {
    code: '',
    'school.name': '',
    'school.country': 'CL',
    'school.timezone': defaults.timezone,
    'school.locale': defaults.locale,
    'school.homeUrl': '',
    'admin.name': '',
    'admin.email': '',
    'admin.password': '',
  };
}

/** The form as the server takes it (the server trims, checks and answers field by field). */
export function setupInputOf(values: Record<SetupField, string>): SetupInput {
  const country = values['school.country'];
  const locale = values['school.locale'];
  return {
    code: values.code,
    school: {
      name: values['school.name'],
      country: isCountry(country) ? country : 'CL',
      timezone: values['school.timezone'],
      locale: locale === 'es-MX' ? 'es-MX' : 'es-CL',
      homeUrl: values['school.homeUrl'],
    },
    admin: { name: values['admin.name'], email: values['admin.email'], password: values['admin.password'] },
  };
}

/** The 422's first text per field of the form. */
export function fieldErrorsOf(failure: ApiFailure): Partial<Record<SetupField, string>> {
  const errors: Partial<Record<SetupField, string>> = {};
  for (const [key, messages] of Object.entries(failure.fieldErrors)) if (isSetupField(key) && messages[0]) errors[key] = messages[0];
  return errors;
}

const failureOf = (failure: ApiFailure): SetupFailure =>
  failure.status === 429 ? 'throttled' : failure.status === 0 ? 'network' : 'server';

export const setupMachine = setup({
  types: {
    context: {} as SetupContext,
    events: {} as SetupEvent,
    emitted: {} as Effect,
  },
  actors: { fetchSetupStatus, submitSetup },
  actions: {
    change: assign(({ context, event }) => {
      assertEvent(event, 'setup.change');
      const values = { ...context.values, [event.field]: event.value };
      const country = event.value;
      // The country's zone and locale, which the user may still change afterwards.
      if (event.field === 'school.country' && isCountry(country)) {
        values['school.timezone'] = COUNTRY_DEFAULTS[country].timezone;
        values['school.locale'] = COUNTRY_DEFAULTS[country].locale;
      }
      const { [event.field]: _fixed, ...errors } = context.errors;
      return { values, errors, failure: null };
    }),
    clearProblems: assign({ errors: {}, failure: null }),
    assignRefusal: assign((_, failure: ApiFailure) => {
      const errors = failure.status === 422 ? fieldErrorsOf(failure) : {};
      return { errors, failure: Object.keys(errors).length > 0 ? null : failureOf(failure) };
    }),
    focusFirstError: emit(({ context }) => ({
      type: 'focus' as const,
      target: setupFieldId(SETUP_FIELDS.find((field) => context.errors[field] !== undefined) ?? 'code'),
    })),
    signIn: sendTo(
      ({ system }) => system.get(SESSION_SYSTEM_ID),
      ({ context }) => ({
        type: 'session.login' as const,
        email: context.values['admin.email'],
        password: context.values['admin.password'],
      }),
    ),
    toastWelcome: emit({ type: 'toast', kind: 'success', key: 'setup.done' }),
  },
  guards: {
    isNeeded: (_, needed: boolean) => needed,
    isDone: (_, failure: ApiFailure) => failure.status === 410,
    isRefused: (_, failure: ApiFailure) => failure.status === 422 && Object.keys(fieldErrorsOf(failure)).length > 0,
  },
}).createMachine({
  id: 'setup',
  initial: 'checking',
  context: { values: initialValues(), errors: {}, failure: null },
  states: {
    checking: {
      tags: 'busy',
      invoke: {
        id: 'fetchSetupStatus',
        src: 'fetchSetupStatus',
        onDone: [{ guard: { type: 'isNeeded', params: ({ event }) => event.output }, target: 'editing' }, { target: 'configured' }],
        onError: { target: 'checkFailed' },
      },
    },
    // Not known (network, server): said, with Reintentar.
    checkFailed: { on: { 'setup.retry': { target: 'checking' } } },
    editing: {
      on: {
        'setup.change': { actions: 'change' },
        'setup.submit': { target: 'submitting', actions: 'clearProblems' },
      },
    },
    submitting: {
      tags: 'busy',
      invoke: {
        id: 'submitSetup',
        src: 'submitSetup',
        input: ({ context }) => setupInputOf(context.values),
        onDone: {
          target: 'finished',
          actions: ['signIn', 'toastWelcome'],
        },
        onError: [
          // Someone else finished the setup meanwhile: nothing left to do here.
          { guard: { type: 'isDone', params: ({ event }) => toApiFailure(event.error) }, target: 'configured' },
          {
            guard: { type: 'isRefused', params: ({ event }) => toApiFailure(event.error) },
            target: 'editing',
            actions: [{ type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) }, 'focusFirstError'],
          },
          { target: 'editing', actions: { type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) } },
        ],
      },
    },
    // The install has its school: the page says so and links to the sign-in. Not final states: a page
    // actor that finished would leave the app root's children while the root still counts it open.
    configured: {},
    // Signed in: the session takes the administrator to the inbox, which closes this page.
    finished: {},
  },
});

export type SetupActor = ActorRefFrom<typeof setupMachine>;
export type SetupSnapshot = SnapshotFrom<typeof setupMachine>;

export const selectChecking = (s: SetupSnapshot): boolean => s.matches('checking');
export const selectCheckFailed = (s: SetupSnapshot): boolean => s.matches('checkFailed');
export const selectConfigured = (s: SetupSnapshot): boolean => s.matches('configured');
export const selectSubmitting = (s: SetupSnapshot): boolean => s.hasTag('busy') && s.matches('submitting');
export const selectFailure = (s: SetupSnapshot): SetupFailure | null => s.context.failure;
export const selectValue = (s: SetupSnapshot, field: SetupField): string => s.context.values[field];
export const selectFieldError = (s: SetupSnapshot, field: SetupField): string | null => s.context.errors[field] ?? null;
export const selectCountry = (s: SetupSnapshot): string => s.context.values['school.country'];
