// Compose at /new (SPEC §1, §5, §8, §9): title, content, channels, recipients, attachments, options and
// schedule; save as draft, send now or schedule. Nothing typed is lost: every change is written to a
// local backup (restored on reload when newer than the draft), and a failed send keeps the form.
//
// Flow: loading → form.editing ⇄ form.savingDraft; compose.send / compose.schedule run the client rules
// in a guard (the "validating" step: failing it stays in editing with per-field errors and a toast, so no
// transient state is needed) → estimating (server cost and quota; problems → editing with errors.quota)
// → confirming (the author sees the cost and confirms) → sending | scheduling → sent (final: toast,
// navigate, counters, backup cleared) or form.failed.
// A send carries an idempotency key made on the first attempt and kept for every retry of the SAME
// message; any edit drops it, so a changed message is a new send.
//
// Attachments are `attachment` children (id `attachment-<n>`). The view talks to compose only; compose
// forwards retry/delete to the child and keeps each one's status from the child's reports, so every rule
// here reads compose's own context. Upload progress is read from the child's snapshot.
import { and, assertEvent, assign, emit, sendTo, setup, stopChild, type SnapshotFrom } from 'xstate';
import {
  estimate,
  fetchComposeStart,
  newIdempotencyKey,
  saveDraft,
  scheduleMessage,
  sendMessage,
  type ComposeSetup,
  type ComposeStart,
} from '../services/compose';
import { clearComposeBackup, clearDraftBackups, saveComposeBackup, type ComposeBackup } from '../services/compose-backup';
import { utcToZoned, zonedToUtc } from '../services/zoned-time';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  ATTACHMENTS_TOTAL_MAX_BYTES,
  CONTENT_MAX_LENGTH,
  MAX_PICKS,
  SMS_MAX_ATTACHMENTS,
  TITLE_MAX_LENGTH,
  type ComposeDraft,
  type ComposeInput,
  type ComposeProblem,
  type Estimate,
  type RecipientPick,
  type SendResult,
} from '../../shared/compose-contract';
import { serverMessage, toApiFailure, type ApiFailure } from '../services/http';
import type { AttachmentSummary } from '../../shared/messages-contract';
import { pickKey } from '../services/recipient-index';
import { smsText, type SmsText } from '../../shared/sms-text';
import type { CountsChangedEvent, NavigateEvent, ToastEvent } from './effects';
import type { MessageKey } from '../i18n';
import { attachmentMachine, type AttachmentActorRef, type AttachmentReport } from './attachment';
import type { ChannelCode } from '../../shared/codes';

export interface ComposeMachineInput {
  draftId: number | null;
  replyToId: number | null;
  /** localStorage key of this form's backup (per user and draft/reply/new). */
  backupKey: string;
}

export type ComposeField = 'title' | 'recipients' | 'channels' | 'content' | 'attachments' | 'schedule' | 'quota';

/** A field's error: an i18n key and its parameters (views bind `aria-invalid` to its presence). */
export interface FieldError {
  key: MessageKey;
  params?: Record<string, string | number>;
}

export type ComposeErrors = Partial<Record<ComposeField, FieldError>>;

export type AttachmentEntryStatus = 'uploading' | 'uploaded' | 'failed' | 'removing';

export interface AttachmentEntry {
  key: string;
  name: string;
  size: number;
  status: AttachmentEntryStatus;
  /** Set once uploaded. */
  attachment: AttachmentSummary | null;
  /** The file while it is new (handed to the child when it starts). */
  file: File | null;
  errorKey: MessageKey | null;
  /** The child actor (progress, for the view). */
  ref: AttachmentActorRef;
}

export interface Schedule {
  /** YYYY-MM-DD and HH:mm on the institution's wall clock. */
  date: string;
  time: string;
}

export type ComposeIntent = 'send' | 'schedule';

export interface ComposeContext {
  draftId: number | null;
  replyToId: number | null;
  backupKey: string;
  setup: ComposeSetup | null;
  title: string;
  content: string;
  channels: ChannelCode[];
  recipients: RecipientPick[];
  allowReplies: boolean;
  copyToSender: boolean;
  schedule: Schedule | null;
  attachments: AttachmentEntry[];
  /** Next child number (`attachment-<n>`). */
  nextAttachment: number;
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
}

type ChildReport = AttachmentReport;

export type ComposeEvent =
  | { type: 'compose.retry' }
  | { type: 'compose.change'; field: 'title' | 'content'; value: string }
  | { type: 'compose.toggleChannel'; code: ChannelCode }
  | { type: 'compose.setRecipients'; picks: RecipientPick[] }
  /** A chip's remove button. */
  | { type: 'compose.removeRecipient'; pick: RecipientPick }
  | { type: 'compose.toggleOption'; option: 'allowReplies' | 'copyToSender' }
  | { type: 'compose.setSchedule'; date: string; time: string }
  | { type: 'compose.clearSchedule' }
  | { type: 'compose.send' }
  | { type: 'compose.schedule' }
  | { type: 'compose.save' }
  /** Confirms the estimate shown in `confirming`; `compose.cancel` goes back to the form. */
  | { type: 'compose.confirm' }
  | { type: 'compose.cancel' }
  /** The templates issue's hook: appends a template's text to the content. */
  | { type: 'template.insert'; content: string }
  | { type: 'attachment.add'; files: File[] }
  | { type: 'attachment.remove'; key: string }
  | { type: 'attachment.retry'; key: string }
  | ChildReport;

