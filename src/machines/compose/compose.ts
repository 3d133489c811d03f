// Compose at /new (SPEC §1, §5, §8, §9): title, content, channels, recipients, attachments, options and
// schedule; save as draft, send now or schedule. Nothing typed is lost: every change is written to a
// local backup (restored on reload when newer than the draft), and a failed send keeps the form.
//
// Flow: loading → form.editing ⇄ form.savingDraft; compose.send / compose.schedule run the client rules
// in a guard (the "validating" step: failing it stays in editing with per-field errors, a toast and the
// focus on the first invalid field, so no transient state is needed) → estimating (send's rules on the
// server, cost and quota; a refusal → editing with its fields marked, quota problems → editing with
// errors.quota, nobody with an address on the chosen channels → editing with errors.reach and no send
// or schedule offered until the form changes) → confirming (the author sees the cost and confirms) → sending |
// scheduling → sent (final: toast, navigate, counters, backup cleared) or form.failed.
// A send carries an idempotency key made on the first attempt and kept for every retry of the SAME
// message; any edit drops it, so a changed message is a new send. The rules are compose/rules.ts; what
// views read, compose/selectors.ts; the actions and guards, compose/actions.ts; the states from send to
// sent, compose/submit.ts; the draft save and the question before leaving (below), compose/leaving.ts.
//
// Leaving: the app root asks the open page before a navigation the user asked for (`page.leave`,
// see app/app.ts). Compose holds it while the form has unsaved changes (its fingerprint differs from what the
// server has): `form.leaving` asks "Guardar borrador / Descartar / Seguir editando"; saving or discarding
// ends in `left` and lets the navigation through (`navigate`), staying drops it. A form with nothing
// unsaved never gets the question. Once saved, the form's backup moves to its draft's key, so reopening
// the draft from the drafts folder finds what was typed after (it was under "new" before, and lost).
//
// Once the form is shown, compose spawns two children. `picker` (compose/recipient-picker.ts) reports the picks
// confirmed in its dialog; compose tells it when a chip is removed. `attachments` (compose/attachment-list.ts)
// owns the files: compose hands it what its rules allow and keeps the entries it reports, so the rules
// and the backup read compose's own context; its toasts are relayed. The view talks to compose, and to the
// picker for its dialog.
import { and, setup, spawnChild, type SnapshotFrom } from 'xstate';
import type { Estimate, SendResult } from '../../../shared/compose-contract';
import { estimate, fetchComposeStart, saveDraft, scheduleMessage, sendMessage } from '../../services/compose/compose';
import type { ApiFailure } from '../../services/http/client';
import { attachmentListMachine, type AttachmentListReport } from './attachment-list';
import { composeActions, composeGuards, TOAST_REVIEW } from './actions';
import type { FormEdit } from './edit-rules';
import { ASK_BEFORE_LEAVING, leaving, savingDraft } from './leaving';
import { EMPTY_FORM, type ComposeErrors, type ComposeForm, type ComposeIntent } from './rules';
import { attempt, confirming, estimating, scheduling, sending } from './submit';
import { relayEffects, type Effect, type LeaveRequest, type PageLeaveEvent, type RelayedEffect } from '../app/effects';
import { recipientPickerMachine, type PickerReport } from './recipient-picker';
import { templatePickerMachine } from './template-picker';

export interface ComposeMachineInput {
  draftId: number | null;
  replyToId: number | null;
  /** localStorage key of this form's backup (per user and draft/reply/new). */
  backupKey: string;
  /** `/new?template=ID` ("Usar en mensaje nuevo" on /templates): the template the form starts from. */
  templateId?: number | null;
  /** A new message to a saved list ("Usar en mensaje nuevo", `/new?list=ID`): it starts with the list picked. */
  listId?: number | null;
}

