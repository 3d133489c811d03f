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
// message; any edit drops it, so a changed message is a new send. The rules are compose-rules.ts; what
// views read, compose-selectors.ts.
//
// Leaving (issue 12): the app root asks the open page before a navigation the user asked for (`page.leave`,
// see app.ts). Compose holds it while the form has unsaved changes (its fingerprint differs from what the
// server has): `form.leaving` asks "Guardar borrador / Descartar / Seguir editando"; saving or discarding
// ends in `left` and lets the navigation through (`navigate`), staying drops it. A form with nothing
// unsaved never gets the question. Once saved, the form's backup moves to its draft's key, so reopening
// the draft from the drafts folder finds what was typed after (it was under "new" before, and lost).
//
// Once the form is shown, compose spawns two children. `picker` (recipient-picker.ts) reports the picks
// confirmed in its dialog; compose tells it when a chip is removed. `attachments` (attachment-list.ts)
// owns the files: compose hands it what its rules allow and keeps the entries it reports, so the rules
// and the backup read compose's own context; its toasts are relayed. The view talks to compose, and to the
// picker for its dialog.
import { and, assertEvent, assign, emit, enqueueActions, sendTo, setup, spawnChild, type SnapshotFrom } from 'xstate';
import type { ComposeDraft, Estimate, SendResult } from '../../shared/compose-contract';
import type { MessageKey } from '../i18n';
import { estimate, fetchComposeStart, newIdempotencyKey, saveDraft, scheduleMessage, sendMessage, type ComposeStart } from '../services/compose';
import { clearComposeBackup, clearDraftBackups, draftBackupKey, saveComposeBackup } from '../services/compose-backup';
import { toApiFailure, type ApiFailure } from '../services/http';
import { attachmentListMachine, entryIs, restoredEntries, type AttachmentListReport } from './attachment-list';
import {
  admitFiles,
  applyEdit,
  backupOf,
  composeErrors,
  composeInputOf,
  edited,
  EMPTY_FORM,
  firstInvalidField,
  formFingerprint,
  hasErrors,
  isQuotaFailure,
  isValidationFailure,
  quotaError,
  reachError,
  restoredForm,
  resultToast,
  savedFingerprintOf,
  serverErrors,
  SUBMIT_BUTTON_ID,
  TOAST_KEYS,
  type ComposeErrors,
  type ComposeForm,
  type ComposeIntent,
  type FormEdit,
} from './compose-rules';
import { relayEffects, type Effect, type LeaveRequest, type PageLeaveEvent, type RelayedEffect } from './effects';
import { recipientPickerMachine, type PickerReport } from './recipient-picker';

export interface ComposeMachineInput {
  draftId: number | null;
  replyToId: number | null;
  /** localStorage key of this form's backup (per user and draft/reply/new). */
  backupKey: string;
}

export interface ComposeContext extends ComposeForm {
  replyToId: number | null;
  backupKey: string;
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
  | PickerReport
  | AttachmentListReport
  | RelayedEffect;

const failureOf = (event: { error?: unknown }) => toApiFailure(event.error);
const keyOf = (event: ComposeEvent) => {
  assertEvent(event, ['attachment.remove', 'attachment.retry']);
  return event.key;
};

const TOAST_REVIEW = { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } } as const;

/** A draft saved: its id kept (the backup moves to its key), what it holds is now the server's, the toast. */
const DRAFT_SAVED = [
  { type: 'dropFormBackup', params: ({ event }: { event: { output: ComposeDraft } }) => event.output },
  { type: 'keepDraft', params: ({ event }: { event: { output: ComposeDraft } }) => event.output },
  'saveBackup',
  { type: 'toast', params: { kind: 'success', key: TOAST_KEYS.saved } },
  'announceCounts',
] as const;

/** A draft save that runs while the author waits to leave: once saved (nothing typed since), they go. */
const SAVED_AND_LEFT = [...DRAFT_SAVED, 'clearBackup', 'leave'] as const;

