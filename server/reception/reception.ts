// Reception status of one sent message (shared/reception-contract.ts): the per-recipient page with its
// channels, the progress of its deliveries, and "retry failed", which starts a new round (generation + 1) of
// the deliveries that ended badly. Set-based SQL throughout: a message may have 10,000 deliveries.
import { intList, textList } from '../db/arrays';
import { sql, type SQL } from 'drizzle-orm';
import {
  DELIVERY_STATUSES,
  READ_FOLLOW_WINDOW_MINUTES,
  READ_REPORTING_CHANNELS,
  RECIPIENT_STATUSES,
  type ChannelDelivery,
  type ChannelProgress,
  type DeliveryProgress,
  type DeliveryStatus,
  type ReceptionFilter,
  type ReceptionRow,
  type ReceptionScope,
  type RecipientStatus,
} from '../../shared/reception-contract';
import type { ComposeProblem } from '../../shared/compose-contract';
import { BLOCKED, ENDED_BADLY, messageStateOf, NO_ADDRESS, NOT_TRIED, OPTED_OUT } from '../../shared/delivery-progress';
import { blockedAtSql } from '../recipients/blocks';
import { fold } from '../../shared/fold';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import type { Db, Queryable } from '../db/client';
import { escapeLike, foldSql, rowsOf } from '../db/sql';
import { reserve } from '../quota/balance';
import { institutionTimezone, monthIn } from '../db/time';
import { refreshRecipients } from './status';
import { DEVICE_WINDOW, deviceStatus } from '../recipients/device-status';
import { settleSmsPhones, smsPhoneSql } from '../recipients/sms-phones';
import { appReachableSql } from '../recipients/app-reach';
import { CHANNEL_CODES, type ChannelCode } from '../../shared/codes';
import { courseInYear } from '../courses/enrolments';
import { lastOptOutAtSql, optedOutSql } from '../recipients/opt-outs';

/** What "Reintentar fallidos" sends again (shared/delivery-progress.ts: ended badly, and tried). */
const RETRYABLE = ENDED_BADLY;

// --- progress ---------------------------------------------------------------------------------------------

function emptyProgress(): DeliveryProgress {
  return {
    total: 0,
    queued: 0,
    sent: 0,
    received: 0,
    read: 0,
    not_received: 0,
    error: 0,
    failed: 0,
    state: 'sent',
    retryable: 0,
    no_address: 0,
    unreached: 0,
  };
}

/**
 * The figures the counts give, by the shared rules (shared/delivery-progress.ts). `appWaiting`: app
 * deliveries handed over and waiting for the guardian to open the app. They are not "in flight" (that may
 * take days; after 3 the engine counts them not received), so they do not keep the message "sending"; SMS /
 * WhatsApp waiting for their provider's receipt (seconds) do. `unreached`: people tried and reached on no
 * channel (for one channel's figures: its deliveries tried that ended badly, one person each).
 */
function finish(p: DeliveryProgress, appWaiting: number, noAddress: number, unreached: number, optedOut = 0): DeliveryProgress {
  p.total = DELIVERY_STATUSES.reduce((sum, s) => sum + p[s], 0);
  const ended = RETRYABLE.reduce((sum, s) => sum + p[s], 0);
  // What a retry can send: people with no address then are only retried if one was added since, and phones
  // opted out only once they re-joined, so neither is promised in the count.
  p.no_address = noAddress;
  p.retryable = Math.max(0, ended - noAddress - optedOut);
  p.unreached = unreached;
  p.state = messageStateOf(p.queued + p.sent - appWaiting, unreached);
  return p;
}

/**
 * Deliveries per state of each message, in one grouped query. Messages recorded before the delivery engine
 * (the seeded history) have recipients but no deliveries: their recipients' states stand in, a pending one
 * counting as queued, so the demo's sent folder does not show "0 of 0".
 */
