// Meta's customer-service window: a business may write free text to a WhatsApp user for 24 hours after that
// user's last message; outside it only approved templates go. The WhatsApp adapter asks this before sending.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';

const WINDOW_MS = 24 * 3600_000;

/** When the window this phone opened by writing on WhatsApp closes (its last message + 24 h); null when it never wrote. */
export async function whatsappWindowOpenUntil(db: Queryable, phone: string): Promise<Date | null> {
  const [row] = rowsOf<{ last: string | Date | null }>(
    await db.execute(sql`select max(received_at) as last from inbound_messages where phone = ${phone} and channel = 'whatsapp'`),
  );
  return row?.last ? new Date(new Date(row.last).getTime() + WINDOW_MS) : null;
}
