// /settings/school: the school's name, country, time zone, locale, home link and support chat
// (shared/school-contract.ts). Loads them, edits a form (a new country brings its capital's zone and its
// Spanish unless the zone in use is one of that country's; the support chat only where the school's
// country is Chile), and saves the form with one `PATCH /school`. A refusal puts the server's Spanish text
// on each field it names and keeps everything typed; the saved settings stay as the server last answered.
// Beside the form, and independent of it (typing goes on during an upload), the logo of the school's e-mails
// and printed pages: uploaded or replaced from a chosen file (PNG or JPEG up to 512 kB, checked here first so
// a wrong file never travels, and by its content on the server), or removed.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  type SchoolLogo,
  type SchoolSettings,
  type SchoolSettingsInput,
} from '../../../shared/school-contract';
import { COUNTRY_DEFAULTS, COUNTRY_TIMEZONES, isCountry, isSchoolLocale } from '../../../shared/school-rules';
import { type ApiFailure, toApiFailure } from '../../services/http/client';
import { fetchSchool, removeLogo, saveSchool, uploadLogo } from '../../services/settings/school';
import type { Effect } from '../app/effects';

export const SCHOOL_FIELDS = ['name', 'country', 'timezone', 'locale', 'home_url'] as const;
export type SchoolField = (typeof SCHOOL_FIELDS)[number];

/** The logo's file chooser (an input inside its button-like label). */
export const LOGO_CHOOSER_ID = 'school-logo-file';

export const schoolFieldId = (field: SchoolField | 'chat_enabled'): string => `school-${field.replace('_', '-')}`;

export interface SchoolForm extends Record<SchoolField, string> {
  chat_enabled: boolean;
}

export interface SettingsSchoolContext {
  saved: SchoolSettings | null;
  form: SchoolForm;
  errors: Partial<Record<SchoolField | 'chat_enabled', string>>;
  /** The last save failed without naming a field (network, server): said beside the button. */
  failed: boolean;
  /** Why the last logo file was refused: the server's Spanish text, or a problem told before sending it. */
  logoError: { text: string } | { problem: LogoProblem } | null;
}

/** A chosen file's problem told before it is sent (the server checks its content again). */
export type LogoProblem = 'tooLarge' | 'svg' | 'type' | 'failed';

export type SettingsSchoolEvent =
  | { type: 'school.change'; field: SchoolField; value: string }
  | { type: 'school.chat'; enabled: boolean }
  | { type: 'school.save' }
  | { type: 'school.reset' }
  | { type: 'school.retry' }
  | { type: 'logo.upload'; file: File }
  | { type: 'logo.remove' };

const EMPTY_FORM: SchoolForm = { name: '', country: 'CL', timezone: '', locale: 'es-CL', home_url: '', chat_enabled: false };

const formOf = (saved: SchoolSettings): SchoolForm => ({
  name: saved.name,
  country: saved.country,
  timezone: saved.timezone,
  locale: saved.locale,
  home_url: saved.home_url,
  chat_enabled: saved.chat_enabled,
});

/** The support chat exists for Chilean schools only (SPEC `isChatEnabled`, domain cl). */
export const isChatAvailable = (form: SchoolForm): boolean => form.country === 'CL';

/** The form differs from the settings in use. */
export function hasChanges(context: Pick<SettingsSchoolContext, 'saved' | 'form'>): boolean {
  if (!context.saved) return false;
  const saved = formOf(context.saved);
  return (Object.keys(saved) as (keyof SchoolForm)[]).some((key) => saved[key] !== context.form[key]);
}

/** What a save sends: the whole form, as the server checks it whole. */
export function saveInputOf(form: SchoolForm): SchoolSettingsInput {
  return {
    name: form.name,
    ...(isCountry(form.country) ? { country: form.country } : {}),
    timezone: form.timezone,
    ...(isSchoolLocale(form.locale) ? { locale: form.locale } : {}),
    home_url: form.home_url,
    chat_enabled: isChatAvailable(form) && form.chat_enabled,
  };
}

/** What is wrong with a chosen file by its declared type and size (its content is the server's to check). */
export function logoFileProblem(file: { type: string; size: number }): LogoProblem | null {
  if (file.type === 'image/svg+xml') return 'svg';
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > LOGO_MAX_BYTES) return 'tooLarge';
  return null;
}

/** A refused upload's text (413, 415, 422 name the file's problem); anything else is a failure to retry. */
function logoErrorOf(failure: ApiFailure): SettingsSchoolContext['logoError'] {
  const text = failure.fieldErrors.file?.[0];
  return text && [413, 415, 422].includes(failure.status) ? { text } : { problem: 'failed' };
}