export interface ComposeContext extends ComposeForm {
  replyToId: number | null;
  listId: number | null;
  backupKey: string;
  /** The start's template, handed to the template picker once the form is shown. */
  templateId: number | null;
  errors: ComposeErrors;
  /** What the last compose.send / compose.schedule asked for. */
  intent: ComposeIntent;
  /** The last server estimate (recipients, SMS used and left, problems). */
  estimate: Estimate | null;
  /** Made on the first send attempt, reused by retries, dropped by any edit. */
  idempotencyKey: string | null;
  result: SendResult | null;
  /** The last failed call. */
  failure: ApiFailure | null;
  /** `formFingerprint` of what the server has (the draft as loaded or last saved; a new form's start). */
  savedForm: string;
  /** `formFingerprint` of the form a running draft save sends (it becomes `savedForm` once saved). */
  savingForm: string | null;
  /** The navigation held while the author is asked, or while a save runs. */
  leaving: LeaveRequest | null;
}

export type ComposeEvent =
  | FormEdit
  | { type: 'compose.retry' }
  | { type: 'compose.send' }
  | { type: 'compose.schedule' }
  | { type: 'compose.save' }
  /** Confirms the estimate shown in `confirming`; `compose.cancel` goes back to the form. */
  | { type: 'compose.confirm' }
  | { type: 'compose.cancel' }
  | { type: 'attachment.add'; files: File[] }
  | { type: 'attachment.remove'; key: string }
  | { type: 'attachment.retry'; key: string }
  /** The app asks before a navigation the user asked for; compose holds it while something is unsaved. */
  | PageLeaveEvent
  /** The answers to "¿Guardar los cambios antes de salir?". */
  | { type: 'compose.saveAndLeave' }
  | { type: 'compose.discard' }
  | { type: 'compose.stay' }
  /** "Usar plantilla": compose opens its template picker, telling it whether the form has text to replace. */
  | { type: 'template.open' }
  | PickerReport
  | AttachmentListReport
  | RelayedEffect;

/** What the form offers while editing and after a failed send: send, schedule, save, and leaving asks first. */
const formActions = (refusedTarget?: 'editing') =>
  ({
    'compose.send': attempt('send', refusedTarget),
    'compose.schedule': attempt('schedule', refusedTarget),
    'compose.save': { target: 'savingDraft' },
    'page.leave': ASK_BEFORE_LEAVING,
  }) as const;

