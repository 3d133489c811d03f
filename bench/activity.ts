// (r) Staff activity, the activity summary and the rankings on the large seed (`seed --students 2500`): each
// aggregate's statement (server/dashboard/activity.ts, ranking.ts) timed in-process on the seeded PGlite dir
// for this month and this school year (the screens' defaults), medians and p90, then its EXPLAIN ANALYZE plan
// printed. When the seed holds less than a school year of sent messages for Colegio San Andrés, the bench
// first adds one (HISTORY_MESSAGES messages over the last 365 days, each to one course's guardians, app or
// SMS by the guardian's device, with realistic outcomes) and ANALYZEs those tables, so the figures are taken
// at a year's volume whatever the seed of the day writes.
import { eq, sql, type SQL } from 'drizzle-orm';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openDb } from '../server/db/client';
import { rowsOf } from '../server/db/sql';
import { withActivityRollupPaused } from '../server/db/activity-rollup';
import { institutions } from '../server/db/schema/institutions';
import { staffActivitySql, summarySql } from '../server/dashboard/activity';
import { courseRankingSql, userRankingSql } from '../server/dashboard/ranking';
import { resolvePeriod } from '../server/dashboard/period';
import { monthIn } from '../server/db/time';
import { DEMO_SCHOOLS } from '../shared/demo';
import { monthPeriod, previousPeriod, schoolYearOf, schoolYearPeriod } from '../shared/school-year';
import { dataEnv, makeTempDir, median, p90, removeTempDir, round2, runScript } from './support';

const ACTIVITY_STUDENTS = 2_500;
const HISTORY_MESSAGES = 4_000;
const RUNS = 30;
const WARMUP = 3;
export const ACTIVITY_TARGET_MS = 100;

export interface ActivityBenchReport {
  students: number;
  seedMs: number;
  /** Added by the bench (0 when the seed already had a year). */
  historyAdded: number;
  volume: { messages: number; recipients: number; deliveries: number };
  runs: number;
  /** loadavg (1 min) when the measures ended, and a one-row indexed lookup's median for scale on a shared machine. */
  loadAvg1m: number;
  baselineMs: number;
  queries: { name: string; medianMs: number; p90Ms: number; withinTarget: boolean; plan: string[] }[];
}

async function addHistory(db: Awaited<ReturnType<typeof openDb>>['db'], inst: number): Promise<number> {
  const [{ year }] = rowsOf<{ year: number }>(
    await db.execute(
      sql`select count(*)::int as year from messages where institution_id = ${inst} and kind = 'sent' and sent_at > now() - interval '365 days'`,
    ),
  ) as [{ year: number }];
  if (year >= HISTORY_MESSAGES / 2) return 0;
  // A year of rows at once: the roll-up's triggers paused, then rebuilt once (server/db/activity-rollup.ts).
  const added = await db.transaction((tx) =>
    withActivityRollupPaused(tx, [inst], async () => {
      await tx.execute(sql`select setseed(0.16)`);
      await tx.execute(sql`drop table if exists b_plan, b_rec`);
      // Weekdays only, school hours, authors and courses drawn from the school's.
      await tx.execute(sql`
      create temp table b_plan as
      with st as (select row_number() over (order by st.id) as i, st.id as sid, st.user_id as uid, u.name
                  from staff st join users u on u.id = st.user_id where st.institution_id = ${inst}),
           cs as (select row_number() over (order by id) as i, id from courses where institution_id = ${inst} and group_type = 'curso'),
           plan as (select n, 1 + floor(random() * (select count(*) from st))::int as si, 1 + floor(random() * (select count(*) from cs))::int as ci,
                      date_trunc('day', now() - random() * interval '365 days') + interval '8 hours' + random() * interval '9 hours' as at
                    from generate_series(1, ${HISTORY_MESSAGES}) n)
      select nextval(pg_get_serial_sequence('messages', 'id')) as mid, plan.n, plan.at, st.sid, st.uid, st.name, cs.id as course_id
      from plan join st on st.i = plan.si join cs on cs.i = plan.ci
      where extract(isodow from plan.at) < 6`);
      await tx.execute(sql`
      insert into messages (id, institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, channels, kind, sent_at, search, created_at, updated_at)
      select mid, ${inst}, uid, 'funcionario', sid, name, 'Aviso ' || n, 'Contenido del aviso', '{app-mobile,sms}', 'sent', at, 'aviso', at, at from b_plan`);
      await tx.execute(sql`
      create temp table b_rec as
      select nextval(pg_get_serial_sequence('message_recipients', 'id')) as rid, p.mid, g.id as gid,
        case when g.app_installed_at is not null then 'app-mobile' else 'sms' end as channel,
        case when g.app_installed_at is not null then 'guardian:' || g.id else g.phone end as address, random() as r
      from b_plan p join students s on s.course_id = p.course_id and s.withdrawn_at is null
      join student_guardians sg on sg.student_id = s.id join guardians g on g.id = sg.guardian_id`);
      await tx.execute(sql`alter table b_rec add column status text`);
      await tx.execute(sql`
      update b_rec set status = case
        when address is null then 'failed'
        when channel = 'app-mobile' and r < 0.55 then 'read'
        when r < 0.85 then 'received'
        when r < 0.97 then 'not_received' else 'error' end`);
      await tx.execute(sql`
      insert into message_recipients (id, message_id, recipient_kind, recipient_ref_id, display_name, group_kind, group_label, status)
      select rid, mid, 'apoderado', gid, 'Apoderado', 'curso', 'Curso', status from b_rec`);
      await tx.execute(sql`
      insert into deliveries (message_id, recipient_id, channel, address, status, segments)
      select mid, rid, channel, address, status, case when channel = 'sms' and address is not null then 1 else 0 end from b_rec`);
      const [{ added }] = rowsOf<{ added: number }>(await tx.execute(sql`select count(*)::int as added from b_plan`)) as [
        { added: number },
      ];
      await tx.execute(sql`drop table b_plan, b_rec`);
      return added;
    }),
  );
  await db.execute(
    sql.raw(
      'ANALYZE "messages", "message_recipients", "deliveries", "mailbox_entries", "activity_days", "activity_reach", "activity_guardians", "activity_authors", "activity_messages"',
    ),
  );
  return added;
}

