// (k) Connectivity of families on the large seed (`seed --students 2500`), PGlite: GET /api/dashboard/connectivity
// (school, levels, courses with reach, device mix and coverage), one course's page, its call list as JSON and
// as CSV; medians and p90 through the real server, then each statement's EXPLAIN ANALYZE on the same data
// (printed, with whether a big table was read whole). When the seed carries less than a school year of sent
// messages to guardians, a deterministic year is added first (weekly per-course notices, a school-wide one
// every other week, SMS and app deliveries with varied outcomes), so the windows are walked over realistic volume.
import { sql, type SQL } from 'drizzle-orm';
import { courseGuardiansSql, missedSql } from '../server/dashboard/connectivity/course';
import { connectivitySql } from '../server/dashboard/connectivity/figures';
import { openDb } from '../server/db/client';
import { rowsOf } from '../server/db/sql';
import { rollUpReachedAt } from '../server/reception/status';
import { staleSmsPhonesSql } from '../server/recipients/sms-phones';
import { DEMO_PASSWORD, DEMO_SCHOOLS } from '../shared/demo';
import { COVERAGE_MESSAGES } from '../shared/dashboard-contract';
import {
  ApiClient,
  dataEnv,
  makeTempDir,
  median,
  p90,
  removeTempDir,
  round2,
  runScript,
  startServer,
  stopServer,
  timedGet,
} from './support';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

const CONNECTIVITY_STUDENTS = 2_500;
const REQUESTS = 30;
const WARMUP = 3;
const BENCH_EMAIL = 'administrador@sanandres.cl';
/** Below this many sent messages to guardians, the bench adds its own school year. */
const HISTORY_MIN = 1_000;
const WEEKS = 40;

type Kind = 'connectivity' | 'course' | 'callList' | 'callListCsv' | 'baseline';

export interface ConnectivityBenchReport {
  students: number;
  seedMs: number;
  history: { added: boolean; messages: number; recipients: number; deliveries: number; addMs: number };
  courses: number;
  courseGuardians: number;
  requestsPerKind: number;
  /** 1-minute load average when the timed requests ended, and the cores it is shared by. */
  load: number;
  cores: number;
  medianMs: Record<Kind, number>;
  p90Ms: Record<Kind, number>;
  /** Median of the statement alone (in process, no HTTP), and its plan. */
  statements: { name: string; medianMs: number; seqScansOnBigTables: string[]; plan: string[] }[];
}

const BIG_TABLES = ['messages', 'message_recipients', 'deliveries', 'guardians', 'students', 'student_guardians'];

/** A school year of weekly course notices and fortnightly general ones, with their deliveries (the privacy bench's too). */
export async function addHistory(db: Awaited<ReturnType<typeof openDb>>['db'], institutionId: number): Promise<void> {
  // Each course's weekly notice is `tag` + its id, the fortnightly general one `tag` + all.
  const tag = 'bench-k:';
  const general = `${tag}all`;
  const tagged = `${tag}%`;
  const perCourse = `^${tag}[0-9]+$`;
  await db.execute(sql`
    insert into messages (institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, kind, sent_at, search)
    select ${institutionId}::int, u.id, 'funcionario', u.id, u.name, 'Aviso semanal ' || c.name, ${tag}::text || c.id, 'sent',
      now() - w.n * interval '7 days' + (c.id % 97) * interval '13 minutes', 'aviso semanal'
    from courses c cross join generate_series(1, ${WEEKS}::int) w(n)
    join users u on u.email = ${BENCH_EMAIL}
    where c.institution_id = ${institutionId}
    union all
    select ${institutionId}::int, u.id, 'funcionario', u.id, u.name, 'Comunicado general ' || w.n, ${general}::text, 'sent',
      now() - w.n * interval '14 days' + interval '3 days', 'comunicado general'
    from generate_series(1, ${WEEKS / 2}::int) w(n) join users u on u.email = ${BENCH_EMAIL}`);
  await db.execute(sql`
    insert into message_recipients (message_id, recipient_kind, recipient_ref_id, display_name, group_kind, group_label, status)
    select distinct on (m.id, sg.guardian_id) m.id, 'apoderado', sg.guardian_id, 'apoderado', 'curso', c.name, 'received'
    from messages m
    join courses c on c.id = case when m.content ~ ${perCourse} then substr(m.content, ${tag.length + 1}::int)::int end
    join students s on s.course_id = c.id and s.withdrawn_at is null
    join student_guardians sg on sg.student_id = s.id
    where m.institution_id = ${institutionId} and m.content like ${tagged} and m.content <> ${general}
    order by m.id, sg.guardian_id`);
  await db.execute(sql`
    insert into message_recipients (message_id, recipient_kind, recipient_ref_id, display_name, group_kind, group_label, status)
    select distinct on (m.id, sg.guardian_id) m.id, 'apoderado', sg.guardian_id, 'apoderado', 'curso', c.name, 'received'
    from messages m
    join students s on s.institution_id = ${institutionId} and s.withdrawn_at is null
    join courses c on c.id = s.course_id
    join student_guardians sg on sg.student_id = s.id
    where m.institution_id = ${institutionId} and m.content = ${general}
    order by m.id, sg.guardian_id, c.name`);
  // Outcomes by a hash of the row: mostly received within hours, some late, some read, some not received.
  await db.execute(sql`
    insert into deliveries (message_id, recipient_id, channel, address, status, error, sent_at, delivered_at, read_at)
    select r.message_id, r.id, ch.channel, coalesce(g.phone, 'x'), o.status,
      case when o.status = 'not_received' then 'undelivered' end, m.sent_at,
      case when o.status in ('received', 'read') then m.sent_at + ((r.id * 7 + length(ch.channel)) % 36) * interval '1 hour' end,
      case when o.status = 'read' then m.sent_at + ((r.id * 7) % 40) * interval '1 hour' end
    from messages m
    join message_recipients r on r.message_id = m.id
    join guardians g on g.id = r.recipient_ref_id
    cross join lateral (values ('sms'), ('app-mobile')) ch(channel)
    cross join lateral (select case (r.id * 31 + length(ch.channel)) % 10 when 8 then 'not_received' when 9 then 'failed'
      when 7 then case when ch.channel = 'app-mobile' then 'read' else 'received' end else 'received' end as status) o
    where m.institution_id = ${institutionId} and m.content like ${tagged}
      and (ch.channel = 'sms' or g.app_installed_at is not null)`);
  // The recipients' reached_at roll-up, as the delivery engine keeps it (server/reception/status.ts).
  await rollUpReachedAt(db);
  await db.execute(sql`analyze`);
}

