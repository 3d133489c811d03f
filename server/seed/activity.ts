// A school year of activity for the demo schools, so the connectivity, staff activity and ranking
// dashboards read real rows: sent messages (course messages mostly, some whole-school ones, colleague
// messages) with their recipients, one delivery per recipient and channel as the send path writes them
// (server/compose/send.ts), and the outcomes: received, read within hours on the app, SMS not received on dead
// numbers, bounced e-mails, `missing_address` where there is no address.
//
// Variation is deliberate: the school calendar's rhythm (the March or August start high, the Chilean winter
// break and summer low), a few very active staff and some who never write, and courses that are cut off
// (fewer apps, many dead numbers and bouncing e-mails, fewer reads). The guardians' `device_misses` are then
// computed from these deliveries by the delivery engine's own rule, so the device status agrees with them.
//
// Deterministic like the rest of the seed: one PRNG stream per school; the months are counted back from `now`.
// Every message of the history is in its author's Enviados, as a send files it, so staff activity and the
// Sent folder count the same messages. The demo mailbox users receive no colleague messages from it (their
// inboxes keep their fixed sizes).
import type { Audience, RecipientPick } from '../../shared/compose-contract';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import type { ChannelCode } from '../../shared/codes';
import { fold } from '../../shared/fold';
import { addMonths } from '../../shared/school-year';
import { monthIn } from '../db/time';
import { recipientsLabel } from '../messages/queries';
import { dayKind } from './calendar';
import { staffKind } from './schools';
import type { CourseRow, StaffRow, MessageRecipientRow, DeliveryRow, SeedData } from './rows';
import { appWriters, MAILBOX_USERS } from './messages';
import { mulberry32, type Rng } from './prng';
import { COLLEAGUE_TOPICS, COURSE_TOPICS, type Months, SCHOOL_TOPICS, STAFF_LABEL } from './activity-topics';
import type { SchoolSpec } from './schools';
import { sentEntry } from './sent-entry';
import { addGuardianDeliveries, blankDelivery, type Profile, RANK } from './activity-deliveries';

const HOUR = 3_600_000;

/**
 * Messages a school sends per school day of a month, relative to an ordinary one, January to December. The
 * breaks and vacations themselves come from the calendar (server/seed/calendar.ts): a month with a break has
 * fewer school days, and so fewer messages.
 */
const MONTH_INTENSITY: Record<'CL' | 'MX', readonly number[]> = {
  // Chile: the March start busiest, November's closing events and December's graduations high.
  CL: [1, 1, 1.6, 1.1, 1, 1, 1, 1.05, 1, 1, 1.25, 1.1],
  // Mexico: the late-August start busiest, June–July's closing and the December posadas a little busier.
  MX: [1, 1, 1, 1, 1, 1.1, 1.2, 2.2, 1.1, 1, 1.05, 1.1],
};
/** School days of an ordinary month: the rates below are per such month. */
const SCHOOL_DAYS = 21;

/** Months of history before this one (the same window as the SMS use of server/seed/sms-use.ts). */
const ACTIVITY_MONTHS = 14;

interface Habit {
  /** Weight among the school's authors (0 = never writes). */
  weight: number;
  /** Writes to the whole school and to any course (leadership), or to a few courses of their own (teachers). */
  whole: boolean;
  courses?: number;
}

/**
 * How each demo login writes: the demo reads well when the administrators write a lot, the teachers now and
 * then, and `sinacceso` never.
 */
const HABITS: Record<string, Habit> = {
  'administrador@sanandres.cl': { weight: 14, whole: true },
  'directora@sanandres.cl': { weight: 8, whole: true },
  'utp@sanandres.cl': { weight: 5, whole: true },
  'corp.utp@sanandres.cl': { weight: 1, whole: true },
  'docente@sanandres.cl': { weight: 4, whole: false, courses: 3 },
  'docente.latam@sanandres.cl': { weight: 0.5, whole: false, courses: 2 },
  'sinacceso@sanandres.cl': { weight: 0, whole: false },
  'administrador@liceoelqui.cl': { weight: 8, whole: true },
  'docente@liceoelqui.cl': { weight: 2, whole: false, courses: 2 },
  'administrador@benitojuarez.edu.mx': { weight: 9, whole: true },
  'docente@benitojuarez.edu.mx': { weight: 3, whole: false, courses: 3 },
};

