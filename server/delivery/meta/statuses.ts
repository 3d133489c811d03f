// Meta's statuses applied to reception: `delivered` → received, `read` → read (a real read receipt: the blue
// ticks), `failed` → not received or a reception error with its code (errors.ts); `sent` says nothing the
// engine's record does not. Meta sends them out of order and more than once: applyReports moves a delivery
// only forward, so a late `delivered` after `read` and a repeated status change nothing.
//
// The delivery is found by the key we sent as biz_opaque_callback_data (it works before the engine has
// recorded the wamid), else by the wamid in `deliveries.provider_ref` (indexed). Only WhatsApp deliveries,
// and only the round the message was sent in: a late status of an earlier round must not mark a retry.
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { deliveries } from '../../db/schema/delivery';
import type { Logger } from '../../log';
import { applyReports, type DeliveryReport, type ReportStatus, roundsOf } from '../../reception/status';
import { parseDeliveryKey } from '../channel';
import { graphErrorMeaning } from './errors';
import type { MetaStatus } from './payload';

/** A batch may carry several statuses of one delivery: only the furthest is applied. */
const RANK: Record<ReportStatus, number> = { received: 1, not_received: 1, error: 1, read: 2 };

/** Larger ids are not ours (and would overflow the int column in the query). */
const MAX_ID = 2 ** 31 - 1;

function reportOf(status: MetaStatus): Pick<DeliveryReport, 'status' | 'error'> | null {
  if (status.status === 'delivered') return { status: 'received', error: null };
  if (status.status === 'read') return { status: 'read', error: null };
  if (status.status === 'failed') {
    const meaning = graphErrorMeaning(status.errorCode);
    return { status: meaning.reception, error: meaning.error };
  }
  return null;
}

/** Applies the statuses; returns the ids of the deliveries that changed. */
export async function applyMetaStatuses(db: Queryable, statuses: readonly MetaStatus[], logger?: Logger): Promise<number[]> {
  const wanted = statuses.flatMap((status) => {
    const report = reportOf(status);
    return report ? [{ status, report }] : [];
  });
  if (wanted.length === 0) return [];

  // By key: the round it names must be the delivery's round now.
  const keyed = new Map(
    wanted.flatMap(({ status }) => {
      const key = status.callbackData ? parseDeliveryKey(status.callbackData) : null;
      return key && key.deliveryId <= MAX_ID ? [[status.wamid, key] as const] : [];
    }),
  );
  const rounds = await roundsOf(db, 'whatsapp', [...new Set([...keyed.values()].map((k) => k.deliveryId))]);
  // By wamid: retrying clears provider_ref, so the row that has it is in the round it was sent in.
  const byWamid = wanted.map((w) => w.status.wamid).filter((wamid) => !keyed.has(wamid));
  const referenced =
    byWamid.length === 0
      ? []
      : await db
          .select({ id: deliveries.id, generation: deliveries.generation, ref: deliveries.providerRef })
          .from(deliveries)
          .where(and(eq(deliveries.channel, 'whatsapp'), inArray(deliveries.providerRef, [...new Set(byWamid)])));
  const refs = new Map(referenced.map((r) => [r.ref, { deliveryId: r.id, generation: r.generation }]));

  const furthest = new Map<number, DeliveryReport>();
  for (const { status, report } of wanted) {
    const key = keyed.get(status.wamid);
    const target = key ? (rounds.get(key.deliveryId) === key.generation ? key : null) : (refs.get(status.wamid) ?? null);
    if (!target) continue;
    const full: DeliveryReport = { deliveryId: target.deliveryId, generation: target.generation, at: status.at, ...report };
    const seen = furthest.get(target.deliveryId);
    if (!seen || RANK[full.status] > RANK[seen.status]) furthest.set(target.deliveryId, full);
  }
  return applyReports(db, [...furthest.values()], logger);
}