export async function progressOf(db: Queryable, messageIds: readonly number[]): Promise<Map<number, DeliveryProgress>> {
  const out = new Map<number, DeliveryProgress>();
  if (messageIds.length === 0) return out;
  const ids = intList([...new Set(messageIds)]);
  // `unreached` counts people whose state (the best of their channels, server/reception/status.ts) is a
  // failure and who were tried on some channel; without deliveries, every person in a failed state.
  const result = await db.execute(sql`
    with d as (
      select message_id, status, count(*)::int as n,
        count(*) filter (where status = 'sent' and channel = 'app-mobile')::int as app_waiting,
        count(*) filter (where error = ${NO_ADDRESS})::int as no_address,
        count(*) filter (where status = 'failed' and error = ${OPTED_OUT})::int as opted_out
      from deliveries
      where message_id = any(${ids}::int[]) group by message_id, status
    )
    select message_id, status, n, app_waiting, no_address, opted_out, 0 as unreached from d
    union all
    select r.message_id, case r.status when 'pending' then 'queued' else r.status end, count(*)::int, 0, 0, 0,
      count(*) filter (where r.status = any(${textList(RETRYABLE)}::text[]))::int
    from message_recipients r
    where r.message_id = any(${ids}::int[]) and r.message_id not in (select message_id from d)
    group by r.message_id, r.status
    union all
    select r.message_id, 'unreached', 0, 0, 0, 0, count(*)::int
    from message_recipients r
    where r.message_id = any(${ids}::int[]) and r.status = any(${textList(RETRYABLE)}::text[])
      and exists (select 1 from deliveries t where t.recipient_id = r.id and coalesce(t.error, '') <> all(${textList(NOT_TRIED)}::text[]))
    group by r.message_id`);
  for (const id of new Set(messageIds)) out.set(id, emptyProgress());
  const appWaiting = new Map<number, number>();
  const noAddress = new Map<number, number>();
  const optedOut = new Map<number, number>();
  const unreached = new Map<number, number>();
  const add = (map: Map<number, number>, id: number, n: number) => map.set(id, (map.get(id) ?? 0) + Number(n));
  for (const row of rowsOf<{
    message_id: number;
    status: DeliveryStatus;
    n: number;
    app_waiting: number;
    no_address: number;
    opted_out: number;
    unreached: number;
  }>(result)) {
    const id = Number(row.message_id);
    const p = out.get(id);
    if (p && (DELIVERY_STATUSES as readonly string[]).includes(row.status)) p[row.status] += Number(row.n);
    add(appWaiting, id, row.app_waiting);
    add(noAddress, id, row.no_address);
    add(optedOut, id, row.opted_out);
    add(unreached, id, row.unreached);
  }
  for (const [id, p] of out) finish(p, appWaiting.get(id) ?? 0, noAddress.get(id) ?? 0, unreached.get(id) ?? 0, optedOut.get(id) ?? 0);
  return out;
}

/**
 * The deliveries of one message per channel it used, in CHANNEL_CODES order: the summary a channel's filter
 * counts agree with. Messages without deliveries (the seeded history) have none.
 */
export async function channelProgressOf(db: Queryable, messageId: number): Promise<ChannelProgress[]> {
  const result = await db.execute(sql`
    select channel, status, count(*)::int as n,
      count(*) filter (where status = 'sent' and channel = 'app-mobile')::int as app_waiting,
      count(*) filter (where error = ${NO_ADDRESS})::int as no_address,
      count(*) filter (where status = 'failed' and error = ${OPTED_OUT})::int as opted_out
    from deliveries where message_id = ${messageId} group by channel, status`);
  const byChannel = new Map<ChannelCode, { progress: DeliveryProgress; appWaiting: number; noAddress: number; optedOut: number }>();
  for (const row of rowsOf<{
    channel: ChannelCode;
    status: DeliveryStatus;
    n: number;
    app_waiting: number;
    no_address: number;
    opted_out: number;
  }>(result)) {
    const entry = byChannel.get(row.channel) ?? { progress: emptyProgress(), appWaiting: 0, noAddress: 0, optedOut: 0 };
    if ((DELIVERY_STATUSES as readonly string[]).includes(row.status)) entry.progress[row.status] += Number(row.n);
    entry.appWaiting += Number(row.app_waiting);
    entry.noAddress += Number(row.no_address);
    entry.optedOut += Number(row.opted_out);
    byChannel.set(row.channel, entry);
  }
  return CHANNEL_CODES.flatMap((channel) => {
    const entry = byChannel.get(channel);
    if (!entry) return [];
    const { progress, appWaiting, noAddress, optedOut } = entry;
    // On one channel each delivery is one person: those tried whose delivery ended badly were not reached by it.
    const lost = RETRYABLE.reduce((sum, s) => sum + progress[s], 0) - noAddress - optedOut;
    return [{ channel, progress: finish(progress, appWaiting, noAddress, lost, optedOut) }];
  });
}