export type ComposeEmitted = ToastEvent | NavigateEvent | CountsChangedEvent;

// --- rules (pure) -----------------------------------------------------------------------------------

/** Fallback zone when the quota answer is missing one (the product's default locale is es-CL). */
export const DEFAULT_TIMEZONE = 'America/Santiago';

export const ERROR_KEYS = {
  titleRequired: 'compose.errors.titleRequired',
  titleTooLong: 'compose.errors.titleTooLong',
  recipientsRequired: 'compose.errors.recipientsRequired',
  tooManyRecipients: 'compose.errors.tooManyRecipients',
  channelsRequired: 'compose.errors.channelsRequired',
  contentRequired: 'compose.errors.contentRequired',
  contentTooLong: 'compose.errors.contentTooLong',
  smsTooLong: 'compose.errors.smsTooLong',
  smsUnsupported: 'compose.errors.smsUnsupported',
  attachmentsUploading: 'compose.errors.attachmentsUploading',
  attachmentsFailed: 'compose.errors.attachmentsFailed',
  smsOneAttachment: 'compose.errors.smsOneAttachment',
  attachmentsTooLarge: 'compose.errors.attachmentsTooLarge',
  attachmentTooLarge: 'compose.attachment.tooLarge',
  attachmentType: 'compose.attachment.type',
  scheduleRequired: 'compose.errors.scheduleRequired',
  scheduleInvalid: 'compose.errors.scheduleInvalid',
  schedulePast: 'compose.errors.schedulePast',
  server: 'compose.errors.server',
} as const;

/** SPEC §8 quota texts, per problem code of the contract. */
export const PROBLEM_KEYS: Readonly<Record<ComposeProblem, MessageKey>> = {
  'sms.quota_exceeded': 'compose.errors.smsQuotaExceeded',
  'sms.insufficient': 'compose.errors.smsInsufficient',
  'email.insufficient': 'compose.errors.emailInsufficient',
  'whatsapp.insufficient': 'compose.errors.whatsappInsufficient',
};

export const TOAST_KEYS = {
  review: 'compose.errors.review',
  sent: 'messages.sent',
  scheduled: 'messages.scheduled',
  saved: 'messages.saved',
  sendFailed: 'error.send',
  requestFailed: 'error.request',
} as const;

const MB = 1024 * 1024;

export const timezoneOf = (context: Pick<ComposeContext, 'setup'>): string => context.setup?.quota.timezone ?? DEFAULT_TIMEZONE;

const signatureActive = (context: Pick<ComposeContext, 'setup'>): boolean => context.setup?.signature?.is_active === true;

/** Attachments that count towards the limits (a removal in progress no longer does). */
const liveAttachments = (context: Pick<ComposeContext, 'attachments'>) => context.attachments.filter((entry) => entry.status !== 'removing');

/** The client rules of SPEC §5 and §9 for a send or a schedule at `now`; empty when it may go. */
export function composeErrors(context: ComposeContext, intent: ComposeIntent, now: number): ComposeErrors {
  const errors: ComposeErrors = {};
  const title = context.title.trim();
  if (title === '') errors.title = { key: ERROR_KEYS.titleRequired };
  else if (title.length > TITLE_MAX_LENGTH) errors.title = { key: ERROR_KEYS.titleTooLong, params: { max: TITLE_MAX_LENGTH } };

  if (context.recipients.length === 0) errors.recipients = { key: ERROR_KEYS.recipientsRequired };
  else if (context.recipients.length > MAX_PICKS) errors.recipients = { key: ERROR_KEYS.tooManyRecipients, params: { max: MAX_PICKS } };

  if (context.channels.length === 0) errors.channels = { key: ERROR_KEYS.channelsRequired };

  const sms = context.channels.includes('sms');
  if (context.content.trim() === '') errors.content = { key: ERROR_KEYS.contentRequired };
  else if (context.content.length > CONTENT_MAX_LENGTH) errors.content = { key: ERROR_KEYS.contentTooLong, params: { max: CONTENT_MAX_LENGTH } };
  else if (sms) {
    const text = smsText(context.content, signatureActive(context));
    if (text.unsupported.length > 0) errors.content = { key: ERROR_KEYS.smsUnsupported, params: { chars: text.unsupported.join(' ') } };
    else if (!text.ok) errors.content = { key: ERROR_KEYS.smsTooLong, params: { units: text.units, limit: text.limit } };
  }

  const live = liveAttachments(context);
  const total = live.reduce((sum, entry) => sum + entry.size, 0);
  if (live.some((entry) => entry.status === 'uploading')) errors.attachments = { key: ERROR_KEYS.attachmentsUploading };
  else if (live.some((entry) => entry.status === 'failed')) errors.attachments = { key: ERROR_KEYS.attachmentsFailed };
  else if (sms && live.length > SMS_MAX_ATTACHMENTS) errors.attachments = { key: ERROR_KEYS.smsOneAttachment, params: { max: SMS_MAX_ATTACHMENTS } };
  else if (total > ATTACHMENTS_TOTAL_MAX_BYTES) errors.attachments = { key: ERROR_KEYS.attachmentsTooLarge, params: { max: ATTACHMENTS_TOTAL_MAX_BYTES / MB } };

  if (intent === 'schedule') {
    if (context.schedule === null) errors.schedule = { key: ERROR_KEYS.scheduleRequired };
    else {
      const at = zonedToUtc(context.schedule.date, context.schedule.time, timezoneOf(context));
      if (at === null) errors.schedule = { key: ERROR_KEYS.scheduleInvalid };
      else if (Date.parse(at) <= now) errors.schedule = { key: ERROR_KEYS.schedulePast };
    }
  }
  return errors;
}