/**
 * The other staff with a login (server/seed/generate.ts addStaffLogins), by kind of cargo: the share who never
 * write, and the weight of those who do. Each writer's weight is then spread (a log-normal factor), so a few
 * write a lot and there is a long tail. A head teacher writes to their own course; leadership (an inspector,
 * the counsellor) to any course and sometimes to the whole school; subject teachers to two or three courses.
 */
const STAFF_HABITS = {
  head: { silent: 0.05, weight: 2.2, courses: 1 },
  lead: { silent: 0.2, weight: 1.2, courses: 0 },
  other: { silent: 0.3, weight: 0.5, courses: 3 },
} as const;

/** Course messages per course and ordinary month; whole-school and colleague messages per month. */
const PER_COURSE = 1;
const WHOLE_SCHOOL = 0.5;
const COLLEAGUE = 3;
/** In the long vacation the office still writes to families (enrolment, supplies): school messages per month. */
const VACATION_SCHOOL = 0.6;
/** Share of a school's courses that are cut off (at least one). */
const CUT_OFF_SHARE = 0.08;

interface Course {
  row: CourseRow;
  cutOff: boolean;
  /** Titular guardians, and suplentes, of its enrolled students. */
  titulars: number[];
  everyone: number[];
}

export interface ActivityResult {
  /** SMS segments sent per `${institutionId}:${YYYY-MM}`. */
  smsSegments: Map<string, number>;
  /** Guardians whose mobile exists but never receives. */
  deadPhones: Set<number>;
}

/**
 * Appends the history to `data.mail` and `deliveries` (ids continue theirs) and adjusts the guardians of
 * cut-off courses (fewer apps). `smsBudget(institutionId, month)` caps each month's SMS segments (a month's
 * limit is never exceeded); run after the mailboxes and the compose data.
 */