function explainLines(result: unknown): string[] {
  return rowsOf<Record<string, string>>(result).map((r) => Object.values(r)[0] ?? '');
}

export async function connectivityBenchReport(): Promise<ConnectivityBenchReport> {
  const dataDir = makeTempDir('hermes-bench-connectivity-');
  try {
    const seedStarted = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(CONNECTIVITY_STUDENTS)], dataEnv(dataDir), 180_000);
    const seedMs = performance.now() - seedStarted;

    // In process first (the server owns the dir while it runs): history if needed, the statements' plans.
    const handle = await openDb({ dataDir, databaseUrl: '' });
    let history: ConnectivityBenchReport['history'];
    let courseId: number;
    let institutionId: number;
    let courses: number;
    let courseGuardians: number;
    const statements: ConnectivityBenchReport['statements'] = [];
    try {
      const db = handle.db;
      [{ id: institutionId }] = rowsOf<{ id: number }>(
        await db.execute(sql`select id from institutions where name = ${DEMO_SCHOOLS.sanAndres}`),
      ) as [{ id: number }];
      const sentToGuardians = async () =>
        Number(
          rowsOf<{ n: number }>(
            await db.execute(sql`select count(distinct m.id)::int as n from messages m join message_recipients r on r.message_id = m.id
              where m.institution_id = ${institutionId} and m.kind = 'sent' and r.recipient_kind = 'apoderado'`),
          )[0]!.n,
        );
      const before = await sentToGuardians();
      const addStarted = performance.now();
      const added = before < HISTORY_MIN;
      if (added) await addHistory(db, institutionId);
      const addMs = performance.now() - addStarted;
      const [counts] = rowsOf<{ messages: number; recipients: number; deliveries: number }>(
        await db.execute(sql`select
          (select count(*) from messages where institution_id = ${institutionId} and kind = 'sent')::int as messages,
          (select count(*) from message_recipients r join messages m on m.id = r.message_id where m.institution_id = ${institutionId})::int as recipients,
          (select count(*) from deliveries d join messages m on m.id = d.message_id where m.institution_id = ${institutionId})::int as deliveries`),
      );
      history = {
        added,
        messages: Number(counts!.messages),
        recipients: Number(counts!.recipients),
        deliveries: Number(counts!.deliveries),
        addMs: Math.round(addMs),
      };
      // The biggest course: the heaviest course page.
      const [big] = rowsOf<{ id: number; n: number; courses: number }>(
        await db.execute(sql`select s.course_id as id, count(distinct sg.guardian_id)::int as n,
            (select count(*) from courses where institution_id = ${institutionId})::int as courses
          from students s join student_guardians sg on sg.student_id = s.id
          where s.institution_id = ${institutionId} and s.withdrawn_at is null
          group by s.course_id order by n desc, s.course_id limit 1`),
      );
      courseId = Number(big!.id);
      courseGuardians = Number(big!.n);
      courses = Number(big!.courses);

      const named: [string, SQL][] = [
        ['connectivity (colegio, niveles y cursos)', connectivitySql(institutionId, null)],
        ['resumen de un curso', connectivitySql(institutionId, courseId)],
        [
          `entregas fallidas de los últimos ${COVERAGE_MESSAGES} mensajes de cada apoderado del curso`,
          missedSql(institutionId, courseId, COVERAGE_MESSAGES),
        ],
        ['estudiantes y apoderados del curso, con estado y veredicto SMS', courseGuardiansSql(courseId)],
        ['teléfonos sin veredicto SMS (guardians_sms_stale_idx)', staleSmsPhonesSql(institutionId)],
      ];
      for (const [name, statement] of named) {
        const ms: number[] = [];
        for (let i = 0; i < 7; i += 1) {
          const started = performance.now();
          await db.execute(statement);
          ms.push(performance.now() - started);
        }
        const plan = explainLines(await db.execute(sql`explain (analyze, costs off, timing off, summary on) ${statement}`));
        const seqScansOnBigTables = BIG_TABLES.filter((t) => plan.some((line) => new RegExp(`Seq Scan on ${t}\\b`).test(line)));
        statements.push({ name, medianMs: round2(median(ms.slice(2))), seqScansOnBigTables, plan });
      }
    } finally {
      await handle.close();
    }

    const server = await startServer(dataDir);
    try {
      const client = new ApiClient(server.baseUrl);
      await client.login(BENCH_EMAIL, DEMO_PASSWORD);
      const paths: Record<Kind, string> = {
        connectivity: '/api/dashboard/connectivity',
        course: `/api/dashboard/connectivity/courses/${courseId}`,
        callList: `/api/dashboard/connectivity/courses/${courseId}/call-list`,
        callListCsv: `/api/dashboard/connectivity/courses/${courseId}/call-list?format=csv`,
        /** An authenticated route with next to nothing behind it: what any request costs on this machine now. */
        baseline: '/api/institutions-signatures',
      };
      const kinds = Object.keys(paths) as Kind[];
      const timed = async (kind: Kind) => {
        if (kind !== 'callListCsv') return (await timedGet(client, paths[kind])).ms;
        const started = performance.now();
        const response = await client.request(paths[kind]);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`GET ${paths[kind]} → ${response.status}`);
        return performance.now() - started;
      };
      for (let i = 0; i < WARMUP; i += 1) for (const kind of kinds) await timed(kind);
      const ms = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
      for (let i = 0; i < REQUESTS; i += 1) for (const kind of kinds) ms[kind].push(await timed(kind));
      const per = (f: (values: number[]) => number) => Object.fromEntries(kinds.map((k) => [k, round2(f(ms[k]))])) as Record<Kind, number>;
      return {
        students: CONNECTIVITY_STUDENTS,
        seedMs: Math.round(seedMs),
        history,
        courses,
        courseGuardians,
        requestsPerKind: REQUESTS,
        load: Math.round(loadavg()[0]! * 10) / 10,
        cores: cpus().length,
        medianMs: per(median),
        p90Ms: per(p90),
        statements,
      };
    } finally {
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(dataDir);
  }
}

