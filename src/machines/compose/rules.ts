// The compose form's rules (SPEC §5, §8, §9), pure: what a send or a schedule needs, which files may be
// added, what the server and the local backup receive (which form a start restores is compose/start-rules.ts).
// What an edit does to the form is compose/edit-rules.ts; what compose makes of the server's answers
// (estimate problems, refusals mapped onto the fields, the result's toast), compose/outcome-rules.ts. The
// compose machine (compose/compose.ts) runs them on its own context; views only show their outcome.
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  ATTACHMENTS_TOTAL_MAX_BYTES,
  CONTENT_MAX_LENGTH,
  MAX_PICKS,
  SMS_MAX_ATTACHMENTS,
  TITLE_MAX_LENGTH,
  type ComposeInput,
  type RecipientPick,
} from '../../../shared/compose-contract';
import type { ChannelCode } from '../../../shared/codes';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import { hasFields } from '../../../shared/merge-fields';
import { smsText } from '../../../shared/sms-text';
import type { MessageKey } from '../../i18n';
import type { ComposeBackup } from '../../services/compose/backup';
import type { ComposeSetup } from '../../services/compose/compose';
import { pickKey } from '../../../shared/recipient-index';
import { zonedToUtc } from '../../../shared/zoned-time';

/** The form's fields, plus what the estimate finds: `quota` (SPEC §8 problems) and `reach` (nobody would get it). */
export type ComposeField = 'title' | 'recipients' | 'channels' | 'content' | 'attachments' | 'schedule' | 'quota' | 'reach';

/** A field's error: an i18n key and its parameters (views bind `aria-invalid` to its presence). */
export interface FieldError {
  key: MessageKey;
  params?: Record<string, string | number>;
}

export type ComposeErrors = Partial<Record<ComposeField, FieldError>>;

export type AttachmentEntryStatus = 'uploading' | 'uploaded' | 'failed' | 'removing';

/** One attachment as the rules see it (the attachment list reports these; see compose/attachment-list.ts). */
export interface AttachmentEntry {
  key: string;
  size: number;
  status: AttachmentEntryStatus;
  /** Set once uploaded. */
  attachment: AttachmentSummary | null;
}

export interface Schedule {
  /** YYYY-MM-DD and HH:mm on the institution's wall clock. */
  date: string;
  time: string;
}

export type ComposeIntent = 'send' | 'schedule';

/** What the rules read: the form as compose holds it. */
export interface ComposeForm {
  setup: ComposeSetup | null;
  /** The draft this form saves into, once there is one. */
  draftId: number | null;
  title: string;
  content: string;
  channels: ChannelCode[];
  recipients: RecipientPick[];
  allowReplies: boolean;
  copyToSender: boolean;
  /** Marked "Emergencia": it may spend the SMS kept in reserve (compose/quota-rules.ts). */
  emergency: boolean;
  schedule: Schedule | null;
  attachments: AttachmentEntry[];
}

/** Fallback zone when the quota answer is missing one (the product's default locale is es-CL). */
const DEFAULT_TIMEZONE = 'America/Santiago';

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
  nobodyReachable: 'compose.errors.nobodyReachable',
  nobodyPicked: 'compose.errors.nobodyPicked',
} as const;

const MB = 1024 * 1024;

export const timezoneOf = (form: Pick<ComposeForm, 'setup'>): string => form.setup?.quota.timezone ?? DEFAULT_TIMEZONE;

export const signatureActive = (form: Pick<ComposeForm, 'setup'>): boolean => form.setup?.signature?.is_active === true;

/** The signature that closes every message (its text), or null while none is active. */
export const activeSignature = (form: Pick<ComposeForm, 'setup'>): string | null =>
  signatureActive(form) ? (form.setup?.signature?.signature ?? null) : null;

/** Attachments that count towards the limits (a removal in progress no longer does). */
const liveAttachments = (form: Pick<ComposeForm, 'attachments'>): AttachmentEntry[] =>
  form.attachments.filter((entry) => entry.status !== 'removing');

