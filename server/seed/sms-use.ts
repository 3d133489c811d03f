// A year of SMS use for the demo schools that contract SMS, so the quota screen's chart means
// something: each past month's sms_usage with the school calendar's rhythm (the March start and the events
// of spring high, the Chilean winter break in July and the summer in January–February low), a limit history
// with changes (sms_monthly_limits), and this month's use made of real sent SMS messages with their
// deliveries, by several staff to several courses, so `used`, the top senders and the top courses agree with
// the database. Deterministic like the rest of the seed (its own PRNG streams); the months are counted back
// from `now`, the seed's only clock, since "this month" is the one the server will count.
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import type { RecipientPick } from '../../shared/compose-contract';
import { fold } from '../../shared/fold';
import { monthIn, monthStart } from '../db/time';
import { recipientsLabel } from '../messages/queries';
import type { MessageRecipientRow, DeliveryRow, SmsUseSeed, SeedData } from './rows';
import { mulberry32 } from './prng';
import { generateActivity } from './activity';
import { addMonths } from '../../shared/school-year';
import type { SchoolSpec } from './schools';
import { addSentOutcomes, nameChildren } from './sent-outcomes';
import { sentEntry } from './sent-entry';

/** Share of a month's limit a Chilean school uses, January to December. */
const CHILE_MONTH_SHARE = [0.06, 0.1, 0.92, 0.78, 0.74, 0.68, 0.3, 0.72, 0.6, 0.8, 0.84, 0.5] as const;
/** Past months of use before this one (14: the whole civil and school years shown, and the one before). */
export const PAST_MONTHS = 14;

interface SmsSchool {
  email: string;
  /** Limit changes, months back from this one (`from`: 14 = fourteen months ago). The last is the current limit. */
  history: { from: number; limit: number }[];
  /** Staff users who wrote this month's SMS. */
  senders: readonly string[];
  /** This month's messages (each to the titular guardians of 1–2 courses). */
  messages: number;
}

/** San Andrés and Liceo Elqui contract SMS; Benito Juárez does not (no SMS, no use). */
const SMS_SCHOOLS: readonly SmsSchool[] = [
  {
    email: 'administrador@sanandres.cl',
    history: [
      { from: 14, limit: 3000 },
      { from: 8, limit: 4000 },
      { from: 3, limit: 5000 },
    ],
    senders: [
      'directora@sanandres.cl',
      'utp@sanandres.cl',
      'corp.utp@sanandres.cl',
      'docente.latam@sanandres.cl',
      'administrador@sanandres.cl',
    ],
    messages: 36,
  },
  {
    email: 'administrador@liceoelqui.cl',
    history: [
      { from: 14, limit: 800 },
      { from: 5, limit: 1000 },
    ],
    senders: ['administrador@liceoelqui.cl', 'docente@liceoelqui.cl'],
    messages: 9,
  },
];

const DAY = 86_400_000;

const SMS_TOPICS = [
  { title: 'Suspensión de clases', body: 'Mañana no habrá clases por corte de agua en el sector. Las evaluaciones se reprogramarán.' },
  { title: 'Reunión de apoderados', body: 'Recordamos la reunión de apoderados este miércoles a las 19:00 en la sala del curso.' },
  { title: 'Salida pedagógica', body: 'La salida pedagógica de mañana parte a las 8:15 desde el colegio. Traer colación y agua.' },
  { title: 'Vacunación escolar', body: 'El martes se vacuna en el colegio. Si su pupilo no debe vacunarse, envíe el certificado.' },
  { title: 'Cambio de horario', body: 'El viernes la jornada termina a las 13:00 por consejo de profesores.' },
  { title: 'Pago de matrícula', body: 'Recordamos que el plazo para la matrícula 2027 vence este viernes en secretaría.' },
];

/**
 * Appends this month's SMS messages to `data.mail` (messages, recipients with ids, the authors' Sent
 * entries) and returns the usage, the limit history and the deliveries. Run after the mailboxes and the
 * compose data (guardians' phones are final then). Recipients get explicit ids, so deliveries can point at them.
 */
