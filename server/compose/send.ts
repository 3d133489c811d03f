// Send and schedule (POST /messages/send, /messages/schedule): everything in ONE transaction — idempotency
// key, validation, recipient expansion, quota reservation under a row lock, the message, its recipients
// and per-channel deliveries, attachments and mailbox entries. Any refusal rolls the whole thing back
// (thrown `Abort`), so a refused send writes nothing. Delivery itself is the engine's (server/delivery/):
// deliveries are born `queued` (or `failed` / `missing_address`).
//
// Colleagues' inbox entries and the copy to the sender are server/messages/publish.ts, which the engine also
// calls when it fires a scheduled message.
import { textList } from '../db/arrays';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { ComposeInput, ComposeProblem, RecipientPick, SendResult } from '../../shared/compose-contract';
import { fold } from '../../shared/fold';
import { canTransition } from '../../shared/message-rules';
import { BLOCKED } from '../../shared/delivery-progress';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import { isUniqueViolation, type Db, type Queryable } from '../db/client';
import { mailboxEntries, messageAttachments, messageRecipients, messages } from '../db/schema/messages';
import { groupsLabel } from '../messages/queries';
import { checkPicks, reachCtes, withOptOuts, type PickScope } from '../recipients/expand';
import { rowsOf } from '../db/sql';
import { reserve, type Needs, QUOTA_REFUSAL } from '../quota/balance';
import { institutionTimezone, monthIn } from '../db/time';
import { checkCompose, COMPOSE_MESSAGES, type ParsedCompose, checkMergedSms } from './validate';
import { checkReplyTo } from '../messages/replies';
import type { ChannelCode, MessageKind } from '../../shared/codes';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { publishToColleagues } from '../messages/publish';
import { senderOf } from '../messages/sender';
import { pauseActivityRollup, resumeActivityRollup } from '../db/activity-rollup';

export type SendMode = 'send' | 'schedule';

export type SendOutcome =
  | { kind: 'created'; result: SendResult }
  | { kind: 'replayed'; result: SendResult }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'quota'; problems: ComposeProblem[] }
  | { kind: 'not_found' }
  | { kind: 'illegal'; message: string };

export const SEND_MESSAGES = {
  illegal: 'Solo se puede enviar o programar un borrador.',
  quota: QUOTA_REFUSAL,
} as const;

/** Rolls the transaction back and carries the answer out of it. */
class Abort extends Error {
  constructor(readonly outcome: SendOutcome | { kind: 'race' }) {
    super('compose aborted');
  }
}

/**
 * What the expansion costs on the chosen channels: only deliveries that have an address count, and a phone
 * opted out of SMS or WhatsApp has none there.
 */
export function needsOf(reach: { email: number; sms: number; whatsapp: number }, channels: ChannelCode[]): Needs {
  return {
    sms: channels.includes('sms') ? reach.sms * SMS_SEGMENTS_PER_MESSAGE : 0,
    email: channels.includes('e-mail') ? reach.email : 0,
    whatsapp: channels.includes('whatsapp') ? reach.whatsapp : 0,
  };
}

interface Inserted {
  recipients: number;
  /** Recipients none of whose deliveries has an address. */
  unreachable: number;
  deliveries: number;
  /** Deliveries with an address, i.e. what the quota pays for. */
  needs: Needs;
  /** The recipients summary ("3° Básico A y 2 más"): groups in order of first reach. */
  label: string;
}

/**
 * Recipients and their deliveries for `messageId` in ONE statement: the expansion (reachCtes) feeds an
 * INSERT … SELECT of recipients, and the deliveries (recipient × channel) are built from the inserted ids.
 * A delivery without an address is born `failed` with `missing_address`, one to a phone opted out of its
 * channel with `opted_out` (server/opt-outs/); neither costs anything. The counts and
 * the summary label come from the same rows, in one pass each, instead of reading the written rows again.
 */
