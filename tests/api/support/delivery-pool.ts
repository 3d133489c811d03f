// SMS / WhatsApp deliveries of one sent message, handed out one per test so the provider suites' tests
// never share rows (tests/api/delivery-provider.test.ts, delivery-twilio.test.ts).
import { sql } from 'drizzle-orm';
import { normalizePhone } from '../../../server/recipients/phone';
import type { Db } from '../../../server/db/client';
import { rows } from './compose';

export interface PooledDelivery {
  id: number;
  generation: number;
  address: string;
  message_id: number;
  recipient_id: number;
  title: string;
  content: string;
}

export interface DeliveryPool {
  /** How many are left on a channel. */
  left(channel: 'sms' | 'whatsapp'): number;
  /** The next one of a channel; throws when none is left. */
  take(channel?: 'sms' | 'whatsapp'): PooledDelivery;
}

export async function deliveryPool(db: Db, messageId: number): Promise<DeliveryPool> {
  const pool: Record<'sms' | 'whatsapp', PooledDelivery[]> = { sms: [], whatsapp: [] };
  const all = await rows<PooledDelivery & { channel: 'sms' | 'whatsapp' }>(
    db,
    sql`select d.id, d.generation, d.address, d.channel, d.message_id, d.recipient_id, m.title, m.content
        from deliveries d join messages m on m.id = d.message_id
        where d.message_id = ${messageId} and d.channel in ('sms', 'whatsapp') and d.address is not null order by d.id`,
  );
  // A few seeded numbers sit in ranges libphonenumber knows are unassigned (e.g. +56 9 360…): adapters
  // rightly refuse those before calling a provider, so the tests that expect a hand-over use the others.
  for (const row of all) if (normalizePhone(row.address, 'CL').ok) pool[row.channel].push(row);
  return {
    left: (channel) => pool[channel].length,
    take: (channel = 'sms') => {
      const row = pool[channel].shift();
      if (!row) throw new Error(`no ${channel} delivery left`);
      return row;
    },
  };
}
