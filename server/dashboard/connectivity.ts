// Connectivity of families (issue 16, shared/dashboard-contract.ts): per school, level and course how many
// guardians each channel reaches, their SPEC §3 device status mix and the "cobertura efectiva" of the
// group's last messages; a course's guardians with what to fix; and the "Lista de llamados" (JSON, CSV).
// Every figure is an SQL aggregate over the school's rows; JavaScript only assembles the aggregated rows.
//
// "The group's last messages" (README Decisions): the COVERAGE_MESSAGES most recently sent messages
// (messages.kind 'sent', by sent_at) sent to the course as a group: a recipient row of one of its current
// guardians under the course pick (or a level pick, which expands per course): group_kind 'curso',
// group_label the course's name, as the reception screen groups them. A message to one guardian or to a list is not the course's.
// Addressed = the course's current guardians among those messages' recipients; reached = those with a
// delivery of one of them received or read on any channel within COVERAGE_HOURS of the message's sent_at.
// A level and the school count each guardian once over their courses' windows.
// A guardian's "last messages" (missed deliveries, fix hints, call list) are the last N sent messages
// that had them as a recipient.
import { sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { ChannelCode } from '../../shared/codes';
import type { DeviceStatus } from '../../shared/compose-contract';
import {
  CALL_LIST_COLUMNS,
  CALL_LIST_MESSAGES_MAX,
  COVERAGE_HOURS,
  COVERAGE_MESSAGES,
  type CallList,
  type CallListRow,
  type Connectivity,
  type ConnectivityRow,
  type CourseConnectivity,
  type CourseGuardian,
  type FixHint,
  type MissedDelivery,
} from '../../shared/dashboard-contract';
import { fold } from '../../shared/fold';
import { collator, deviceStatusSql, hasPhoneSql } from '../compose/recipients';
import { rowsOf } from '../compose/expand';
import type { Queryable } from '../db/client';
import { normalizePhone } from '../delivery/phone';

export const CONNECTIVITY_MESSAGES = {
  forbidden: 'No tienes permiso para ver la conectividad de las familias.',
  messages: `La cantidad de mensajes debe ser un número entero entre 1 y ${CALL_LIST_MESSAGES_MAX}.`,
  format: 'El formato debe ser "json" o "csv".',
} as const;

/**
 * How many of the school's newest messages per course the coverage windows are looked for in first (the
 * rest is found course by course through its guardians, slower but rare): a course usually gets a message
 * every few days, so the newest 4 × courses hold nearly every course's last three.
 */
export const RECENT_PER_COURSE = 4;

/** Failures that say nothing about the guardian's contact data: no address at all, or our side failing. */
const NOT_THEIR_FAULT = sql.raw(`('missing_address', 'unreachable', 'provider_auth')`);

// ───────────────────────────── school, levels, courses ─────────────────────────────

interface AggregateRow {
  level_id: number | null;
  course_id: number | null;
  /** 0 course row, 1 level row, 3 school row (GROUPING(level_id, course_id)). */
  g: number;
  students: number;
  guardians: number;
  app: number;
  email: number;
  phone: number;
  blue: number;
  green: number;
  yellow: number;
  red: number;
  addressed: number;
  reached: number;
}

/**
 * One statement: guardians per course (a guardian once per course however many children they have there),
 * the coverage window of each course (its messages among the school's newest RECENT_PER_COURSE × courses,
 * then, for a course with fewer than three there, a walk down its guardians' older ones), and GROUPING SETS
 * for course, level and school rows.
 * `courseId` narrows it to one course (the course page's summary).
 */
export function connectivitySql(institutionId: number, courseId: number | null, { recentPerCourse = RECENT_PER_COURSE } = {}) {
  const courseFilter = courseId === null ? sql`` : sql`and c.id = ${courseId}`;
  return sql`
    with cs as materialized (
      select c.id as course_id, c.level_id, s.id as student_id
      from courses c join students s on s.course_id = c.id and s.withdrawn_at is null
      where c.institution_id = ${institutionId} ${courseFilter}
    ),
    cg as materialized (
      select distinct cs.course_id, cs.level_id, sg.guardian_id
      from cs join student_guardians sg on sg.student_id = cs.student_id
    ),
    -- The course's messages among the school's newest ones, newest first (one pass over few recipient rows)…
    recent as materialized (
      select m.id, m.sent_at from messages m
      where m.institution_id = ${institutionId} and m.kind = 'sent' and m.sent_at is not null
      order by m.sent_at desc, m.id desc
      limit (select greatest(${recentPerCourse} * count(*), ${COVERAGE_MESSAGES}) from courses where institution_id = ${institutionId})
    ),
    early as (
      select course_id, message_id, sent_at from (
        select x.*, row_number() over (partition by x.course_id order by x.sent_at desc, x.message_id desc) as n
        from (
          select distinct c.id as course_id, m.id as message_id, m.sent_at
          from recent m
          join message_recipients r on r.message_id = m.id and r.recipient_kind = 'apoderado' and r.group_kind = 'curso'
          join courses c on c.institution_id = ${institutionId} and c.name = r.group_label ${courseFilter}
          -- As in "late": sent to the course and to one of its current guardians.
          join cg on cg.course_id = c.id and cg.guardian_id = r.recipient_ref_id
        ) x
      ) ranked
      where n <= ${COVERAGE_MESSAGES}
    ),
    -- …and for a course with fewer than that there, the rest from older messages, found through its guardians.
    short as (
      select c.id as course_id, count(early.message_id)::int as found
      from courses c left join early on early.course_id = c.id
      where c.institution_id = ${institutionId} ${courseFilter}
      group by c.id
      having count(early.message_id) < ${COVERAGE_MESSAGES}
    ),
    late as (
      select short.course_id, m.id as message_id, m.sent_at, short.found, m.n
      from short
      join courses c on c.id = short.course_id
      cross join lateral (
        select m.id, m.sent_at, row_number() over (order by m.sent_at desc, m.id desc) as n from messages m
        where m.institution_id = ${institutionId} and m.kind = 'sent' and m.sent_at is not null
          and (m.sent_at, m.id) < (select sent_at, id from recent order by sent_at, id limit 1)
          and exists (
            select 1 from message_recipients r join cg on cg.guardian_id = r.recipient_ref_id and cg.course_id = c.id
            where r.message_id = m.id and r.recipient_kind = 'apoderado' and r.group_kind = 'curso' and r.group_label = c.name)
        order by m.sent_at desc, m.id desc
        limit ${COVERAGE_MESSAGES}
      ) m
    ),
    win as materialized (
      select course_id, message_id, sent_at from early
      union all select course_id, message_id, sent_at from late where n <= ${COVERAGE_MESSAGES} - found
    ),
    -- Each window message's guardian recipients read once, however many courses' windows it is in (a
    -- message to the whole school is in all of them), through message_recipients_message_idx; "offset 0"
    -- keeps the planner from flattening this into a hash join over every recipient row of the school.
    wr as materialized (
      select wm.message_id, r.recipient_ref_id as guardian_id,
        exists (
          select 1 from deliveries d
          where d.recipient_id = r.id and d.status in ('received', 'read')
            and least(d.delivered_at, d.read_at) <= wm.sent_at + make_interval(hours => ${COVERAGE_HOURS})
        ) as reached
      from (select distinct message_id, sent_at from win) wm
      cross join lateral (
        select r.id, r.recipient_ref_id from message_recipients r
        where r.message_id = wm.message_id and r.recipient_kind = 'apoderado'
        offset 0
      ) r
      -- One course's page: only its guardians' deliveries are looked at, not a school-wide message's all.
      where r.recipient_ref_id in (select guardian_id from cg)
    ),
    -- Recipient × course first, then kept when the message is in that course's window ("offset 0": joined
    -- the other way round, every window row met every recipient of a school-wide message).
    cov as (
      select x.course_id, x.guardian_id, bool_or(x.reached) as reached
      from (
        select cg.course_id, cg.guardian_id, wr.message_id, wr.reached
        from wr join cg on cg.guardian_id = wr.guardian_id
        offset 0
      ) x
      where (x.course_id, x.message_id) in (select course_id, message_id from win)
      group by x.course_id, x.guardian_id
    ),
    base as (
      select c.level_id, c.id as course_id, cs.student_id, null::int as guardian_id,
        null::text as status, false as app, false as email, false as phone, false as addressed, false as reached
      from courses c left join cs on cs.course_id = c.id
      where c.institution_id = ${institutionId} ${courseFilter}
      union all
      select cg.level_id, cg.course_id, null, g.id, ${deviceStatusSql('g')}, g.app_installed_at is not null,
        coalesce(g.email, '') <> '', ${hasPhoneSql('g')}, cov.guardian_id is not null, coalesce(cov.reached, false)
      from cg join guardians g on g.id = cg.guardian_id
      left join cov on cov.course_id = cg.course_id and cov.guardian_id = cg.guardian_id
    )
    select level_id, course_id, grouping(level_id, course_id)::int as g,
      count(distinct student_id)::int as students,
      count(distinct guardian_id)::int as guardians,
      count(distinct guardian_id) filter (where app)::int as app,
      count(distinct guardian_id) filter (where email)::int as email,
      count(distinct guardian_id) filter (where phone)::int as phone,
      count(distinct guardian_id) filter (where status = 'blue')::int as blue,
      count(distinct guardian_id) filter (where status = 'green')::int as green,
      count(distinct guardian_id) filter (where status = 'yellow')::int as yellow,
      count(distinct guardian_id) filter (where status = 'red')::int as red,
      count(distinct guardian_id) filter (where addressed)::int as addressed,
      count(distinct guardian_id) filter (where reached)::int as reached
    from base
    group by grouping sets ((level_id, course_id), (level_id), ())`;
}

function toRow(id: number, name: string, a: AggregateRow | undefined): ConnectivityRow {
  const n = (v: number | undefined) => Number(v ?? 0);
  const addressed = n(a?.addressed);
  const reached = n(a?.reached);
  return {
    id,
    name,
    students: n(a?.students),
    guardians: n(a?.guardians),
    reach: { 'app-mobile': n(a?.app), 'e-mail': n(a?.email), sms: n(a?.phone), whatsapp: n(a?.phone) },
    devices: { blue: n(a?.blue), green: n(a?.green), yellow: n(a?.yellow), red: n(a?.red) },
    coverage: { reached, addressed, share: addressed === 0 ? null : reached / addressed },
  };
}

export async function readConnectivity(db: Queryable, institutionId: number, options: { recentPerCourse?: number } = {}): Promise<Connectivity> {
  const [aggregates, names] = await Promise.all([
    db.execute(connectivitySql(institutionId, null, options)).then(rowsOf<AggregateRow>),
    db
      .execute(sql`
        select 'school' as kind, i.id, i.name, 0 as position, null::int as level_id from institutions i where i.id = ${institutionId}
        union all select 'level', l.id, l.name, l.position, null from levels l where l.institution_id = ${institutionId}
        union all select 'course', c.id, c.name, 0, c.level_id from courses c where c.institution_id = ${institutionId}`)
      .then(rowsOf<{ kind: 'school' | 'level' | 'course'; id: number; name: string; position: number; level_id: number | null }>),
  ]);
  const byCourse = new Map<number, AggregateRow>();
  const byLevel = new Map<number, AggregateRow>();
  let school: AggregateRow | undefined;
  for (const a of aggregates) {
    if (Number(a.g) === 0) byCourse.set(Number(a.course_id), a);
    else if (Number(a.g) === 1) byLevel.set(Number(a.level_id), a);
    else school = a;
  }
  const schoolName = names.find((r) => r.kind === 'school');
  const levels = names
    .filter((r) => r.kind === 'level')
    .sort((a, b) => Number(a.position) - Number(b.position))
    .map((l) => ({
      ...toRow(Number(l.id), l.name, byLevel.get(Number(l.id))),
      courses: names
        .filter((c) => c.kind === 'course' && Number(c.level_id) === Number(l.id))
        .sort((a, b) => collator.compare(a.name, b.name) || Number(a.id) - Number(b.id))
        .map((c) => toRow(Number(c.id), c.name, byCourse.get(Number(c.id)))),
    }));
  return { school: toRow(institutionId, schoolName?.name ?? '', school), levels };
}

// ───────────────────────────── one course ─────────────────────────────

interface CourseHead {
  id: number;
  name: string;
  level_id: number;
  level_name: string;
  country: 'CL' | 'MX';
}

/** The course if it belongs to the school, else null (the route answers 404). */
async function courseOf(db: Queryable, institutionId: number, courseId: number): Promise<CourseHead | null> {
  const rows = rowsOf<CourseHead>(
    await db.execute(sql`
      select c.id, c.name, l.id as level_id, l.name as level_name, i.country
      from courses c join levels l on l.id = c.level_id join institutions i on i.id = c.institution_id
      where c.id = ${courseId} and c.institution_id = ${institutionId}`),
  );
  return rows[0] ?? null;
}

interface GuardianRow {
  student_id: number;
  student_name: string;
  guardian_id: number;
  guardian_name: string;
  role: number;
  phone: string | null;
  email: string | null;
  app: boolean;
  status: DeviceStatus;
}

interface MissedRow {
  guardian_id: number;
  message_id: number;
  title: string;
  sent_at: string | Date;
  channel: ChannelCode;
  status: MissedDelivery['status'];
  author: string | null;
  own: boolean;
}

/** The course's enrolled students with their guardians (one row per link; students without guardians kept). */
function courseGuardiansSql(courseId: number) {
  return sql`
    select s.id as student_id, s.first_names || ' ' || s.last_name_father || ' ' || s.last_name_mother as student_name,
      g.id as guardian_id, g.first_names || ' ' || g.last_name_father || ' ' || g.last_name_mother as guardian_name,
      sg.role, g.phone, g.email, g.app_installed_at is not null as app, ${deviceStatusSql('g')} as status
    from students s
    left join student_guardians sg on sg.student_id = s.id
    left join guardians g on g.id = sg.guardian_id
    where s.course_id = ${courseId} and s.withdrawn_at is null`;
}

/**
 * Deliveries that did not reach the course's guardians among each one's last `n` sent messages (their
 * recipient rows ranked per guardian), leaving out rows that never had an address and our side's failures.
 * Newest message first, each with its author's name and whether `viewerId` wrote it (only the author may
 * open a message's reception status: `findOwnSent` in server/delivery/reception.ts).
 */
export function missedSql(institutionId: number, courseId: number, n: number, viewerId: number | null = null) {
  const own = viewerId === null ? sql`false` : sql`coalesce(recent.author_user_id = ${viewerId}, false)`;
  return sql`
    with cg as (
      select distinct sg.guardian_id
      from students s join student_guardians sg on sg.student_id = s.id
      where s.course_id = ${courseId} and s.withdrawn_at is null
    ),
    -- Every recipient row of these guardians (a few dozen each a year) ranked per guardian, newest first:
    -- predictable, where a per-guardian LIMIT made the planner walk the school's messages for each one.
    recent as (
      select * from (
        select cg.guardian_id, m.id as message_id, m.title, m.sent_at, m.author_user_id, r.id as recipient_id,
          row_number() over (partition by cg.guardian_id order by m.sent_at desc, m.id desc) as n
        from cg
        join message_recipients r on r.recipient_kind = 'apoderado' and r.recipient_ref_id = cg.guardian_id
        join messages m on m.id = r.message_id
        where m.institution_id = ${institutionId} and m.kind = 'sent' and m.sent_at is not null
      ) ranked
      where n <= ${n}
    )
    select recent.guardian_id, recent.message_id, recent.title, recent.sent_at, d.channel, d.status,
      u.name as author, ${own} as own
    from recent
    -- By recipient (deliveries_recipient_idx), never by status: the school's failures are tens of thousands.
    cross join lateral (
      select d.channel, d.status from deliveries d
      where d.recipient_id = recent.recipient_id
        and d.status in ('not_received', 'error', 'failed') and coalesce(d.error, '') not in ${NOT_THEIR_FAULT}
      offset 0
    ) d
    left join users u on u.id = recent.author_user_id
    order by recent.sent_at desc, recent.message_id desc, d.channel`;
}

/** Whether the number is a mobile of a country the school's numbers may use (server/delivery/phone.ts). */
const validMobile = (phone: string, country: 'CL' | 'MX') => {
  const result = normalizePhone(phone, country);
  return result.ok && result.e164 === phone;
};

/** What staff should fix, in the contract's order of FixHint. */
export function fixHints(g: { phone: string | null; email: string | null; app: boolean }, missed: readonly MissedDelivery[], country: 'CL' | 'MX'): FixHint[] {
  const hints: FixHint[] = [];
  if (!g.phone) hints.push('phone_missing');
  else if (!validMobile(g.phone, country)) hints.push('phone_invalid');
  if (!g.email) hints.push('email_missing');
  else if (missed.some((m) => m.channel === 'e-mail')) hints.push('email_bounced');
  if (missed.some((m) => m.channel === 'sms')) hints.push('sms_failed');
  if (!g.app) hints.push('no_app');
  return hints;
}

interface CourseData {
  head: CourseHead;
  students: { id: number; name: string; guardians: CourseGuardian[] }[];
}

async function loadCourse(db: Queryable, institutionId: number, courseId: number, n: number, viewerId: number | null): Promise<CourseData | null> {
  const head = await courseOf(db, institutionId, courseId);
  if (!head) return null;
  const [links, missed] = await Promise.all([
    db.execute(courseGuardiansSql(courseId)).then(rowsOf<GuardianRow>),
    db.execute(missedSql(institutionId, courseId, n, viewerId)).then(rowsOf<MissedRow>),
  ]);
  const missedOf = new Map<number, MissedDelivery[]>();
  for (const m of missed) {
    const list = missedOf.get(Number(m.guardian_id)) ?? [];
    list.push({
      message_id: Number(m.message_id),
      title: m.title,
      sent_at: new Date(m.sent_at).toISOString(),
      channel: m.channel,
      status: m.status,
      author: m.author,
      can_view_reception: m.own === true,
    });
    missedOf.set(Number(m.guardian_id), list);
  }
  const students = new Map<number, { id: number; name: string; guardians: CourseGuardian[] }>();
  for (const row of links) {
    const id = Number(row.student_id);
    const student = students.get(id) ?? { id, name: row.student_name, guardians: [] };
    students.set(id, student);
    if (row.guardian_id === null) continue;
    const own = missedOf.get(Number(row.guardian_id)) ?? [];
    student.guardians.push({
      id: Number(row.guardian_id),
      name: row.guardian_name,
      role: Number(row.role) === 1 ? 'titular' : 'suplente',
      device_status: row.status,
      phone: row.phone,
      email: row.email,
      app_installed: Boolean(row.app),
      fix: fixHints({ phone: row.phone, email: row.email, app: Boolean(row.app) }, own, head.country),
      missed: own,
    });
  }
  const list = [...students.values()].sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
  for (const s of list) s.guardians.sort((a, b) => (a.role === b.role ? a.id - b.id : a.role === 'titular' ? -1 : 1));
  return { head, students: list };
}

/** A course's page as `viewerId` sees it (the missed messages they may open the reception status of). */
export async function readCourseConnectivity(db: Queryable, institutionId: number, courseId: number, viewerId: number): Promise<CourseConnectivity | null> {
  const [data, aggregates] = await Promise.all([
    loadCourse(db, institutionId, courseId, COVERAGE_MESSAGES, viewerId),
    // One course: its guardians' own recipient rows are fewer than the school's newest messages' rows.
    db.execute(connectivitySql(institutionId, courseId, { recentPerCourse: 0 })).then(rowsOf<AggregateRow>),
  ]);
  if (!data) return null;
  const { head, students } = data;
  return {
    course: { id: Number(head.id), name: head.name, level: { id: Number(head.level_id), name: head.level_name } },
    summary: toRow(Number(head.id), head.name, aggregates.find((a) => Number(a.g) === 0)),
    students,
  };
}

// ───────────────────────────── call list ─────────────────────────────

/**
 * On the call list when the school cannot count on reaching them: no app and no usable number or their
 * SMS failed, or their e-mail bounced (README Decisions).
 */
export function needsCall(fix: readonly FixHint[]): boolean {
  const noApp = fix.includes('no_app');
  return (noApp && (fix.includes('phone_missing') || fix.includes('phone_invalid') || fix.includes('sms_failed'))) || fix.includes('email_bounced');
}

/** "+56 9 1234 5678" for people; the stored value when it does not parse. */
export function displayPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}

