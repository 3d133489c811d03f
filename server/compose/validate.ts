// Validation of ComposeInput (compose-contract.ts) for drafts, estimates, send and schedule. Two steps:
// `parseComposeInput` checks the shape (types and limits, no database), `checkCompose` the rules that need
// the school's data (channels, signature, attachments). Errors are per field, in Spanish, with the SPEC's
// texts where it has them. A draft is saved with relaxed rules: nothing is required (an empty draft is
// fine) and the SMS length is not enforced yet, but every limit and every id still is.
import { and, eq, inArray } from 'drizzle-orm';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_TOTAL_MAX_BYTES,
  CONTENT_MAX_LENGTH,
  MAX_PICKS,
  SMS_MAX_ATTACHMENTS,
  TITLE_MAX_LENGTH,
  type ComposeInput,
  type RecipientPick,
} from '../../shared/compose-contract';
import { hasFields, mergedSmsText, smsTooLongWithFields } from '../../shared/merge-fields';
import { smsText } from '../../shared/sms-text';
import { readTogether, type Queryable } from '../db/client';
import { messageAttachments } from '../db/schema/messages';
import { isStorableDate } from '../db/time';
import { allowedChannels } from './channels';
import { type ChannelCode, CHANNEL_CODES } from '../../shared/codes';
import { type FieldErrors, addFieldError, hasFieldErrors } from '../http/field-errors';
import { parsePick, type PickScope } from '../recipients/expand';
import { isId } from '../http/params';
import { longestAmongPicks } from '../recipients/merge-values';
import { REPLY_MESSAGES } from '../messages/replies';
import { activeSignature } from '../signatures/signatures';

export type ComposeMode = 'draft' | 'send' | 'schedule';

export const COMPOSE_MESSAGES = {
  title: 'Debes elegir un Título',
  titleLong: `El título no puede superar los ${TITLE_MAX_LENGTH} caracteres.`,
  recipients: 'Debes elegir uno o más Destinatarios',
  recipientsMany: `No se pueden elegir más de ${MAX_PICKS} destinatarios a la vez.`,
  recipientsInvalid: 'Los destinatarios elegidos no son válidos.',
  /** Send, schedule or a draft sent: every person picked lacks an address on every chosen channel. */
  nobodyReachable: 'Ningún destinatario puede recibir este mensaje por los canales elegidos.',
  channels: 'Debes elegir al menos un canal.',
  channelsInvalid: `Los canales deben ser: ${CHANNEL_CODES.join(', ')}.`,
  channelNotAllowed: (code: string) => `No tienes permiso para enviar por el canal ${code}.`,
  content: 'Debes escribir el contenido del mensaje.',
  contentLong: `El contenido no puede superar los ${CONTENT_MAX_LENGTH} caracteres.`,
  smsLong: (limit: number) => `El SMS supera los ${limit} caracteres permitidos.`,
  smsChars: (chars: string[]) => `El SMS contiene caracteres que no se pueden enviar: ${chars.join(' ')}`,
  attachmentsInvalid: 'Los adjuntos indicados no son válidos.',
  attachmentsForeign: 'Algunos adjuntos no existen o ya pertenecen a otro mensaje.',
  attachmentTooLarge: 'Cada adjunto puede pesar como máximo 22 MB.',
  attachmentsTotal: 'Los adjuntos pueden sumar como máximo 22 MB.',
  attachmentsSms: 'Un SMS admite solo un adjunto.',
  scheduledRequired: 'Debes indicar la fecha y hora de envío.',
  scheduledInvalid: 'La fecha de envío no es válida.',
  scheduledPast: 'La fecha de envío debe ser al menos un minuto en el futuro.',
  scheduledFar: 'La fecha de envío no puede ser más de un año en el futuro.',
  flag: (field: string) => `El campo ${field} debe ser verdadero o falso.`,
  body: 'El cuerpo de la solicitud debe ser un objeto JSON.',
  replyTo: REPLY_MESSAGES.missing,
  draftId: 'El borrador indicado no es válido.',
} as const;

const MAX_ATTACHMENTS = 50;
const MIN_LEAD_MS = 60_000;

/** An ISO date-time (four-digit year) the database can store; a draft's is not checked further until it is scheduled. */
function isScheduleTime(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && isStorableDate(new Date(value));
}

