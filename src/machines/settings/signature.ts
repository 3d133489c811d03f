// /settings/message-signature (SPEC §3 "Signature", §5, §7, §8): loads the school's signature,
// edits its text (3–4 characters, the server's own rule and Spanish texts from shared/signature-rules.ts,
// checked live and again on save) and whether it is active, and saves both with one
// `PATCH /institutions-signatures/{id}` (`is_active` as 1 or 0). SPEC §8's toasts are emitted; a failed save
// keeps everything typed and the signature in use (`saved`) as it was; a 422's text lands on the field.
// A school with no signature row has nothing to update ("an update without an id does nothing", SPEC §5):
// the machine stays in `missing` and never sends a PATCH. Leaving with unsaved changes asks first
// («¿Descartar los cambios?»), through the root's `page.leave` as compose does (app/pages.ts); a save
// running when the user clicks away finishes first. Compose reads the signature afresh each time it opens
// (services/compose/compose.ts `loadSetup`), so a saved change reaches its counter and estimate without more.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Signature } from '../../../shared/signature-contract';
import { signatureError, signatureLength, signatureText } from '../../../shared/signature-rules';
import { SIGNATURE_DISCOUNT, smsText, SMS_SEGMENT_UNITS, withSignature } from '../../../shared/sms-text';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { fetchSignature, saveSignature, type SaveSignatureInput } from '../../services/settings/signatures';
import { leaveRequestOf, navigateOf, type Effect, type LeaveRequest, type PageLeaveEvent } from '../app/effects';

export const SIGNATURE_FIELD_ID = 'signature-text';
export const SIGNATURE_KEEP_EDITING_ID = 'signature-keep-editing';

export interface SettingsSignatureContext {
  /** The signature in use, as the server last answered (null: the school has none). */
  saved: Signature | null;
  /** The form: the text as typed and the switch. */
  text: string;
  active: boolean;
  /** The field's Spanish error (the shared rule's, live, or the server's 422), or null. */
  error: string | null;
  /** The last save failed for another reason than the text (network, server): said beside the button. */
  failed: boolean;
  /** A navigation held while the user is asked (or while a save finishes). */
  leaving: LeaveRequest | null;
}

export type SettingsSignatureEvent =
  | { type: 'signature.change'; value: string }
  | { type: 'signature.toggle'; active: boolean }
  | { type: 'signature.save' }
  | { type: 'signature.reset' }
  | { type: 'signature.retry' }
  | { type: 'signature.discard' }
  | { type: 'signature.stay' }
  | PageLeaveEvent;

/** What a save sends: the text as the server keeps it, `is_active` as 1 or 0 (SPEC §7). */
export function saveInputOf(context: Pick<SettingsSignatureContext, 'saved' | 'text' | 'active'>): SaveSignatureInput {
  return { id: context.saved?.id ?? 0, signature: signatureText(context.text), is_active: context.active ? 1 : 0 };
}

/** The form differs from the signature in use (the text compared as a save would send it). */
export const hasChanges = (context: Pick<SettingsSignatureContext, 'saved' | 'text' | 'active'>): boolean =>
  context.saved !== null && (signatureText(context.text) !== context.saved.signature || context.active !== context.saved.is_active);

/** The 422's text for the signature, or null (another failure, said beside the button instead). */
function refusedText(failure: ApiFailure): string | null {
  return failure.status === 422 ? (failure.fieldErrors.signature?.[0] ?? null) : null;
}

const formOf = (saved: Signature) => ({ saved, text: saved.signature, active: saved.is_active, error: null, failed: false });

