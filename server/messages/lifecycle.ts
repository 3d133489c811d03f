// Message lifecycle rules (messages-contract.ts): which folder moves are legal, in one place, used by every
// route. Each operation checks ownership first (an entry of another user is "not found"), then legality
// (409 message.illegal_transition), and applies all-or-nothing inside one transaction.
import { recordAudit, type AuditActor } from '../audit/record';
import { and, eq, inArray, notExists, sql, type AnyColumn } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client';
import { deliveries } from '../db/schema/delivery';
import { mailboxEntries, messageAttachments, messageRecipients, messages } from '../db/schema/messages';
import { releaseQueued } from '../quota/balance';
import { applyReports } from '../reception/status';
import type { AttachmentStore } from '../storage/attachments';
import type { Folder } from '../../shared/codes';

type LiveFolder = Exclude<Folder, 'trash'>;

const TRANSITION_MESSAGES = {
  delete: 'El mensaje ya está en la papelera.',
  restore: 'Solo se pueden restaurar mensajes que están en la papelera.',
  purge: 'Solo se pueden eliminar definitivamente mensajes que están en la papelera.',
  cancelSchedule: 'Solo se puede cancelar el envío de un mensaje programado.',
  read: 'Solo se pueden marcar como leídos los mensajes recibidos.',
} as const;

export type LifecycleResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: 'not_found' }
  | { ok: false; error: 'illegal_transition'; message: string };

const notFound = { ok: false, error: 'not_found' } as const;
const illegal = (message: string) => ({ ok: false, error: 'illegal_transition', message }) as const;

interface EntryRef {
  id: number;
  messageId: number;
  folder: Folder;
  deletedFrom: LiveFolder | null;
}

/** The user's entries for these message ids; null when any id is not one of theirs. */
async function ownEntries(db: Queryable, userId: number, messageIds: number[]): Promise<EntryRef[] | null> {
  const unique = [...new Set(messageIds)];
  const rows = await db
    .select({
      id: mailboxEntries.id,
      messageId: mailboxEntries.messageId,
      folder: mailboxEntries.folder,
      deletedFrom: mailboxEntries.deletedFrom,
    })
    .from(mailboxEntries)
    .where(and(eq(mailboxEntries.userId, userId), inArray(mailboxEntries.messageId, unique)))
    .for('update');
  return rows.length === unique.length ? rows : null;
}

/**
 * The message's own date for an entry of `folder` (contract `date`): sent_at, scheduled_at or updated_at.
 * In the trash too: a trashed message keeps the date it was listed under, and the trash is in that order.
 */
const messageDateIn = (folder: AnyColumn) => sql`(select case ${folder}
    when 'scheduled' then coalesce(${messages.scheduledAt}, ${messages.updatedAt})
    when 'draft' then ${messages.updatedAt}
    else coalesce(${messages.sentAt}, ${messages.updatedAt}) end
  from ${messages} where ${messages.id} = ${mailboxEntries.messageId})`;
/** On restore: the folder it came from. */
const liveSortAt = messageDateIn(mailboxEntries.deletedFrom);
/** On delete: the folder it is in (the row's values before the update). */
const trashSortAt = messageDateIn(mailboxEntries.folder);

/** delete: draft/scheduled/sent/received → trash, remembering where from. */
export function moveToTrash(db: Db, userId: number, ids: number[], now = new Date()): Promise<LifecycleResult<number>> {
  return db.transaction(async (tx) => {
    const entries = await ownEntries(tx, userId, ids);
    if (!entries) return notFound;
    if (entries.some((e) => e.folder === 'trash')) return illegal(TRANSITION_MESSAGES.delete);
    await tx
      .update(mailboxEntries)
      .set({ deletedFrom: sql`${mailboxEntries.folder}`, folder: 'trash', deletedAt: now, sortAt: trashSortAt })
      .where(
        inArray(
          mailboxEntries.id,
          entries.map((e) => e.id),
        ),
      );
    return { ok: true, value: entries.length };
  });
}

/** restore: trash → the folder it was deleted from. */
export function restoreFromTrash(db: Db, userId: number, ids: number[]): Promise<LifecycleResult<number>> {
  return db.transaction(async (tx) => {
    const entries = await ownEntries(tx, userId, ids);
    if (!entries) return notFound;
    if (entries.some((e) => e.folder !== 'trash')) return illegal(TRANSITION_MESSAGES.restore);
    await tx
      .update(mailboxEntries)
      .set({ folder: sql`${mailboxEntries.deletedFrom}`, sortAt: liveSortAt, deletedFrom: null, deletedAt: null })
      .where(
        inArray(
          mailboxEntries.id,
          entries.map((e) => e.id),
        ),
      );
    return { ok: true, value: entries.length };
  });
}