const bytesOf = (entries: readonly AttachmentEntry[]) => entries.reduce((sum, entry) => sum + entry.size, 0);

/** The client rules of SPEC §5 and §9 for a send or a schedule at `now`; empty when it may go. */
export function composeErrors(form: ComposeForm, intent: ComposeIntent, now: number): ComposeErrors {
  const errors: ComposeErrors = {};
  const title = form.title.trim();
  if (title === '') errors.title = { key: ERROR_KEYS.titleRequired };
  else if (title.length > TITLE_MAX_LENGTH) errors.title = { key: ERROR_KEYS.titleTooLong, params: { max: TITLE_MAX_LENGTH } };

  if (form.recipients.length === 0) errors.recipients = { key: ERROR_KEYS.recipientsRequired };
  else if (form.recipients.length > MAX_PICKS) errors.recipients = { key: ERROR_KEYS.tooManyRecipients, params: { max: MAX_PICKS } };

  if (form.channels.length === 0) errors.channels = { key: ERROR_KEYS.channelsRequired };

  const sms = form.channels.includes('sms');
  if (form.content.trim() === '') errors.content = { key: ERROR_KEYS.contentRequired };
  else if (form.content.length > CONTENT_MAX_LENGTH)
    errors.content = { key: ERROR_KEYS.contentTooLong, params: { max: CONTENT_MAX_LENGTH } };
  else if (sms) {
    const text = smsText(form.content, activeSignature(form));
    if (text.unsupported.length > 0) errors.content = { key: ERROR_KEYS.smsUnsupported, params: { chars: text.unsupported.join(' ') } };
    // With merge fields the length depends on who gets it: the estimate counts it (compose/merge-rules.ts).
    else if (!text.ok && !hasFields(form.content))
      errors.content = { key: ERROR_KEYS.smsTooLong, params: { units: text.units, limit: text.limit } };
  }

  const live = liveAttachments(form);
  if (live.some((entry) => entry.status === 'uploading')) errors.attachments = { key: ERROR_KEYS.attachmentsUploading };
  else if (live.some((entry) => entry.status === 'failed')) errors.attachments = { key: ERROR_KEYS.attachmentsFailed };
  else if (sms && live.length > SMS_MAX_ATTACHMENTS)
    errors.attachments = { key: ERROR_KEYS.smsOneAttachment, params: { max: SMS_MAX_ATTACHMENTS } };
  else if (bytesOf(live) > ATTACHMENTS_TOTAL_MAX_BYTES)
    errors.attachments = { key: ERROR_KEYS.attachmentsTooLarge, params: { max: ATTACHMENTS_TOTAL_MAX_BYTES / MB } };

  if (intent === 'schedule') {
    if (form.schedule === null) errors.schedule = { key: ERROR_KEYS.scheduleRequired };
    else {
      const at = zonedToUtc(form.schedule.date, form.schedule.time, timezoneOf(form));
      if (at === null) errors.schedule = { key: ERROR_KEYS.scheduleInvalid };
      else if (Date.parse(at) <= now) errors.schedule = { key: ERROR_KEYS.schedulePast };
    }
  }
  return errors;
}

export const hasErrors = (errors: ComposeErrors): boolean => Object.keys(errors).length > 0;

/** The ids the views give each field's first control (the focus target of a refused send). */
export const FIELD_IDS = {
  title: 'compose-title',
  recipients: 'compose-recipients',
  content: 'compose-content',
  attachments: 'compose-attachments-input',
  schedule: 'compose-schedule-date',
} as const;
export const channelFieldId = (code: ChannelCode): string => `compose-channel-${code}`;
/** "Enviar" or "Programar": where focus returns when the author goes back from the confirmation. */
export const SUBMIT_BUTTON_ID = 'compose-submit';

/** The id of the first field with an error, in the order the form shows them; null when none can take focus. */
export function firstInvalidField(form: Pick<ComposeForm, 'setup'>, errors: ComposeErrors): string | null {
  const order = ['title', 'recipients', 'channels', 'content', 'attachments', 'schedule'] as const;
  const field = order.find((name) => errors[name] !== undefined);
  if (field === undefined) return null;
  if (field !== 'channels') return FIELD_IDS[field];
  const first = form.setup?.availableChannels[0];
  return first === undefined ? null : channelFieldId(first);
}