/** Adds the history when needed, then times every aggregate of San Andrés (also used on a kept dir while tuning). */
async function measureActivity(
  db: Awaited<ReturnType<typeof openDb>>['db'],
  runs = RUNS,
): Promise<Pick<ActivityBenchReport, 'historyAdded' | 'volume' | 'queries' | 'baselineMs' | 'loadAvg1m'>> {
  const [school] = await db
    .select({ id: institutions.id, timezone: institutions.timezone, country: institutions.country })
    .from(institutions)
    .where(eq(institutions.name, DEMO_SCHOOLS.sanAndres));
  const { id: inst, timezone, country } = school!;
  const historyAdded = await addHistory(db, inst);
  const [volume] = rowsOf<ActivityBenchReport['volume']>(
    await db.execute(sql`select (select count(*)::int from messages where institution_id = ${inst} and kind = 'sent') as messages,
      (select count(*)::int from message_recipients r join messages m on m.id = r.message_id where m.institution_id = ${inst}) as recipients,
      (select count(*)::int from deliveries d join messages m on m.id = d.message_id where m.institution_id = ${inst}) as deliveries`),
  );
  const now = new Date();
  const month = resolvePeriod({ kind: 'month', month: null, year: null }, { timezone, country }, now);
  const year = schoolYearPeriod(schoolYearOf(monthIn(now, timezone), country), country);
  const queries: [string, SQL][] = [
    ['actividad por funcionario, este mes', staffActivitySql(inst, month, timezone, null)],
    ['actividad por funcionario, año escolar', staffActivitySql(inst, year, timezone, null)],
    ['resumen de actividad (meses del año, top del mes, dispositivos)', summarySql(inst, year, monthPeriod(month.key), timezone)],
    ['ranking de cursos por lectura, este mes', courseRankingSql(inst, month, previousPeriod(month, country), timezone, 'read', 'value')],
    [
      'ranking de cursos por alcance y mejora, año escolar',
      courseRankingSql(inst, year, previousPeriod(year, country), timezone, 'reached', 'improvement'),
    ],
    [
      'ranking de funcionarios por mensajes, este mes',
      userRankingSql(inst, month, previousPeriod(month, country), timezone, 'messages', 'value'),
    ],
    [
      'ranking de funcionarios por personas alcanzadas, año escolar',
      userRankingSql(inst, year, previousPeriod(year, country), timezone, 'reached', 'value'),
    ],
  ];
  const out: ActivityBenchReport['queries'] = [];
  for (const [name, query] of queries) {
    for (let i = 0; i < WARMUP; i += 1) await db.execute(query);
    const ms: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const t = performance.now();
      await db.execute(query);
      ms.push(performance.now() - t);
    }
    const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, buffers, costs off, timing off) ${query}`)).map(
      (r) => Object.values(r)[0]!,
    );
    out.push({ name, medianMs: round2(median(ms)), p90Ms: round2(p90(ms)), withinTarget: median(ms) <= ACTIVITY_TARGET_MS, plan });
  }
  const baseline: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    await db.execute(sql`select name from institutions where id = ${inst}`);
    baseline.push(performance.now() - t);
  }
  return {
    historyAdded,
    volume: volume!,
    queries: out,
    baselineMs: round2(median(baseline)),
    loadAvg1m: Math.round(loadavg()[0]! * 10) / 10,
  };
}

export async function activityBenchReport(): Promise<ActivityBenchReport> {
  const dataDir = makeTempDir('hermes-bench-activity-');
  try {
    const started = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(ACTIVITY_STUDENTS)], dataEnv(dataDir), 180_000);
    const seedMs = Math.round(performance.now() - started);
    const handle = await openDb({ dataDir });
    try {
      const db = handle.db;
      const measured = await measureActivity(db);
      return { students: ACTIVITY_STUDENTS, seedMs, runs: RUNS, ...measured };
    } finally {
      await handle.close();
    }
  } finally {
    removeTempDir(dataDir);
  }
}

export function printActivity(report: ActivityBenchReport): void {
  console.log(
    `\n(r) Actividad y rankings en el seed grande (${report.students} estudiantes, sembrado en ${report.seedMs} ms` +
      `${report.historyAdded > 0 ? `, más ${report.historyAdded} mensajes de historia del banco` : ''}): San Andrés con ` +
      `${report.volume.messages} mensajes, ${report.volume.recipients} destinatarios, ${report.volume.deliveries} entregas; ` +
      `${report.runs} ejecuciones por consulta en PGlite`,
  );
  console.log(`    (referencia: una fila por clave primaria ${report.baselineMs} ms; loadavg 1 min ${report.loadAvg1m})`);
  for (const q of report.queries) {
    console.log(
      `    ${q.name}: mediana ${q.medianMs} ms, p90 ${q.p90Ms} ms / objetivo ≤ ${ACTIVITY_TARGET_MS} ms → ${q.withinTarget ? 'OK' : 'OVER'}`,
    );
  }
  for (const q of report.queries) {
    console.log(`\n    EXPLAIN ANALYZE — ${q.name}`);
    for (const line of q.plan) console.log(`      ${line}`);
  }
}