const hasErrors = (errors: ComposeErrors) => Object.keys(errors).length > 0;

/** Extension check of ATTACHMENT_TYPES, so an obviously wrong file is refused before uploading it. */
function allowedType(file: File): boolean {
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  return Object.values(ATTACHMENT_TYPES).some((extensions) => extensions.includes(extension));
}

/** Which of `files` may be added now (SPEC §9), and the error for the first one refused. */
export function admitFiles(context: ComposeContext, files: readonly File[]): { accepted: File[]; error: FieldError | null } {
  const accepted: File[] = [];
  let error: FieldError | null = null;
  const live = liveAttachments(context);
  let total = live.reduce((sum, entry) => sum + entry.size, 0);
  let count = live.length;
  const sms = context.channels.includes('sms');
  for (const file of files) {
    let refusal: FieldError | null = null;
    if (!allowedType(file)) refusal = { key: ERROR_KEYS.attachmentType, params: { name: file.name } };
    else if (file.size > ATTACHMENT_MAX_BYTES) refusal = { key: ERROR_KEYS.attachmentTooLarge, params: { name: file.name, max: ATTACHMENT_MAX_BYTES / MB } };
    else if (total + file.size > ATTACHMENTS_TOTAL_MAX_BYTES) refusal = { key: ERROR_KEYS.attachmentsTooLarge, params: { max: ATTACHMENTS_TOTAL_MAX_BYTES / MB } };
    else if (sms && count + 1 > SMS_MAX_ATTACHMENTS) refusal = { key: ERROR_KEYS.smsOneAttachment, params: { max: SMS_MAX_ATTACHMENTS } };
    if (refusal) {
      error ??= refusal;
      continue;
    }
    accepted.push(file);
    total += file.size;
    count += 1;
  }
  return { accepted, error };
}

/** What the server receives for a draft, a send or a schedule. */
export function composeInputOf(context: ComposeContext, intent: ComposeIntent | 'draft'): ComposeInput {
  const at = context.schedule ? zonedToUtc(context.schedule.date, context.schedule.time, timezoneOf(context)) : null;
  return {
    title: context.title,
    content: context.content,
    channels: context.channels,
    recipients: context.recipients,
    attachment_ids: context.attachments.flatMap((entry) => (entry.status === 'uploaded' && entry.attachment ? [entry.attachment.id] : [])),
    allow_replies: context.allowReplies,
    copy_to_sender: context.copyToSender,
    // A send now ignores a schedule typed but not used; a draft keeps it to show it when reopened.
    scheduled_at: intent === 'send' ? null : at,
  };
}

/** The local backup of the form as it is now. */
export function backupOf(context: ComposeContext, savedAt: number): ComposeBackup {
  return {
    title: context.title,
    content: context.content,
    channels: context.channels,
    recipients: context.recipients,
    attachments: context.attachments.flatMap((entry) => (entry.status === 'uploaded' && entry.attachment ? [entry.attachment] : [])),
    allowReplies: context.allowReplies,
    copyToSender: context.copyToSender,
    schedule: context.schedule,
    draftId: context.draftId,
    savedAt,
  };
}

/** Server 422 field names → compose fields; the server's messages are already Spanish. */
const SERVER_FIELDS: Readonly<Record<string, ComposeField>> = {
  title: 'title',
  recipients: 'recipients',
  channels: 'channels',
  content: 'content',
  attachments: 'attachments',
  attachment_ids: 'attachments',
  scheduled_at: 'schedule',
};

function serverErrors(failure: ApiFailure): ComposeErrors {
  const errors: ComposeErrors = {};
  for (const [name, messages] of Object.entries(failure.fieldErrors)) {
    const field = SERVER_FIELDS[name] ?? null;
    const message = messages[0];
    if (field && message !== undefined && !errors[field]) errors[field] = { key: ERROR_KEYS.server, params: { message } };
  }
  return errors;
}

function quotaError(problems: readonly string[], estimated: Estimate | null): FieldError | null {
  const problem = problems.find((code): code is ComposeProblem => code in PROBLEM_KEYS);
  if (!problem) return null;
  const sms = estimated?.sms;
  return sms ? { key: PROBLEM_KEYS[problem], params: { total: sms.total, remaining: sms.remaining, limit: sms.limit } } : { key: PROBLEM_KEYS[problem] };
}

const failureOf = (event: { error?: unknown }) => toApiFailure(event.error);
const isValidationFailure = (failure: ApiFailure) => failure.status === 422;
const isQuotaFailure = (failure: ApiFailure) => failure.code === 'compose.quota';

