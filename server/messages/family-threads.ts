// One thread per (message, guardian). A message to many families gathers answers from many of them; each
// family's answers, and the staff's answers to that family, are a conversation of their own, which neither
// the other families nor (in the staff's view) the other conversations mix into. A message of such a
// thread belongs to its guardian (its "party"): a guardian's own message, or a staff answer (it has a
// `reply_to_id`) addressed to that one guardian alone. The thread is found from the conversation's root
// (the top of the `reply_to_id` links), so opening any of its messages shows the same one.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';

/** Links followed each way, as server/messages/replies.ts follows them. */
const MAX_DEPTH = 50;

/**
 * CTEs (to follow `with recursive`) ending in `tree(id)`: every message of `messageId`'s conversation, from
 * its root down (itself included).
 */
export function treeCtes(messageId: number): SQL {
  return sql`
    tree_up (id, reply_to_id, depth) as (
      select id, reply_to_id, 0 from messages where id = ${messageId}
      union all
      select m.id, m.reply_to_id, u.depth + 1 from messages m join tree_up u on m.id = u.reply_to_id where u.depth < ${MAX_DEPTH}
    ),
    tree_root as (select id from tree_up order by depth desc limit 1),
    tree (id, depth) as (
      select id, 0 from tree_root
      union all
      select m.id, t.depth + 1 from messages m join tree t on m.reply_to_id = t.id where t.depth < ${MAX_DEPTH}
    )`;
}

/**
 * The guardian a message `m` (an alias in scope) belongs to, or null: its guardian sender, or the one
 * guardian a staff answer went to. A message to a course (even a course of one family) is nobody's.
 */
export const partyOf = (m: SQL): SQL => sql`case
  when ${m}.sender_kind = 'apoderado' then ${m}.sender_ref_id
  when ${m}.reply_to_id is not null then (
    select case when count(*) filter (where r.recipient_kind <> 'apoderado') = 0 and count(distinct r.recipient_ref_id) = 1
      then min(r.recipient_ref_id) end
    from message_recipients r where r.message_id = ${m}.id)
  end`;

/** The guardian `messageId` belongs to (partyOf), or null. */
export async function partyOfMessage(db: Queryable, messageId: number): Promise<number | null> {
  const [row] = rowsOf<{ party: number | null }>(
    await db.execute(sql`select ${partyOf(sql`m`)} as party from messages m where m.id = ${messageId}`),
  );
  return row?.party === null || row?.party === undefined ? null : Number(row.party);
}