async function insertRecipients(
  db: Queryable,
  messageId: number,
  scope: PickScope,
  picks: RecipientPick[],
  channels: ChannelCode[],
): Promise<Inserted> {
  const result = await db.execute(sql`
    with ${reachCtes(scope, picks)}, ${withOptOuts()},
    -- Ids drawn up front, so deliveries are built from the same rows without joining back to the insert.
    -- The sequence is looked up once (a subquery), not by name for each of thousands of rows.
    numbered as materialized (
      select nextval((select pg_get_serial_sequence('message_recipients', 'id')::regclass)) as id, people.*
      from (select * from reached_people order by sort) people
    ),
    ins as (
      insert into ${messageRecipients}
        (id, message_id, recipient_kind, recipient_ref_id, display_name, group_kind, group_label, status, student_names)
      select id, ${messageId}, kind, ref, name, gk, gl, 'pending', sn from numbered
      returning 1
    ), del as (
      insert into deliveries (message_id, recipient_id, channel, address, status, error, segments)
      select ${messageId}, numbered.id, ch.channel, a.address,
        case when a.address is null or a.opted_out or numbered.blocked then 'failed' else 'queued' end,
        -- A person blocked at their request (server/privacy-requests/) is born failed on every channel.
        case when numbered.blocked then ${BLOCKED} when a.address is null then 'missing_address' when a.opted_out then 'opted_out' end,
        case when ch.channel = 'sms' and a.address is not null and not a.opted_out and not numbered.blocked
          then ${SMS_SEGMENTS_PER_MESSAGE} else 0 end
      from numbered
      cross join unnest(${textList(channels)}::text[]) as ch(channel)
      -- A phone opted out of the channel keeps its address (reception names its opt-out) and is born failed.
      cross join lateral (select case ch.channel when 'e-mail' then numbered.email when 'app-mobile' then numbered.app
        else numbered.phone end as address,
        case ch.channel when 'sms' then numbered.sms_out when 'whatsapp' then numbered.whatsapp_out else false end as opted_out) a
      returning recipient_id, channel, segments, status = 'queued' as reachable
    )
    select (select count(*) from ins)::int as recipients, d.deliveries, d.sms, d.email, d.whatsapp,
      ((select count(*) from ins) - d.reached)::int as unreachable,
      (select gl from numbered order by sort limit 1) as first_label,
      (select count(distinct gl) from numbered)::int as labels
    from (
      select count(*)::int as deliveries, count(distinct recipient_id) filter (where reachable)::int as reached,
        coalesce(sum(segments) filter (where channel = 'sms'), 0)::int as sms,
        count(*) filter (where channel = 'e-mail' and reachable)::int as email,
        count(*) filter (where channel = 'whatsapp' and reachable)::int as whatsapp
      from del
    ) d`);
  const row = rowsOf<{
    recipients: number;
    unreachable: number;
    deliveries: number;
    sms: number;
    email: number;
    whatsapp: number;
    first_label: string | null;
    labels: number;
  }>(result)[0]!;
  return {
    recipients: Number(row.recipients),
    unreachable: Number(row.unreachable),
    deliveries: Number(row.deliveries),
    needs: { sms: Number(row.sms), email: Number(row.email), whatsapp: Number(row.whatsapp) },
    label: groupsLabel(row.first_label, Number(row.labels)),
  };
}

/** The first answer of an idempotency key, rebuilt from what it wrote. */
async function findByKey(db: Queryable, userId: number, key: string): Promise<SendResult | null> {
  const result = await db.execute(sql`
    select m.id, m.kind,
      (select count(*) from message_recipients r where r.message_id = m.id)::int as recipients,
      (select count(*) from message_recipients r where r.message_id = m.id and not exists
        (select 1 from deliveries d where d.recipient_id = r.id and d.address is not null
          and d.error is distinct from 'opted_out' and d.error is distinct from ${BLOCKED}))::int
        as unreachable,
      (select count(*) from deliveries d where d.message_id = m.id)::int as deliveries,
      (select coalesce(sum(d.segments), 0) from deliveries d where d.message_id = m.id and d.channel = 'sms')::int as sms
    from ${messages} m where m.author_user_id = ${userId} and m.idempotency_key = ${key}`);
  const row = rowsOf<{ id: number; kind: string; recipients: number; unreachable: number; deliveries: number; sms: number }>(result)[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    kind: row.kind === 'sent' ? 'sent' : 'scheduled',
    recipients: Number(row.recipients),
    unreachable: Number(row.unreachable),
    deliveries: Number(row.deliveries),
    sms_segments: Number(row.sms),
  };
}