function contacts(g: CourseGuardian): string {
  return [g.phone ? displayPhone(g.phone) : null, g.email].filter(Boolean).join(', ');
}

export type CallListQuery = { messages: number; format: 'json' | 'csv' };

export function parseCallListQuery(query: Record<string, string | undefined>): { ok: true; value: CallListQuery } | { ok: false; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const raw = query.messages;
  let messages: number = COVERAGE_MESSAGES;
  if (raw !== undefined) {
    messages = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (!(messages >= 1 && messages <= CALL_LIST_MESSAGES_MAX)) errors.messages = [CONNECTIVITY_MESSAGES.messages];
  }
  const format = query.format ?? 'json';
  if (format !== 'json' && format !== 'csv') errors.format = [CONNECTIVITY_MESSAGES.format];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { messages, format: format as CallListQuery['format'] } };
}

export async function readCallList(db: Queryable, institutionId: number, courseId: number, messages: number, now = new Date()): Promise<CallList | null> {
  const data = await loadCourse(db, institutionId, courseId, messages, null);
  if (!data) return null;
  const rows: CallListRow[] = [];
  for (const student of data.students) {
    for (const g of student.guardians) {
      if (!needsCall(g.fix)) continue;
      rows.push({
        student: student.name,
        course: data.head.name,
        guardian: g.name,
        role: g.role,
        reasons: g.fix,
        phone: g.phone,
        email: g.email,
        alternatives: student.guardians
          .filter((o) => o.id !== g.id && contacts(o) !== '')
          .map((o) => `${o.name} (${o.role}): ${contacts(o)}`),
      });
    }
  }
  return { course: { id: Number(data.head.id), name: data.head.name }, messages, generated_at: now.toISOString(), rows };
}