export function generateActivity(
  data: SeedData,
  specs: readonly SchoolSpec[],
  now: Date,
  deliveries: DeliveryRow[],
  smsBudget: (institutionId: number, month: string) => number,
): ActivityResult {
  const result: ActivityResult = { smsSegments: new Map(), deadPhones: new Set() };
  const students = new Map(data.students.map((s) => [s.id, s]));
  const guardians = new Map(data.guardians.map((g) => [g.id, g]));
  const coursesOf = new Map<number, Set<number>>();
  const byCourse = new Map<number, { titulars: Set<number>; everyone: Set<number> }>();
  for (const link of data.studentGuardians) {
    const student = students.get(link.studentId)!;
    if (student.withdrawnAt) continue;
    const entry = byCourse.get(student.courseId) ?? { titulars: new Set<number>(), everyone: new Set<number>() };
    if (link.role === 1) entry.titulars.add(link.guardianId);
    entry.everyone.add(link.guardianId);
    byCourse.set(student.courseId, entry);
    const set = coursesOf.get(link.guardianId) ?? new Set<number>();
    set.add(student.courseId);
    coursesOf.set(link.guardianId, set);
  }
  // Who wrote from the app keeps it (a cut-off course's family can still be one that answers).
  const writers = appWriters(data.mail);
  const mailboxUserIds = new Set(data.users.filter((u) => (MAILBOX_USERS as readonly string[]).includes(u.email)).map((u) => u.id));

  specs.forEach((spec, index) => {
    const institutionId = data.institutions[index]!.id;
    const rng = mulberry32(spec.seed ^ 0xac71b17e);
    const courses: Course[] = data.courses
      .filter((c) => c.institutionId === institutionId && byCourse.has(c.id))
      .map((row) => ({ row, cutOff: false, titulars: [...byCourse.get(row.id)!.titulars], everyone: [...byCourse.get(row.id)!.everyone] }));
    if (courses.length === 0) return;
    const cutCount = Math.max(1, Math.round(courses.length * CUT_OFF_SHARE));
    for (const c of rng.shuffle(courses).slice(0, cutCount)) c.cutOff = true;
    const cutIds = new Set(courses.filter((c) => c.cutOff).map((c) => c.row.id));

    // Guardians' profiles; in cut-off courses (all their children there) fewer apps and worse contacts.
    const profiles = new Map<number, Profile>();
    const courseReads = new Map(courses.map((c) => [c.row.id, c.cutOff ? 0.25 : 0.55 + rng.next() * 0.35]));
    for (const g of data.guardians.filter((x) => x.institutionId === institutionId)) {
      const theirs = [...(coursesOf.get(g.id) ?? [])];
      const cut = theirs.length > 0 && theirs.every((id) => cutIds.has(id));
      if (cut && g.appInstalledAt && rng.chance(0.75) && !writers.has(g.id)) g.appInstalledAt = null;
      // A number missing from the record (red) only where there is no app either.
      if (cut && !g.appInstalledAt && g.phone && rng.chance(0.2)) g.phone = null;
      const reads = theirs.length > 0 ? Math.max(...theirs.map((id) => courseReads.get(id)!)) : 0.6;
      const profile = {
        deadPhone: rng.chance(cut ? 0.6 : 0.04),
        bouncingEmail: rng.chance(cut ? 0.6 : 0.05),
        appMisses: cut ? 0.12 : 0.03,
        reads,
      };
      profiles.set(g.id, profile);
      if (profile.deadPhone && g.phone) result.deadPhones.add(g.id);
    }

    const schoolStaff = data.staff.filter((s) => s.institutionId === institutionId);
    const staffByUser = new Map(schoolStaff.filter((s) => s.userId != null).map((s) => [s.userId!, s]));
    const positions = new Map(data.positions.map((p) => [p.id, p.name]));
    const leadership = new Set(spec.leadership.map((l) => l.name));
    // Head teachers each take a course of their own, in a shuffled order.
    const unheaded = rng.shuffle(courses);
    const authors: { user: SeedData['users'][number]; staff: StaffRow | undefined; habit: Habit; own: Course[] }[] = [];
    for (const u of data.users.filter((x) => x.institutionId === institutionId)) {
      const me = staffByUser.get(u.id);
      let habit = HABITS[u.email];
      let own: Course[];
      if (habit) {
        own = rng.shuffle(courses).slice(0, habit.courses ?? courses.length);
      } else {
        const kind = staffKind(me?.positionId == null ? '' : (positions.get(me.positionId) ?? ''), leadership);
        const base = STAFF_HABITS[kind];
        // A few very active, a long tail, some who never write.
        const spread = Math.exp(gaussian(rng) * 0.8);
        habit = { weight: rng.chance(base.silent) ? 0 : base.weight * spread, whole: kind === 'lead', courses: base.courses };
        own = kind === 'head' ? unheaded.splice(0, 1) : kind === 'lead' ? courses : rng.shuffle(courses).slice(0, rng.int(2, base.courses));
        if (own.length === 0) own = rng.shuffle(courses).slice(0, 1);
      }
      if (habit.weight > 0) authors.push({ user: u, staff: me, habit, own });
    }
    const leaders = authors.filter((a) => a.habit.whole);
    if (authors.length === 0 || leaders.length === 0) return;
    const channels = spec.compose.channels;
    const thisMonth = monthIn(now, spec.timezone);
    const until = now.getTime() - 10 * 60_000;
    // Local midnight in UTC (Chile −3 in its school months, Mexico City −6), near enough for school hours.
    const offset = spec.country === 'MX' ? 6 * HOUR : 3 * HOUR;

    for (let back = ACTIVITY_MONTHS; back >= 0; back--) {
      const month = addMonths(thisMonth, -back);
      const [y, m] = month.split('-').map(Number) as [number, number];
      const to = back === 0 ? until : Date.UTC(y, m, 1) + offset;
      // The month's days by the school calendar: school days, and the weekdays of the long vacation.
      const schoolDays: number[] = [];
      const vacationDays: number[] = [];
      for (let d = 1; Date.UTC(y, m - 1, d) + offset < to; d++) {
        const kind = dayKind(spec.country, y, m, d);
        if (kind === 'school') schoolDays.push(Date.UTC(y, m - 1, d) + offset);
        else if (kind === 'vacation') vacationDays.push(Date.UTC(y, m - 1, d) + offset);
      }
      const intensity = MONTH_INTENSITY[spec.country][m - 1]! * (0.85 + rng.next() * 0.3);
      const budget = back === 0 ? 0 : smsBudget(institutionId, month);
      let segments = 0;
      /** An hour of one of `days` (local midnights), before `to`; busier in the month's first and last week. */
      const when = (days: readonly number[]): number => {
        for (let tries = 0; tries < 40; tries++) {
          const u = rng.next();
          const skew = rng.chance(0.35) ? (rng.chance(0.5) ? u * 0.25 : 0.75 + u * 0.25) : u;
          const at = days[Math.min(days.length - 1, Math.floor(skew * days.length))]! + rng.int(8 * 60, 19 * 60) * 60_000;
          if (at < to) return at;
        }
        return days[0]! + 8 * HOUR;
      };
      const pick = (among: typeof authors) => rng.weighted(among.map((a) => [a, a.habit.weight] as const));

      const plan: { kind: 'course' | 'school' | 'staff' | 'vacation'; at: number }[] = [];
      const count = (mean: number) => Math.floor(mean) + (rng.chance(mean - Math.floor(mean)) ? 1 : 0);
      const school = (schoolDays.length / SCHOOL_DAYS) * intensity;
      if (schoolDays.length > 0) {
        for (let i = count(courses.length * PER_COURSE * school); i > 0; i--) plan.push({ kind: 'course', at: when(schoolDays) });
        for (let i = count(WHOLE_SCHOOL * school); i > 0; i--) plan.push({ kind: 'school', at: when(schoolDays) });
        for (let i = count(COLLEAGUE * school); i > 0; i--) plan.push({ kind: 'staff', at: when(schoolDays) });
      }
      // The office writes at least once in a vacation month (so an SMS school's every month has some use).
      if (vacationDays.length > 0) {
        const n = Math.max(vacationDays.length >= 10 ? 1 : 0, count((VACATION_SCHOOL * vacationDays.length) / SCHOOL_DAYS));
        for (let i = n; i > 0; i--) plan.push({ kind: 'vacation', at: when(vacationDays) });
      }
      plan.sort((a, b) => a.at - b.at);

      for (const item of plan) {
        const at = new Date(item.at);
        const who = pick(item.kind === 'school' || item.kind === 'vacation' ? leaders : authors);
        if (item.kind === 'staff') {
          addColleagueMessage(
            data,
            deliveries,
            rng,
            institutionId,
            who.user,
            who.staff,
            schoolStaff,
            at,
            now,
            mailboxUserIds,
            channels['e-mail'],
          );
          continue;
        }
        let picked: Course[];
        let title: string;
        let body: string;
        const audience: Audience = item.kind === 'course' && rng.chance(0.2) ? 'apoderados' : 'titulares';
        if (item.kind === 'vacation') {
          // To the families of a level or two (enrolment, supplies), on a topic of the season only.
          picked = rng.shuffle(courses).slice(
            0,
            rng.weighted([
              [1, 60],
              [2, 30],
              [3, 10],
            ] as const),
          );
          const fitting = SCHOOL_TOPICS[spec.country].filter((t) => t.months?.[spec.country]?.includes(m));
          const topic = fitting.length > 0 ? rng.pick(fitting) : pickTopic(rng, SCHOOL_TOPICS[spec.country], spec.country, m);
          title = topic.title;
          body = topic.body;
        } else if (item.kind === 'school' && who.habit.whole) {
          picked = courses;
          const topic = pickTopic(rng, SCHOOL_TOPICS[spec.country], spec.country, m);
          title = topic.title;
          body = topic.body;
        } else {
          const pool = who.habit.whole ? courses : who.own;
          picked = rng.shuffle(pool).slice(
            0,
            rng.weighted([
              [1, 80],
              [2, 15],
              [3, 5],
            ] as const),
          );
          const topic = pickTopic(rng, COURSE_TOPICS[spec.country], spec.country, m);
          title = topic.title(picked[0]!.row.name);
          body = topic.body(picked[0]!.row.name);
        }
        // Channels: the app always; e-mail often; SMS (or WhatsApp where there is no SMS) for some, within the month's SMS budget.
        const chosen: ChannelCode[] = ['app-mobile'];
        if (channels['e-mail'] && rng.chance(0.35)) chosen.push('e-mail');
        const people = new Set<number>();
        for (const c of picked) for (const g of audience === 'apoderados' ? c.everyone : c.titulars) people.add(g);
        const smsCost = [...people].filter((g) => guardians.get(g)!.phone).length * SMS_SEGMENTS_PER_MESSAGE;
        // The month's first message that fits goes by SMS too, so every month of a school with SMS has some use.
        if (channels.sms && (segments === 0 || rng.chance(item.kind === 'school' ? 0.8 : 0.45)) && segments + smsCost <= budget) {
          chosen.push('sms');
          segments += smsCost;
        } else if (!channels.sms && channels.whatsapp && rng.chance(0.25)) {
          chosen.push('whatsapp');
        }

        const messageId = data.mail.messages.length + 1;
        const labels =
          item.kind === 'school' && who.habit.whole ? levelsOf(data, institutionId).map((l) => l.name) : picked.map((c) => c.row.name);
        const picks: RecipientPick[] =
          item.kind === 'school' && who.habit.whole
            ? levelsOf(data, institutionId).map((l) => ({ kind: 'level' as const, id: l.id, audience, label: l.name }))
            : picked.map((c) => ({ kind: 'course' as const, id: c.row.id, audience, label: c.row.name }));
        data.mail.messages.push({
          id: messageId,
          institutionId,
          authorUserId: who.user.id,
          senderKind: 'funcionario',
          senderRefId: who.staff?.id ?? who.user.id,
          senderName: who.user.name,
          title,
          content: body,
          channels: chosen,
          allowReplies: rng.chance(0.3),
          copyToSender: false,
          kind: 'sent',
          scheduledAt: null,
          sentAt: at,
          replyToId: null,
          createdAt: at,
          updatedAt: at,
          search: fold(`${title}\n${body}`),
          recipientPicks: picks,
          fannedOutAt: at,
        });
        const seen = new Set<number>();
        for (const c of picked) {
          for (const guardianId of audience === 'apoderados' ? c.everyone : c.titulars) {
            if (seen.has(guardianId)) continue;
            seen.add(guardianId);
            const g = guardians.get(guardianId)!;
            addGuardianDeliveries(data, deliveries, rng, messageId, c.row, g, profiles.get(guardianId)!, chosen, at, now);
          }
        }
        const label = recipientsLabel(labels);
        data.mail.entries.push(sentEntry(who.user.id, institutionId, messageId, at, label));
      }
      result.smsSegments.set(`${institutionId}:${month}`, segments);
    }
  });
  return result;
}