/** A draft of `userId` with their entry, locked; null when it is not theirs. */
export async function lockOwnMessage(db: Queryable, userId: number, messageId: number) {
  const [row] = await db
    .select({ kind: messages.kind, folder: mailboxEntries.folder, entryId: mailboxEntries.id })
    .from(messages)
    .innerJoin(mailboxEntries, and(eq(mailboxEntries.messageId, messages.id), eq(mailboxEntries.userId, userId)))
    .where(and(eq(messages.id, messageId), eq(messages.authorUserId, userId)))
    .for('update');
  if (!row) return null;
  const kind: MessageKind = row.folder === 'trash' ? 'deleted' : row.kind;
  return { ...row, kind };
}

/** Links the listed uploads to `messageId`; the message's other attachments become pending uploads again. */
export async function linkAttachments(db: Queryable, userId: number, messageId: number, ids: number[]): Promise<void> {
  await db
    .update(messageAttachments)
    .set({ messageId: null })
    .where(
      and(
        eq(messageAttachments.messageId, messageId),
        eq(messageAttachments.ownerUserId, userId),
        ids.length ? notInArray(messageAttachments.id, ids) : undefined,
      ),
    );
  if (ids.length) {
    await db
      .update(messageAttachments)
      .set({ messageId })
      .where(and(inArray(messageAttachments.id, ids), eq(messageAttachments.ownerUserId, userId)));
  }
}

export interface SendRequest {
  userId: number;
  institutionId: number;
  parsed: ParsedCompose;
  mode: SendMode;
  idempotencyKey: string;
  now?: Date;
}

export async function sendMessage(db: Db, req: SendRequest): Promise<SendOutcome> {
  try {
    return await db.transaction((tx) => sendInTx(tx, req));
  } catch (err) {
    const race = err instanceof Abort && err.outcome.kind === 'race';
    if (race || isUniqueViolation(err)) {
      // Another request with the same key committed first: answer with its result.
      const first = await findByKey(db, req.userId, req.idempotencyKey);
      if (first) return { kind: 'replayed', result: first };
    }
    if (err instanceof Abort && err.outcome.kind !== 'race') return err.outcome;
    throw err;
  }
}

