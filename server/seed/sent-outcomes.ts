// The outcomes of the demo mailboxes' sent messages (server/seed/messages.ts), written as a real send and the
// delivery engine would have left them: one delivery per recipient and channel (born `failed` with
// `missing_address` where the person has no address there), then what each channel came to, and the
// recipient's state by the shared rule (the best of their channels, shared/delivery-progress.ts). The
// mailboxes are written before the guardians' addresses are final (compose, the school year of activity),
// so this runs after them. A message only uses channels its school contracted and its author may use, and
// its SMS fit the month's limit (else the send would have been refused: the SMS is left out) and are
// counted in that month's use.
//
// Outcomes are those of a school that mostly reaches its families: an app message read by most within hours
// and rarely left unopened, a few e-mails bounced, SMS lost only on numbers that never receive (the same
// guardians as in the school year of activity).
import type { ChannelCode } from '../../shared/codes';
import { NO_ADDRESS, recipientStateOf } from '../../shared/delivery-progress';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import { monthIn } from '../db/time';
import { mulberry32 } from './prng';
import type { DeliveryRow, MessageRow, SeedData } from './rows';

const HOUR = 3_600_000;
/** Share of app messages a guardian leaves unopened for 3 days (then "not received"). */
const APP_UNOPENED = 0.01;
const EMAIL_BOUNCES = 0.015;
/** Share of app and WhatsApp messages read. */
const READS = 0.7;

/**
 * Writes the deliveries of the mailboxes' sent messages (those with a Sent entry, trashed included, and no
 * deliveries yet) into `deliveries`, sets their recipients' states and children's names, and returns the SMS
 * segments they used per `${institutionId}:${YYYY-MM}`. `room(institutionId, month)`: SMS segments still
 * free under that month's limit.
 */
export function addSentOutcomes(
  data: SeedData,
  now: Date,
  deliveries: DeliveryRow[],
  deadPhones: ReadonlySet<number>,
  room: (institutionId: number, month: string) => number,
): Map<string, number> {
  const used = new Map<string, number>();
  const rng = mulberry32(0x5e47f00d);
  const sentIds = new Set(data.mail.entries.filter((e) => e.folder === 'sent' || e.deletedFrom === 'sent').map((e) => e.messageId));
  const covered = new Set(deliveries.map((d) => d.messageId));
  const contracted = new Set(data.compose.institutionChannels.filter((c) => c.enabled).map((c) => `${c.institutionId}:${c.channel}`));
  const permitted = new Set(data.compose.userChannelPermissions.filter((p) => p.enabled).map((p) => `${p.userId}:${p.channel}`));
  const guardians = new Map(data.guardians.map((g) => [g.id, g]));
  const staff = new Map(data.staff.map((s) => [s.id, s]));
  const timezones = new Map(data.institutions.map((i) => [i.id, i.timezone]));
  const recipientsOf = new Map<number, typeof data.mail.recipients>();
  for (const r of data.mail.recipients) recipientsOf.set(r.messageId, [...(recipientsOf.get(r.messageId) ?? []), r]);

  for (const m of data.mail.messages) {
    if (m.kind !== 'sent' || !sentIds.has(m.id) || covered.has(m.id) || !m.sentAt) continue;
    const recipients = recipientsOf.get(m.id) ?? [];
    const at = new Date(m.sentAt);
    const phone = (r: (typeof recipients)[number]) =>
      (r.recipientKind === 'apoderado' ? guardians.get(r.recipientRefId)?.phone : staff.get(r.recipientRefId)?.phone) ?? null;
    // The channels the send could have used: contracted by the school, permitted to the author.
    let channels = (m.channels as ChannelCode[]).filter(
      (c) => contracted.has(`${m.institutionId}:${c}`) && (m.authorUserId == null || permitted.has(`${m.authorUserId}:${c}`)),
    );
    if (channels.includes('sms')) {
      const key = `${m.institutionId}:${monthIn(at, timezones.get(m.institutionId)!)}`;
      const cost = recipients.filter((r) => phone(r) !== null).length * SMS_SEGMENTS_PER_MESSAGE;
      const month = key.slice(key.indexOf(':') + 1);
      if (cost > room(m.institutionId, month) - (used.get(key) ?? 0)) channels = channels.filter((c) => c !== 'sms');
      else used.set(key, (used.get(key) ?? 0) + cost);
    }
    if (channels.length === 0) channels = ['app-mobile'];
    m.channels = channels;
    // Fanned out when sent, as the engine marks it (else the sweep would take it for a send cut short).
    m.fannedOutAt = at;
    for (const r of recipients) {
      const statuses = channels.map((channel) => {
        const row = delivery(
          m,
          r.id!,
          channel,
          addressOf(r, channel, at),
          r.recipientKind === 'apoderado' && deadPhones.has(r.recipientRefId),
        );
        deliveries.push({ ...row, id: deliveries.length + 1 });
        return row.status;
      });
      r.status = recipientStateOf(statuses);
    }
  }

  /** The address a send at `at` would have used on `channel`, as the expansion resolves it. */
  function addressOf(r: SeedData['mail']['recipients'][number], channel: ChannelCode, at: Date): string | null {
    if (r.recipientKind === 'apoderado') {
      const g = guardians.get(r.recipientRefId);
      if (!g) return null;
      if (channel === 'app-mobile') return g.appInstalledAt && new Date(g.appInstalledAt) <= at ? `guardian:${g.id}` : null;
      return channel === 'e-mail' ? (g.email ?? null) : (g.phone ?? null);
    }
    const s = staff.get(r.recipientRefId);
    if (!s) return null;
    if (channel === 'app-mobile') return s.userId != null ? `user:${s.userId}` : null;
    return channel === 'e-mail' ? (s.email ?? null) : (s.phone ?? null);
  }

  /** One delivery and what it came to. */
  function delivery(m: MessageRow, recipientId: number, channel: ChannelCode, address: string | null, deadPhone: boolean) {
    const t = new Date(m.sentAt!).getTime();
    const row: Omit<DeliveryRow, 'id'> = {
      messageId: m.id,
      recipientId,
      channel,
      address,
      status: 'failed',
      error: NO_ADDRESS,
      segments: 0,
      attempts: 0,
      createdAt: new Date(t),
      sentAt: null,
      deliveredAt: null,
      readAt: null,
    };
    if (!address) return row;
    const sentAt = t + rng.int(2, 40) * 1000;
    Object.assign(row, { sentAt: new Date(sentAt), attempts: 1, error: null, segments: channel === 'sms' ? SMS_SEGMENTS_PER_MESSAGE : 0 });
    const phone = channel === 'sms' || channel === 'whatsapp';
    if (phone && deadPhone) return Object.assign(row, { status: 'not_received', error: 'undelivered' });
    if (channel === 'e-mail' && rng.chance(EMAIL_BOUNCES)) return Object.assign(row, { status: 'error', error: 'bounced' });
    // An app message unopened for 3 days counts as not received only once those days have passed.
    if (channel === 'app-mobile' && rng.chance(APP_UNOPENED) && t + 72 * HOUR < now.getTime())
      return Object.assign(row, { status: 'not_received', error: 'app_not_opened' });
    const deliveredAt = sentAt + rng.int(5, 120) * 1000;
    Object.assign(row, { status: 'received', deliveredAt: new Date(deliveredAt) });
    if ((channel === 'app-mobile' || channel === 'whatsapp') && rng.chance(READS)) {
      const readAt = deliveredAt + Math.round(-Math.log(1 - rng.next()) * 3 * HOUR);
      if (readAt <= now.getTime()) Object.assign(row, { status: 'read', readAt: new Date(readAt) });
    }
    return row;
  }
  return used;
}