export interface ParsedCompose {
  input: ComposeInput;
  /** Only send/schedule bodies: the draft being sent and the message replied to. */
  draftId: number | null;
  replyToId: number | null;
}

/** Shape and limits, no database. Required fields are checked by `checkCompose` (per mode). */
export function parseComposeInput(body: unknown): { ok: true; value: ParsedCompose } | { ok: false; errors: FieldErrors } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, errors: { body: [COMPOSE_MESSAGES.body] } };
  const b = body as Record<string, unknown>;
  const errors: FieldErrors = {};
  const title = b.title ?? '';
  if (typeof title !== 'string') errors.title = [COMPOSE_MESSAGES.title];
  else if (title.length > TITLE_MAX_LENGTH) errors.title = [COMPOSE_MESSAGES.titleLong];
  const content = b.content ?? '';
  if (typeof content !== 'string') errors.content = [COMPOSE_MESSAGES.content];
  else if (content.length > CONTENT_MAX_LENGTH) errors.content = [COMPOSE_MESSAGES.contentLong];

  const rawChannels = b.channels ?? [];
  let channels: ChannelCode[] = [];
  if (!Array.isArray(rawChannels) || !rawChannels.every((c) => (CHANNEL_CODES as readonly unknown[]).includes(c))) {
    errors.channels = [COMPOSE_MESSAGES.channelsInvalid];
  } else {
    channels = CHANNEL_CODES.filter((c) => rawChannels.includes(c));
  }

  const rawPicks = b.recipients ?? [];
  let recipients: RecipientPick[] = [];
  if (!Array.isArray(rawPicks)) errors.recipients = [COMPOSE_MESSAGES.recipientsInvalid];
  else if (rawPicks.length > MAX_PICKS) errors.recipients = [COMPOSE_MESSAGES.recipientsMany];
  else {
    const parsed = rawPicks.map(parsePick);
    if (parsed.some((p) => p === null)) errors.recipients = [COMPOSE_MESSAGES.recipientsInvalid];
    else recipients = parsed as RecipientPick[];
  }

  const rawAttachments = b.attachment_ids ?? [];
  let attachmentIds: number[] = [];
  if (!Array.isArray(rawAttachments) || rawAttachments.length > MAX_ATTACHMENTS || !rawAttachments.every(isId)) {
    errors.attachments = [COMPOSE_MESSAGES.attachmentsInvalid];
  } else {
    attachmentIds = [...new Set(rawAttachments as number[])];
  }

  for (const flag of ['allow_replies', 'copy_to_sender', 'emergency'] as const) {
    if (b[flag] !== undefined && typeof b[flag] !== 'boolean') errors[flag] = [COMPOSE_MESSAGES.flag(flag)];
  }
  const scheduledAt = b.scheduled_at ?? null;
  if (scheduledAt !== null && !isScheduleTime(scheduledAt)) {
    errors.scheduled_at = [COMPOSE_MESSAGES.scheduledInvalid];
  }
  const draftId = b.draft_id ?? null;
  if (draftId !== null && !isId(draftId)) errors.draft_id = [COMPOSE_MESSAGES.draftId];
  const replyToId = b.reply_to_id ?? null;
  if (replyToId !== null && !isId(replyToId)) errors.reply_to_id = [COMPOSE_MESSAGES.replyTo];
  if (hasFieldErrors(errors)) return { ok: false, errors };

  return {
    ok: true,
    value: {
      input: {
        title: title as string,
        content: content as string,
        channels,
        recipients,
        attachment_ids: attachmentIds,
        allow_replies: b.allow_replies === true,
        copy_to_sender: b.copy_to_sender === true,
        emergency: b.emergency === true,
        scheduled_at: scheduledAt === null ? null : new Date(scheduledAt as string).toISOString(),
      },
      draftId: draftId as number | null,
      replyToId: replyToId as number | null,
    },
  };
}

export interface ComposeScope {
  institutionId: number;
  userId: number;
  /** The draft being edited or sent: its own attachments are allowed. */
  draftId: number | null;
}