// ───────────────────────────── CSV ─────────────────────────────

export const CALL_LIST_HEADERS: Record<(typeof CALL_LIST_COLUMNS)[number], string> = {
  student: 'Estudiante',
  course: 'Curso',
  guardian: 'Apoderado',
  role: 'Rol',
  reasons: 'Motivos',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  alternatives: 'Contactos alternativos',
};

export const FIX_TEXTS: Record<FixHint, string> = {
  phone_missing: 'Sin teléfono',
  phone_invalid: 'Teléfono inválido',
  email_missing: 'Sin correo',
  email_bounced: 'Correo rebotado',
  sms_failed: 'SMS fallido',
  no_app: 'Sin app',
};

/**
 * One field: always quoted, quotes doubled. A field Excel would run as a formula (= + - @ first) gets a
 * leading apostrophe; phones are written "(+56) 9 1234 5678" so they stay text without one.
 */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const csvPhone = (phone: string | null) => (phone ? displayPhone(phone).replace(/^\+(\d+)/, '(+$1)') : '');

/** BOM, `;` separated (Excel in es-CL / es-MX), CRLF lines, the contract's columns in order. */
export function callListCsv(list: CallList): string {
  const cells = (r: CallListRow): Record<(typeof CALL_LIST_COLUMNS)[number], string> => ({
    student: r.student,
    course: r.course,
    guardian: r.guardian,
    role: r.role,
    reasons: r.reasons.map((h) => FIX_TEXTS[h]).join(', '),
    phone: csvPhone(r.phone),
    email: r.email ?? '',
    alternatives: r.alternatives.join(' | '),
  });
  const lines = [
    CALL_LIST_COLUMNS.map((c) => field(CALL_LIST_HEADERS[c])).join(';'),
    ...list.rows.map((r) => {
      const row = cells(r);
      return CALL_LIST_COLUMNS.map((c) => field(row[c])).join(';');
    }),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** "lista-de-llamados-3-basico-a.csv" */
export function callListFilename(courseName: string): string {
  const slug = fold(courseName).replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'curso';
  return `lista-de-llamados-${slug}.csv`;
}