function refusalOf(failure: ApiFailure): SettingsSchoolContext['errors'] {
  const errors: SettingsSchoolContext['errors'] = {};
  if (failure.status !== 422) return errors;
  for (const field of [...SCHOOL_FIELDS, 'chat_enabled'] as const) {
    const message = failure.fieldErrors[field]?.[0];
    if (message) errors[field] = message;
  }
  return errors;
}

export const settingsSchoolMachine = setup({
  types: { context: {} as SettingsSchoolContext, events: {} as SettingsSchoolEvent, emitted: {} as Effect },
  actors: { fetchSchool, saveSchool, uploadLogo, removeLogo },
  actions: {
    assignSaved: assign((_, saved: SchoolSettings) => ({ saved, form: formOf(saved), errors: {}, failed: false })),
    change: assign(({ context, event }) => {
      assertEvent(event, 'school.change');
      const form = { ...context.form, [event.field]: event.value };
      const country = event.value;
      if (event.field === 'country' && isCountry(country)) {
        if (!COUNTRY_TIMEZONES[country].includes(form.timezone)) form.timezone = COUNTRY_DEFAULTS[country].timezone;
        form.locale = COUNTRY_DEFAULTS[country].locale;
      }
      const { [event.field]: _fixed, ...errors } = context.errors;
      return { form, errors, failed: false };
    }),
    chat: assign(({ context, event }) => {
      assertEvent(event, 'school.chat');
      const { chat_enabled: _fixed, ...errors } = context.errors;
      return { form: { ...context.form, chat_enabled: event.enabled }, errors, failed: false };
    }),
    reset: assign(({ context }) => (context.saved ? { form: formOf(context.saved), errors: {}, failed: false } : {})),
    clearProblems: assign({ errors: {}, failed: false }),
    assignRefusal: assign((_, failure: ApiFailure) => {
      const errors = refusalOf(failure);
      return { errors, failed: Object.keys(errors).length === 0 };
    }),
    assignLogo: assign(({ context }, logo: SchoolLogo | null) => ({ saved: context.saved && { ...context.saved, logo }, logoError: null })),
    refuseFile: assign(({ event }) => {
      assertEvent(event, 'logo.upload');
      const problem = logoFileProblem(event.file);
      return { logoError: problem ? { problem } : null };
    }),
    clearLogoError: assign({ logoError: null }),
    assignLogoError: assign((_, failure: ApiFailure) => ({ logoError: logoErrorOf(failure) })),
    toastLogoSaved: emit({ type: 'toast', kind: 'success', key: 'school.toast.logoSaved' }),
    toastLogoRemoved: emit({ type: 'toast', kind: 'success', key: 'school.toast.logoRemoved' }),
    // «Quitar logo» goes with the logo: the keyboard goes on from the file chooser instead of the page's top.
    focusLogoChooser: emit({ type: 'focus', target: LOGO_CHOOSER_ID }),
    toastLogoFailed: emit({ type: 'toast', kind: 'error', key: 'school.toast.logoFailed' }),
    toastSaved: emit({ type: 'toast', kind: 'success', key: 'school.toast.saved' }),
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'school.toast.failed' }),
    focusFirstError: emit(({ context }) => ({
      type: 'focus' as const,
      target: schoolFieldId([...SCHOOL_FIELDS, 'chat_enabled' as const].find((field) => context.errors[field] !== undefined) ?? 'name'),
    })),
  },
  guards: {
    hasChanges: ({ context }) => hasChanges(context),
    isFieldRefusal: (_, failure: ApiFailure) => Object.keys(refusalOf(failure)).length > 0,
    isFileRefused: ({ event }) => event.type === 'logo.upload' && logoFileProblem(event.file) !== null,
    hasLogo: ({ context }) => Boolean(context.saved?.logo),
  },
}).createMachine({
  id: 'settingsSchool',
  initial: 'loading',
  context: { saved: null, form: EMPTY_FORM, errors: {}, failed: false, logoError: null },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchSchool',
        src: 'fetchSchool',
        onDone: { target: 'ready', actions: { type: 'assignSaved', params: ({ event }) => event.output } },
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: { on: { 'school.retry': { target: 'loading' } } },
    ready: {
      type: 'parallel',
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'school.change': { actions: 'change' },
                'school.chat': { actions: 'chat' },
                'school.save': { guard: 'hasChanges', target: 'saving', actions: 'clearProblems' },
                'school.reset': { guard: 'hasChanges', actions: 'reset' },
              },
            },
            saving: {
              tags: 'busy',
              invoke: {
                id: 'saveSchool',
                src: 'saveSchool',
                input: ({ context }) => saveInputOf(context.form),
                onDone: { target: 'editing', actions: [{ type: 'assignSaved', params: ({ event }) => event.output }, 'toastSaved'] },
                onError: [
                  {
                    guard: { type: 'isFieldRefusal', params: ({ event }) => toApiFailure(event.error) },
                    target: 'editing',
                    actions: [
                      { type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) },
                      'toastFailed',
                      'focusFirstError',
                    ],
                  },
                  {
                    target: 'editing',
                    actions: [{ type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) }, 'toastFailed'],
                  },
                ],
              },
            },
          },
        },
        logo: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'logo.upload': [
                  { guard: 'isFileRefused', actions: 'refuseFile' },
                  { target: 'uploading', actions: 'clearLogoError' },
                ],
                'logo.remove': { guard: 'hasLogo', target: 'removing', actions: 'clearLogoError' },
              },
            },
            uploading: {
              tags: 'busy',
              invoke: {
                id: 'uploadLogo',
                src: 'uploadLogo',
                input: ({ event }) => {
                  assertEvent(event, 'logo.upload');
                  return { file: event.file };
                },
                onDone: { target: 'idle', actions: [{ type: 'assignLogo', params: ({ event }) => event.output }, 'toastLogoSaved'] },
                onError: {
                  target: 'idle',
                  actions: [{ type: 'assignLogoError', params: ({ event }) => toApiFailure(event.error) }, 'toastLogoFailed'],
                },
              },
            },
            removing: {
              tags: 'busy',
              invoke: {
                id: 'removeLogo',
                src: 'removeLogo',
                onDone: { target: 'idle', actions: [{ type: 'assignLogo', params: () => null }, 'toastLogoRemoved', 'focusLogoChooser'] },
                onError: {
                  target: 'idle',
                  actions: [{ type: 'assignLogoError', params: ({ event }) => toApiFailure(event.error) }, 'toastLogoFailed'],
                },
              },
            },
          },
        },
      },
    },
  },
});