/** Extension check of ATTACHMENT_TYPES, so an obviously wrong file is refused before uploading it. */
function allowedType(file: File): boolean {
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  return Object.values(ATTACHMENT_TYPES).some((extensions) => extensions.includes(extension));
}

/** Which of `files` may be added now (SPEC §9), and the error for the first one refused. */
export function admitFiles(
  form: Pick<ComposeForm, 'attachments' | 'channels'>,
  files: readonly File[],
): { accepted: File[]; error: FieldError | null } {
  const accepted: File[] = [];
  let error: FieldError | null = null;
  const live = liveAttachments(form);
  let total = bytesOf(live);
  let count = live.length;
  const sms = form.channels.includes('sms');
  for (const file of files) {
    let refusal: FieldError | null = null;
    if (!allowedType(file)) refusal = { key: ERROR_KEYS.attachmentType, params: { name: file.name } };
    else if (file.size > ATTACHMENT_MAX_BYTES)
      refusal = { key: ERROR_KEYS.attachmentTooLarge, params: { name: file.name, max: ATTACHMENT_MAX_BYTES / MB } };
    else if (total + file.size > ATTACHMENTS_TOTAL_MAX_BYTES)
      refusal = { key: ERROR_KEYS.attachmentsTooLarge, params: { max: ATTACHMENTS_TOTAL_MAX_BYTES / MB } };
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

/** The attachments already on the server (what a draft, a send and the backup carry). */
const uploaded = (form: Pick<ComposeForm, 'attachments'>): AttachmentSummary[] =>
  form.attachments.flatMap((entry) => (entry.status === 'uploaded' && entry.attachment ? [entry.attachment] : []));

/** What the server receives for a draft, a send or a schedule. */
export function composeInputOf(form: ComposeForm, intent: ComposeIntent | 'draft'): ComposeInput {
  const at = form.schedule ? zonedToUtc(form.schedule.date, form.schedule.time, timezoneOf(form)) : null;
  return {
    title: form.title,
    content: form.content,
    channels: form.channels,
    recipients: form.recipients,
    attachment_ids: uploaded(form).map((attachment) => attachment.id),
    allow_replies: form.allowReplies,
    copy_to_sender: form.copyToSender,
    emergency: form.emergency,
    // A send now ignores a schedule typed but not used; a draft keeps it to show it when reopened.
    scheduled_at: intent === 'send' ? null : at,
  };
}

/** The local backup of the form as it is now. */
export function backupOf(form: ComposeForm, savedAt: number): ComposeBackup {
  return {
    title: form.title,
    content: form.content,
    channels: form.channels,
    recipients: form.recipients,
    attachments: uploaded(form),
    allowReplies: form.allowReplies,
    copyToSender: form.copyToSender,
    emergency: form.emergency,
    schedule: form.schedule,
    draftId: form.draftId,
    savedAt,
  };
}

/**
 * What the form holds, as one comparable string: two forms with the same fingerprint say the same thing
 * (labels and upload progress aside). Compose compares it with the fingerprint of what the server has to
 * know whether leaving would lose something.
 */
export function formFingerprint(form: ComposeForm): string {
  return JSON.stringify([
    form.title,
    form.content,
    form.channels,
    form.recipients.map(pickKey),
    form.allowReplies,
    form.copyToSender,
    form.schedule,
    liveAttachments(form).map((entry) => entry.attachment?.id ?? entry.key),
    form.emergency,
  ]);
}

export const EMPTY_FORM = {
  title: '',
  content: '',
  channels: [] as ChannelCode[],
  recipients: [] as RecipientPick[],
  // Families and colleagues may answer unless the author turns it off (docs/decisions/0133).
  allowReplies: true,
  copyToSender: false,
  emergency: false,
  schedule: null as Schedule | null,
};
