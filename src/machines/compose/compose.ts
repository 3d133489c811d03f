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
// message; any edit drops it, so a changed message is a new send. The form's rules are compose/rules.ts
// (with the edits, edit-rules.ts; the server's answers, outcome-rules.ts; the start, start-rules.ts); what
// views read, compose/selectors.ts. This file is the machine itself, by concern: its actions and guards,
// then the submission states, the draft save and the question before leaving, and the machine.
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
import { and, assertEvent, assign, emit, enqueueActions, sendTo, setup, spawnChild, type SnapshotFrom } from 'xstate';
import type { ComposeDraft, Estimate, SendResult } from '../../../shared/compose-contract';
import type { MessageKey } from '../../i18n';
import { clearComposeBackup, clearDraftBackups, draftBackupKey, saveComposeBackup } from '../../services/compose/backup';
import {
  estimate,
  fetchComposeStart,
  newIdempotencyKey,
  saveDraft,
  scheduleMessage,
  sendMessage,
  type ComposeStart,
} from '../../services/compose/compose';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import { relayEffects, type Effect, type LeaveRequest, type PageLeaveEvent, type RelayedEffect } from '../app/effects';
import { formHasText } from '../templates/rules';
import { attachmentListMachine, entryIs, restoredEntries, type AttachmentListReport } from './attachment-list';
import { applyEdit, edited, type FormEdit } from './edit-rules';
import { isQuotaFailure, isValidationFailure, quotaError, reachError, resultToast, serverErrors, TOAST_KEYS } from './outcome-rules';
import { canMarkEmergency } from './quota-rules';
import { recipientPickerMachine, type PickerReport } from './recipient-picker';
import {
  admitFiles,
  backupOf,
  composeErrors,
  composeInputOf,
  EMPTY_FORM,
  firstInvalidField,
  formFingerprint,
  hasErrors,
  SUBMIT_BUTTON_ID,
  type ComposeErrors,
  type ComposeForm,
  type ComposeIntent,
} from './rules';
import { restoredForm, savedFingerprintOf } from './start-rules';
import { templatePickerMachine } from './template-picker';

interface ComposeMachineInput {
  draftId: number | null;
  replyToId: number | null;
  /** localStorage key of this form's backup (per user and draft/reply/new). */
  backupKey: string;
  /** `/new?template=ID` ("Usar en mensaje nuevo" on /templates): the template the form starts from. */
  templateId?: number | null;
  /** A new message to a saved list ("Usar en mensaje nuevo", `/new?list=ID`): it starts with the list picked. */
  listId?: number | null;
}

interface ComposeContext extends ComposeForm {
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

type ComposeEvent =
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

const keyOf = (event: ComposeEvent) => {
  assertEvent(event, ['attachment.remove', 'attachment.retry']);
  return event.key;
};

/** The form's backup in localStorage, through the service helpers: not in context, so the form itself stays pure. */
const saveBackup = (context: ComposeContext) => saveComposeBackup(context.backupKey, backupOf(context, Date.now()));
/** Sent, or left without saving: the backup of this form and of its draft go. */
const clearBackup = (context: ComposeContext) => {
  clearComposeBackup(context.backupKey);
  if (context.draftId !== null) clearDraftBackups(context.draftId);
};

/** A toast of one of compose's own keys. */
interface ToastParams {
  kind: 'success' | 'error';
  key: MessageKey;
}

/** The toasts transitions name (by the `toast` action). */
const TOAST_REVIEW = { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } } as const;
const TOAST_REQUEST_FAILED = { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.requestFailed } } as const;
const TOAST_SEND_FAILED = { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.sendFailed } } as const;