const EMPTY_FORM = {
  title: '',
  content: '',
  channels: [] as ChannelCode[],
  recipients: [] as RecipientPick[],
  allowReplies: false,
  copyToSender: false,
  schedule: null as Schedule | null,
};

/** The form a start restores: the backup when it is newer than the draft (or there is no draft). */
function restoredForm(start: ComposeStart, draftId: number | null) {
  const { setup: loaded, draft, backup } = start;
  const keep = (channels: ChannelCode[]) => channels.filter((code) => loaded.availableChannels.includes(code));
  const backupWins =
    backup !== null && (draft === null || backup.savedAt > Date.parse(draft.updated_at)) && (draftId === null || backup.draftId === draftId);
  if (backupWins) {
    return {
      form: { ...backup, channels: keep(backup.channels) },
      attachments: backup.attachments,
      draftId: draftId ?? backup.draftId,
      replyTo: null,
    };
  }
  if (draft) return { form: draftForm(draft, loaded, keep), attachments: draft.attachments, draftId: draft.id, replyTo: draft.reply_to_id };
  // A new reply: "Re: <title>" to whoever sent the original.
  const reply = start.reply ? { title: start.reply.title, recipients: start.reply.pick ? [start.reply.pick] : [] } : {};
  return { form: { ...EMPTY_FORM, ...reply }, attachments: [] as AttachmentSummary[], draftId, replyTo: null };
}

function draftForm(draft: ComposeDraft, loaded: ComposeSetup, keep: (channels: ChannelCode[]) => ChannelCode[]) {
  const schedule = draft.scheduled_at ? utcToZoned(draft.scheduled_at, loaded.quota.timezone) : null;
  return {
    title: draft.title,
    content: draft.content,
    channels: keep(draft.channels),
    recipients: draft.recipients,
    allowReplies: draft.allow_replies,
    copyToSender: draft.copy_to_sender,
    schedule,
  };
}

const entryIs = (context: ComposeContext, key: string, ...statuses: AttachmentEntryStatus[]) =>
  context.attachments.some((entry) => entry.key === key && statuses.includes(entry.status));

const updateEntry = (context: ComposeContext, key: string, change: Partial<AttachmentEntry>) =>
  context.attachments.map((entry) => (entry.key === key ? { ...entry, ...change } : entry));

/** Any edit: the field's error goes, the estimate is stale, and the next send is a new message. */
const edited = (context: ComposeContext, ...fields: ComposeField[]) => {
  const errors = { ...context.errors };
  for (const field of [...fields, 'quota' as const]) delete errors[field];
  return { errors, estimate: null, idempotencyKey: null };
};

/**
 * `sending` and `scheduling`: the same call with the same key, the same outcomes; only the actor, what
 * is sent and the success toast differ. A 422 or a quota refusal goes back to the form with the fields
 * marked; anything else is `form.failed`, where retry keeps everything.
 */
const dispatching = (src: 'sendMessage' | 'scheduleMessage', intent: ComposeIntent, successKey: MessageKey) =>
  ({
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
          { type: 'toast', params: { kind: 'success', key: successKey } },
          'navigateToResult',
          'clearBackup',
          'announceCounts',
        ],
      },
      onError: [
        { guard: 'isValidationFailure', target: 'form.editing', actions: ['serverFieldErrors', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
        { guard: 'isQuotaFailure', target: 'form.editing', actions: ['serverQuotaErrors', 'toastQuota'] },
        { target: 'form.failed', actions: ['keepFailure', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.sendFailed } }] },
      ],
    },
  }) as const;

// --- machine ----------------------------------------------------------------------------------------