/** What a draft save sends, the same in `savingDraft` and when saving on the way out. */
const draftSaveInput = ({ context }: { context: ComposeContext }) => ({ id: context.draftId, input: composeInputOf(context, 'draft'), replyToId: context.replyToId });

/** A navigation while the form holds something the server does not: ask first (`form.leaving`). */
const ASK_BEFORE_LEAVING = { guard: 'hasUnsavedChanges', target: '#compose.form.leaving', actions: 'keepLeave' } as const;

/**
 * compose.send / compose.schedule: the client rules first. Refused, the form shows why (from `failed`,
 * back in editing); allowed, the server's estimate, under the key of this message.
 */
const attempt = (intent: ComposeIntent, refusedTarget?: 'editing') =>
  [
    {
      guard: and(['canReach', { type: 'isValid', params: intent }]),
      target: '#compose.estimating',
      actions: [{ type: 'intend', params: intent }, 'clearErrors', 'ensureKey'],
    },
    { guard: 'canReach', target: refusedTarget, actions: [{ type: 'intend', params: intent }, 'showErrors', TOAST_REVIEW, 'focusFirstError'] },
  ] as const;

/**
 * `sending` and `scheduling`: the same call with the same key, the same outcomes; only the actor and what
 * is sent differ (the toast says which it was, and who nothing reaches). A 422 or a quota refusal goes
 * back to the form with the fields marked; anything else is `form.failed`, where retry keeps everything.
 */
const dispatching = (src: 'sendMessage' | 'scheduleMessage', intent: ComposeIntent) =>
  ({
    tags: ['busy', 'submitting'],
    invoke: {
      id: src,
      src,
      input: ({ context }: { context: ComposeContext }) => ({
        input: composeInputOf(context, intent),
        draftId: context.draftId,
        replyToId: context.replyToId,
        idempotencyKey: context.idempotencyKey as string,
      }),
      onDone: {
        target: 'sent',
        actions: [
          { type: 'keepResult', params: ({ event }: { event: { output: SendResult } }) => event.output },
          'toastResult',
          'navigateToResult',
          'clearBackup',
          'announceCounts',
        ],
      },
      onError: [
        { guard: 'isValidationFailure', target: 'form.editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'focusFirstError'] },
        { guard: 'isQuotaFailure', target: 'form.editing', actions: ['serverQuotaErrors', 'toastQuota'] },
        { target: 'form.failed', actions: ['keepFailure', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.sendFailed } }] },
      ],
    },
  }) as const;

