// The compose machine's actions and guards (compose/compose.ts names them in `setup`), and what its draft save
// sends. They run compose/rules.ts on compose's context; the effects are emitted, never performed.
import { assertEvent, assign, emit, enqueueActions, sendTo, type AnyActorRef } from 'xstate';
import type { ComposeDraft, Estimate, SendResult } from '../../../shared/compose-contract';
import type { MessageKey } from '../../i18n';
import { newIdempotencyKey, type ComposeStart } from '../../services/compose/compose';
import { clearComposeBackup, clearDraftBackups, draftBackupKey, saveComposeBackup } from '../../services/compose/backup';
import { toApiFailure } from '../../services/http/client';
import { entryIs, restoredEntries } from './attachment-list';
import type { ComposeContext, ComposeEvent } from './compose';
import { applyEdit, edited, type FormEdit } from './edit-rules';
import { isQuotaFailure, isValidationFailure, quotaError, reachError, resultToast, serverErrors, TOAST_KEYS } from './outcome-rules';
import {
  admitFiles,
  backupOf,
  composeErrors,
  composeInputOf,
  firstInvalidField,
  formFingerprint,
  hasErrors,
  SUBMIT_BUTTON_ID,
  type ComposeIntent,
} from './rules';
import { canMarkEmergency } from './quota-rules';
import { restoredForm, savedFingerprintOf } from './start-rules';
import { formHasText } from '../templates/rules';
import type { Effect } from '../app/effects';

type Ctx = ComposeContext;
type Ev = ComposeEvent;
type Args = { context: Ctx; event: Ev };

// `assign`, `emit`, `sendTo` and `enqueueActions` typed for compose (inside `setup` it types them itself).
const update = <P = undefined>(assignment: Parameters<typeof assign<Ctx, Ev, P, Ev, never>>[0]) => assign<Ctx, Ev, P, Ev, never>(assignment);
const say = <P = undefined>(effect: Parameters<typeof emit<Ctx, Ev, P, Ev, Effect>>[0]) => emit<Ctx, Ev, P, Ev, Effect>(effect);
const tell = <P = undefined>(to: string, event: Parameters<typeof sendTo<Ctx, Ev, P, AnyActorRef, Ev, never, never>>[1]) =>
  sendTo<Ctx, Ev, P, AnyActorRef, Ev, never, never>(to, event);
const queue = (collect: Parameters<typeof enqueueActions<Ctx, Ev, undefined, Ev, never, never, never, never, Effect>>[0]) =>
  enqueueActions<Ctx, Ev, undefined, Ev, never, never, never, never, Effect>(collect);

const failureOf = (event: { error?: unknown }) => toApiFailure(event.error);
const keyOf = (event: ComposeEvent) => {
  assertEvent(event, ['attachment.remove', 'attachment.retry']);
  return event.key;
};

/** What a draft save sends, the same in `savingDraft` and when saving on the way out. */
export const draftSaveInput = ({ context }: { context: ComposeContext }) => ({ id: context.draftId, input: composeInputOf(context, 'draft'), replyToId: context.replyToId });