export const settingsSignatureMachine = setup({
  types: {
    context: {} as SettingsSignatureContext,
    events: {} as SettingsSignatureEvent,
    emitted: {} as Effect,
  },
  actors: { fetchSignature, saveSignature },
  actions: {
    assignLoaded: assign((_, saved: Signature | null) => (saved ? formOf(saved) : { saved: null })),
    assignSaved: assign((_, saved: Signature) => formOf(saved)),
    change: assign(({ event }) => {
      assertEvent(event, 'signature.change');
      return { text: event.value, error: signatureError(event.value), failed: false };
    }),
    // The field's error is the shared rule's again (a server refusal of the text is no longer current).
    toggle: assign(({ context, event }) => {
      assertEvent(event, 'signature.toggle');
      return { active: event.active, error: signatureError(context.text), failed: false };
    }),
    reset: assign(({ context }) => (context.saved ? formOf(context.saved) : {})),
    showError: assign(({ context }) => ({ error: signatureError(context.text) })),
    assignRefusal: assign((_, failure: ApiFailure) => {
      const text = refusedText(failure);
      return { error: text, failed: text === null };
    }),
    markFailed: assign({ failed: true }),
    clearFailure: assign({ failed: false }),
    keepLeave: assign(({ event }) => {
      assertEvent(event, 'page.leave');
      return { leaving: leaveRequestOf(event) };
    }),
    forgetLeave: assign({ leaving: null }),
    leave: emit(({ context }) => navigateOf(context.leaving, '/')),
    toastSaved: emit({ type: 'toast', kind: 'success', key: 'signature.toast.saved' }),
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'signature.toast.failed' }),
    focusField: emit({ type: 'focus', target: SIGNATURE_FIELD_ID }),
    focusKeepEditing: emit({ type: 'focus', target: SIGNATURE_KEEP_EDITING_ID }),
  },
  guards: {
    hasSignature: (_, saved: Signature | null) => saved !== null,
    isInvalid: ({ context }) => signatureError(context.text) !== null,
    hasChanges: ({ context }) => hasChanges(context),
    isLeaving: ({ context }) => context.leaving !== null,
    isTextRefused: (_, failure: ApiFailure) => refusedText(failure) !== null,
  },
}).createMachine({
  id: 'settingsSignature',
  initial: 'loading',
  context: { saved: null, text: '', active: false, error: null, failed: false, leaving: null },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchSignature',
        src: 'fetchSignature',
        onDone: [
          {
            guard: { type: 'hasSignature', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'assignLoaded', params: ({ event }) => event.output },
          },
          { target: 'missing', actions: { type: 'assignLoaded', params: ({ event }) => event.output } },
        ],
        onError: { target: 'loadFailed' },
      },
    },
    // Not read (network, server): said, with Reintentar.
    loadFailed: { on: { 'signature.retry': { target: 'loading' } } },
    // The school has no signature row: nothing to edit, and no PATCH without an id (SPEC §5).
    missing: { on: { 'signature.retry': { target: 'loading' } } },
    editing: {
      on: {
        'signature.change': { actions: 'change' },
        'signature.toggle': { actions: 'toggle' },
        'signature.save': [
          // Refused here with the server's own text: nothing leaves the browser.
          { guard: 'isInvalid', actions: ['showError', 'focusField'] },
          { guard: 'hasChanges', target: 'saving', actions: 'clearFailure' },
        ],
        'signature.reset': { guard: 'hasChanges', actions: 'reset' },
        'page.leave': { guard: 'hasChanges', target: 'confirmingLeave', actions: ['keepLeave', 'focusKeepEditing'] },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveSignature',
        src: 'saveSignature',
        input: ({ context }) => saveInputOf(context),
        onDone: [
          {
            guard: 'isLeaving',
            target: 'left',
            actions: [{ type: 'assignSaved', params: ({ event }) => event.output }, 'toastSaved', 'leave'],
          },
          { target: 'editing', actions: [{ type: 'assignSaved', params: ({ event }) => event.output }, 'toastSaved'] },
        ],
        onError: [
          // The server refused the text: its words on the field, the navigation dropped (there is something to fix).
          {
            guard: { type: 'isTextRefused', params: ({ event }) => toApiFailure(event.error) },
            target: 'editing',
            actions: [
              { type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) },
              'toastFailed',
              'focusField',
              'forgetLeave',
            ],
          },
          // Not saved: the signature in use is unchanged, everything typed stays; a held navigation asks.
          {
            guard: 'isLeaving',
            target: 'confirmingLeave',
            actions: [{ type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) }, 'toastFailed', 'focusKeepEditing'],
          },
          { target: 'editing', actions: [{ type: 'assignRefusal', params: ({ event }) => toApiFailure(event.error) }, 'toastFailed'] },
        ],
      },
      on: { 'page.leave': { actions: 'keepLeave' } },
    },
    // «¿Descartar los cambios?»: Descartar lets the navigation through, Seguir editando drops it.
    confirmingLeave: {
      on: {
        'signature.discard': { target: 'left', actions: 'leave' },
        'signature.stay': { target: 'editing', actions: ['forgetLeave', 'focusField'] },
        'page.leave': { actions: 'keepLeave' },
      },
    },
    left: { type: 'final' },
  },
});