export type SettingsSchoolActor = ActorRefFrom<typeof settingsSchoolMachine>;
export type SettingsSchoolSnapshot = SnapshotFrom<typeof settingsSchoolMachine>;

export const selectLoading = (s: SettingsSchoolSnapshot): boolean => s.matches('loading');
export const selectLoadFailed = (s: SettingsSchoolSnapshot): boolean => s.matches('loadFailed');
export const selectSaving = (s: SettingsSchoolSnapshot): boolean => s.matches({ ready: { form: 'saving' } });
export const selectFailed = (s: SettingsSchoolSnapshot): boolean => s.context.failed;
export const selectHasChanges = (s: SettingsSchoolSnapshot): boolean => hasChanges(s.context);
export const selectValue = (s: SettingsSchoolSnapshot, field: SchoolField): string => s.context.form[field];
export const selectFieldError = (s: SettingsSchoolSnapshot, field: SchoolField | 'chat_enabled'): string | null =>
  s.context.errors[field] ?? null;
export const selectChatEnabled = (s: SettingsSchoolSnapshot): boolean => isChatAvailable(s.context.form) && s.context.form.chat_enabled;
export const selectChatAvailable = (s: SettingsSchoolSnapshot): boolean => isChatAvailable(s.context.form);
/** The school's logo as the server last answered (a reference the context keeps), or null without one. */
export const selectLogo = (s: SettingsSchoolSnapshot): SchoolLogo | null => s.context.saved?.logo ?? null;
export const selectUploadingLogo = (s: SettingsSchoolSnapshot): boolean => s.matches({ ready: { logo: 'uploading' } });
export const selectRemovingLogo = (s: SettingsSchoolSnapshot): boolean => s.matches({ ready: { logo: 'removing' } });
/** The server's text for a refused file, when it said one. */
export const selectLogoErrorText = (s: SettingsSchoolSnapshot): string | null =>
  s.context.logoError && 'text' in s.context.logoError ? s.context.logoError.text : null;
/** A problem the page words itself (told before sending, or no answer from the server). */
export const selectLogoProblem = (s: SettingsSchoolSnapshot): LogoProblem | null =>
  s.context.logoError && 'problem' in s.context.logoError ? s.context.logoError.problem : null;
