// The deliveries of the demo mailboxes' sent messages to families (server/seed/messages.ts writes their
// recipients only), written as the send path writes them (server/compose/send.ts): one delivery per
// recipient and channel, by the channels the school has contracted, to the address the guardian had then
// (the app only once installed), with outcomes by the engine's rules; each recipient's status is then the best
// of its deliveries (server/reception/status.ts), and the seed's writer rolls up `reached_at` from them. So
// the connectivity figures, the call list and the rankings read these messages as they read real ones.
import type { ChannelCode } from '../../shared/codes';
import { smsVerdict } from '../recipients/sms-phones';
import { mulberry32 } from './prng';
import type { DeliveryRow, MessageRecipientRow, SeedData } from './rows';

const HOUR = 3_600_000;
const RANK: Record<MessageRecipientRow['status'], number> = { read: 5, received: 4, not_received: 3, error: 2, failed: 1, pending: 0 };
const BY_RANK = ['pending', 'failed', 'error', 'not_received', 'received', 'read'] as const;

/**
 * Adds the missing deliveries to `deliveries` (ids continue theirs), and keeps drafts and scheduled messages
 * to the contracted channels. `schoolChannels` is what each school
 * contracted. The mailboxes send no SMS: a month's SMS use is the history's (./sms-use.ts), so their SMS
 * channel is dropped rather than spending segments the quota never counted.
 */
export function addMailboxDeliveries(
  data: SeedData,
  deliveries: DeliveryRow[],
  schoolChannels: ReadonlyMap<number, Readonly<Record<ChannelCode, boolean>>>,
  now: Date,
): void {
  const rng = mulberry32(0x6d61696c);
  const delivered = new Set(deliveries.map((d) => d.recipientId));
  const guardians = new Map(data.guardians.map((g) => [g.id, g]));
  const byMessage = new Map<number, MessageRecipientRow[]>();
  for (const r of data.mail.recipients) {
    if (r.recipientKind !== 'apoderado' || delivered.has(r.id!)) continue;
    const list = byMessage.get(r.messageId) ?? [];
    list.push(r);
    byMessage.set(r.messageId, list);
  }
  for (const m of data.mail.messages) {
    const contracted = schoolChannels.get(m.institutionId)!;
    // Compose offers only the contracted channels, to drafts and scheduled messages too.
    if (m.kind !== 'sent' && m.senderKind === 'funcionario') {
      const offered = (m.channels as ChannelCode[]).filter((c) => contracted[c]);
      m.channels = offered.length > 0 ? offered : ['app-mobile'];
    }
    const recipients = byMessage.get(m.id);
    if (m.kind !== 'sent' || !recipients || m.sentAt == null) continue;
    const channels = (m.channels as ChannelCode[]).filter((c) => c !== 'sms' && contracted[c]);
    m.channels = channels.length > 0 ? channels : ['app-mobile'];
    const at = new Date(m.sentAt).getTime();
    for (const r of recipients) {
      const g = guardians.get(r.recipientRefId)!;
      let best = 0;
      for (const channel of m.channels as ChannelCode[]) {
        const address =
          channel === 'app-mobile'
            ? g.appInstalledAt != null && new Date(g.appInstalledAt).getTime() <= at
              ? `guardian:${g.id}`
              : null
            : channel === 'e-mail'
              ? (g.email ?? null)
              : (g.phone ?? null);
        const row: DeliveryRow = {
          id: deliveries.length + 1,
          messageId: m.id,
          recipientId: r.id!,
          channel,
          address,
          status: 'failed',
          error: null,
          segments: 0,
          attempts: 0,
          createdAt: new Date(at),
          sentAt: null,
          deliveredAt: null,
          readAt: null,
        };
        if (!address) row.error = 'missing_address';
        else if (channel === 'whatsapp' && !smsVerdict(address).smsOk) {
          // The provider adapter refuses a number that cannot receive, permanently (server/delivery/provider.ts).
          row.attempts = 1;
          row.error = 'invalid_number';
        } else {
          const sentAt = at + rng.int(2, 40) * 1000;
          row.sentAt = new Date(sentAt);
          row.attempts = 1;
          if (rng.chance(channel === 'e-mail' ? 0.05 : 0.07)) {
            row.status = channel === 'e-mail' ? 'error' : 'not_received';
            row.error = channel === 'e-mail' ? 'bounced' : 'undelivered';
          } else {
            const deliveredAt = sentAt + rng.int(5, channel === 'app-mobile' ? 600 : 120) * 1000;
            row.status = 'received';
            row.deliveredAt = new Date(deliveredAt);
            // Reading is known on the app and WhatsApp only; most open it within hours.
            if ((channel === 'app-mobile' || channel === 'whatsapp') && rng.chance(0.7)) {
              const readAt = deliveredAt + Math.round(-Math.log(1 - rng.next()) * 3 * HOUR);
              if (readAt <= now.getTime()) {
                row.status = 'read';
                row.readAt = new Date(readAt);
              }
            }
          }
        }
        best = Math.max(best, RANK[row.status as MessageRecipientRow['status']]);
        deliveries.push(row);
      }
      r.status = BY_RANK[best]!;
    }
  }
}