export function printConnectivity(report: ConnectivityBenchReport): void {
  const h = report.history;
  console.log(
    `\n(k) Conectividad de las familias en el seed grande (${report.students} estudiantes, sembrado en ${report.seedMs} ms; ` +
      `${h.added ? `historial de un año agregado por el bench en ${h.addMs} ms` : 'historial del seed'}: ${h.messages} mensajes enviados, ` +
      `${h.recipients} destinatarios, ${h.deliveries} entregas; ${report.courses} cursos), ${report.requestsPerKind} pedidos por tipo, carga ${report.load} en ${report.cores} núcleos`,
  );
  const label: Record<Kind, string> = {
    connectivity: 'GET /api/dashboard/connectivity',
    course: `GET …/courses/:id (el curso más grande, ${report.courseGuardians} apoderados)`,
    callList: 'GET …/courses/:id/call-list',
    callListCsv: 'GET …/courses/:id/call-list?format=csv',
    baseline: 'referencia: GET /api/institutions-signatures',
  };
  for (const kind of Object.keys(label) as Kind[]) {
    const mark = kind === 'baseline' || report.medianMs[kind] <= 100 ? '' : '  ← sobre 100 ms';
    console.log(`    ${label[kind]}: mediana ${report.medianMs[kind]} ms, p90 ${report.p90Ms[kind]} ms${mark}`);
  }
  for (const s of report.statements) {
    const seq =
      s.seqScansOnBigTables.length > 0
        ? `; lectura completa de ${s.seqScansOnBigTables.join(', ')}`
        : '; solo índices en las tablas grandes';
    console.log(`\n    Sentencia: ${s.name}: mediana ${s.medianMs} ms${seq}`);
    for (const line of s.plan) console.log(`      ${line}`);
  }
}