/** Rules that read the school's data. Returns the field errors (empty: valid) and the signature used. */
export async function checkCompose(
  db: Queryable,
  scope: ComposeScope,
  input: ComposeInput,
  mode: ComposeMode,
  now = new Date(),
): Promise<{ errors: FieldErrors; signature: string | null }> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => addFieldError(errors, field, message);
  const strict = mode === 'send' || mode === 'schedule';

  if (strict && input.title.trim() === '') add('title', COMPOSE_MESSAGES.title);
  if (strict && input.recipients.length === 0) add('recipients', COMPOSE_MESSAGES.recipients);
  if (strict && input.content.trim() === '') add('content', COMPOSE_MESSAGES.content);
  if (strict && input.channels.length === 0) add('channels', COMPOSE_MESSAGES.channels);

  const [allowed, signature, files] = await readTogether(db, [
    () => allowedChannels(db, scope.institutionId, scope.userId),
    () => activeSignature(db, scope.institutionId),
    () =>
      input.attachment_ids.length
        ? db
            .select({
              id: messageAttachments.id,
              size: messageAttachments.size,
              messageId: messageAttachments.messageId,
              newsPostId: messageAttachments.newsPostId,
            })
            .from(messageAttachments)
            .where(
              and(
                inArray(messageAttachments.id, input.attachment_ids),
                eq(messageAttachments.ownerUserId, scope.userId),
                eq(messageAttachments.institutionId, scope.institutionId),
              ),
            )
        : Promise.resolve([]),
  ]);
  for (const code of input.channels) if (!allowed.has(code)) add('channels', COMPOSE_MESSAGES.channelNotAllowed(code));

  const sms = input.channels.includes('sms');
  if (sms && strict) {
    const text = smsText(input.content, signature);
    if (text.unsupported.length > 0) add('content', COMPOSE_MESSAGES.smsChars(text.unsupported));
    // With merge fields the length depends on the recipients: checkMergedSms counts it once the picks are known.
    if (text.units > text.limit && !hasFields(input.content)) add('content', COMPOSE_MESSAGES.smsLong(text.limit));
  }

  // A news wall post's file is the post's, not a pending upload.
  const usable = files.filter((f) => f.newsPostId === null && (f.messageId === null || f.messageId === scope.draftId));
  if (usable.length !== input.attachment_ids.length) add('attachments', COMPOSE_MESSAGES.attachmentsForeign);
  else {
    if (usable.some((f) => f.size > ATTACHMENT_MAX_BYTES)) add('attachments', COMPOSE_MESSAGES.attachmentTooLarge);
    if (usable.reduce((sum, f) => sum + f.size, 0) > ATTACHMENTS_TOTAL_MAX_BYTES) add('attachments', COMPOSE_MESSAGES.attachmentsTotal);
  }
  if (sms && input.attachment_ids.length > SMS_MAX_ATTACHMENTS) add('attachments', COMPOSE_MESSAGES.attachmentsSms);

  if (mode === 'schedule') {
    if (input.scheduled_at === null) add('scheduled_at', COMPOSE_MESSAGES.scheduledRequired);
    else {
      const at = Date.parse(input.scheduled_at);
      const yearAhead = new Date(now);
      yearAhead.setUTCFullYear(yearAhead.getUTCFullYear() + 1);
      if (at - now.getTime() < MIN_LEAD_MS) add('scheduled_at', COMPOSE_MESSAGES.scheduledPast);
      else if (at > yearAhead.getTime()) add('scheduled_at', COMPOSE_MESSAGES.scheduledFar);
    }
  }
  return { errors, signature };
}

/**
 * Send's and the estimate's SMS length rule for a content with merge fields (checkCompose leaves it to
 * this, which knows the picks): each field at its longest value among the recipients, so what is counted,
 * charged and sent is one segment for every recipient. Null when it fits; else the field error, naming
 * the fields and their longest values.
 */
export async function checkMergedSms(
  db: Queryable,
  scope: PickScope,
  input: ComposeInput,
  signature: string | null,
): Promise<string | null> {
  if (!input.channels.includes('sms') || !hasFields(input.content)) return null;
  const counted = mergedSmsText(input.content, signature, await longestAmongPicks(db, scope, input.recipients));
  return counted.units > counted.limit ? smsTooLongWithFields(counted.limit, counted.units, counted.fields) : null;
}