const composeSetup = setup({
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
  // The actions and guards run compose's rules on compose's context; the effects are emitted, never performed.
  actions: {
    // The start and the children.
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
    spawnPicker: spawnChild('recipientPicker', {
      id: 'picker',
      input: ({ context, self }) => ({ initial: context.recipients, parent: self }),
    }),
    spawnAttachments: spawnChild('attachmentList', {
      id: 'attachments',
      input: ({ context, self }) => ({
        parent: self,
        restored: context.attachments.flatMap((entry) => (entry.attachment ? [entry.attachment] : [])),
      }),
    }),
    // Spawned after the list, in the same step, so it finds the list among compose's children.
    relayAttachmentEffects: spawnChild('relayEffects', {
      id: 'attachmentEffects',
      input: ({ self }) => ({ parent: self, child: 'attachments' }),
    }),
    /** "Usar plantilla" (compose/template-picker.ts): its dialog, its question, and the start's template. */
    spawnTemplates: spawnChild('templatePicker', { id: 'templates', input: ({ self }) => ({ parent: self }) }),
    relayTemplateEffects: spawnChild('relayEffects', {
      id: 'templateEffects',
      input: ({ self }) => ({ parent: self, child: 'templates' }),
    }),
    /** "Usar plantilla": the picker opens, knowing whether choosing replaces text already typed. */
    openTemplates: sendTo('templates', ({ context }) => ({ type: 'templates.open', replaces: formHasText(context) })),
    /** `/new?template=ID`: the picker brings that template, asking first if the restored form has text. */
    useStartTemplate: enqueueActions(({ context, enqueue }) => {
      if (context.templateId !== null)
        enqueue.sendTo('templates', { type: 'templates.use', id: context.templateId, replaces: formHasText(context) });
    }),
    relay: emit(({ event }) => {
      assertEvent(event, 'effect.relay');
      return event.effect;
    }),

    // The form.
    edit: assign(({ context }, edit: FormEdit) => applyEdit(context, edit)),
    setRecipients: assign(({ context, event }) => {
      assertEvent(event, 'picker.confirmed');
      return { recipients: event.picks, ...edited(context, 'recipients') };
    }),
    /** The picker's selection (and its empty-course flags) follows the chips. */
    syncPicker: sendTo('picker', ({ context }) => ({ type: 'picker.sync', picks: context.recipients })),
    /** The files the rules admit go to the list; the first one refused says why on the field. */
    addFiles: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'attachment.add');
      const { accepted, error } = admitFiles(context, event.files);
      const base = edited(context, 'attachments');
      enqueue.assign({ ...base, errors: error ? { ...base.errors, attachments: error } : base.errors });
      if (accepted.length > 0) enqueue.sendTo('attachments', { type: 'attachments.add', files: accepted });
    }),
    editAttachments: assign(({ context }) => edited(context, 'attachments')),
    askRemove: sendTo('attachments', ({ event }) => ({ type: 'attachments.remove', key: keyOf(event) })),
    askRetry: sendTo('attachments', ({ event }) => ({ type: 'attachments.retry', key: keyOf(event) })),
    keepAttachments: assign(({ event }) => {
      assertEvent(event, 'attachments.changed');
      return { attachments: event.entries };
    }),
    saveBackup: ({ context }) => saveBackup(context),
    clearBackup: ({ context }) => clearBackup(context),

    // Errors and focus.
    keepFailure: assign((_, failure: ApiFailure) => ({ failure })),
    showErrors: assign(({ context }) => ({ errors: composeErrors(context, context.intent, Date.now()) })),
    clearErrors: assign({ errors: {}, failure: null }),
    /** A 422: the fields it names are marked. */
    serverFieldErrors: assign((_, failure: ApiFailure) => ({ failure, errors: serverErrors(failure) })),
    /** On a 409 `compose.quota`: `errors.quota` lists the problem codes. */
    serverQuotaErrors: assign(({ context }, failure: ApiFailure) => {
      const quota = quotaError(failure.fieldErrors.quota ?? [], context.estimate);
      return { failure, errors: quota ? { ...context.errors, quota } : context.errors };
    }),
    /** Keyboard users land on what to fix (the edge moves the focus once the errors are on screen). */
    focusFirstError: enqueueActions(({ context, enqueue }) => {
      const target = firstInvalidField(context, context.errors);
      if (target !== null) enqueue.emit({ type: 'focus', target });
    }),
    focusSubmit: emit({ type: 'focus', target: SUBMIT_BUTTON_ID }),
    toast: emit((_, params: ToastParams) => ({ type: 'toast', kind: params.kind, key: params.key })),

    // Submission.
    intend: assign((_, intent: ComposeIntent) => ({ intent })),
    ensureKey: assign(({ context }) => ({ idempotencyKey: context.idempotencyKey ?? newIdempotencyKey() })),
    /** A failed estimate: this form's cost is unknown again, so a retry asks for it before anything goes out. */
    forgetEstimate: assign({ estimate: null }),
    /**
     * An estimate in: kept for "uses N SMS of M left" (a quota problem names its field, a message nobody
     * would get says so in `reach`), and the picker shows its people count for the chips it counted.
     */
    keepEstimate: enqueueActions(({ context, enqueue }, estimated: Estimate) => {
      const quota = quotaError(estimated.problems, estimated);
      const reach = reachError(estimated);
      enqueue.assign({ estimate: estimated, errors: { ...context.errors, ...(quota ? { quota } : {}), ...(reach ? { reach } : {}) } });
      enqueue.sendTo('picker', { type: 'picker.estimated', picks: context.recipients, people: estimated.recipients });
    }),
    toastReach: emit(({ context }) => ({
      type: 'toast',
      kind: 'error',
      key: context.errors.reach?.key ?? TOAST_KEYS.review,
      ...(context.errors.reach?.params ? { params: context.errors.reach.params } : {}),
    })),
    toastQuota: emit(({ context }) => ({
      type: 'toast',
      kind: 'error',
      key: context.errors.quota?.key ?? TOAST_KEYS.review,
      ...(context.errors.quota?.params ? { params: context.errors.quota.params } : {}),
    })),
    /**
     * Sent or scheduled: "Mensaje entregado para envío" (or programado) and how many no chosen channel
     * reaches, then the message's page; the backup goes and the folder counters reload (SPEC §7).
     */
    keepResult: enqueueActions(({ enqueue }, result: SendResult) => {
      enqueue.assign({ result });
      enqueue.emit({ type: 'toast', ...resultToast(result) });
      enqueue.emit({
        type: 'navigate',
        to: result.kind === 'scheduled' ? `/scheduled/message/${result.id}` : `/sent/message/${result.id}`,
      });
      enqueue(({ context }) => clearBackup(context));
      enqueue.emit({ type: 'counts.changed' });
    }),

    // The draft save and leaving.
    /** What this save sends: once saved, that is what the server has. */
    markSaving: assign(({ context }) => ({ savingForm: formFingerprint(context) })),
    /**
     * A draft saved: its id kept, and the backup moves from the form's key (new, reply) to the draft's; what
     * it holds is now the server's; the toast, and the folder counters reload.
     */
    keepDraft: enqueueActions(({ context, enqueue }, draft: ComposeDraft) => {
      const backupKey = draftBackupKey(context.backupKey, draft.id);
      if (backupKey !== context.backupKey) enqueue(() => clearComposeBackup(context.backupKey));
      enqueue.assign({ draftId: draft.id, backupKey, savedForm: context.savingForm ?? context.savedForm, savingForm: null });
      enqueue(({ context }) => saveBackup(context));
      enqueue.emit({ type: 'toast', kind: 'success', key: TOAST_KEYS.saved });
      enqueue.emit({ type: 'counts.changed' });
    }),
    keepLeave: assign(({ event }) => {
      assertEvent(event, 'page.leave');
      const { type: _, ...request } = event;
      return { leaving: request };
    }),
    forgetLeave: assign({ leaving: null }),
    /** Lets the held navigation through (the edge performs it). */
    leave: emit(({ context }) => ({
      type: 'navigate',
      to: context.leaving?.to ?? '/',
      ...(context.leaving?.replace ? { replace: true } : {}),
      ...(context.leaving?.back ? { back: true } : {}),
    })),
  },
  guards: {
    isValid: ({ context }, intent: ComposeIntent) => !hasErrors(composeErrors(context, intent, Date.now())),
    hasKey: ({ context }) => context.idempotencyKey !== null,
    /**
     * In `failed`: the author confirmed this very form's estimate (a failed estimate forgets it, an edit
     * drops it), so what failed is the send itself and a retry may resend it.
     */
    isConfirmed: ({ context }) => context.estimate !== null,
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
    isValidationFailure: (_, failure: ApiFailure) => isValidationFailure(failure),
    isQuotaFailure: (_, failure: ApiFailure) => isQuotaFailure(failure),
    /** The "Emergencia" mark: offered while the school sends SMS (compose/quota-rules.ts). */
    canMarkEmergency: ({ context }) => canMarkEmergency(context),
    isChannelAvailable: ({ context, event }) => {
      assertEvent(event, 'compose.toggleChannel');
      return context.setup?.availableChannels.includes(event.code) === true;
    },
    /** Not already being removed (the list says which ones need a server call). */
    canRemove: ({ context, event }) => entryIs(context.attachments, keyOf(event), 'uploaded', 'uploading', 'failed'),
    isFailedUpload: ({ context, event }) => entryIs(context.attachments, keyOf(event), 'failed'),
  },
});

