// Where a family's SMS or WhatsApp goes (decision 0239). It answers the latest message that reached this phone
// by that channel: when that message allowed replies it becomes a reply to it, in its author's inbox, as the
// app's answers are (server/messages/family-reply.ts). Otherwise it goes to the school's administrators,
// so nothing a family writes is lost: to the school of that latest message; for a phone that received
// nothing by that channel, to the school of the latest message that reached it by any channel (one school's
// matter is not shown to another's), and to every school where it is a guardian's only when nothing ever
// reached it; for a phone of no guardian, to every school that sends by that channel.
import { sql } from 'drizzle-orm';
import { fillFields, hasFields } from '../../shared/merge-fields';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { valuesByRecipient } from '../recipients/merge-values';
import type { InboundMessage } from './contract';

/** A guardian row: a school's record of the person writing, named as that school registered them. */
export interface GuardianRow {
  guardianId: number;
  institutionId: number;
  name: string;
}

export type InboundRoute =
  | { kind: 'reply'; as: GuardianRow; original: { id: number; title: string; authorUserId: number } }
  /** One entry per school; `guardian` null for a phone that is no guardian's there. */
  | { kind: 'school_inbox'; schools: { institutionId: number; guardian: GuardianRow | null }[] };

const guardianName = sql`concat_ws(' ', split_part(g.first_names, ' ', 1), g.last_name_father, nullif(g.last_name_mother, ''))`;

interface LatestRow {
  id: number;
  institution_id: number;
  title: string;
  content: string;
  allow_replies: boolean;
  author_user_id: number | null;
  author_active: boolean;
  recipient_id: number;
  guardian_id: number;
  name: string;
}

/**
 * The latest message a guardian row with this phone received by this channel: a delivery to this phone that
 * the provider took (sent) or confirmed (received, read). A row whose phone has changed since is not
 * matched: the person writing from the old number is no longer that family. With no channel, the latest
 * that reached that guardian row by any channel (its e-mail, its app, the other phone channel).
 */
async function latestReceived(db: Queryable, channel: InboundMessage['channel'] | null, phone: string): Promise<LatestRow | null> {
  const byChannel = channel === null ? sql`true` : sql`d.channel = ${channel} and d.address = ${phone}`;
  const [row] = rowsOf<LatestRow>(
    await db.execute(sql`
      select m.id, m.institution_id, m.title, m.content, m.allow_replies, m.author_user_id,
        coalesce(u.status = 'active', false) as author_active, r.id as recipient_id,
        g.id as guardian_id, ${guardianName} as name
      from guardians g
      join message_recipients r on r.recipient_kind = 'apoderado' and r.recipient_ref_id = g.id
      join deliveries d on d.recipient_id = r.id and ${byChannel}
        and d.status in ('sent', 'received', 'read')
      join messages m on m.id = r.message_id and m.institution_id = g.institution_id and m.kind = 'sent'
      left join users u on u.id = m.author_user_id
      where g.phone = ${phone}
      order by coalesce(d.sent_at, m.sent_at) desc nulls last, d.id desc
      limit 1`),
  );
  return row ?? null;
}

/** The guardian rows of this phone, one per school (its lowest id when a school has it twice). */
async function guardianRows(db: Queryable, phone: string): Promise<GuardianRow[]> {
  const rows = rowsOf<{ id: number; institution_id: number; name: string }>(
    await db.execute(sql`
      select distinct on (g.institution_id) g.id, g.institution_id, ${guardianName} as name
      from guardians g where g.phone = ${phone}
      order by g.institution_id, g.id`),
  );
  return rows.map((r) => ({ guardianId: Number(r.id), institutionId: Number(r.institution_id), name: r.name }));
}

/** The schools that send by this channel: none when no school does (the message stays in inbound_messages). */
async function schoolsOfChannel(db: Queryable, channel: InboundMessage['channel']): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      select i.id from institutions i
      where exists (select 1 from institution_channels c where c.institution_id = i.id and c.channel = ${channel} and c.enabled)
      order by i.id`),
  );
  return rows.map((r) => Number(r.id));
}

export async function routeOf(db: Queryable, message: Pick<InboundMessage, 'channel' | 'from'>): Promise<InboundRoute> {
  const latest = await latestReceived(db, message.channel, message.from);
  if (latest) {
    const as = { guardianId: Number(latest.guardian_id), institutionId: Number(latest.institution_id), name: latest.name };
    // Without an author who still signs in (their account deleted or deactivated) nobody would read the
    // answer: the school's administrators do.
    if (latest.allow_replies && latest.author_user_id !== null && latest.author_active) {
      // The title this guardian read (merge fields filled for them), as an answer from the app repeats it.
      const own = hasFields(latest.title, latest.content)
        ? (await valuesByRecipient(db, [Number(latest.recipient_id)])).get(Number(latest.recipient_id))
        : undefined;
      return {
        kind: 'reply',
        as,
        original: {
          id: Number(latest.id),
          title: own ? fillFields(latest.title, own) : latest.title,
          authorUserId: Number(latest.author_user_id),
        },
      };
    }
    return { kind: 'school_inbox', schools: [{ institutionId: as.institutionId, guardian: as }] };
  }
  const elsewhere = await latestReceived(db, null, message.from);
  if (elsewhere) {
    const guardian = { guardianId: Number(elsewhere.guardian_id), institutionId: Number(elsewhere.institution_id), name: elsewhere.name };
    return { kind: 'school_inbox', schools: [{ institutionId: guardian.institutionId, guardian }] };
  }
  const rows = await guardianRows(db, message.from);
  if (rows.length > 0) return { kind: 'school_inbox', schools: rows.map((row) => ({ institutionId: row.institutionId, guardian: row })) };
  return {
    kind: 'school_inbox',
    schools: (await schoolsOfChannel(db, message.channel)).map((institutionId) => ({ institutionId, guardian: null })),
  };
}