export const composeMachine = setup({
  types: {
    context: {} as ComposeContext,
    events: {} as ComposeEvent,
    emitted: {} as Effect,
    input: {} as ComposeMachineInput,
    children: {} as { picker: 'recipientPicker'; attachments: 'attachmentList'; attachmentEffects: 'relayEffects' },
  },
  actors: { fetchComposeStart, saveDraft, estimate, sendMessage, scheduleMessage, recipientPicker: recipientPickerMachine, attachmentList: attachmentListMachine, relayEffects },
  actions: {
    /** On `xstate.done.actor.loadCompose`: the form from the backup or the draft, and what the server has. */
    restore: assign(({ context }, start: ComposeStart) => {
      const { form, attachments, draftId, replyTo } = restoredForm(start, context.draftId);
      return {
        setup: start.setup,
        ...form,
        draftId,
        replyToId: context.replyToId ?? replyTo,
        attachments: restoredEntries(attachments),
        savedForm: savedFingerprintOf(start, context.draftId),
      };
    }),
    /** Loads the recipients while the author types, so the dialog opens at once; it starts from the chips. */
    spawnPicker: spawnChild('recipientPicker', { id: 'picker', input: ({ context, self }) => ({ initial: context.recipients, parent: self }) }),
    spawnAttachments: spawnChild('attachmentList', {
      id: 'attachments',
      input: ({ context, self }) => ({ parent: self, restored: context.attachments.flatMap((entry) => (entry.attachment ? [entry.attachment] : [])) }),
    }),
    // Spawned after the list, in the same step, so it finds the list among compose's children.
    relayAttachmentEffects: spawnChild('relayEffects', { id: 'attachmentEffects', input: ({ self }) => ({ parent: self, child: 'attachments' }) }),
    relay: emit(({ event }) => {
      assertEvent(event, 'effect.relay');
      return event.effect;
    }),
    keepFailure: assign(({ event }) => ({ failure: failureOf(event as { error?: unknown }) })),
    edit: assign(({ context, event }) => applyEdit(context, event as FormEdit)),
    setRecipients: assign(({ context, event }) => {
      assertEvent(event, 'picker.confirmed');
      return { recipients: event.picks, ...edited(context, 'recipients') };
    }),
    /** The picker's selection (and its empty-course flags) follows the chips. */
    syncPicker: sendTo('picker', ({ context }) => ({ type: 'picker.sync' as const, picks: context.recipients })),
    /** The files the rules admit go to the list; the first one refused says why on the field. */
    addFiles: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'attachment.add');
      const { accepted, error } = admitFiles(context, event.files);
      const base = edited(context, 'attachments');
      enqueue.assign({ ...base, errors: error ? { ...base.errors, attachments: error } : base.errors });
      if (accepted.length > 0) enqueue.sendTo('attachments', { type: 'attachments.add', files: accepted });
    }),
    editAttachments: assign(({ context }) => edited(context, 'attachments')),
    askRemove: sendTo('attachments', ({ event }) => ({ type: 'attachments.remove' as const, key: keyOf(event) })),
    askRetry: sendTo('attachments', ({ event }) => ({ type: 'attachments.retry' as const, key: keyOf(event) })),
    keepAttachments: assign(({ event }) => {
      assertEvent(event, 'attachments.changed');
      return { attachments: event.entries };
    }),
    intend: assign((_, intent: ComposeIntent) => ({ intent })),
    showErrors: assign(({ context }) => ({ errors: composeErrors(context, context.intent, Date.now()) })),
    /** Keyboard users land on what to fix (the edge moves the focus once the errors are on screen). */
    focusSubmit: emit({ type: 'focus', target: SUBMIT_BUTTON_ID }),
    focusFirstError: enqueueActions(({ context, enqueue }) => {
      const target = firstInvalidField(context, context.errors);
      if (target !== null) enqueue.emit({ type: 'focus', target });
    }),
    clearErrors: assign({ errors: {}, failure: null }),
    ensureKey: assign(({ context }) => ({ idempotencyKey: context.idempotencyKey ?? newIdempotencyKey() })),
    /**
     * On `xstate.done.actor.estimate`: kept for "uses N SMS of M left", a quota problem names its field,
     * and a message nobody would get says so (`reach`).
     */
    keepEstimate: assign(({ context }, estimated: Estimate) => {
      const quota = quotaError(estimated.problems, estimated);
      const reach = reachError(estimated);
      return { estimate: estimated, errors: { ...context.errors, ...(quota ? { quota } : {}), ...(reach ? { reach } : {}) } };
    }),
    /** The picker shows the estimate's people count for the chips it counted. */
    reportEstimate: sendTo('picker', ({ context }, estimated: Estimate) => ({
      type: 'picker.estimated' as const,
      picks: context.recipients,
      people: estimated.recipients,
    })),
    toastReach: emit(({ context }) => ({
      type: 'toast' as const,
      kind: 'error' as const,
      key: context.errors.reach?.key ?? TOAST_KEYS.review,
      ...(context.errors.reach?.params ? { params: context.errors.reach.params } : {}),
    })),
    /** "Mensaje entregado para envío" (or programado), and how many no chosen channel reaches. */
    toastResult: emit(({ context }) => ({ type: 'toast' as const, ...resultToast(context.result as SendResult) })),
    /** On a 409 `compose.quota`: `errors.quota` lists the problem codes. */
    serverQuotaErrors: assign(({ context, event }) => {
      const failure = failureOf(event as { error?: unknown });
      const quota = quotaError(failure.fieldErrors.quota ?? [], context.estimate);
      return { failure, errors: quota ? { ...context.errors, quota } : context.errors };
    }),
    serverFieldErrors: assign(({ event }) => {
      const failure = failureOf(event as { error?: unknown });
      return { failure, errors: serverErrors(failure) };
    }),
    /** The draft's id; the backup moves from the form's key (new, reply) to the draft's (`saveBackup` writes it). */
    keepDraft: assign(({ context }, draft: ComposeDraft) => ({
      draftId: draft.id,
      backupKey: draftBackupKey(context.backupKey, draft.id),
      savedForm: context.savingForm ?? context.savedForm,
      savingForm: null,
    })),
    /** Before `keepDraft`: the backup under the form's own key goes (it moves to the draft's). */
    dropFormBackup: ({ context }, draft: ComposeDraft) => {
      if (draftBackupKey(context.backupKey, draft.id) !== context.backupKey) clearComposeBackup(context.backupKey);
    },
    /** What this save sends: once saved, that is what the server has. */
    markSaving: assign(({ context }) => ({ savingForm: formFingerprint(context) })),
    keepLeave: assign(({ event }) => {
      assertEvent(event, 'page.leave');
      const { type: _, ...request } = event;
      return { leaving: request };
    }),
    forgetLeave: assign({ leaving: null }),
    /** Lets the held navigation through (the edge performs it). */
    leave: emit(({ context }) => ({ type: 'navigate' as const, to: context.leaving?.to ?? '/', ...(context.leaving?.replace ? { replace: true } : {}), ...(context.leaving?.back ? { back: true } : {}) })),
    keepResult: assign((_, result: SendResult) => ({ result })),
    toast: emit((_, params: { kind: 'success' | 'error'; key: MessageKey }) => ({ type: 'toast' as const, kind: params.kind, key: params.key })),
    toastQuota: emit(({ context }) => ({
      type: 'toast' as const,
      kind: 'error' as const,
      key: context.errors.quota?.key ?? TOAST_KEYS.review,
      ...(context.errors.quota?.params ? { params: context.errors.quota.params } : {}),
    })),
    navigateToResult: emit(({ context }) => ({
      type: 'navigate' as const,
      to: context.result?.kind === 'scheduled' ? `/scheduled/message/${context.result.id}` : `/sent/message/${context.result?.id ?? ''}`,
    })),
    /** localStorage, through the service helpers; not in context, so the form itself stays pure. */
    saveBackup: ({ context }) => saveComposeBackup(context.backupKey, backupOf(context, Date.now())),
    clearBackup: ({ context }) => {
      clearComposeBackup(context.backupKey);
      if (context.draftId !== null) clearDraftBackups(context.draftId);
    },
    /** SPEC §7: folder counters reload. */
    announceCounts: emit({ type: 'counts.changed' }),
  },
  guards: {
    isValid: ({ context }, intent: ComposeIntent) => !hasErrors(composeErrors(context, intent, Date.now())),
    hasKey: ({ context }) => context.idempotencyKey !== null,
    /** Leaving now would lose something: the form is not what the server has. */
    hasUnsavedChanges: ({ context }) => formFingerprint(context) !== context.savedForm,
    isLeaving: ({ context }) => context.leaving !== null,
    /** The save that just ended sent the form as it is now (nothing was typed meanwhile). */
    savedAll: ({ context }) => formFingerprint(context) === context.savingForm,
    hasProblems: (_, estimated: Estimate) => estimated.problems.length > 0,
    reachesNobody: (_, estimated: Estimate) => reachError(estimated) !== null,
    /** No estimate of this very form (any edit drops it) has said that nobody would get the message. */
    canReach: ({ context }) => context.estimate === null || reachError(context.estimate) === null,
    isScheduling: ({ context }) => context.intent === 'schedule',
    isValidationFailure: ({ event }) => isValidationFailure(failureOf(event as { error?: unknown })),
    isQuotaFailure: ({ event }) => isQuotaFailure(failureOf(event as { error?: unknown })),
    isChannelAvailable: ({ context, event }) => {
      assertEvent(event, 'compose.toggleChannel');
      return context.setup?.availableChannels.includes(event.code) === true;
    },
    /** Not already being removed (the list says which ones need a server call). */
    canRemove: ({ context, event }) => entryIs(context.attachments, keyOf(event), 'uploaded', 'uploading', 'failed'),
    isFailedUpload: ({ context, event }) => entryIs(context.attachments, keyOf(event), 'failed'),
  },
}).createMachine({
  id: 'compose',
  initial: 'loading',
  context: ({ input }) => ({
    draftId: input.draftId,
    replyToId: input.replyToId,
    backupKey: input.backupKey,
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
        input: ({ context }) => ({ draftId: context.draftId, replyToId: context.replyToId, backupKey: context.backupKey }),
        onDone: {
          target: 'form',
          actions: [{ type: 'restore', params: ({ event }) => event.output }, 'spawnPicker', 'spawnAttachments', 'relayAttachmentEffects'],
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
        'compose.toggleChannel': { guard: 'isChannelAvailable', actions: ['edit', 'saveBackup'] },
        'picker.confirmed': { actions: ['setRecipients', 'saveBackup'] },
        'compose.removeRecipient': { actions: ['edit', 'syncPicker', 'saveBackup'] },
        'compose.toggleOption': { actions: ['edit', 'saveBackup'] },
        'compose.setSchedule': { actions: ['edit', 'saveBackup'] },
        'compose.clearSchedule': { actions: ['edit', 'saveBackup'] },
        'attachment.add': { actions: ['addFiles', 'saveBackup'] },
        'attachment.remove': { guard: 'canRemove', actions: ['editAttachments', 'askRemove', 'saveBackup'] },
        'attachment.retry': { guard: 'isFailedUpload', actions: ['editAttachments', 'askRetry', 'saveBackup'] },
      },
      states: {
        editing: {
          on: {
            'compose.send': attempt('send'),
            'compose.schedule': attempt('schedule'),
            'compose.save': { target: 'savingDraft' },
            'page.leave': ASK_BEFORE_LEAVING,
          },
        },
        // A navigation asked for meanwhile waits for the save (leaving would abort it): then it goes, or,
        // when something was typed meanwhile or the save failed, the author is asked.
        savingDraft: {
          tags: 'busy',
          entry: 'markSaving',
          invoke: {
            id: 'saveDraft',
            src: 'saveDraft',
            input: draftSaveInput,
            onDone: [
              { guard: and(['isLeaving', 'savedAll']), target: '#compose.left', actions: SAVED_AND_LEFT },
              { guard: 'isLeaving', target: 'leaving', actions: DRAFT_SAVED },
              { target: 'editing', actions: DRAFT_SAVED },
            ],
            onError: [
              { guard: 'isValidationFailure', target: 'editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'forgetLeave'] },
              { guard: 'isLeaving', target: 'leaving', actions: ['keepFailure', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.requestFailed } }] },
              { target: 'editing', actions: ['keepFailure', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.requestFailed } }] },
            ],
          },
          on: { 'page.leave': { actions: 'keepLeave' } },
        },
        // The send failed (network, server): everything typed is here. Retry resends the same message
        // with the same key; after an edit (no key any more) it is a new message, checked again first.
        failed: {
          on: {
            'compose.retry': [
              { guard: and(['hasKey', 'isScheduling']), target: '#compose.scheduling', actions: 'clearErrors' },
              { guard: 'hasKey', target: '#compose.sending', actions: 'clearErrors' },
              { guard: { type: 'isValid', params: ({ context }) => context.intent }, target: '#compose.estimating', actions: ['clearErrors', 'ensureKey'] },
              { target: 'editing', actions: ['showErrors', TOAST_REVIEW, 'focusFirstError'] },
            ],
            'compose.send': attempt('send', 'editing'),
            'compose.schedule': attempt('schedule', 'editing'),
            'compose.save': { target: 'savingDraft' },
            'page.leave': ASK_BEFORE_LEAVING,
          },
        },
        // "¿Guardar los cambios antes de salir?": nothing leaves until the author answers. Another
        // navigation asked for meanwhile (Back pressed again) replaces the one held.
        leaving: {
          initial: 'asking',
          on: { 'page.leave': { actions: 'keepLeave' } },
          states: {
            asking: {
              on: {
                'compose.saveAndLeave': { target: 'saving' },
                // What was typed since the last save goes, backup included; a saved draft stays as saved.
                'compose.discard': { target: '#compose.left', actions: ['clearBackup', 'leave'] },
                'compose.stay': { target: '#compose.form.editing', actions: 'forgetLeave' },
              },
            },
            saving: {
              tags: 'busy',
              entry: 'markSaving',
              invoke: {
                id: 'saveDraft',
                src: 'saveDraft',
                input: draftSaveInput,
                onDone: { target: '#compose.left', actions: SAVED_AND_LEFT },
                onError: [
                  // Refused (a title too long…): back to the form, the field marked, the navigation dropped.
                  { guard: 'isValidationFailure', target: '#compose.form.editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'focusFirstError', 'forgetLeave'] },
                  // Not saved: asked again (discard or try again), nothing lost meanwhile.
                  { target: 'asking', actions: ['keepFailure', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.requestFailed } }] },
                ],
              },
            },
          },
        },
      },
    },
    estimating: {
      tags: ['busy', 'submitting'],
      invoke: {
        id: 'estimate',
        src: 'estimate',
        input: ({ context }) => ({ input: composeInputOf(context, context.intent), draftId: context.draftId, replyToId: context.replyToId }),
        onDone: [
          // Nobody picked has an address on the chosen channels: there is nothing to confirm, and no
          // send is offered until the form changes (`canReach`).
          {
            guard: { type: 'reachesNobody', params: ({ event }) => event.output },
            target: 'form.editing',
            actions: [
              { type: 'keepEstimate', params: ({ event }) => event.output },
              { type: 'reportEstimate', params: ({ event }) => event.output },
              'toastReach',
            ],
          },
          {
            guard: { type: 'hasProblems', params: ({ event }) => event.output },
            target: 'form.editing',
            actions: [
              { type: 'keepEstimate', params: ({ event }) => event.output },
              { type: 'reportEstimate', params: ({ event }) => event.output },
              'toastQuota',
            ],
          },
          {
            target: 'confirming',
            actions: [
              { type: 'keepEstimate', params: ({ event }) => event.output },
              { type: 'reportEstimate', params: ({ event }) => event.output },
            ],
          },
        ],
        onError: [
          // Send's own rules refused it (an SMS too long once signed, an emoji…): the field says why and
          // takes the focus, as when the client rules refuse.
          { guard: 'isValidationFailure', target: 'form.editing', actions: ['serverFieldErrors', TOAST_REVIEW, 'focusFirstError'] },
          { target: 'form.failed', actions: ['keepFailure', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.sendFailed } }] },
        ],
      },
    },
    // The cost before it is spent (issue 4: "shown before sending"): people reached, deliveries per
    // channel, addresses missing, SMS used of those left this month, empty courses. Nothing is sent
    // until the author confirms; going back keeps the form, the estimate and the key.
    confirming: {
      on: {
        'compose.confirm': [{ guard: 'isScheduling', target: 'scheduling' }, { target: 'sending' }],
        // Back to the form with keyboard focus on the button that asked, not lost with the confirmation.
        'compose.cancel': { target: 'form.editing', actions: 'focusSubmit' },
        'page.leave': ASK_BEFORE_LEAVING,
      },
    },
    sending: dispatching('sendMessage', 'send'),
    scheduling: dispatching('scheduleMessage', 'schedule'),
    sent: { type: 'final' },
    // Saved or discarded on the way out: the navigation is on its way, the page closes with it.
    left: { type: 'final' },
  },
});

export type ComposeMachine = typeof composeMachine;
export type ComposeSnapshot = SnapshotFrom<typeof composeMachine>;