function levelsOf(data: SeedData, institutionId: number) {
  return data.levels.filter((l) => l.institutionId === institutionId);
}

function pickTopic<T extends { months?: Months }>(rng: Rng, topics: readonly T[], country: 'CL' | 'MX', month: number): T {
  const fitting = topics.filter((t) => t.months?.[country]?.includes(month));
  if (fitting.length > 0 && rng.chance(0.6)) return rng.pick(fitting);
  return rng.pick(topics.filter((t) => !t.months));
}

/** A standard normal draw (Box–Muller). */
function gaussian(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * A message to colleagues, as the send path writes it: a recipient per colleague, a delivery per channel (the
 * app is the colleague's Hermes inbox, `user:<id>`, received at once and read when they open it there, so the
 * delivery's read time is the inbox entry's; `missing_address` for a colleague without a login; e-mail, when
 * chosen, to their address and never "read"), the inbox entry of each colleague who signs in (not the demo
 * mailbox users: their inboxes keep their fixed sizes) and the author's Sent entry.
 */
function addColleagueMessage(
  data: SeedData,
  deliveries: DeliveryRow[],
  rng: Rng,
  institutionId: number,
  author: SeedData['users'][number],
  me: StaffRow | undefined,
  schoolStaff: StaffRow[],
  at: Date,
  now: Date,
  mailboxUserIds: Set<number>,
  email: boolean,
): void {
  const country = data.institutions.find((i) => i.id === institutionId)!.country;
  const topic = rng.pick(COLLEAGUE_TOPICS[country]);
  const messageId = data.mail.messages.length + 1;
  const others = schoolStaff.filter((s) => s.userId !== author.id && (s.userId == null || !mailboxUserIds.has(s.userId)));
  const to = rng.chance(0.5) ? others : rng.shuffle(others).slice(0, rng.int(4, 12));
  const label = to === others ? STAFF_LABEL[country].all : STAFF_LABEL[country].some(to.length);
  const chosen: ChannelCode[] = email && rng.chance(0.3) ? ['app-mobile', 'e-mail'] : ['app-mobile'];
  data.mail.messages.push({
    id: messageId,
    institutionId,
    authorUserId: author.id,
    senderKind: 'funcionario',
    senderRefId: me?.id ?? author.id,
    senderName: author.name,
    title: topic.title,
    content: topic.body,
    channels: chosen,
    allowReplies: true,
    copyToSender: false,
    kind: 'sent',
    scheduledAt: null,
    sentAt: at,
    replyToId: null,
    createdAt: at,
    updatedAt: at,
    search: fold(`${topic.title}\n${topic.body}`),
    recipientPicks: to.map((s): RecipientPick => ({ kind: 'staff', id: s.id, label: `${s.firstNames} ${s.lastNameFather}` })),
    fannedOutAt: at,
  });
  const t = at.getTime();
  for (const s of to) {
    const name = `${s.firstNames.split(' ')[0]} ${s.lastNameFather} ${s.lastNameMother}`;
    const readAt = s.userId != null && rng.chance(0.8) ? t + 60_000 + Math.round(-Math.log(1 - rng.next()) * 5 * HOUR) : null;
    const read = readAt !== null && readAt <= now.getTime();
    const recipientId = data.mail.recipients.length + 1;
    const recipient: MessageRecipientRow = {
      id: recipientId,
      messageId,
      recipientKind: 'funcionario',
      recipientRefId: s.id,
      displayName: name,
      groupKind: 'funcionarios',
      groupLabel: label,
      status: 'failed',
    };
    data.mail.recipients.push(recipient);
    let best = 0;
    for (const channel of chosen) {
      const address = channel === 'app-mobile' ? (s.userId != null ? `user:${s.userId}` : null) : (s.email ?? null);
      const sentAt = t + rng.int(2, 40) * 1000;
      const row = blankDelivery({ id: deliveries.length + 1, messageId, recipientId, channel, address, segments: 0, createdAt: at });
      if (address) {
        row.attempts = 1;
        row.sentAt = new Date(sentAt);
        row.status = 'received';
        // The app is their inbox: received when handed over; an e-mail a few seconds later.
        row.deliveredAt = new Date(channel === 'app-mobile' ? sentAt : sentAt + rng.int(5, 120) * 1000);
        if (channel === 'app-mobile' && read) {
          row.status = 'read';
          row.readAt = new Date(readAt!);
        }
      }
      best = Math.max(best, RANK[row.status]!);
      deliveries.push(row);
    }
    recipient.status = (Object.keys(RANK).find((k) => RANK[k] === best) ?? 'failed') as MessageRecipientRow['status'];
    if (s.userId != null) {
      data.mail.entries.push({
        userId: s.userId,
        institutionId,
        messageId,
        folder: 'inbox',
        deletedFrom: null,
        deletedAt: null,
        readAt: read ? new Date(readAt!) : null,
        sortAt: at,
        counterpart: author.name,
        counterpartSearch: fold(author.name),
      });
    }
  }
  data.mail.entries.push(sentEntry(author.id, institutionId, messageId, at, label));
}