// --- access -----------------------------------------------------------------------------------------------

/** The message when `userId` wrote it and it was sent; anyone else (other school included) gets null → 404. */
export async function findOwnSent(db: Queryable, userId: number, messageId: number): Promise<{ id: number; institutionId: number } | null> {
  const result = await db.execute(sql`
    select id, institution_id from messages where id = ${messageId} and author_user_id = ${userId} and kind = 'sent'`);
  const row = rowsOf<{ id: number; institution_id: number }>(result)[0];
  return row ? { id: Number(row.id), institutionId: Number(row.institution_id) } : null;
}

// --- page -------------------------------------------------------------------------------------------------

/** The whole message: what a retry without a scope sends again. */
const WHOLE_MESSAGE: ReceptionScope = { channel: 'all', status: 'all', q: '' };

/** A delivery state column under a filter's name: pending is queued or handed over. */
const inState = (column: SQL, status: RecipientStatus) =>
  status === 'pending' ? sql`${column} in ('queued', 'sent')` : sql`${column} = ${status}`;

/**
 * The recipients `r` a scope lists: the search on their name and students; the filter on their own state
 * (the best of their channels) or, with a channel, on that channel's delivery to them.
 */
function listedSql(scope: ReceptionScope): SQL {
  const needle = fold(scope.q.trim());
  const search = needle
    ? sql`and ${foldSql(sql`r.display_name || ' ' || coalesce(r.student_names, '')`)} like ${`%${escapeLike(needle)}%`}`
    : sql``;
  if (scope.channel === 'all') return scope.status === 'all' ? search : sql`${search} and r.status = ${scope.status}`;
  const state = scope.status === 'all' ? sql`` : sql`and ${inState(sql`dc.status`, scope.status)}`;
  return sql`${search} and exists (
    select 1 from deliveries dc where dc.recipient_id = r.id and dc.channel = ${scope.channel} ${state})`;
}

/** Deliveries `d` of the scope's channel (any with `all`). */
const ofChannel = (scope: ReceptionScope) => (scope.channel === 'all' ? sql`` : sql`and d.channel = ${scope.channel}`);

/**
 * Deliveries received recently on a channel that reports reads, not read yet: a «Leído» may still come, so the
 * screen keeps asking (decision 0256). The window runs from each receipt (a retried delivery gets its own).
 */
async function awaitingReadsOf(db: Queryable, messageId: number): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from deliveries
    where message_id = ${messageId} and status = 'received' and channel = any(${textList(READ_REPORTING_CHANNELS)}::text[])
      and coalesce(delivered_at, sent_at) > now() - make_interval(mins => ${READ_FOLLOW_WINDOW_MINUTES})`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * Deliveries a retry of `scope` would send again: its channel's failed, error and not-received deliveries
 * of the recipients it lists, except those that had no address (not promised; see `finish`).
 */
export async function retryableIn(db: Queryable, messageId: number, scope: ReceptionScope): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from deliveries d join message_recipients r on r.id = d.recipient_id
    where d.message_id = ${messageId} and r.message_id = ${messageId}
      and d.status = any(${textList(RETRYABLE)}::text[]) and coalesce(d.error, '') <> all(${textList(NOT_TRIED)}::text[])
      ${ofChannel(scope)} ${listedSql(scope)}`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

