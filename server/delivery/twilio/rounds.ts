// Which delivery and round a Twilio message belongs to, and the sid of a round Twilio already took.
//
// Twilio keeps no idempotency key: a POST repeated after a timeout, or by a worker that took over a dead
// one's claim, is a second SMS. So the status callback of every message carries our key in its URL (signed
// by Twilio, so trustworthy), and its first callback (queued, sending, sent…) records the sid on the round
// that is still waiting for the engine's record. Before it POSTs, the adapter asks for that sid: a round
// Twilio already took is answered with it and not sent again (docs/decisions/0231-…).
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { deliveries } from '../../db/schema/delivery';
import { parseDeliveryKey } from '../channel';

export interface Round {
  deliveryId: number;
  generation: number;
}

/** Larger ids are not ours (and would overflow the int column in the query). */
const MAX_ID = 2 ** 31 - 1;

/**
 * The round a callback is about: by the key in its URL when it has one (only if that round is still the
 * delivery's current one on this channel), else by the sid the engine recorded. Null: not ours, or a round
 * "Reintentar fallidos" has since replaced.
 */
export async function roundOfCallback(db: Queryable, channel: 'sms' | 'whatsapp', key: string | null, sid: string): Promise<Round | null> {
  const parsed = key ? parseDeliveryKey(key) : null;
  if (parsed) {
    if (parsed.deliveryId > MAX_ID) return null;
    const [row] = await db
      .select({ generation: deliveries.generation })
      .from(deliveries)
      .where(and(eq(deliveries.id, parsed.deliveryId), eq(deliveries.channel, channel)));
    return row && row.generation === parsed.generation ? parsed : null;
  }
  if (sid === '') return null;
  const [row] = await db
    .select({ id: deliveries.id, generation: deliveries.generation })
    .from(deliveries)
    .where(and(eq(deliveries.providerRef, sid), eq(deliveries.channel, channel)))
    .limit(1);
  return row ? { deliveryId: row.id, generation: row.generation } : null;
}

/** Records Twilio's sid on a round the engine has not recorded yet (the first sid wins). */
export async function recordSid(db: Queryable, round: Round, sid: string): Promise<void> {
  await db
    .update(deliveries)
    .set({ providerRef: sid })
    .where(
      and(
        eq(deliveries.id, round.deliveryId),
        eq(deliveries.generation, round.generation),
        eq(deliveries.status, 'queued'),
        isNull(deliveries.providerRef),
      ),
    );
}

/** The sid Twilio gave this round, when a callback or an earlier attempt recorded one; null: not taken yet. */
export async function sidOfRound(db: Queryable, round: Round): Promise<string | null> {
  const [row] = await db
    .select({ sid: deliveries.providerRef })
    .from(deliveries)
    .where(
      and(eq(deliveries.id, round.deliveryId), eq(deliveries.generation, round.generation), sql`${deliveries.providerRef} is not null`),
    );
  return row?.sid ?? null;
}