export type SettingsSignatureActor = ActorRefFrom<typeof settingsSignatureMachine>;
export type SettingsSignatureSnapshot = SnapshotFrom<typeof settingsSignatureMachine>;

/** The signature that would close messages as the form stands: its text when active and valid, else null. */
export function previewSignature(context: Pick<SettingsSignatureContext, 'text' | 'active'>): string | null {
  return context.active && signatureError(context.text) === null ? signatureText(context.text) : null;
}

/**
 * How a message ends with `signature`, by the rules compose, send and delivery use (shared/sms-text.ts):
 * the SMS as handed to the provider, the e-mail as written, and what one SMS leaves for the text.
 */
export function signaturePreview(content: string, signature: string | null): { sms: string; email: string; limit: number; cost: number } {
  const sms = smsText(content, signature);
  return { sms: sms.text, email: withSignature(content, signature), limit: sms.limit, cost: SMS_SEGMENT_UNITS - sms.limit };
}

/**
 * Units one SMS leaves for the text as the form stands: all 160 while the switch is off; else what the
 * typed signature takes by the shared rule, or SPEC's 6 while the text is not a valid signature yet.
 */
export function smsLimitOf(context: Pick<SettingsSignatureContext, 'text' | 'active'>): number {
  if (!context.active) return SMS_SEGMENT_UNITS;
  const signature = previewSignature(context);
  return signature === null ? SMS_SEGMENT_UNITS - SIGNATURE_DISCOUNT : smsText('', signature).limit;
}

/** Characters the signature takes from each SMS as the form stands: none while the switch is off. */
export function smsCostOf(context: Pick<SettingsSignatureContext, 'text' | 'active'>): number {
  return context.active ? SMS_SEGMENT_UNITS - smsLimitOf(context) : 0;
}

export const selectLoading = (s: SettingsSignatureSnapshot): boolean => s.matches('loading');
export const selectLoadFailed = (s: SettingsSignatureSnapshot): boolean => s.matches('loadFailed');
export const selectMissing = (s: SettingsSignatureSnapshot): boolean => s.matches('missing');
export const selectSaving = (s: SettingsSignatureSnapshot): boolean => s.matches('saving');
export const selectConfirmingLeave = (s: SettingsSignatureSnapshot): boolean => s.matches('confirmingLeave');
export const selectText = (s: SettingsSignatureSnapshot): string => s.context.text;
export const selectActive = (s: SettingsSignatureSnapshot): boolean => s.context.active;
export const selectError = (s: SettingsSignatureSnapshot): string | null => s.context.error;
export const selectFailed = (s: SettingsSignatureSnapshot): boolean => s.context.failed;
export const selectSavedText = (s: SettingsSignatureSnapshot): string => s.context.saved?.signature ?? '';
export const selectSavedActive = (s: SettingsSignatureSnapshot): boolean => s.context.saved?.is_active === true;
export const selectHasChanges = (s: SettingsSignatureSnapshot): boolean => hasChanges(s.context);
export const selectSmsLimit = (s: SettingsSignatureSnapshot): number => smsLimitOf(s.context);
/** The typed text's length as the rule counts it ("3 de 4 caracteres"). */
export const selectTextLength = (s: SettingsSignatureSnapshot): number => signatureLength(s.context.text);
/** "La firma usa 6 caracteres de cada SMS": what it takes (0 while off); `selectSmsLimit` is what is left. */
export const selectSmsCost = (s: SettingsSignatureSnapshot): number => smsCostOf(s.context);
/** `sample` (the screen's sample text) as an SMS ends with the form's signature, as handed to the provider. */
export const selectPreviewSms = (s: SettingsSignatureSnapshot, sample: string): string =>
  signaturePreview(sample, previewSignature(s.context)).sms;
/** `sample` as an e-mail ends with the form's signature. */
export const selectPreviewEmail = (s: SettingsSignatureSnapshot, sample: string): string =>
  signaturePreview(sample, previewSignature(s.context)).email;