export interface PageQuery extends ReceptionScope {
  page: number;
  perPage: number;
}

export interface ReceptionData {
  rows: ReceptionRow[];
  /** Rows matching filter and search. */
  total: number;
  counts: Record<ReceptionFilter, number>;
  progress: DeliveryProgress;
  channels: ChannelProgress[];
  retryable: number;
  /** `ReceptionPage['meta'].awaiting_reads`. */
  awaitingReads: number;
}

interface PageRow {
  id: number;
  kind: ReceptionRow['kind'];
  name: string;
  student_names: string | null;
  group_label: string;
  status: RecipientStatus;
  email: string | null;
  phone: string | null;
  channels: ChannelDelivery[] | string | null;
  guardian_app: boolean | null;
  guardian_phone: string | null;
  guardian_sms: boolean | null;
  guardian_misses: number | null;
  students: { name: string; course: string }[] | string | null;
}

const isoUtc = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
const isoUtcOf = (value: SQL) => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function receptionPage(db: Queryable, messageId: number, query: PageQuery): Promise<ReceptionData> {
  // The rows' device status counts numbers the engine can text: verdicts of changed phones first (few, indexed).
  await settleSmsPhones(db, null);
  // The chips count the list without its own filter: every state of the same channel and search.
  const unfiltered = listedSql({ ...query, status: 'all' });
  const countsQuery =
    query.channel === 'all'
      ? db.execute(sql`
          select r.status, count(*)::int as n from message_recipients r
          where r.message_id = ${messageId} ${unfiltered} group by r.status`)
      : db.execute(sql`
          select case when d.status in ('queued', 'sent') then 'pending' else d.status end as status, count(*)::int as n
          from message_recipients r join deliveries d on d.recipient_id = r.id and d.channel = ${query.channel}
          where r.message_id = ${messageId} ${unfiltered} group by 1`);
  // E-mail and phone: the addresses the deliveries used (what was actually tried); when the message did
  // not use that channel, or the person had no address then, the person's current record — so after fixing
  // a guardian's e-mail the row shows what "retry failed" will use.
  const rowsQuery = db.execute(sql`
    select r.id, r.recipient_kind as kind, r.display_name as name, r.student_names, r.group_label, r.status,
      coalesce(ch.email, g.email, s.email, st.email) as email,
      coalesce(ch.phone, g.phone, st.phone) as phone,
      ch.channels, g.id is not null and ${appReachableSql('g')} as guardian_app, g.phone as guardian_phone, ${smsPhoneSql('g')} as guardian_sms, g.device_misses as guardian_misses,
      ab.students
    from (
      -- The page first, so the joins and the channels' JSON are built for its rows only.
      select r.* from message_recipients r
      where r.message_id = ${messageId} ${listedSql(query)}
      order by r.id
      limit ${query.perPage} offset ${(query.page - 1) * query.perPage}
    ) r
    left join guardians g on r.recipient_kind = 'apoderado' and g.id = r.recipient_ref_id
    left join students s on r.recipient_kind = 'estudiante' and s.id = r.recipient_ref_id
    left join staff st on r.recipient_kind = 'funcionario' and st.id = r.recipient_ref_id
    left join lateral (
      select
        max(d.address) filter (where d.channel = 'e-mail') as email,
        max(d.address) filter (where d.channel in ('sms', 'whatsapp')) as phone,
        json_agg(json_build_object(
          'channel', d.channel, 'status', d.status, 'address', d.address, 'error', d.error, 'attempts', d.attempts,
          'sent_at', ${isoUtc('d.sent_at')}, 'delivered_at', ${isoUtc('d.delivered_at')},
          'read_at', ${isoUtc('d.read_at')}, 'last_retry_at', ${isoUtc('d.last_retry_at')},
          'opted_out_at', case when d.error = ${OPTED_OUT} then ${isoUtcOf(lastOptOutAtSql(sql`d.channel`, sql`d.address`))} end,
          'blocked_at', case when d.error = ${BLOCKED} then ${isoUtcOf(blockedAtSql(sql`r.recipient_kind`, sql`r.recipient_ref_id`))} end
        ) order by d.channel) as channels
      from deliveries d where d.recipient_id = r.id
    ) ch on true
    -- Who the row is about, in full and with the course: a student themself; a guardian's children whose
    -- names the message recorded (student_names, as server/recipients/merge-values.ts reads them).
    left join lateral (
      select json_agg(json_build_object(
        'name', split_part(x.first_names, ' ', 1) || ' ' || x.last_name_father || ' ' || x.last_name_mother,
        'course', xc.name) order by x.first_names, x.id) as students
      -- The course of the message's school year (server/courses/enrolments.ts), not today's.
      from students x join courses xc on xc.id = ${courseInYear(sql`x`, sql`(select am.school_year from activity_messages am where am.message_id = r.message_id)`)}
      where (r.recipient_kind = 'estudiante' and x.id = r.recipient_ref_id)
        or (r.recipient_kind = 'apoderado'
          and x.id in (select sg.student_id from student_guardians sg where sg.guardian_id = r.recipient_ref_id)
          and split_part(x.first_names, ' ', 1) || ' ' || x.last_name_father = any(string_to_array(r.student_names, ', ')))
    ) ab on true
    order by r.id`);
  const [countRows, pageRows, progress, channels, retryable, awaitingReads] = await Promise.all([
    countsQuery,
    rowsQuery,
    progressOf(db, [messageId]),
    channelProgressOf(db, messageId),
    retryableIn(db, messageId, query),
    awaitingReadsOf(db, messageId),
  ]);

  const counts = Object.fromEntries([['all', 0], ...RECIPIENT_STATUSES.map((s) => [s, 0])]) as Record<ReceptionFilter, number>;
  for (const row of rowsOf<{ status: RecipientStatus; n: number }>(countRows)) {
    counts[row.status] += Number(row.n);
    counts.all += Number(row.n);
  }
  const rows = rowsOf<PageRow>(pageRows).map((r): ReceptionRow => {
    const channels = typeof r.channels === 'string' ? (JSON.parse(r.channels) as ChannelDelivery[]) : (r.channels ?? []);
    return {
      recipient_id: Number(r.id),
      kind: r.kind,
      name: r.name,
      student_names: r.student_names,
      students: typeof r.students === 'string' ? (JSON.parse(r.students) as ReceptionRow['students']) : (r.students ?? []),
      group: r.group_label,
      email: r.email,
      phone: r.phone,
      status: r.status,
      channels: channels.map((c) => ({ ...c, attempts: Number(c.attempts) })),
      device:
        r.kind === 'apoderado' && r.guardian_misses !== null
          ? deviceStatus({ app: Boolean(r.guardian_app), sms: Boolean(r.guardian_sms) }, Number(r.guardian_misses) >= DEVICE_WINDOW)
          : null,
    };
  });
  return { rows, total: counts[query.status], counts, progress: progress.get(messageId)!, channels, retryable, awaitingReads };
}

