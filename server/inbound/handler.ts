// The inbound handler the providers' webhooks call (server/inbound/contract.ts): a family's SMS or WhatsApp
// is recorded once (a repeated webhook is ignored), offered to the opt-out words, and otherwise becomes a
// Hermes message: a reply to the message it answers, or a message to the school's administrators
// (server/inbound/routing.ts). Its files become attachments within the usual limits (server/inbound/media.ts).
import { and, eq, isNull, sql } from 'drizzle-orm';
import { SCHOOL_ADMIN_ROLE } from '../../shared/codes';
import { fold } from '../../shared/fold';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { inboundMessages, inboundMessageTargets, type InboundOutcome } from '../db/schema/inbound';
import { mailboxEntries, messageAttachments, messageRecipients, messages } from '../db/schema/messages';
import type { Logger } from '../log';
import { insertFamilyReply } from '../messages/family-reply';
import type { AttachmentStore } from '../storage/attachments';
import { InboundBusy, type InboundHandler, type InboundMessage } from './contract';
import { keepMedia, leftOutNote, type KeptFile } from './media';
import { routeOf, type GuardianRow } from './routing';
import { inboundTitle } from './titles';
import { normalizeAnyPhone, phoneForPeople } from '../recipients/phone';

export interface InboundDeps {
  /** Where the families' files are kept (the attachments' store). */
  store: AttachmentStore;
  logger: Logger;
  /** The opt-out words (BAJA, STOP, ALTA…): true when the message was one and is handled; it goes no further. */
  optOut?: (message: InboundMessage) => Promise<boolean>;
  /**
   * How long a repeat of a message another request is still handling waits for that handling to end before
   * it gives up with InboundBusy (default BUSY_WAIT_MS).
   */
  busyWaitMs?: number;
}

/**
 * Within the time a provider waits for its webhook's answer (Twilio 15 s): most handlings end sooner, and a
 * repeat that finds the first one done, or failed, answers for it. Twilio does not post again after an error.
 */
const BUSY_WAIT_MS = 5000;
const BUSY_POLL_MS = 200;

/** Controls but tab and line breaks, DEL and C1 controls; with `u`, `\p{Cs}` is a surrogate outside a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what goes.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * The text as the database can keep it (decision 0008): what a family wrote is never refused, so the
 * invisible controls go (a NUL would fail the query) and a broken character becomes «�».
 */
const keepable = (text: string) => text.replace(CONTROLS, '').replace(LONE_SURROGATE, '\uFFFD');

/**
 * A handling started this long ago and still without an outcome was cut short (a process killed between
 * the claim and its transaction): the provider's next repeat of the webhook handles it again. Longer than a
 * handling can take (each file's download is cut at 20 s).
 */
const ABANDONED_AFTER = '10 minutes';

/**
 * Records the message unless its provider id is known; its row id, or null for a repeated webhook. A row left
 * without an outcome long ago is claimed again instead (ABANDONED_AFTER).
 */
async function claim(db: Queryable, message: InboundMessage): Promise<number | null> {
  const [row] = await db
    .insert(inboundMessages)
    .values({
      channel: message.channel,
      phone: message.from,
      provider: message.provider,
      providerId: message.providerId,
      receivedAt: message.receivedAt,
      body: keepable(message.body),
      mediaCount: message.media.length,
    })
    .onConflictDoUpdate({
      target: [inboundMessages.provider, inboundMessages.providerId],
      set: { claimedAt: sql`now()` },
      setWhere: sql`${inboundMessages.outcome} is null and ${inboundMessages.claimedAt} < now() - ${ABANDONED_AFTER}::interval`,
    })
    .returning({ id: inboundMessages.id });
  return row?.id ?? null;
}

/**
 * Claims the message, or waits for the request already handling it: null once that one recorded it (a repeat
 * to acknowledge), the row's id when it failed and left the message to this one; InboundBusy when it is
 * still at work after `waitMs`.
 */
async function claimOrWait(db: Queryable, message: InboundMessage, waitMs: number): Promise<number | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    const id = await claim(db, message);
    if (id !== null) return id;
    const [row] = await db
      .select({ outcome: inboundMessages.outcome })
      .from(inboundMessages)
      .where(and(eq(inboundMessages.provider, message.provider), eq(inboundMessages.providerId, message.providerId)));
    // Gone: the other handling failed and unrecorded it; claimed again at once.
    if (!row) continue;
    if (row.outcome !== null) return null;
    if (Date.now() >= until) throw new InboundBusy(message.providerId);
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
  }
}

/**
 * The phone as guardians, deliveries and opt-outs keep it: WhatsApp gives a Mexican mobile with the old «1»
 * (+521…), Hermes keeps it without (+52…). A number that does not parse is kept as it came.
 */
function keptPhone(from: string): string {
  const phone = normalizeAnyPhone(from);
  return phone.ok ? phone.e164 : from;
}

async function settle(db: Queryable, id: number, outcome: InboundOutcome): Promise<void> {
  await db.update(inboundMessages).set({ outcome }).where(eq(inboundMessages.id, id));
}

