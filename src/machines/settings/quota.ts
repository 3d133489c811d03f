// /settings/message-quota (SPEC §2, §3 "Quota", §8 "limit not updated"): this month's SMS use,
// limit, reserve, alert and projection (`GET /quota/settings`), the form that changes the limit, the
// emergency reserve and the low-quota alert (`PATCH /quota/settings`), and the usage chart, a child
// (settings/quota-usage.ts) that runs beside it. Nothing typed is lost: a refused or failed save keeps the form as
// typed, a 422's texts on their fields and focus on the first; the toasts are emitted, never shown here.
import { assertEvent, assign, emit, raise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchQuotaSettings, saveQuotaSettings } from '../../services/settings/quota';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { QuotaSettings } from '../../../shared/quota-contract';
import type { FocusEvent, ToastEvent } from '../app/effects';
import { childPanelRegion } from '../app/child-panel';
import { quotaUsageMachine, type QuotaUsageActor, type QuotaUsageInput } from './quota-usage';
import {
  draftOf,
  EMPTY_QUOTA_DRAFT,
  firstQuotaError,
  hasQuotaChanges,
  hasQuotaErrors,
  isQuotaValidationFailure,
  QUOTA_FIELD_IDS,
  quotaErrors,
  quotaInputOf,
  serverQuotaErrors,
  type QuotaDraft,
  type QuotaErrors,
  type QuotaField,
} from './quota-rules';

export type SettingsQuotaInput = QuotaUsageInput;

export interface SettingsQuotaContext {
  settings: QuotaSettings | null;
  draft: QuotaDraft;
  errors: QuotaErrors;
  usageInput: QuotaUsageInput;
}

export type SettingsQuotaEvent =
  | { type: 'quota.change'; field: QuotaField; value: string }
  | { type: 'quota.save' }
  | { type: 'quota.retry' }
  | { type: 'quota.restartUsage' }
  /** Raised by a save that succeeded, for the chart's region. */
  | { type: 'quota.saved' };

export type SettingsQuotaEmitted = ToastEvent | FocusEvent;

const NO_ERRORS: QuotaErrors = {};