export function generateSmsUse(data: SeedData, now: Date, specs: readonly SchoolSpec[]): SmsUseSeed {
  const out: SmsUseSeed = { usage: [], limits: [], deliveries: [] };
  for (const [i, r] of data.mail.recipients.entries()) r.id = i + 1;
  const usersByEmail = new Map(data.users.map((u) => [u.email, u]));
  const staffByUser = new Map(data.staff.filter((s) => s.userId != null).map((s) => [s.userId!, s]));
  const students = new Map(data.students.map((s) => [s.id, s]));
  const guardians = new Map(data.guardians.map((g) => [g.id, g]));
  const titularsByCourse = new Map<number, number[]>();
  for (const link of data.studentGuardians) {
    const student = students.get(link.studentId)!;
    if (link.role !== 1 || student.withdrawnAt) continue;
    const list = titularsByCourse.get(student.courseId) ?? [];
    if (!list.includes(link.guardianId)) list.push(link.guardianId);
    titularsByCourse.set(student.courseId, list);
  }

  // Limits and each past month's SMS budget (the calendar's rhythm under that month's limit) first; the school
  // year of activity (server/seed/activity.ts) sends SMS within those budgets, and a past month's use is then
  // what its deliveries cost, so the quota chart and the dashboards tell one story.
  const budgets = new Map<string, number>();
  const streams = SMS_SCHOOLS.map((school, index) => {
    const admin = usersByEmail.get(school.email);
    if (!admin) return null;
    const institutionId = admin.institutionId;
    const timezone = data.institutions.find((i) => i.id === institutionId)!.timezone;
    const rng = mulberry32(0x5e5a0000 + index);
    const thisMonth = monthIn(now, timezone);
    const limitAt = (back: number) => [...school.history].reverse().find((h) => h.from >= back)!.limit;
    for (const change of school.history)
      out.limits.push({ institutionId, month: addMonths(thisMonth, -change.from), smsLimit: change.limit });
    for (let back = PAST_MONTHS; back >= 1; back--) {
      const month = addMonths(thisMonth, -back);
      const share = CHILE_MONTH_SHARE[Number(month.slice(5)) - 1]! * (0.88 + rng.next() * 0.2);
      budgets.set(`${institutionId}:${month}`, Math.min(limitAt(back), Math.round(limitAt(back) * share)));
    }
    return { school, rng, institutionId, timezone, thisMonth };
  });
  const activity = generateActivity(
    data,
    specs,
    now,
    out.deliveries,
    (institutionId, month) => budgets.get(`${institutionId}:${month}`) ?? 0,
  );

  const thisMonthUse = new Map<number, number>();
  streams.forEach((stream) => {
    if (!stream) return;
    const { school, rng, institutionId, timezone } = stream;

    // This month: real messages between the 1st (school time) and a few minutes ago.
    const from = monthStart(now, timezone);
    const until = now.getTime() - 5 * 60_000;
    const courses = data.courses.filter((c) => c.institutionId === institutionId && (titularsByCourse.get(c.id)?.length ?? 0) > 0);
    const senders = school.senders.map((email) => usersByEmail.get(email)).filter((u) => u !== undefined);
    let segments = 0;
    for (let i = 0; i < school.messages; i++) {
      // The first senders write more (weights 5, 4, 3…), so the ranking is clear.
      const author = rng.weighted(senders.map((u, k) => [u, senders.length - k] as const));
      const me = staffByUser.get(author.id);
      // Spread over the days so far, in school hours (08:00–18:59 there), never after `until`.
      const day = Math.floor(((until - from) / DAY) * ((i + rng.next()) / school.messages));
      const at = new Date(Math.max(from, Math.min(until, from + day * DAY + rng.int(8 * 60, 18 * 60 + 59) * 60_000)));
      const topic = rng.pick(SMS_TOPICS);
      const picked = rng.shuffle(courses).slice(
        0,
        rng.weighted([
          [1, 75],
          [2, 25],
        ] as const),
      );
      const picks: RecipientPick[] = picked.map((c) => ({ kind: 'course', id: c.id, audience: 'titulares', label: c.name }));
      const messageId = data.mail.messages.length + 1;
      data.mail.messages.push({
        id: messageId,
        institutionId,
        authorUserId: author.id,
        senderKind: 'funcionario',
        senderRefId: me?.id ?? author.id,
        senderName: author.name,
        title: topic.title,
        content: topic.body,
        channels: ['sms'],
        allowReplies: false,
        copyToSender: false,
        kind: 'sent',
        scheduledAt: null,
        sentAt: at,
        replyToId: null,
        createdAt: at,
        updatedAt: at,
        search: fold(`${topic.title}\n${topic.body}`),
        recipientPicks: picks,
        fannedOutAt: at,
      });
      const seen = new Set<number>();
      for (const course of picked) {
        for (const guardianId of titularsByCourse.get(course.id)!) {
          if (seen.has(guardianId)) continue;
          seen.add(guardianId);
          const guardian = guardians.get(guardianId)!;
          const name = `${guardian.firstNames.split(' ')[0]} ${guardian.lastNameFather} ${guardian.lastNameMother}`;
          // A number that never receives (server/seed/activity.ts) does not receive this month either.
          const dead = activity.deadPhones.has(guardianId);
          const recipient: MessageRecipientRow = {
            id: data.mail.recipients.length + 1,
            messageId,
            recipientKind: 'apoderado',
            recipientRefId: guardianId,
            displayName: name,
            groupKind: 'curso',
            groupLabel: course.name,
            status: !guardian.phone ? 'failed' : dead ? 'not_received' : 'received',
          };
          data.mail.recipients.push(recipient);
          const cost = guardian.phone ? SMS_SEGMENTS_PER_MESSAGE : 0;
          segments += cost;
          out.deliveries.push({
            id: out.deliveries.length + 1,
            messageId,
            recipientId: recipient.id!,
            channel: 'sms',
            address: guardian.phone ?? null,
            status: recipient.status as DeliveryRow['status'],
            error: !guardian.phone ? 'missing_address' : dead ? 'undelivered' : null,
            segments: cost,
            attempts: guardian.phone ? 1 : 0,
            createdAt: at,
            sentAt: guardian.phone ? at : null,
            deliveredAt: guardian.phone && !dead ? new Date(at.getTime() + 20_000) : null,
          });
        }
      }
      // In the author's Enviados, as a send files it.
      data.mail.entries.push(sentEntry(author.id, institutionId, messageId, at, recipientsLabel(picked.map((c) => c.name))));
    }
    thisMonthUse.set(institutionId, segments);
  });

  // The demo mailboxes' sent messages, as sent within each month's limit; then each month's use.
  const usedOf = (institutionId: number, month: string) =>
    (activity.smsSegments.get(`${institutionId}:${month}`) ?? 0) +
    (month === streams.find((st) => st?.institutionId === institutionId)?.thisMonth ? (thisMonthUse.get(institutionId) ?? 0) : 0);
  nameChildren(data);
  const mailbox = addSentOutcomes(data, now, out.deliveries, activity.deadPhones, (institutionId, month) =>
    Math.max(0, limitOf(out.limits, institutionId, month) - usedOf(institutionId, month)),
  );
  const months = new Set<string>();
  for (const stream of streams) {
    if (!stream) continue;
    for (let back = PAST_MONTHS; back >= 0; back--) months.add(`${stream.institutionId}:${addMonths(stream.thisMonth, -back)}`);
  }
  for (const key of mailbox.keys()) months.add(key);
  for (const key of [...months].sort()) {
    const [id, month] = [Number(key.slice(0, key.indexOf(':'))), key.slice(key.indexOf(':') + 1)];
    out.usage.push({ institutionId: id, month, segments: usedOf(id, month) + (mailbox.get(key) ?? 0) });
  }
  return out;
}

/** The SMS limit of `month`: the latest change at or before it, else the earliest known (0 without any). */
function limitOf(limits: SmsUseSeed['limits'], institutionId: number, month: string): number {
  const own = limits.filter((l) => l.institutionId === institutionId).sort((a, b) => a.month.localeCompare(b.month));
  return ([...own].reverse().find((l) => l.month <= month) ?? own[0])?.smsLimit ?? 0;
}