// --- retry ------------------------------------------------------------------------------------------------

export type RetryOutcome =
  | { kind: 'ok'; resent: number; rounds: { id: number; generation: number }[] }
  | { kind: 'quota'; problems: ComposeProblem[] };

class QuotaRefused extends Error {
  constructor(readonly problems: ComposeProblem[]) {
    super('retry refused by quota');
  }
}

/**
 * "Retry failed", in one transaction: locks the message's failed / error / not_received deliveries of the
 * scope (its channel's, of the recipients it lists; the whole message by default) — a concurrent retry
 * waits, then finds them queued and takes nothing —, re-resolves the address of those that had none from
 * the person's current record (skipping who still has none), reserves their quota, and queues them as a new
 * round. A quota refusal writes nothing. The caller hands `rounds` to the engine after commit.
 */
export async function retryFailed(
  db: Db,
  message: { id: number; institutionId: number },
  scope: ReceptionScope = WHOLE_MESSAGE,
  now = new Date(),
): Promise<RetryOutcome> {
  try {
    return await db.transaction(async (tx) => {
      // Same address rules as the expansion (server/recipients/expand.ts `people`).
      // A phone still opted out of the channel is left as it is: it re-joins by texting ALTA, not by a retry.
      const picked = await tx.execute(sql`
        select t.*, t.channel in ('sms', 'whatsapp') and ${optedOutSql(sql`t.channel`, sql`t.address`)} as opted_out from (
        select d.id, d.channel, d.recipient_id,
          -- The person's address now (a phone or e-mail fixed since the send is used), else the one tried.
          coalesce(
            case d.channel
              when 'e-mail' then coalesce(g.email, s.email, st.email)
              when 'app-mobile' then case
                when g.id is not null and ${appReachableSql('g')} then 'guardian:' || g.id
                when st.user_id is not null then 'user:' || st.user_id end
              else coalesce(g.phone, st.phone) end,
            d.address) as address
        from deliveries d
        join message_recipients r on r.id = d.recipient_id
        left join guardians g on r.recipient_kind = 'apoderado' and g.id = r.recipient_ref_id and g.institution_id = ${message.institutionId}
        left join students s on r.recipient_kind = 'estudiante' and s.id = r.recipient_ref_id and s.institution_id = ${message.institutionId}
        left join staff st on r.recipient_kind = 'funcionario' and st.id = r.recipient_ref_id and st.institution_id = ${message.institutionId}
        where d.message_id = ${message.id} and d.status = any(${textList(RETRYABLE)}::text[])
          ${ofChannel(scope)} ${listedSql(scope)}
        order by d.id
        for update of d) t order by t.id`);
      const targets = rowsOf<{ id: number; channel: ChannelCode; recipient_id: number; address: string | null; opted_out: boolean }>(
        picked,
      ).filter((t) => t.address !== null && !t.opted_out);
      if (targets.length === 0) return { kind: 'ok' as const, resent: 0, rounds: [] };

      const count = (channel: ChannelCode) => targets.filter((t) => t.channel === channel).length;
      const needs = { sms: count('sms') * SMS_SEGMENTS_PER_MESSAGE, email: count('e-mail'), whatsapp: count('whatsapp') };
      const timezone = await institutionTimezone(tx, message.institutionId);
      // A message marked "Emergencia" may spend the reserve again on its retry, as it did when sent.
      const flagged = await tx.execute(sql`select emergency from messages where id = ${message.id}`);
      const emergency = rowsOf<{ emergency: boolean }>(flagged)[0]?.emergency === true;
      const problems = await reserve(tx, message.institutionId, monthIn(now, timezone), needs, emergency);
      if (problems.length > 0) throw new QuotaRefused(problems);

      const values = JSON.stringify(targets.map((t) => ({ id: Number(t.id), address: t.address })));
      const updated = await tx.execute(sql`
        update deliveries d set
          status = 'queued', error = null, address = v.address, generation = d.generation + 1,
          -- A new round starts clean: its own hand-over and receipts (the old round's reports are ignored).
          sent_at = null, delivered_at = null, read_at = null, provider_ref = null,
          last_retry_at = ${now.toISOString()}::timestamptz,
          segments = case when d.channel = 'sms' then ${SMS_SEGMENTS_PER_MESSAGE} else d.segments end
        from json_to_recordset(${values}::json) as v(id int, address text)
        where d.id = v.id and d.status = any(${textList(RETRYABLE)}::text[])
        returning d.id, d.generation, d.recipient_id`);
      const rows = rowsOf<{ id: number; generation: number; recipient_id: number }>(updated);
      const recipients = [...new Set(rows.map((r) => Number(r.recipient_id)))];
      await refreshRecipients(tx, recipients);
      return {
        kind: 'ok' as const,
        resent: recipients.length,
        rounds: rows.map((r) => ({ id: Number(r.id), generation: Number(r.generation) })).sort((a, b) => a.id - b.id),
      };
    });
  } catch (err) {
    if (err instanceof QuotaRefused) return { kind: 'quota', problems: err.problems };
    throw err;
  }
}