export const settingsQuotaMachine = setup({
  types: {
    input: {} as SettingsQuotaInput,
    context: {} as SettingsQuotaContext,
    events: {} as SettingsQuotaEvent,
    emitted: {} as SettingsQuotaEmitted,
    children: {} as { usage: 'usage' },
  },
  actors: { fetchSettings: fetchQuotaSettings, saveSettings: saveQuotaSettings, usage: quotaUsageMachine },
  actions: {
    /** The settings as the server answers, and the form as they say (after a load or a save). */
    assignSettings: assign((_, settings: QuotaSettings) => ({ settings, draft: draftOf(settings), errors: NO_ERRORS })),
    change: assign(({ context, event }) => {
      assertEvent(event, 'quota.change');
      const { [event.field]: _fixed, ...errors } = context.errors;
      return { draft: { ...context.draft, [event.field]: event.value }, errors };
    }),
    clearErrors: assign({ errors: NO_ERRORS }),
    showErrors: assign({ errors: ({ context }) => quotaErrors(context.draft, context.settings) }),
    serverErrors: assign((_, failure: ApiFailure) => ({ errors: serverQuotaErrors(failure) })),
    focusFirstError: emit(({ context }) => ({ type: 'focus' as const, target: QUOTA_FIELD_IDS[firstQuotaError(context.errors)] })),
    toastReview: emit({ type: 'toast', kind: 'error', key: 'quota.toast.review' }),
    /** SPEC §8 "limit not updated". */
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'quota.toast.failed' }),
    toastSaved: emit({ type: 'toast', kind: 'success', key: 'quota.toast.saved' }),
    /** A new limit is this month's bar's limit: the chart asks again. */
    reloadUsage: sendTo('usage', { type: 'usage.reload' }),
    announceSaved: raise({ type: 'quota.saved' }),
  },
  guards: {
    hasErrors: ({ context }) => hasQuotaErrors(quotaErrors(context.draft, context.settings)),
    hasChanges: ({ context }) => hasQuotaChanges(context.draft, context.settings),
    isValidationFailure: (_, failure: ApiFailure) => isQuotaValidationFailure(failure),
  },
}).createMachine({
  id: 'settingsQuota',
  type: 'parallel',
  context: ({ input }) => ({ settings: null, draft: EMPTY_QUOTA_DRAFT, errors: NO_ERRORS, usageInput: { ...input } }),
  states: {
    settings: {
      initial: 'loading',
      states: {
        loading: {
          tags: 'busy',
          invoke: {
            id: 'fetchSettings',
            src: 'fetchSettings',
            onDone: { target: 'ready', actions: { type: 'assignSettings', params: ({ event }) => event.output } },
            onError: { target: 'failed' },
          },
        },
        // Nothing to show but the failure and Reintentar.
        failed: {
          on: { 'quota.retry': { target: 'loading' } },
        },
        ready: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'quota.change': { actions: 'change' },
                // Something to fix: say where; valid and changed: send what changed; else nothing to save.
                'quota.save': [
                  { guard: 'hasErrors', actions: ['showErrors', 'toastReview', 'focusFirstError'] },
                  { guard: 'hasChanges', target: 'saving' },
                ],
              },
            },
            saving: {
              tags: 'busy',
              // A new save forgets the last refusal's texts (a 500 after a 422 would leave them standing).
              entry: 'clearErrors',
              invoke: {
                id: 'saveSettings',
                src: 'saveSettings',
                input: ({ context }) => quotaInputOf(context.draft, context.settings),
                onDone: {
                  target: 'idle',
                  actions: [{ type: 'assignSettings', params: ({ event }) => event.output }, 'toastSaved', 'announceSaved'],
                },
                // Refused or failed: the form keeps what was typed; a 422 puts its texts on the fields.
                onError: [
                  {
                    guard: { type: 'isValidationFailure', params: ({ event }) => toApiFailure(event.error) },
                    target: 'idle',
                    actions: [{ type: 'serverErrors', params: ({ event }) => toApiFailure(event.error) }, 'toastFailed', 'focusFirstError'],
                  },
                  { target: 'idle', actions: 'toastFailed' },
                ],
              },
            },
          },
        },
      },
    },
    // A saved limit is this month's bar's limit: the chart asks again (a crashed chart has no one to
    // tell, and starts afresh when restarted).
    usage: childPanelRegion<SettingsQuotaContext, SettingsQuotaEvent>()(
      'usage',
      ({ context }) => context.usageInput,
      'quota.restartUsage',
      {
        'quota.saved': { actions: 'reloadUsage' },
      },
    ),
  },
});

export type SettingsQuotaSnapshot = SnapshotFrom<typeof settingsQuotaMachine>;
export type SettingsQuotaActor = ActorRefFrom<typeof settingsQuotaMachine>;

// Selectors: primitives, or references that keep their identity until their value changes.
export const selectSettings = (s: SettingsQuotaSnapshot): QuotaSettings | null => s.context.settings;
export const selectLoading = (s: SettingsQuotaSnapshot): boolean => s.matches({ settings: 'loading' });
export const selectFailed = (s: SettingsQuotaSnapshot): boolean => s.matches({ settings: 'failed' });
export const selectSaving = (s: SettingsQuotaSnapshot): boolean => s.matches({ settings: { ready: 'saving' } });
export const selectCanSave = (s: SettingsQuotaSnapshot): boolean => s.can({ type: 'quota.save' });
export const selectDraftValue =
  (field: QuotaField) =>
  (s: SettingsQuotaSnapshot): string =>
    s.context.draft[field];
export const selectFieldError = (field: QuotaField) => (s: SettingsQuotaSnapshot) => s.context.errors[field];
export const selectUsageActor = (s: SettingsQuotaSnapshot): QuotaUsageActor | undefined => s.children.usage;
export const selectUsageCrashed = (s: SettingsQuotaSnapshot): boolean => s.matches({ usage: 'crashed' });