// --- submission -------------------------------------------------------------------------------------

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
    {
      guard: 'canReach',
      target: refusedTarget,
      actions: [{ type: 'intend', params: intent }, 'showErrors', TOAST_REVIEW, 'focusFirstError'],
    },
  ] as const;

/** A navigation while the form holds something the server does not: ask first (`form.leaving`). */
const ASK_BEFORE_LEAVING = { guard: 'hasUnsavedChanges', target: '#compose.form.leaving', actions: 'keepLeave' } as const;

/** What the form offers while editing and after a failed send: send, schedule, save, and leaving asks first. */
const formActions = (refusedTarget?: 'editing') =>
  ({
    'compose.send': attempt('send', refusedTarget),
    'compose.schedule': attempt('schedule', refusedTarget),
    'compose.save': { target: 'savingDraft' },
    'page.leave': ASK_BEFORE_LEAVING,
  }) as const;

/** An invoked call's failure, as the guards and actions that read it take it. */
const failureOf = ({ event }: { event: { error: unknown } }) => toApiFailure(event.error);

/**
 * Send's own rules refused it (an SMS too long once signed, an emoji…), at the estimate or at the send
 * itself: the field says why and takes the focus, as when the client rules refuse.
 */
const REFUSED_BY_SEND_RULES = {
  guard: { type: 'isValidationFailure', params: failureOf },
  target: 'form.editing',
  actions: [{ type: 'serverFieldErrors', params: failureOf }, TOAST_REVIEW, 'focusFirstError'],
} as const;