/**
 * purge: trash → gone. The user's entry goes; the message itself goes too when nobody else sees it and it
 * was never sent (a sent message stays: its recipients received it). A purged scheduled message gives back
 * the quota it reserved; the files of purged messages' attachments are deleted after the commit.
 */
export async function purgeFromTrash(
  db: Db,
  userId: number,
  ids: number[],
  actor: AuditActor,
  store?: AttachmentStore,
): Promise<LifecycleResult<number>> {
  const result = await db.transaction(async (tx) => {
    const entries = await ownEntries(tx, userId, ids);
    if (!entries) return { outcome: notFound, keys: [] };
    if (entries.some((e) => e.folder !== 'trash')) return { outcome: illegal(TRANSITION_MESSAGES.purge), keys: [] };
    await tx.delete(mailboxEntries).where(
      inArray(
        mailboxEntries.id,
        entries.map((e) => e.id),
      ),
    );
    const doomed = await tx
      .select({ id: messages.id, kind: messages.kind })
      .from(messages)
      .where(
        and(
          inArray(
            messages.id,
            entries.map((e) => e.messageId),
          ),
          inArray(messages.kind, ['draft', 'scheduled']),
          notExists(tx.select({ one: sql`1` }).from(mailboxEntries).where(eq(mailboxEntries.messageId, messages.id))),
        ),
      )
      .for('update');
    const keys: string[] = [];
    if (doomed.length > 0) {
      for (const m of doomed) if (m.kind === 'scheduled') await releaseQueued(tx, m.id);
      const files = await tx
        .select({ key: messageAttachments.storageKey })
        .from(messageAttachments)
        .where(
          inArray(
            messageAttachments.messageId,
            doomed.map((m) => m.id),
          ),
        );
      for (const f of files) if (f.key) keys.push(f.key);
      await tx.delete(messages).where(
        inArray(
          messages.id,
          doomed.map((m) => m.id),
        ),
      );
    }
    // One entry for the purge: which messages left this mailbox, and which of them are gone from Hermes.
    await recordAudit(tx, actor, {
      action: 'message.purged',
      detail: { message_ids: entries.map((e) => e.messageId), deleted_message_ids: doomed.map((m) => m.id) },
    });
    return { outcome: { ok: true, value: entries.length } as const, keys };
  });
  if (store && result.keys.length > 0) await store.remove(result.keys);
  return result.outcome;
}

/**
 * cancel schedule: scheduled → draft (the message goes back to the author's drafts). Its recipients and
 * queued deliveries are dropped (a draft keeps only the picks, expanded again when sent) and the SMS
 * segments and balances they reserved are given back.
 */
export function cancelSchedule(db: Db, userId: number, id: number, now = new Date()): Promise<LifecycleResult<void>> {
  return db.transaction(async (tx) => {
    const entries = await ownEntries(tx, userId, [id]);
    if (!entries) return notFound;
    const [entry] = entries;
    if (entry!.folder !== 'scheduled') return illegal(TRANSITION_MESSAGES.cancelSchedule);
    await releaseQueued(tx, id);
    await tx.delete(deliveries).where(eq(deliveries.messageId, id));
    await tx.delete(messageRecipients).where(eq(messageRecipients.messageId, id));
    await tx
      .update(messages)
      .set({ kind: 'draft', scheduledAt: null, updatedAt: now })
      .where(and(eq(messages.id, id), eq(messages.kind, 'scheduled')));
    await tx.update(mailboxEntries).set({ folder: 'draft', sortAt: now }).where(eq(mailboxEntries.id, entry!.id));
    return { ok: true, value: undefined };
  });
}

/** mark read: received unread → read; idempotent (the first read time stays). */
export function markRead(db: Db, userId: number, id: number, now = new Date()): Promise<LifecycleResult<void>> {
  return db.transaction(async (tx) => {
    const entries = await ownEntries(tx, userId, [id]);
    if (!entries) return notFound;
    if (entries[0]!.folder !== 'inbox') return illegal(TRANSITION_MESSAGES.read);
    await tx
      .update(mailboxEntries)
      .set({ readAt: sql`coalesce(${mailboxEntries.readAt}, ${now.toISOString()}::timestamptz)` })
      .where(eq(mailboxEntries.id, entries[0]!.id));
    // A colleague's Hermes inbox is their app: reading it here is the app-mobile delivery's "read".
    const own = await tx
      .select({ id: deliveries.id })
      .from(deliveries)
      .where(and(eq(deliveries.messageId, id), eq(deliveries.channel, 'app-mobile'), eq(deliveries.address, `user:${userId}`)));
    await applyReports(
      tx,
      own.map((d) => ({ deliveryId: d.id, status: 'read' as const, at: now })),
    );
    return { ok: true, value: undefined };
  });
}
