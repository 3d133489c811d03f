// A Twilio status callback applied to its delivery. Twilio posts one per status change, in no promised
// order and sometimes more than once; applyReports only ever moves a delivery forward, so a late "sent"
// after "read", or the same "delivered" twice, changes nothing.
import type { Queryable } from '../../db/client';
import type { Logger } from '../../log';
import { applyReports, type ReportStatus } from '../../reception/status';
import { errorOfCallback } from './errors';
import { recordSid, roundOfCallback } from './rounds';

/** Twilio's MessageStatus → our receipt; null: the hand-over only (its sid is worth keeping). */
const STATUSES: Record<string, { status: ReportStatus; error: string } | null> = {
  accepted: null,
  scheduled: null,
  queued: null,
  sending: null,
  sent: null,
  delivered: { status: 'received', error: '' },
  read: { status: 'read', error: '' },
  // Left Twilio and was lost on the way (the carrier, the phone): the family did not get it.
  undelivered: { status: 'not_received', error: 'undelivered' },
  // Twilio could not send it at all.
  failed: { status: 'error', error: 'rejected' },
};

export interface TwilioCallback {
  channel: 'sms' | 'whatsapp';
  /** `key` of the callback URL's query (absent: a callback configured on the Messaging Service). */
  key: string | null;
  sid: string;
  status: string;
  errorCode: string | null;
}

/** Whether the callback changed its delivery; unknown sids, old rounds and statuses we do not track change nothing. */
export async function applyTwilioCallback(db: Queryable, callback: TwilioCallback, logger?: Logger): Promise<boolean> {
  if (!(callback.status in STATUSES)) return false;
  const round = await roundOfCallback(db, callback.channel, callback.key, callback.sid);
  if (!round) return false;
  const mapped = STATUSES[callback.status];
  if (mapped === null || mapped === undefined) {
    if (callback.sid !== '') await recordSid(db, round, callback.sid);
    return false;
  }
  const changed = await applyReports(
    db,
    [
      {
        deliveryId: round.deliveryId,
        generation: round.generation,
        status: mapped.status,
        // Twilio's callbacks carry no time of their own: the report counts when it arrives.
        at: new Date(),
        error: mapped.error === '' ? null : errorOfCallback(callback.errorCode, mapped.error),
      },
    ],
    logger,
  );
  return changed.length > 0;
}