/** The server's check and cost of what was asked (`intent`): a refusal or a problem back to the form, else the confirmation. */
const estimating = composeSetup.createStateConfig({
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
        actions: [{ type: 'keepEstimate', params: ({ event }) => event.output }, 'toastReach'],
      },
      {
        guard: { type: 'hasProblems', params: ({ event }) => event.output },
        target: 'form.editing',
        actions: [{ type: 'keepEstimate', params: ({ event }) => event.output }, 'toastQuota'],
      },
      { target: 'confirming', actions: { type: 'keepEstimate', params: ({ event }) => event.output } },
    ],
    onError: [
      REFUSED_BY_SEND_RULES,
      {
        target: 'form.failed',
        actions: [{ type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) }, 'forgetEstimate', TOAST_SEND_FAILED],
      },
    ],
  },
});

// The cost before it is spent ("shown before sending"): people reached, deliveries per channel, addresses
// missing, SMS used of those left this month, empty courses. Nothing is sent until the author confirms;
// going back keeps the form, the estimate and the key.
const confirming = composeSetup.createStateConfig({
  on: {
    'compose.confirm': [{ guard: 'isScheduling', target: 'scheduling' }, { target: 'sending' }],
    // Back to the form with keyboard focus on the button that asked, not lost with the confirmation.
    'compose.cancel': { target: 'form.editing', actions: 'focusSubmit' },
    'page.leave': ASK_BEFORE_LEAVING,
  },
});

/**
 * `sending` and `scheduling`: the same call with the same key, the same outcomes; only the actor and what
 * is sent differ (the toast says which it was, and who nothing reaches). A 422 or a quota refusal goes
 * back to the form with the fields marked; anything else is `form.failed`, where retry keeps everything.
 */
const dispatching = (src: 'sendMessage' | 'scheduleMessage', intent: ComposeIntent) =>
  composeSetup.createStateConfig({
    tags: ['busy', 'submitting'],
    invoke: {
      id: src,
      src,
      input: ({ context }) => ({
        input: composeInputOf(context, intent),
        draftId: context.draftId,
        replyToId: context.replyToId,
        // `ensureKey` made it on the way here; a retry from `failed` keeps it (`hasKey`).
        idempotencyKey: context.idempotencyKey ?? '',
      }),
      onDone: { target: 'sent', actions: { type: 'keepResult', params: ({ event }) => event.output } },
      onError: [
        REFUSED_BY_SEND_RULES,
        {
          guard: { type: 'isQuotaFailure', params: ({ event }) => toApiFailure(event.error) },
          target: 'form.editing',
          actions: [{ type: 'serverQuotaErrors', params: ({ event }) => toApiFailure(event.error) }, 'toastQuota'],
        },
        { target: 'form.failed', actions: [{ type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) }, TOAST_SEND_FAILED] },
      ],
    },
  });