export const composeMachine = setup({
  types: {
    context: {} as ComposeContext,
    events: {} as ComposeEvent,
    emitted: {} as Effect,
    input: {} as ComposeMachineInput,
    children: {} as {
      picker: 'recipientPicker';
      attachments: 'attachmentList';
      attachmentEffects: 'relayEffects';
      templates: 'templatePicker';
      templateEffects: 'relayEffects';
    },
  },
  actors: {
    fetchComposeStart,
    saveDraft,
    estimate,
    sendMessage,
    scheduleMessage,
    recipientPicker: recipientPickerMachine,
    attachmentList: attachmentListMachine,
    templatePicker: templatePickerMachine,
    relayEffects,
  },
  actions: {
    ...composeActions,
    /** Loads the recipients while the author types, so the dialog opens at once; it starts from the chips. */
    spawnPicker: spawnChild('recipientPicker', { id: 'picker', input: ({ context, self }) => ({ initial: context.recipients, parent: self }) }),
    spawnAttachments: spawnChild('attachmentList', {
      id: 'attachments',
      input: ({ context, self }) => ({ parent: self, restored: context.attachments.flatMap((entry) => (entry.attachment ? [entry.attachment] : [])) }),
    }),
    // Spawned after the list, in the same step, so it finds the list among compose's children.
    relayAttachmentEffects: spawnChild('relayEffects', { id: 'attachmentEffects', input: ({ self }) => ({ parent: self, child: 'attachments' }) }),
    /** "Usar plantilla" (compose/template-picker.ts): its dialog, its question, and the start's template. */
    spawnTemplates: spawnChild('templatePicker', { id: 'templates', input: ({ self }) => ({ parent: self }) }),
    relayTemplateEffects: spawnChild('relayEffects', { id: 'templateEffects', input: ({ self }) => ({ parent: self, child: 'templates' }) }),
  },
  guards: composeGuards,
}).createMachine({
  id: 'compose',
  initial: 'loading',
  context: ({ input }) => ({
    draftId: input.draftId,
    replyToId: input.replyToId,
    listId: input.listId ?? null,
    backupKey: input.backupKey,
    templateId: input.templateId ?? null,
    setup: null,
    ...EMPTY_FORM,
    attachments: [],
    errors: {},
    intent: 'send',
    estimate: null,
    idempotencyKey: null,
    result: null,
    failure: null,
    savedForm: '',
    savingForm: null,
    leaving: null,
  }),
  // The list reports in any state (an upload finishing while a draft is being saved).
  on: {
    'attachments.changed': { actions: ['keepAttachments', 'saveBackup'] },
    'effect.relay': { actions: 'relay' },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadCompose',
        src: 'fetchComposeStart',
        input: ({ context }) => ({
          draftId: context.draftId,
          replyToId: context.replyToId,
          backupKey: context.backupKey,
          ...(context.listId !== null ? { listId: context.listId } : {}),
        }),
        onDone: {
          target: 'form',
          actions: [
            { type: 'restore', params: ({ event }) => event.output },
            'spawnPicker',
            'spawnAttachments',
            'relayAttachmentEffects',
            'spawnTemplates',
            'relayTemplateEffects',
            'useStartTemplate',
          ],
        },
        onError: { target: 'loadFailed', actions: 'keepFailure' },
      },
    },
    loadFailed: {
      on: { 'compose.retry': { target: 'loading' } },
    },
    form: {
      initial: 'editing',
      on: {
        'compose.change': { actions: ['edit', 'saveBackup'] },
        'template.insert': { actions: ['edit', 'saveBackup'] },
        'template.apply': { actions: ['edit', 'saveBackup'] },
        'template.open': { actions: 'openTemplates' },
        'compose.toggleChannel': { guard: 'isChannelAvailable', actions: ['edit', 'saveBackup'] },
        'picker.confirmed': { actions: ['setRecipients', 'saveBackup'] },
        'compose.removeRecipient': { actions: ['edit', 'syncPicker', 'saveBackup'] },
        'compose.toggleOption': { actions: ['edit', 'saveBackup'] },
        'compose.toggleEmergency': { guard: 'canMarkEmergency', actions: ['edit', 'saveBackup'] },
        'compose.setSchedule': { actions: ['edit', 'saveBackup'] },
        'compose.clearSchedule': { actions: ['edit', 'saveBackup'] },
        'attachment.add': { actions: ['addFiles', 'saveBackup'] },
        'attachment.remove': { guard: 'canRemove', actions: ['editAttachments', 'askRemove', 'saveBackup'] },
        'attachment.retry': { guard: 'isFailedUpload', actions: ['editAttachments', 'askRetry', 'saveBackup'] },
      },
      states: {
        editing: { on: formActions() },
        savingDraft,
        // The send failed (network, server): everything typed is here. Retry resends the same confirmed
        // message with the same key; after a failed estimate it asks for the cost again (nothing goes out
        // unconfirmed); after an edit (no key any more) it is a new message, checked again first.
        failed: {
          on: {
            'compose.retry': [
              { guard: and(['hasKey', 'isConfirmed', 'isScheduling']), target: '#compose.scheduling', actions: 'clearErrors' },
              { guard: and(['hasKey', 'isConfirmed']), target: '#compose.sending', actions: 'clearErrors' },
              { guard: { type: 'isValid', params: ({ context }) => context.intent }, target: '#compose.estimating', actions: ['clearErrors', 'ensureKey'] },
              { target: 'editing', actions: ['showErrors', TOAST_REVIEW, 'focusFirstError'] },
            ],
            ...formActions('editing'),
          },
        },
        leaving,
      },
    },
    estimating,
    confirming,
    sending,
    scheduling,
    sent: { type: 'final' },
    // Saved or discarded on the way out: the navigation is on its way, the page closes with it.
    left: { type: 'final' },
  },
});

export type ComposeMachine = typeof composeMachine;
export type ComposeSnapshot = SnapshotFrom<typeof composeMachine>;