/** The school's active administrators, with the staff row that names them as recipients. */
async function administrators(db: Queryable, institutionId: number) {
  const rows = rowsOf<{ user_id: number; staff_id: number | null; name: string }>(
    await db.execute(sql`
      select u.id as user_id, st.id as staff_id, u.name from users u
      join user_roles ur on ur.user_id = u.id and ur.code = ${SCHOOL_ADMIN_ROLE}
      left join staff st on st.user_id = u.id
      where u.institution_id = ${institutionId} and u.status = 'active'
      order by u.id`),
  );
  return rows.map((r) => ({ userId: Number(r.user_id), refId: Number(r.staff_id ?? r.user_id), name: r.name }));
}

/**
 * The message to a school's administrators: from the guardian when the phone is one of the school's, else
 * from the number itself, which nobody can answer in Hermes (no person to address: sender kind funcionario
 * with no id, replies closed). Born received, like a family's reply.
 */
async function insertSchoolMessage(
  tx: Queryable,
  school: { institutionId: number; guardian: GuardianRow | null },
  message: InboundMessage,
  content: string,
  now: Date,
): Promise<number> {
  const from = school.guardian?.name ?? phoneForPeople(message.from);
  const title = inboundTitle(message.channel, from, school.guardian === null);
  const [row] = await tx
    .insert(messages)
    .values({
      institutionId: school.institutionId,
      authorUserId: null,
      senderKind: school.guardian ? 'apoderado' : 'funcionario',
      senderRefId: school.guardian?.guardianId ?? 0,
      senderName: from,
      title,
      content,
      channels: [message.channel],
      kind: 'sent',
      sentAt: now,
      search: fold(`${title}\n${content}`),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: messages.id });
  const admins = await administrators(tx, school.institutionId);
  if (admins.length > 0) {
    await tx.insert(messageRecipients).values(
      admins.map((admin) => ({
        messageId: row!.id,
        recipientKind: 'funcionario' as const,
        recipientRefId: admin.refId,
        displayName: admin.name,
        groupKind: 'cargo',
        // Words a Chilean and a Mexican school both use («colegio» is Chilean, «escuela» Mexican).
        groupLabel: 'Administración',
        status: 'received' as const,
      })),
    );
    await tx.insert(mailboxEntries).values(
      admins.map((admin) => ({
        userId: admin.userId,
        institutionId: school.institutionId,
        messageId: row!.id,
        folder: 'inbox' as const,
        sortAt: now,
        counterpart: from,
        counterpartSearch: fold(from),
      })),
    );
  }
  return row!.id;
}

/** Stores the files for one message (each message its own copy: purging one never takes another's). */
async function attach(
  tx: Queryable,
  store: AttachmentStore,
  written: string[],
  files: KeptFile[],
  messageId: number,
  institutionId: number,
  now: Date,
) {
  for (const file of files) {
    const storageKey = await store.save(file.bytes, now);
    written.push(storageKey);
    await tx.insert(messageAttachments).values({
      messageId,
      ownerUserId: null,
      institutionId,
      name: file.name,
      size: file.bytes.length,
      contentType: file.contentType,
      storageKey,
      createdAt: now,
    });
  }
}

export function createInboundHandler(db: Db, deps: InboundDeps): InboundHandler {
  return async (received) => {
    // Once, before it is recorded: the record, the WhatsApp window, the opt-out words and the routing all
    // look the phone up as Hermes keeps it.
    const message = { ...received, from: keptPhone(received.from) };
    const inboundId = await claimOrWait(db, message, deps.busyWaitMs ?? BUSY_WAIT_MS);
    if (inboundId === null) return;
    const written: string[] = [];
    try {
      if (deps.optOut && (await deps.optOut(message))) {
        await settle(db, inboundId, 'opt_out');
        return;
      }
      const media = await keepMedia(message.media, deps.logger);
      const note = leftOutNote(media.leftOut);
      const content = [keepable(message.body).trim(), note].filter((part) => part !== '').join('\n\n');
      const now = message.receivedAt;
      await db.transaction(async (tx) => {
        const route = await routeOf(tx, message);
        const targets: (typeof inboundMessageTargets.$inferInsert)[] = [];
        if (route.kind === 'reply') {
          const id = await insertFamilyReply(tx, { as: route.as, original: route.original, content, channels: [message.channel], now });
          targets.push({ inboundId, messageId: id, institutionId: route.as.institutionId, guardianId: route.as.guardianId });
        } else {
          for (const school of route.schools) {
            const id = await insertSchoolMessage(tx, school, message, content, now);
            targets.push({
              inboundId,
              messageId: id,
              institutionId: school.institutionId,
              guardianId: school.guardian?.guardianId ?? null,
            });
          }
        }
        for (const target of targets) await attach(tx, deps.store, written, media.files, target.messageId, target.institutionId, now);
        if (targets.length > 0) await tx.insert(inboundMessageTargets).values(targets);
        await tx.update(inboundMessages).set({ outcome: route.kind }).where(eq(inboundMessages.id, inboundId));
      });
    } catch (err) {
      // Unrecorded after all: the provider's retry of this webhook (same id) gets another go.
      await deps.store.remove(written).catch(() => undefined);
      await db
        .delete(inboundMessages)
        .where(and(eq(inboundMessages.id, inboundId), isNull(inboundMessages.outcome)))
        .catch(() => undefined);
      throw err;
    }
  };
}
