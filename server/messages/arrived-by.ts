// What the message page says of a family's SMS or WhatsApp: the channel and number it came from, and whether
// the number is one of the school's families' (MessageDetail.arrived_by).
import { sql } from 'drizzle-orm';
import type { ArrivedBy } from '../../shared/messages-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { phoneForPeople } from '../recipients/phone';

/** Null for a message that did not come by SMS or WhatsApp. */
export async function arrivedBy(db: Queryable, messageId: number): Promise<ArrivedBy | null> {
  const [row] = rowsOf<{ channel: ArrivedBy['channel']; phone: string; known: boolean }>(
    await db.execute(sql`
      select i.channel, i.phone, t.guardian_id is not null as known
      from inbound_message_targets t join inbound_messages i on i.id = t.inbound_id
      where t.message_id = ${messageId}`),
  );
  return row ? { channel: row.channel, phone: phoneForPeople(row.phone), known: row.known } : null;
}