async function sendInTx(tx: Queryable, req: SendRequest): Promise<SendOutcome> {
  const { userId, institutionId, mode, idempotencyKey } = req;
  const now = req.now ?? new Date();
  const { input, draftId, replyToId } = req.parsed;

  const first = await findByKey(tx, userId, idempotencyKey);
  if (first) return { kind: 'replayed', result: first };

  const { errors, signature } = await checkCompose(tx, { institutionId, userId, draftId }, input, mode, now);
  await checkReplyTo(tx, userId, replyToId, errors);
  if (hasFieldErrors(errors)) throw new Abort({ kind: 'invalid', errors });

  let draft: Awaited<ReturnType<typeof lockOwnMessage>> = null;
  if (draftId !== null) {
    draft = await lockOwnMessage(tx, userId, draftId);
    if (!draft) throw new Abort({ kind: 'not_found' });
    if (!canTransition(draft.kind, mode)) throw new Abort({ kind: 'illegal', message: SEND_MESSAGES.illegal });
  }

  const picks = await checkPicks(tx, { institutionId, userId }, input.recipients);
  if (!picks.ok) throw new Abort({ kind: 'invalid', errors: { recipients: [picks.message] } });
  const merged = await checkMergedSms(tx, { institutionId, userId }, input, signature);
  if (merged) throw new Abort({ kind: 'invalid', errors: { content: [merged] } });
  const scheduledAt = mode === 'schedule' ? new Date(input.scheduled_at!) : null;

  const sender = await senderOf(tx, userId);
  // The message and its thousands of recipients and deliveries reach the activity roll-up in one step, below.
  await pauseActivityRollup(tx);
  const values = messageValues(input, {
    kind: mode === 'send' ? 'sent' : 'scheduled',
    sentAt: mode === 'send' ? now : null,
    scheduledAt,
    signature,
    now,
  });
  let messageId: number;
  if (draft) {
    messageId = draftId!;
    await tx
      .update(messages)
      .set({ ...values, idempotencyKey, replyToId: replyToId ?? sql`${messages.replyToId}` })
      .where(eq(messages.id, messageId));
  } else {
    const inserted = await tx
      .insert(messages)
      .values({
        ...values,
        institutionId,
        authorUserId: userId,
        senderKind: 'funcionario',
        senderRefId: sender.refId,
        senderName: sender.name,
        replyToId,
        idempotencyKey,
        createdAt: now,
      })
      .onConflictDoNothing({ target: [messages.authorUserId, messages.idempotencyKey] })
      .returning({ id: messages.id });
    if (inserted.length === 0) throw new Abort({ kind: 'race' });
    messageId = inserted[0]!.id;
  }

  // A draft keeps only picks, but older drafts (the seed's) may carry recipient rows: start clean.
  if (draft) await tx.delete(messageRecipients).where(eq(messageRecipients.messageId, messageId));
  // Written first, then paid for: the quota check needs the addresses the expansion found, and a refusal
  // rolls all of it back.
  const counts = await insertRecipients(tx, messageId, { institutionId, userId }, input.recipients, input.channels);
  await resumeActivityRollup(tx, [messageId]);
  if (counts.recipients === 0) throw new Abort({ kind: 'invalid', errors: { recipients: [COMPOSE_MESSAGES.recipients] } });
  // Nobody has an address on any chosen channel (the estimate's `unreachable` is everyone): compose
  // refuses it before asking, and so does the server, whoever calls it
  // (docs/decisions/0037-refuse-a-send-that-reaches-nobody.md).
  if (counts.unreachable === counts.recipients)
    throw new Abort({ kind: 'invalid', errors: { recipients: [COMPOSE_MESSAGES.nobodyReachable] } });
  const timezone = await institutionTimezone(tx, institutionId);
  const problems = await reserve(tx, institutionId, monthIn(scheduledAt ?? now, timezone), counts.needs, input.emergency === true);
  if (problems.length > 0) throw new Abort({ kind: 'quota', problems });
  // A new message has no attachments to let go of: only a draft's, or the ones listed, need linking.
  if (draft || input.attachment_ids.length > 0) await linkAttachments(tx, userId, messageId, input.attachment_ids);

  const folder = mode === 'send' ? 'sent' : 'scheduled';
  const sortAt = scheduledAt ?? now;
  const counterpart = counts.label;
  if (draft) {
    await tx
      .update(mailboxEntries)
      .set({ folder, sortAt, counterpart, counterpartSearch: fold(counterpart) })
      .where(eq(mailboxEntries.id, draft.entryId));
  } else {
    await tx.insert(mailboxEntries).values({
      userId,
      institutionId,
      messageId,
      folder,
      sortAt,
      counterpart,
      counterpartSearch: fold(counterpart),
    });
  }

  if (mode === 'send') {
    await publishToColleagues(tx, { messageId, institutionId, userId, senderName: sender.name, now, copyToSender: input.copy_to_sender });
  }

  return {
    kind: 'created',
    result: {
      id: messageId,
      kind: mode === 'send' ? 'sent' : 'scheduled',
      recipients: counts.recipients,
      unreachable: counts.unreachable,
      deliveries: counts.deliveries,
      sms_segments: counts.needs.sms,
    },
  };
}

/** Columns a compose input sets on a message row (insert or draft update). */
export function messageValues(
  input: ComposeInput,
  o: { kind: 'draft' | 'sent' | 'scheduled'; sentAt: Date | null; scheduledAt: Date | null; signature: string | null; now: Date },
) {
  return {
    title: input.title,
    content: input.content,
    channels: input.channels,
    allowReplies: input.allow_replies,
    copyToSender: input.copy_to_sender,
    emergency: input.emergency === true,
    kind: o.kind,
    scheduledAt: o.scheduledAt,
    sentAt: o.sentAt,
    search: fold(`${input.title}\n${input.content}`),
    recipientPicks: input.recipients,
    signature: o.signature,
    updatedAt: o.now,
  };
}
