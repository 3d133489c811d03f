// Drafts (POST/PUT/GET /messages/drafts): saved with relaxed rules (see validate.ts), no recipients expanded
// into rows — the picks are stored as the author made them and expanded when sent — but every pick is
// checked against the school. Attachments listed are linked to the draft; those dropped from the list go
// back to being pending uploads of their owner (still deletable with DELETE /attachments/:id).
import { and, asc, eq } from 'drizzle-orm';
import type { ComposeDraft } from '../../shared/compose-contract';
import { fold } from '../../shared/fold';
import { canTransition } from '../../shared/message-rules';
import type { Db, Queryable } from '../db/client';
import { mailboxEntries, messageAttachments, messages } from '../db/schema/messages';
import { recipientsLabel } from '../messages/queries';
import { attachmentUrl } from '../storage/uploads';
import { checkPicks, summarizeReach } from '../recipients/expand';
import { linkAttachments, lockOwnMessage, messageValues } from './send';
import { senderOf } from '../messages/sender';
import { checkCompose, type ParsedCompose } from './validate';
import { checkReplyTo } from '../messages/replies';
import type { ChannelCode } from '../../shared/codes';
import { type FieldErrors, addFieldError, hasFieldErrors } from '../http/field-errors';

export type DraftOutcome =
  | { kind: 'ok'; draft: ComposeDraft }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'not_found' }
  | { kind: 'illegal'; message: string };

const DRAFT_MESSAGES = {
  notDraft: 'Solo se pueden editar borradores.',
} as const;

class Abort extends Error {
  constructor(readonly outcome: DraftOutcome) {
    super('draft aborted');
  }
}

interface Scope {
  userId: number;
  institutionId: number;
}

/** Validates a draft body and returns its recipients label (what the folder list shows). */
async function checkDraft(tx: Queryable, scope: Scope, parsed: ParsedCompose, draftId: number | null): Promise<string> {
  const { input, replyToId } = parsed;
  const { errors } = await checkCompose(tx, { ...scope, draftId }, input, 'draft');
  await checkReplyTo(tx, scope.userId, replyToId, errors);
  const picks = await checkPicks(tx, scope, input.recipients);
  if (!picks.ok) addFieldError(errors, 'recipients', picks.message);
  if (hasFieldErrors(errors)) throw new Abort({ kind: 'invalid', errors });
  const { groupLabels } = await summarizeReach(tx, scope, input.recipients);
  // Picks that reached nobody (an empty course) still name the draft's recipients by their chip label.
  const labels = groupLabels.length > 0 ? groupLabels : input.recipients.flatMap((p) => (p.label ? [p.label] : []));
  return recipientsLabel(labels);
}

async function run(db: Db, work: (tx: Queryable) => Promise<number>, userId: number): Promise<DraftOutcome> {
  try {
    const id = await db.transaction(work);
    return { kind: 'ok', draft: (await readDraft(db, userId, id))! };
  } catch (err) {
    if (err instanceof Abort) return err.outcome;
    throw err;
  }
}

export function createDraft(db: Db, scope: Scope, parsed: ParsedCompose, now = new Date()): Promise<DraftOutcome> {
  return run(
    db,
    async (tx) => {
      const counterpart = await checkDraft(tx, scope, parsed, null);
      const sender = await senderOf(tx, scope.userId);
      const [row] = await tx
        .insert(messages)
        .values({
          ...messageValues(parsed.input, draftColumns(parsed, now)),
          institutionId: scope.institutionId,
          authorUserId: scope.userId,
          senderKind: 'funcionario',
          senderRefId: sender.refId,
          senderName: sender.name,
          replyToId: parsed.replyToId,
          createdAt: now,
        })
        .returning({ id: messages.id });
      const id = row!.id;
      await linkAttachments(tx, scope.userId, id, parsed.input.attachment_ids);
      await tx.insert(mailboxEntries).values({
        userId: scope.userId,
        institutionId: scope.institutionId,
        messageId: id,
        folder: 'draft',
        sortAt: now,
        counterpart,
        counterpartSearch: fold(counterpart),
      });
      return id;
    },
    scope.userId,
  );
}

export function updateDraft(db: Db, scope: Scope, id: number, parsed: ParsedCompose, now = new Date()): Promise<DraftOutcome> {
  return run(
    db,
    async (tx) => {
      const own = await lockOwnMessage(tx, scope.userId, id);
      if (!own) throw new Abort({ kind: 'not_found' });
      if (!canTransition(own.kind, 'save')) throw new Abort({ kind: 'illegal', message: DRAFT_MESSAGES.notDraft });
      const counterpart = await checkDraft(tx, scope, parsed, id);
      await tx
        .update(messages)
        .set({
          ...messageValues(parsed.input, draftColumns(parsed, now)),
          ...(parsed.replyToId === null ? {} : { replyToId: parsed.replyToId }),
        })
        .where(eq(messages.id, id));
      await linkAttachments(tx, scope.userId, id, parsed.input.attachment_ids);
      await tx
        .update(mailboxEntries)
        .set({ sortAt: now, counterpart, counterpartSearch: fold(counterpart) })
        .where(eq(mailboxEntries.id, own.entryId));
      return id;
    },
    scope.userId,
  );
}

/** A draft keeps the schedule the author typed (if any) without it being a schedule yet. */
function draftColumns(parsed: ParsedCompose, now: Date) {
  return {
    kind: 'draft' as const,
    sentAt: null,
    scheduledAt: parsed.input.scheduled_at === null ? null : new Date(parsed.input.scheduled_at),
    signature: null,
    now,
  };
}

/** `GET /messages/drafts/:id`: 404 when not the user's, 409 when it is no longer a draft. */
export async function getDraft(db: Queryable, userId: number, id: number): Promise<DraftOutcome> {
  const own = await draftState(db, userId, id);
  if (!own) return { kind: 'not_found' };
  if (own !== 'draft') return { kind: 'illegal', message: DRAFT_MESSAGES.notDraft };
  return { kind: 'ok', draft: (await readDraft(db, userId, id))! };
}

async function draftState(db: Queryable, userId: number, id: number): Promise<'draft' | 'other' | null> {
  const [row] = await db
    .select({ kind: messages.kind, folder: mailboxEntries.folder })
    .from(messages)
    .innerJoin(mailboxEntries, and(eq(mailboxEntries.messageId, messages.id), eq(mailboxEntries.userId, userId)))
    .where(and(eq(messages.id, id), eq(messages.authorUserId, userId)));
  if (!row) return null;
  return row.kind === 'draft' && row.folder === 'draft' ? 'draft' : 'other';
}

async function readDraft(db: Queryable, userId: number, id: number): Promise<ComposeDraft | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.authorUserId, userId)));
  if (!row) return null;
  const files = await db
    .select({
      id: messageAttachments.id,
      name: messageAttachments.name,
      size: messageAttachments.size,
      contentType: messageAttachments.contentType,
    })
    .from(messageAttachments)
    .where(eq(messageAttachments.messageId, id))
    .orderBy(asc(messageAttachments.id));
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    channels: row.channels as ChannelCode[],
    recipients: row.recipientPicks,
    attachments: files.map((f) => ({ id: f.id, name: f.name, size: f.size, content_type: f.contentType, url: attachmentUrl(f.id) })),
    allow_replies: row.allowReplies,
    copy_to_sender: row.copyToSender,
    emergency: row.emergency,
    scheduled_at: row.scheduledAt ? new Date(row.scheduledAt).toISOString() : null,
    updated_at: new Date(row.updatedAt).toISOString(),
    reply_to_id: row.replyToId,
  };
}