export const composeActions = {
  /** "Usar plantilla": the picker opens, knowing whether choosing replaces text already typed. */
  openTemplates: tell('templates', ({ context }: Args) => ({ type: 'templates.open', replaces: formHasText(context) })),
  /** `/new?template=ID`: the picker brings that template, asking first if the restored form has text. */
  useStartTemplate: queue(({ context, enqueue }) => {
    if (context.templateId !== null) enqueue.sendTo('templates', { type: 'templates.use', id: context.templateId, replaces: formHasText(context) });
  }),
  /** On `xstate.done.actor.loadCompose`: the form from the backup or the draft, and what the server has. */
  restore: update<ComposeStart>(({ context }, start: ComposeStart) => {
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
  relay: say(({ event }) => {
    assertEvent(event, 'effect.relay');
    return event.effect;
  }),
  keepFailure: update(({ event }) => ({ failure: failureOf(event as { error?: unknown }) })),
  edit: update(({ context, event }) => applyEdit(context, event as FormEdit)),
  setRecipients: update(({ context, event }) => {
    assertEvent(event, 'picker.confirmed');
    return { recipients: event.picks, ...edited(context, 'recipients') };
  }),
  /** The picker's selection (and its empty-course flags) follows the chips. */
  syncPicker: tell('picker', ({ context }: Args) => ({ type: 'picker.sync' as const, picks: context.recipients })),
  /** The files the rules admit go to the list; the first one refused says why on the field. */
  addFiles: queue(({ context, event, enqueue }) => {
    assertEvent(event, 'attachment.add');
    const { accepted, error } = admitFiles(context, event.files);
    const base = edited(context, 'attachments');
    enqueue.assign({ ...base, errors: error ? { ...base.errors, attachments: error } : base.errors });
    if (accepted.length > 0) enqueue.sendTo('attachments', { type: 'attachments.add', files: accepted });
  }),
  editAttachments: update(({ context }) => edited(context, 'attachments')),
  askRemove: tell('attachments', ({ event }: Args) => ({ type: 'attachments.remove' as const, key: keyOf(event) })),
  askRetry: tell('attachments', ({ event }: Args) => ({ type: 'attachments.retry' as const, key: keyOf(event) })),
  keepAttachments: update(({ event }) => {
    assertEvent(event, 'attachments.changed');
    return { attachments: event.entries };
  }),
  intend: update<ComposeIntent>((_, intent: ComposeIntent) => ({ intent })),
  showErrors: update(({ context }) => ({ errors: composeErrors(context, context.intent, Date.now()) })),
  /** Keyboard users land on what to fix (the edge moves the focus once the errors are on screen). */
  focusSubmit: say({ type: 'focus', target: SUBMIT_BUTTON_ID }),
  focusFirstError: queue(({ context, enqueue }) => {
    const target = firstInvalidField(context, context.errors);
    if (target !== null) enqueue.emit({ type: 'focus', target });
  }),
  clearErrors: update({ errors: {}, failure: null }),
  ensureKey: update(({ context }) => ({ idempotencyKey: context.idempotencyKey ?? newIdempotencyKey() })),
  /** A failed estimate: this form's cost is unknown again, so a retry asks for it before anything goes out. */
  forgetEstimate: update({ estimate: null }),
  /**
   * On `xstate.done.actor.estimate`: kept for "uses N SMS of M left", a quota problem names its field,
   * and a message nobody would get says so (`reach`).
   */
  keepEstimate: update<Estimate>(({ context }, estimated: Estimate) => {
    const quota = quotaError(estimated.problems, estimated);
    const reach = reachError(estimated);
    return { estimate: estimated, errors: { ...context.errors, ...(quota ? { quota } : {}), ...(reach ? { reach } : {}) } };
  }),
  /** The picker shows the estimate's people count for the chips it counted. */
  reportEstimate: tell<Estimate>('picker', ({ context }: Args, estimated: Estimate) => ({
    type: 'picker.estimated' as const,
    picks: context.recipients,
    people: estimated.recipients,
  })),
  toastReach: say(({ context }) => ({
    type: 'toast' as const,
    kind: 'error' as const,
    key: context.errors.reach?.key ?? TOAST_KEYS.review,
    ...(context.errors.reach?.params ? { params: context.errors.reach.params } : {}),
  })),
  /** "Mensaje entregado para envío" (or programado), and how many no chosen channel reaches. */
  toastResult: say(({ context }) => ({ type: 'toast' as const, ...resultToast(context.result as SendResult) })),
  /** On a 409 `compose.quota`: `errors.quota` lists the problem codes. */
  serverQuotaErrors: update(({ context, event }) => {
    const failure = failureOf(event as { error?: unknown });
    const quota = quotaError(failure.fieldErrors.quota ?? [], context.estimate);
    return { failure, errors: quota ? { ...context.errors, quota } : context.errors };
  }),
  serverFieldErrors: update(({ event }) => {
    const failure = failureOf(event as { error?: unknown });
    return { failure, errors: serverErrors(failure) };
  }),
  /** The draft's id; the backup moves from the form's key (new, reply) to the draft's (`saveBackup` writes it). */
  keepDraft: update<ComposeDraft>(({ context }, draft: ComposeDraft) => ({
    draftId: draft.id,
    backupKey: draftBackupKey(context.backupKey, draft.id),
    savedForm: context.savingForm ?? context.savedForm,
    savingForm: null,
  })),
  /** Before `keepDraft`: the backup under the form's own key goes (it moves to the draft's). */
  dropFormBackup: ({ context }: Args, draft: ComposeDraft) => {
    if (draftBackupKey(context.backupKey, draft.id) !== context.backupKey) clearComposeBackup(context.backupKey);
  },
  /** What this save sends: once saved, that is what the server has. */
  markSaving: update(({ context }) => ({ savingForm: formFingerprint(context) })),
  keepLeave: update(({ event }) => {
    assertEvent(event, 'page.leave');
    const { type: _, ...request } = event;
    return { leaving: request };
  }),
  forgetLeave: update({ leaving: null }),
  /** Lets the held navigation through (the edge performs it). */
  leave: say(({ context }) => ({ type: 'navigate' as const, to: context.leaving?.to ?? '/', ...(context.leaving?.replace ? { replace: true } : {}), ...(context.leaving?.back ? { back: true } : {}) })),
  keepResult: update<SendResult>((_, result: SendResult) => ({ result })),
  toast: say<{ kind: 'success' | 'error'; key: MessageKey }>((_, params: { kind: 'success' | 'error'; key: MessageKey }) => ({ type: 'toast' as const, kind: params.kind, key: params.key })),
  toastQuota: say(({ context }) => ({
    type: 'toast' as const,
    kind: 'error' as const,
    key: context.errors.quota?.key ?? TOAST_KEYS.review,
    ...(context.errors.quota?.params ? { params: context.errors.quota.params } : {}),
  })),
  navigateToResult: say(({ context }) => ({
    type: 'navigate' as const,
    to: context.result?.kind === 'scheduled' ? `/scheduled/message/${context.result.id}` : `/sent/message/${context.result?.id ?? ''}`,
  })),
  /** localStorage, through the service helpers; not in context, so the form itself stays pure. */
  saveBackup: ({ context }: Args) => saveComposeBackup(context.backupKey, backupOf(context, Date.now())),
  clearBackup: ({ context }: Args) => {
    clearComposeBackup(context.backupKey);
    if (context.draftId !== null) clearDraftBackups(context.draftId);
  },
  /** SPEC §7: folder counters reload. */
  announceCounts: say({ type: 'counts.changed' }),
};

export const composeGuards = {
  isValid: ({ context }: Args, intent: ComposeIntent) => !hasErrors(composeErrors(context, intent, Date.now())),
  hasKey: ({ context }: Args) => context.idempotencyKey !== null,
  /**
   * In `failed`: the author confirmed this very form's estimate (a failed estimate forgets it, an edit
   * drops it), so what failed is the send itself and a retry may resend it.
   */
  isConfirmed: ({ context }: Args) => context.estimate !== null,
  /** Leaving now would lose something: the form is not what the server has. */
  hasUnsavedChanges: ({ context }: Args) => formFingerprint(context) !== context.savedForm,
  isLeaving: ({ context }: Args) => context.leaving !== null,
  /** The save that just ended sent the form as it is now (nothing was typed meanwhile). */
  savedAll: ({ context }: Args) => formFingerprint(context) === context.savingForm,
  hasProblems: (_: Args, estimated: Estimate) => estimated.problems.length > 0,
  reachesNobody: (_: Args, estimated: Estimate) => reachError(estimated) !== null,
  /** No estimate of this very form (any edit drops it) has said that nobody would get the message. */
  canReach: ({ context }: Args) => context.estimate === null || reachError(context.estimate) === null,
  isScheduling: ({ context }: Args) => context.intent === 'schedule',
  isValidationFailure: ({ event }: Args) => isValidationFailure(failureOf(event as { error?: unknown })),
  isQuotaFailure: ({ event }: Args) => isQuotaFailure(failureOf(event as { error?: unknown })),
  /** The "Emergencia" mark: offered while the school sends SMS (compose/quota-rules.ts). */
  canMarkEmergency: ({ context }: Args) => canMarkEmergency(context),
  isChannelAvailable: ({ context, event }: Args) => {
    assertEvent(event, 'compose.toggleChannel');
    return context.setup?.availableChannels.includes(event.code) === true;
  },
  /** Not already being removed (the list says which ones need a server call). */
  canRemove: ({ context, event }: Args) => entryIs(context.attachments, keyOf(event), 'uploaded', 'uploading', 'failed'),
  isFailedUpload: ({ context, event }: Args) => entryIs(context.attachments, keyOf(event), 'failed'),
};

/** The toasts transitions name (by the `toast` action above). */
export const TOAST_REVIEW = { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } } as const;
export const TOAST_REQUEST_FAILED = { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.requestFailed } } as const;
export const TOAST_SEND_FAILED = { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.sendFailed } } as const;