/**
 * `student_names` of the seeded guardian recipients, as the expansion writes it (server/recipients/expand.ts):
 * the children the message reached them for, "Ana Pérez", alphabetical — those in the picked courses or
 * levels (titulares: where they are the titular guardian) and not withdrawn by the message's date, or every
 * child for a guardian picked by name. A guardian reached through a course only for a child withdrawn by
 * then would not have been reached: they are left out of the message (run before `addSentOutcomes`).
 */
export function nameChildren(data: SeedData): void {
  const gone = new Set<(typeof data.mail.recipients)[number]>();
  const students = new Map(data.students.map((s) => [s.id, s]));
  const courses = new Map(data.courses.map((c) => [c.id, c]));
  const links = new Map<number, typeof data.studentGuardians>();
  for (const l of data.studentGuardians) links.set(l.guardianId, [...(links.get(l.guardianId) ?? []), l]);
  const messages = new Map(data.mail.messages.map((m) => [m.id, m]));
  const shortName = (s: { firstNames: string; lastNameFather: string }) => `${s.firstNames.split(' ')[0]} ${s.lastNameFather}`;
  for (const r of data.mail.recipients) {
    if (r.recipientKind !== 'apoderado' || r.studentNames != null) continue;
    const picks = messages.get(r.messageId)?.recipientPicks ?? [];
    const children = (links.get(r.recipientRefId) ?? []).filter((l) => {
      const s = students.get(l.studentId);
      if (!s) return false;
      return picks.some((p) => {
        if (p.kind === 'guardian') return p.id === r.recipientRefId;
        const at = messages.get(r.messageId)?.createdAt;
        if (s.withdrawnAt && (!at || new Date(s.withdrawnAt) <= new Date(at))) return false;
        const audience = 'audience' in p ? p.audience : null;
        const role = audience === 'apoderados' || (audience === 'titulares' && l.role === 1) || (audience === 'suplentes' && l.role === 2);
        if (!role) return false;
        return (p.kind === 'course' && p.id === s.courseId) || (p.kind === 'level' && courses.get(s.courseId)?.levelId === p.id);
      });
    });
    const names = [...new Set(children.map((l) => shortName(students.get(l.studentId)!)))].sort((a, b) => a.localeCompare(b, 'es'));
    if (names.length > 0) r.studentNames = names.join(', ');
    else if (picks.length > 0 && (links.get(r.recipientRefId)?.length ?? 0) > 0) gone.add(r);
  }
  if (gone.size > 0) data.mail.recipients = data.mail.recipients.filter((r) => !gone.has(r));
}