export const composeMachine = setup({
  types: {
    context: {} as ComposeContext,
    events: {} as ComposeEvent,
    emitted: {} as ComposeEmitted,
    input: {} as ComposeMachineInput,
  },
  actors: { fetchComposeStart, saveDraft, estimate, sendMessage, scheduleMessage, attachment: attachmentMachine },
  actions: {
    /** On `xstate.done.actor.loadCompose`: the form from the backup or the draft, attachments as children. */
    restore: assign(({ context, spawn, self }, start: ComposeStart) => {
      const { form, attachments, draftId, replyTo } = restoredForm(start, context.draftId);
      let next = context.nextAttachment;
      const entries = attachments.map((attachment): AttachmentEntry => {
        next += 1;
        const key = `attachment-${next}`;
        const ref = spawn('attachment', { id: key, input: { key, name: attachment.name, size: attachment.size, parent: self } });
        return { key, name: attachment.name, size: attachment.size, status: 'uploaded', attachment, file: null, errorKey: null, ref };
      });
      return {
        setup: start.setup,
        ...form,
        draftId,
        replyToId: context.replyToId ?? replyTo,
        attachments: entries,
        nextAttachment: next,
      };
    }),
    /**
     * Children wait in `pending` until told what they are: a new file to upload, or one already on the
     * server. A plain action because how many children there are is only known at run time.
     */
    startChildren: ({ context }) => {
      for (const entry of context.attachments) {
        if (!entry.ref.getSnapshot().matches('pending')) continue;
        if (entry.attachment) entry.ref.send({ type: 'attachment.restore', summary: entry.attachment });
        else if (entry.file) entry.ref.send({ type: 'attachment.upload', file: entry.file });
      }
    },
    keepFailure: assign(({ event }) => ({ failure: failureOf(event as { error?: unknown }) })),
    change: assign(({ context, event }) => {
      assertEvent(event, 'compose.change');
      const value = event.field === 'title' ? { title: event.value } : { content: event.value };
      return { ...value, ...edited(context, event.field) };
    }),
    insertTemplate: assign(({ context, event }) => {
      assertEvent(event, 'template.insert');
      const content = context.content === '' ? event.content : `${context.content}\n${event.content}`;
      return { content, ...edited(context, 'content') };
    }),
    toggleChannel: assign(({ context, event }) => {
      assertEvent(event, 'compose.toggleChannel');
      const on = context.channels.includes(event.code);
      // Kept in the contract's order whatever the click order.
      const available = context.setup?.availableChannels ?? [];
      const channels = available.filter((code) => (code === event.code ? !on : context.channels.includes(code)));
      return { channels, ...edited(context, 'channels', 'content', 'attachments') };
    }),
    setRecipients: assign(({ context, event }) => {
      assertEvent(event, 'compose.setRecipients');
      return { recipients: event.picks, ...edited(context, 'recipients') };
    }),
    removeRecipient: assign(({ context, event }) => {
      assertEvent(event, 'compose.removeRecipient');
      const key = pickKey(event.pick);
      return { recipients: context.recipients.filter((pick) => pickKey(pick) !== key), ...edited(context, 'recipients') };
    }),
    toggleOption: assign(({ context, event }) => {
      assertEvent(event, 'compose.toggleOption');
      const value = event.option === 'allowReplies' ? { allowReplies: !context.allowReplies } : { copyToSender: !context.copyToSender };
      return { ...value, ...edited(context) };
    }),
    setSchedule: assign(({ context, event }) => {
      assertEvent(event, 'compose.setSchedule');
      return { schedule: { date: event.date, time: event.time }, ...edited(context, 'schedule') };
    }),
    clearSchedule: assign(({ context }) => ({ schedule: null, ...edited(context, 'schedule') })),
    addFiles: assign(({ context, event, spawn, self }) => {
      assertEvent(event, 'attachment.add');
      const { accepted, error } = admitFiles(context, event.files);
      let next = context.nextAttachment;
      const added = accepted.map((file): AttachmentEntry => {
        next += 1;
        const key = `attachment-${next}`;
        const ref = spawn('attachment', { id: key, input: { key, name: file.name, size: file.size, parent: self } });
        return { key, name: file.name, size: file.size, status: 'uploading', attachment: null, file, errorKey: null, ref };
      });
      const base = edited(context, 'attachments');
      return {
        attachments: [...context.attachments, ...added],
        nextAttachment: next,
        ...base,
        errors: error ? { ...base.errors, attachments: error } : base.errors,
      };
    }),
    /** An upload in progress or failed has nothing on the server: the child just stops. */
    stopEntry: stopChild(({ event }) => (event as { key: string }).key),
    dropEntry: assign(({ context, event }) => {
      assertEvent(event, ['attachment.remove', 'attachment.removed']);
      return { attachments: context.attachments.filter((entry) => entry.key !== event.key), ...edited(context, 'attachments') };
    }),
    markRemoving: assign(({ context, event }) => {
      assertEvent(event, 'attachment.remove');
      return { attachments: updateEntry(context, event.key, { status: 'removing', errorKey: null }), ...edited(context, 'attachments') };
    }),
    askDelete: sendTo(({ event }) => (event as { key: string }).key, { type: 'attachment.delete' }),
    markRetrying: assign(({ context, event }) => {
      assertEvent(event, 'attachment.retry');
      return { attachments: updateEntry(context, event.key, { status: 'uploading', errorKey: null }), ...edited(context, 'attachments') };
    }),
    askRetry: sendTo(({ event }) => (event as { key: string }).key, { type: 'attachment.retry' }),
    entryUploaded: assign(({ context, event }) => {
      assertEvent(event, 'attachment.uploaded');
      return { attachments: updateEntry(context, event.key, { status: 'uploaded', attachment: event.attachment, file: null, errorKey: null }) };
    }),
    entryUploadFailed: assign(({ context, event }) => {
      assertEvent(event, 'attachment.uploadFailed');
      return { attachments: updateEntry(context, event.key, { status: 'failed', errorKey: event.errorKey }) };
    }),
    entryDeleteFailed: assign(({ context, event }) => {
      assertEvent(event, 'attachment.deleteFailed');
      return { attachments: updateEntry(context, event.key, { status: 'uploaded', errorKey: event.errorKey }) };
    }),
    toastAttachmentError: emit(({ event }) => {
      assertEvent(event, ['attachment.uploadFailed', 'attachment.deleteFailed']);
      return { type: 'toast' as const, kind: 'error' as const, key: event.errorKey };
    }),
    intend: assign((_, intent: ComposeIntent) => ({ intent })),
    showErrors: assign(({ context }, intent: ComposeIntent) => ({ errors: composeErrors(context, intent, Date.now()) })),
    showErrorsForIntent: assign(({ context }) => ({ errors: composeErrors(context, context.intent, Date.now()) })),
    clearErrors: assign({ errors: {}, failure: null }),
    ensureKey: assign(({ context }) => ({ idempotencyKey: context.idempotencyKey ?? newIdempotencyKey() })),
    /** On `xstate.done.actor.estimate`. */
    keepEstimate: assign((_, estimated: Estimate) => ({ estimate: estimated })),
    quotaErrors: assign(({ context }, estimated: Estimate) => {
      const quota = quotaError(estimated.problems, estimated);
      return { errors: quota ? { ...context.errors, quota } : context.errors };
    }),
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
    keepDraft: assign((_, draft: ComposeDraft) => ({ draftId: draft.id })),
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
    isValidForIntent: ({ context }) => !hasErrors(composeErrors(context, context.intent, Date.now())),
    hasKey: ({ context }) => context.idempotencyKey !== null,
    hasProblems: (_, estimated: Estimate) => estimated.problems.length > 0,
    isScheduling: ({ context }) => context.intent === 'schedule',
    isValidationFailure: ({ event }) => isValidationFailure(failureOf(event as { error?: unknown })),
    isQuotaFailure: ({ event }) => isQuotaFailure(failureOf(event as { error?: unknown })),
    isChannelAvailable: ({ context, event }) => {
      assertEvent(event, 'compose.toggleChannel');
      return context.setup?.availableChannels.includes(event.code) === true;
    },
    isUploaded: ({ context, event }) => {
      assertEvent(event, ['attachment.remove']);
      return entryIs(context, event.key, 'uploaded');
    },
    isNotOnServer: ({ context, event }) => {
      assertEvent(event, ['attachment.remove']);
      return entryIs(context, event.key, 'uploading', 'failed');
    },
    isFailedUpload: ({ context, event }) => {
      assertEvent(event, 'attachment.retry');
      return entryIs(context, event.key, 'failed');
    },
    /** A child's report about an entry still in the state it reports on. */
    isReportFor: ({ context, event }, statuses: AttachmentEntryStatus[]) =>
      'key' in event && typeof event.key === 'string' && entryIs(context, event.key, ...statuses),
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
    nextAttachment: 0,
    errors: {},
    intent: 'send',
    estimate: null,
    idempotencyKey: null,
    result: null,
    failure: null,
  }),
  // Child reports can arrive in any state (an upload finishing while a draft is being saved).
  on: {
    'attachment.uploaded': { guard: { type: 'isReportFor', params: ['uploading'] }, actions: ['entryUploaded', 'saveBackup'] },
    'attachment.uploadFailed': { guard: { type: 'isReportFor', params: ['uploading'] }, actions: ['entryUploadFailed', 'toastAttachmentError'] },
    'attachment.removed': { guard: { type: 'isReportFor', params: ['removing'] }, actions: ['stopEntry', 'dropEntry', 'saveBackup'] },
    'attachment.deleteFailed': { guard: { type: 'isReportFor', params: ['removing'] }, actions: ['entryDeleteFailed', 'toastAttachmentError'] },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadCompose',
        src: 'fetchComposeStart',
        input: ({ context }) => ({ draftId: context.draftId, replyToId: context.replyToId, backupKey: context.backupKey }),
        onDone: { target: 'form', actions: [{ type: 'restore', params: ({ event }) => event.output }, 'startChildren'] },
        onError: { target: 'loadFailed', actions: 'keepFailure' },
      },
    },
    loadFailed: {
      on: { 'compose.retry': { target: 'loading' } },
    },
    form: {
      initial: 'editing',
      on: {
        'compose.change': { actions: ['change', 'saveBackup'] },
        'template.insert': { actions: ['insertTemplate', 'saveBackup'] },
        'compose.toggleChannel': { guard: 'isChannelAvailable', actions: ['toggleChannel', 'saveBackup'] },
        'compose.setRecipients': { actions: ['setRecipients', 'saveBackup'] },
        'compose.removeRecipient': { actions: ['removeRecipient', 'saveBackup'] },
        'compose.toggleOption': { actions: ['toggleOption', 'saveBackup'] },
        'compose.setSchedule': { actions: ['setSchedule', 'saveBackup'] },
        'compose.clearSchedule': { actions: ['clearSchedule', 'saveBackup'] },
        'attachment.add': { actions: ['addFiles', 'startChildren', 'saveBackup'] },
        'attachment.remove': [
          { guard: 'isUploaded', actions: ['markRemoving', 'askDelete', 'saveBackup'] },
          { guard: 'isNotOnServer', actions: ['stopEntry', 'dropEntry', 'saveBackup'] },
        ],
        'attachment.retry': { guard: 'isFailedUpload', actions: ['markRetrying', 'askRetry', 'saveBackup'] },
      },
      states: {
        editing: {
          on: {
            'compose.send': [
              { guard: { type: 'isValid', params: 'send' }, target: '#compose.estimating', actions: [{ type: 'intend', params: 'send' }, 'clearErrors', 'ensureKey'] },
              { actions: [{ type: 'intend', params: 'send' }, { type: 'showErrors', params: 'send' }, { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
            ],
            'compose.schedule': [
              { guard: { type: 'isValid', params: 'schedule' }, target: '#compose.estimating', actions: [{ type: 'intend', params: 'schedule' }, 'clearErrors', 'ensureKey'] },
              { actions: [{ type: 'intend', params: 'schedule' }, { type: 'showErrors', params: 'schedule' }, { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
            ],
            'compose.save': { target: 'savingDraft' },
          },
        },
        savingDraft: {
          invoke: {
            id: 'saveDraft',
            src: 'saveDraft',
            input: ({ context }) => ({ id: context.draftId, input: composeInputOf(context, 'draft'), replyToId: context.replyToId }),
            onDone: {
              target: 'editing',
              actions: [
                { type: 'keepDraft', params: ({ event }) => event.output },
                'saveBackup',
                { type: 'toast', params: { kind: 'success', key: TOAST_KEYS.saved } },
                'announceCounts',
              ],
            },
            onError: [
              { guard: 'isValidationFailure', target: 'editing', actions: ['serverFieldErrors', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
              { target: 'editing', actions: ['keepFailure', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.requestFailed } }] },
            ],
          },
        },
        // The send failed (network, server): everything typed is here. Retry resends the same message
        // with the same key; after an edit (no key any more) it is a new message, checked again first.
        failed: {
          on: {
            'compose.retry': [
              { guard: and(['hasKey', 'isScheduling']), target: '#compose.scheduling', actions: 'clearErrors' },
              { guard: 'hasKey', target: '#compose.sending', actions: 'clearErrors' },
              { guard: 'isValidForIntent', target: '#compose.estimating', actions: ['clearErrors', 'ensureKey'] },
              { target: 'editing', actions: ['showErrorsForIntent', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
            ],
            'compose.send': [
              { guard: { type: 'isValid', params: 'send' }, target: '#compose.estimating', actions: [{ type: 'intend', params: 'send' }, 'clearErrors', 'ensureKey'] },
              { target: 'editing', actions: [{ type: 'intend', params: 'send' }, { type: 'showErrors', params: 'send' }, { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
            ],
            'compose.schedule': [
              { guard: { type: 'isValid', params: 'schedule' }, target: '#compose.estimating', actions: [{ type: 'intend', params: 'schedule' }, 'clearErrors', 'ensureKey'] },
              { target: 'editing', actions: [{ type: 'intend', params: 'schedule' }, { type: 'showErrors', params: 'schedule' }, { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
            ],
            'compose.save': { target: 'savingDraft' },
          },
        },
      },
    },
    estimating: {
      invoke: {
        id: 'estimate',
        src: 'estimate',
        input: ({ context }) => composeInputOf(context, context.intent),
        onDone: [
          {
            guard: { type: 'hasProblems', params: ({ event }) => event.output },
            target: 'form.editing',
            actions: [{ type: 'keepEstimate', params: ({ event }) => event.output }, { type: 'quotaErrors', params: ({ event }) => event.output }, 'toastQuota'],
          },
          { target: 'confirming', actions: { type: 'keepEstimate', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: 'isValidationFailure', target: 'form.editing', actions: ['serverFieldErrors', { type: 'toast', params: { kind: 'error', key: TOAST_KEYS.review } }] },
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
        'compose.cancel': { target: 'form.editing' },
      },
    },
    sending: dispatching('sendMessage', 'send', TOAST_KEYS.sent),
    scheduling: dispatching('scheduleMessage', 'schedule', TOAST_KEYS.scheduled),
    sent: { type: 'final' },
  },
});

export type ComposeMachine = typeof composeMachine;
export type ComposeSnapshot = SnapshotFrom<typeof composeMachine>;

// --- selectors (one primitive each, or a context reference that only changes with its value) ----------

export const selectIsLoading = (snapshot: ComposeSnapshot): boolean => snapshot.matches('loading');
export const selectLoadFailed = (snapshot: ComposeSnapshot): boolean => snapshot.matches('loadFailed');
/** The form is shown (editing, saving a draft, or after a failed send). */
export const selectIsForm = (snapshot: ComposeSnapshot): boolean => snapshot.matches('form');
export const selectIsEditing = (snapshot: ComposeSnapshot): boolean => snapshot.matches({ form: 'editing' });
export const selectIsSavingDraft = (snapshot: ComposeSnapshot): boolean => snapshot.matches({ form: 'savingDraft' });
export const selectIsEstimating = (snapshot: ComposeSnapshot): boolean => snapshot.matches('estimating');
/** The estimate is shown and waits for compose.confirm / compose.cancel. */
export const selectIsConfirming = (snapshot: ComposeSnapshot): boolean => snapshot.matches('confirming');
export const selectIsSending = (snapshot: ComposeSnapshot): boolean => snapshot.matches('sending');
export const selectIsScheduling = (snapshot: ComposeSnapshot): boolean => snapshot.matches('scheduling');
export const selectHasFailed = (snapshot: ComposeSnapshot): boolean => snapshot.matches({ form: 'failed' });
export const selectIsSent = (snapshot: ComposeSnapshot): boolean => snapshot.matches('sent');
/** A server call for the whole form is running: buttons disabled. */
export const selectIsBusy = (snapshot: ComposeSnapshot): boolean =>
  snapshot.matches({ form: 'savingDraft' }) || snapshot.matches('estimating') || snapshot.matches('sending') || snapshot.matches('scheduling');
/** Inputs are read-only while the message is being checked and sent. */
export const selectIsLocked = (snapshot: ComposeSnapshot): boolean => !snapshot.matches('form');

export const selectDraftId = (snapshot: ComposeSnapshot): number | null => snapshot.context.draftId;
export const selectReplyToId = (snapshot: ComposeSnapshot): number | null => snapshot.context.replyToId;
export const selectTitle = (snapshot: ComposeSnapshot): string => snapshot.context.title;
export const selectContent = (snapshot: ComposeSnapshot): string => snapshot.context.content;
export const selectChannels = (snapshot: ComposeSnapshot): ChannelCode[] => snapshot.context.channels;
export const selectHasChannel = (snapshot: ComposeSnapshot, code: ChannelCode): boolean => snapshot.context.channels.includes(code);
const NO_CHANNELS: ChannelCode[] = [];
export const selectAvailableChannels = (snapshot: ComposeSnapshot): ChannelCode[] => snapshot.context.setup?.availableChannels ?? NO_CHANNELS;
export const selectRecipients = (snapshot: ComposeSnapshot): RecipientPick[] => snapshot.context.recipients;
export const selectRecipientCount = (snapshot: ComposeSnapshot): number => snapshot.context.recipients.length;
export const selectAllowReplies = (snapshot: ComposeSnapshot): boolean => snapshot.context.allowReplies;
export const selectCopyToSender = (snapshot: ComposeSnapshot): boolean => snapshot.context.copyToSender;
export const selectScheduleDate = (snapshot: ComposeSnapshot): string => snapshot.context.schedule?.date ?? '';
export const selectScheduleTime = (snapshot: ComposeSnapshot): string => snapshot.context.schedule?.time ?? '';
export const selectHasSchedule = (snapshot: ComposeSnapshot): boolean => snapshot.context.schedule !== null;
/** The institution's time zone (IANA name): schedule inputs are on its wall clock. */
export const selectTimezone = (snapshot: ComposeSnapshot): string => timezoneOf(snapshot.context);
export const selectSignatureActive = (snapshot: ComposeSnapshot): boolean => signatureActive(snapshot.context);
/** The active signature's text, or null. */
export const selectSignature = (snapshot: ComposeSnapshot): string | null =>
  signatureActive(snapshot.context) ? (snapshot.context.setup?.signature?.signature ?? null) : null;

let smsCache: { content: string; active: boolean; result: SmsText } | null = null;
/** The live SMS counter (same object while content and signature are unchanged). */
export const selectSmsText = (snapshot: ComposeSnapshot): SmsText => {
  const content = snapshot.context.content;
  const active = signatureActive(snapshot.context);
  if (smsCache?.content !== content || smsCache.active !== active) smsCache = { content, active, result: smsText(content, active) };
  return smsCache.result;
};
export const selectSmsUnits = (snapshot: ComposeSnapshot): number => selectSmsText(snapshot).units;
export const selectSmsLimit = (snapshot: ComposeSnapshot): number => selectSmsText(snapshot).limit;
export const selectSmsOk = (snapshot: ComposeSnapshot): boolean => selectSmsText(snapshot).ok;
/** Characters SMS cannot carry, space-separated ('' when none). */
export const selectSmsUnsupported = (snapshot: ComposeSnapshot): string => selectSmsText(snapshot).unsupported.join(' ');

export const selectErrors = (snapshot: ComposeSnapshot): ComposeErrors => snapshot.context.errors;
export const selectError = (snapshot: ComposeSnapshot, field: ComposeField): FieldError | undefined => snapshot.context.errors[field];
export const selectHasError = (snapshot: ComposeSnapshot, field: ComposeField): boolean => snapshot.context.errors[field] !== undefined;

export const selectAttachments = (snapshot: ComposeSnapshot): AttachmentEntry[] => snapshot.context.attachments;
export const selectAttachmentsBytes = (snapshot: ComposeSnapshot): number =>
  liveAttachments(snapshot.context).reduce((sum, entry) => sum + entry.size, 0);

export const selectEstimate = (snapshot: ComposeSnapshot): Estimate | null => snapshot.context.estimate;
/** SMS this message uses per the last estimate (null before one, or without SMS). */
export const selectSmsTotal = (snapshot: ComposeSnapshot): number | null => snapshot.context.estimate?.sms?.total ?? null;
/** SMS left this month: the estimate's figure when there is one, the quota's otherwise. */
export const selectSmsRemaining = (snapshot: ComposeSnapshot): number | null =>
  snapshot.context.estimate?.sms?.remaining ?? snapshot.context.setup?.quota.sms.remaining ?? null;
export const selectSmsMonthlyLimit = (snapshot: ComposeSnapshot): number | null => snapshot.context.setup?.quota.sms.limit ?? null;
/** What the server said about the last failure (Spanish), or null when it said nothing a user should read. */
export const selectFailureMessage = (snapshot: ComposeSnapshot): string | null =>
  snapshot.context.failure ? serverMessage(snapshot.context.failure) : null;
export const selectResult = (snapshot: ComposeSnapshot): SendResult | null => snapshot.context.result;
