// How the history's messages to families came out: one delivery per guardian and channel, failing as the
// guardian's contact profile says (dead phones, bouncing e-mail, an app rarely online), read as they read;
// then each guardian's device_misses by the delivery engine's rule.
import type { ChannelCode } from '../../shared/codes';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import { DEVICE_WINDOW } from '../recipients/device-status';
import type { Rng } from './prng';
import type { CourseRow, DeliveryRow, GuardianRow, MessageRecipientRow, SeedData } from './rows';

const HOUR = 3_600_000;

/** A guardian's contact facts over the history: fixed per guardian. */
export interface Profile {
  /** The mobile exists but never receives (yellow once the last 3 device deliveries fail). */
  deadPhone: boolean;
  bouncingEmail: boolean;
  /** Chance an app message does not arrive (a phone rarely online). */
  appMisses: number;
  /** Chance to open an app message. */
  reads: number;
}

/** A delivery before its outcome: failed for want of an address; the caller writes what happened otherwise. */
export function blankDelivery(
  fields: Pick<DeliveryRow, 'id' | 'messageId' | 'recipientId' | 'channel' | 'address' | 'segments' | 'createdAt'>,
): DeliveryRow {
  return {
    ...fields,
    status: 'failed',
    error: fields.address ? null : 'missing_address',
    attempts: 0,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
  };
}

/** A recipient's statuses, best first: its state is the best of its deliveries. */
export const RANK: Record<string, number> = { read: 5, received: 4, not_received: 3, error: 2, failed: 1 };

export function addGuardianDeliveries(
  data: SeedData,
  deliveries: DeliveryRow[],
  rng: Rng,
  messageId: number,
  course: CourseRow,
  g: GuardianRow,
  profile: Profile,
  chosen: readonly ChannelCode[],
  at: Date,
  now: Date,
): void {
  const recipientId = data.mail.recipients.length + 1;
  const recipient: MessageRecipientRow = {
    id: recipientId,
    messageId,
    recipientKind: 'apoderado',
    recipientRefId: g.id,
    displayName: `${g.firstNames.split(' ')[0]} ${g.lastNameFather} ${g.lastNameMother}`,
    groupKind: 'curso',
    groupLabel: course.name,
    status: 'failed',
  };
  data.mail.recipients.push(recipient);
  const t = at.getTime();
  const app = g.appInstalledAt != null && new Date(g.appInstalledAt).getTime() <= t;
  let best = 0;
  for (const channel of chosen) {
    const address =
      channel === 'app-mobile' ? (app ? `guardian:${g.id}` : null) : channel === 'e-mail' ? (g.email ?? null) : (g.phone ?? null);
    const row = blankDelivery({
      id: deliveries.length + 1,
      messageId,
      recipientId,
      channel,
      address,
      segments: channel === 'sms' && address ? SMS_SEGMENTS_PER_MESSAGE : 0,
      createdAt: at,
    });
    if (address) {
      const sentAt = t + rng.int(2, 40) * 1000;
      row.sentAt = new Date(sentAt);
      row.attempts = 1;
      const fails =
        channel === 'e-mail'
          ? profile.bouncingEmail
          : channel === 'app-mobile'
            ? rng.chance(profile.appMisses)
            : profile.deadPhone || rng.chance(0.02);
      if (fails) {
        row.status = channel === 'e-mail' ? 'error' : 'not_received';
        row.error = channel === 'e-mail' ? 'bounced' : 'undelivered';
      } else {
        const deliveredAt = sentAt + rng.int(5, channel === 'app-mobile' ? 600 : 120) * 1000;
        row.status = 'received';
        row.deliveredAt = new Date(deliveredAt);
        // App messages (and WhatsApp) are read by most, within hours; e-mail and SMS reads are not known.
        if ((channel === 'app-mobile' || channel === 'whatsapp') && rng.chance(profile.reads)) {
          const readAt = deliveredAt + Math.round(-Math.log(1 - rng.next()) * 3 * HOUR);
          if (readAt <= now.getTime()) {
            row.status = 'read';
            row.readAt = new Date(readAt);
          }
        }
      }
    }
    best = Math.max(best, RANK[row.status]!);
    deliveries.push(row);
  }
  recipient.status = (Object.keys(RANK).find((k) => RANK[k] === best) ?? 'failed') as MessageRecipientRow['status'];
}

/**
 * `guardians.device_misses` from the seeded deliveries, by the delivery engine's rule (server/reception/status.ts
 * refreshDeviceMisses): of the last DEVICE_WINDOW finished device deliveries (app, SMS, WhatsApp; not those
 * without an address, not failures on our side), how many were not received.
 */
export function computeDeviceMisses(data: SeedData, deliveries: readonly DeliveryRow[]): void {
  const recipients = new Map(data.mail.recipients.map((r) => [r.id!, r]));
  const byGuardian = new Map<number, DeliveryRow[]>();
  for (const d of deliveries) {
    const r = recipients.get(d.recipientId);
    if (r?.recipientKind !== 'apoderado') continue;
    if (!['app-mobile', 'sms', 'whatsapp'].includes(d.channel) || d.status === 'queued' || d.status === 'sent') continue;
    if (d.error === 'missing_address') continue;
    if (d.status === 'failed' && ['unreachable', 'provider_auth'].includes(d.error ?? '')) continue;
    const list = byGuardian.get(r.recipientRefId) ?? [];
    list.push(d);
    byGuardian.set(r.recipientRefId, list);
  }
  for (const g of data.guardians) {
    const list = (byGuardian.get(g.id) ?? []).sort(
      (a, b) => new Date(b.createdAt!).getTime() - new Date(a.createdAt!).getTime() || b.id - a.id,
    );
    g.deviceMisses = list.slice(0, DEVICE_WINDOW).filter((d) => ['not_received', 'error', 'failed'].includes(d.status)).length;
  }
}
