// /settings/sso: the school's OpenID provider for «Ingresar con Google / Microsoft» (docs/decisions/0175).
// Loads the settings, edits them (kind, issuer, client id, a new client secret, allowed domain, on/off) and
// saves them with one `PUT /sso/settings`. The secret is never shown: the form says whether one is stored,
// and its field stays empty unless the administrator types a new one (empty keeps the stored one). A 422's
// Spanish field errors land on their fields; any other failure keeps everything typed and says so.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { SsoProvider, SsoSettings, SsoSettingsInput } from '../../../shared/sso-contract';
import { toApiFailure } from '../../services/http/client';
import { fetchSsoSettings, saveSsoSettings } from '../../services/settings/sso';
import type { Effect } from '../app/effects';

/** The text fields of the form. */
export type SsoField = 'issuer' | 'client_id' | 'client_secret' | 'domain';

interface SsoForm {
  provider: SsoProvider;
  issuer: string;
  client_id: string;
  client_secret: string;
  domain: string;
  enabled: boolean;
}

export interface SettingsSsoContext {
  /** The settings as the server last answered. */
  saved: SsoSettings | null;
  form: SsoForm;
  /** The server's Spanish errors by field (a 422), until that field is edited. */
  errors: Partial<Record<keyof SsoForm, string>>;
  /** The last save failed for another reason than the fields. */
  failed: boolean;
}

export type SettingsSsoEvent =
  | { type: 'sso.edit'; field: SsoField; value: string }
  | { type: 'sso.provider'; provider: SsoProvider }
  | { type: 'sso.toggle'; enabled: boolean }
  | { type: 'sso.save' }
  | { type: 'sso.retry' };

const EMPTY_FORM: SsoForm = { provider: 'google', issuer: '', client_id: '', client_secret: '', domain: '', enabled: false };

const formOf = (saved: SsoSettings): SsoForm => ({
  provider: saved.provider,
  issuer: saved.issuer,
  client_id: saved.client_id,
  client_secret: '',
  domain: saved.domain,
  enabled: saved.enabled,
});

/** What a save sends: the secret only when one was typed (absent keeps the stored one). */
function saveInputOf(form: SsoForm): SsoSettingsInput {
  const { client_secret, ...rest } = form;
  return client_secret.trim() === '' ? rest : { ...rest, client_secret };
}

/** The first message per field of a 422 (other failures: none). */
function fieldErrorsOf(error: unknown): SettingsSsoContext['errors'] | null {
  const failure = toApiFailure(error);
  if (failure.status !== 422) return null;
  return Object.fromEntries(Object.entries(failure.fieldErrors).map(([field, messages]) => [field, messages[0] ?? '']));
}

export const settingsSsoMachine = setup({
  types: {
    context: {} as SettingsSsoContext,
    events: {} as SettingsSsoEvent,
    emitted: {} as Effect,
  },
  actors: { fetchSsoSettings, saveSsoSettings },
  actions: {
    toastSaved: emit({ type: 'toast', kind: 'success', key: 'ssoSettings.toast.saved' }),
  },
}).createMachine({
  id: 'settingsSso',
  context: { saved: null, form: EMPTY_FORM, errors: {}, failed: false },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchSsoSettings',
        src: 'fetchSsoSettings',
        onDone: { target: 'editing', actions: assign(({ event }) => ({ saved: event.output, form: formOf(event.output), errors: {} })) },
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: {
      on: { 'sso.retry': { target: 'loading' } },
    },
    editing: {
      on: {
        'sso.edit': {
          actions: assign(({ context, event }) => ({
            form: { ...context.form, [event.field]: event.value },
            errors: { ...context.errors, [event.field]: undefined },
          })),
        },
        'sso.provider': {
          actions: assign(({ context, event }) => ({ form: { ...context.form, provider: event.provider } })),
        },
        'sso.toggle': {
          actions: assign(({ context, event }) => ({ form: { ...context.form, enabled: event.enabled } })),
        },
        'sso.save': { target: 'saving' },
      },
    },
    saving: {
      tags: ['busy'],
      entry: assign({ failed: false }),
      invoke: {
        id: 'saveSsoSettings',
        src: 'saveSsoSettings',
        input: ({ context }) => saveInputOf(context.form),
        onDone: {
          target: 'editing',
          actions: [assign(({ event }) => ({ saved: event.output, form: formOf(event.output), errors: {} })), 'toastSaved'],
        },
        // A 422 puts its messages on their fields; anything else keeps the form and says the save failed.
        onError: {
          target: 'editing',
          actions: assign(({ event }) => {
            const errors = fieldErrorsOf(event.error);
            return { errors: errors ?? {}, failed: errors === null };
          }),
        },
      },
    },
  },
});

export type SettingsSsoActor = ActorRefFrom<typeof settingsSsoMachine>;
export type SettingsSsoSnapshot = SnapshotFrom<typeof settingsSsoMachine>;

export const selectLoading = (s: SettingsSsoSnapshot): boolean => s.matches('loading');
export const selectLoadFailed = (s: SettingsSsoSnapshot): boolean => s.matches('loadFailed');
export const selectSaving = (s: SettingsSsoSnapshot): boolean => s.matches('saving');
export const selectFailed = (s: SettingsSsoSnapshot): boolean => s.context.failed;
export const selectProvider = (s: SettingsSsoSnapshot): SsoProvider => s.context.form.provider;
export const selectEnabled = (s: SettingsSsoSnapshot): boolean => s.context.form.enabled;
export const selectHasSecret = (s: SettingsSsoSnapshot): boolean => s.context.saved?.has_secret ?? false;
export const selectRedirectUri = (s: SettingsSsoSnapshot): string => s.context.saved?.redirect_uri ?? '';
export const selectValue =
  (field: SsoField) =>
  (s: SettingsSsoSnapshot): string =>
    s.context.form[field];
export const selectError =
  (field: keyof SsoForm) =>
  (s: SettingsSsoSnapshot): string | null =>
    s.context.errors[field] ?? null;