// --- the draft save and leaving ---------------------------------------------------------------------

/** What a draft save sends, the same in `savingDraft` and when saving on the way out. */
const draftSaveInput = ({ context }: { context: ComposeContext }) => ({
  id: context.draftId,
  input: composeInputOf(context, 'draft'),
  replyToId: context.replyToId,
});

// A navigation asked for meanwhile waits for the save (leaving would abort it): then it goes, or,
// when something was typed meanwhile or the save failed, the author is asked.
const savingDraft = composeSetup.createStateConfig({
  tags: 'busy',
  entry: 'markSaving',
  invoke: {
    id: 'saveDraft',
    src: 'saveDraft',
    input: draftSaveInput,
    onDone: [
      {
        guard: and(['isLeaving', 'savedAll']),
        target: '#compose.left',
        actions: [{ type: 'keepDraft', params: ({ event }) => event.output }, 'clearBackup', 'leave'],
      },
      { guard: 'isLeaving', target: 'leaving', actions: { type: 'keepDraft', params: ({ event }) => event.output } },
      { target: 'editing', actions: { type: 'keepDraft', params: ({ event }) => event.output } },
    ],
    onError: [
      {
        guard: { type: 'isValidationFailure', params: ({ event }) => toApiFailure(event.error) },
        target: 'editing',
        actions: [{ type: 'serverFieldErrors', params: ({ event }) => toApiFailure(event.error) }, TOAST_REVIEW, 'forgetLeave'],
      },
      {
        guard: 'isLeaving',
        target: 'leaving',
        actions: [{ type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) }, TOAST_REQUEST_FAILED],
      },
      { target: 'editing', actions: [{ type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) }, TOAST_REQUEST_FAILED] },
    ],
  },
  on: { 'page.leave': { actions: 'keepLeave' } },
});

// "¿Guardar los cambios antes de salir?": nothing leaves until the author answers. Another
// navigation asked for meanwhile (Back pressed again) replaces the one held.
const leaving = composeSetup.createStateConfig({
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
        onDone: { target: '#compose.left', actions: [{ type: 'keepDraft', params: ({ event }) => event.output }, 'clearBackup', 'leave'] },
        onError: [
          // Refused (a title too long…): back to the form, the field marked, the navigation dropped.
          {
            guard: { type: 'isValidationFailure', params: ({ event }) => toApiFailure(event.error) },
            target: '#compose.form.editing',
            actions: [
              { type: 'serverFieldErrors', params: ({ event }) => toApiFailure(event.error) },
              TOAST_REVIEW,
              'focusFirstError',
              'forgetLeave',
            ],
          },
          // Not saved: asked again (discard or try again), nothing lost meanwhile.
          { target: 'asking', actions: [{ type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) }, TOAST_REQUEST_FAILED] },
        ],
      },
    },
  },
});

// --- the machine ------------------------------------------------------------------------------------

export const composeMachine = composeSetup.createMachine({
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
        onError: { target: 'loadFailed', actions: { type: 'keepFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    loadFailed: {
      on: { 'compose.retry': { target: 'loading' } },
    },
    form: {
      initial: 'editing',
      on: {
        'compose.change': { actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
        'template.insert': { actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
        'template.apply': { actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
        'template.open': { actions: 'openTemplates' },
        'compose.toggleChannel': { guard: 'isChannelAvailable', actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
        'picker.confirmed': { actions: ['setRecipients', 'saveBackup'] },
        'compose.removeRecipient': { actions: [{ type: 'edit', params: ({ event }) => event }, 'syncPicker', 'saveBackup'] },
        'compose.toggleOption': { actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
        'compose.toggleEmergency': { guard: 'canMarkEmergency', actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
        'compose.setSchedule': { actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
        'compose.clearSchedule': { actions: [{ type: 'edit', params: ({ event }) => event }, 'saveBackup'] },
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
              {
                guard: { type: 'isValid', params: ({ context }) => context.intent },
                target: '#compose.estimating',
                actions: ['clearErrors', 'ensureKey'],
              },
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
    sending: dispatching('sendMessage', 'send'),
    scheduling: dispatching('scheduleMessage', 'schedule'),
    sent: { type: 'final' },
    // Saved or discarded on the way out: the navigation is on its way, the page closes with it.
    left: { type: 'final' },
  },
});

export type ComposeMachine = typeof composeMachine;
export type ComposeSnapshot = SnapshotFrom<typeof composeMachine>;
