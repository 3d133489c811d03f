// (i) The roster import of a 3,000-student, 5,000-guardian school on PGlite, in this process as the server
// runs it: a Chilean CSV (one line per student and guardian) read (server/roster/read), previewed and applied
// (server/roster/) on a school just created, median of RUNS fresh schools; beside it a bare multi-row INSERT
// of the same students, guardians and links in one transaction (the floor any import has), then the same
// file imported again (nothing to write). Rows per second of the whole import, and the process's peak RSS.
// Target: the whole import (read + preview + apply) in seconds, ≤ 10 s.
//
// `npx tsx bench/roster.ts` alone, or `rosterBenchReport()` from bench/run.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDb, type Db } from '../server/db/client';
import { rowsOf } from '../server/db/sql';
import { applyImport } from '../server/roster/apply';
import { calendarYear, previewImport } from '../server/roster/imports';
import { readRoster } from '../server/roster/read';
import { createSchool } from '../server/schools/schools';
import { rutCheckDigit } from '../shared/person-rules';
import type { RosterRow } from '../shared/roster-contract';

const STUDENTS = 3_000;
/** Students with a titular and a suplente; the rest have one guardian: 5,000 guardians in all. */
const WITH_TWO = 2_000;
const RUNS = 3;
const ROSTER_TOTAL_TARGET_MS = 10_000;
const LEVELS = [
  '1° Básico',
  '2° Básico',
  '3° Básico',
  '4° Básico',
  '5° Básico',
  '6° Básico',
  '7° Básico',
  '8° Básico',
  'I Medio',
  'II Medio',
  'III Medio',
  'IV Medio',
];

export interface RosterBenchReport {
  students: number;
  guardians: number;
  lines: number;
  fileKB: number;
  readMs: number;
  previewMs: number;
  applyMs: number;
  totalMs: number;
  totalTargetMs: number;
  bareInsertMs: number;
  /** apply ÷ bare insert. */
  ratio: number;
  rowsPerSecond: number;
  againPreviewMs: number;
  againApplyMs: number;
  peakRssMB: number;
  loadavg1: number;
}

const run = (body: number) => `${body}-${rutCheckDigit(body)}`;

/** A school's enrolment file as SIGE and a family spreadsheet merged give it: `;`, one line per guardian. */
function rosterCsv(): string {
  const lines = ['RUN;Nombres;Apellido paterno;Apellido materno;Curso;Nombre apoderado;RUT apoderado;Relación;Celular;Correo'];
  let g = 0;
  for (let s = 0; s < STUDENTS; s++) {
    const course = `${LEVELS[s % LEVELS.length]} ${'ABCDE'[Math.floor(s / LEVELS.length) % 5]}`;
    for (let k = 0; k < (s < WITH_TWO ? 2 : 1); k++, g++) {
      const phone = `9 8${String(1_000_000 + g).padStart(7, '0')}`;
      lines.push(
        `${run(40_000_000 + s)};Estudiante ${s};Pérez;Soto;${course};Apoderado ${g} Soto Lagos;${run(12_000_000 + g)};${k === 0 ? 'Madre' : 'Padre'};${phone};apoderado${g}@correo.cl`,
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

const newSchool = (db: Db, n: number) =>
  createSchool(db, {
    name: `Colegio de prueba ${n}`,
    country: 'CL',
    timezone: 'America/Santiago',
    locale: 'es-CL',
    homeUrl: 'https://colegio.example/',
  });

/** The floor: the same rows in one transaction, multi-row INSERTs with ids taken beforehand, no reading, no checks. */
async function bareInsert(db: Db, institutionId: number, rows: RosterRow[]): Promise<number> {
  const started = performance.now();
  await db.transaction(async (tx) => {
    const levelNames = [...new Set(rows.map((r) => r.student.course.level))];
    const levelIds = rowsOf<{ id: number; name: string }>(
      await tx.execute(sql`insert into levels (institution_id, name, position)
        select ${institutionId}, v.name, v.position from jsonb_to_recordset(${JSON.stringify(levelNames.map((name, position) => ({ name, position })))}::jsonb) as v(name text, position smallint)
        returning id, name`),
    );
    const levelOf = new Map(levelIds.map((l) => [l.name, Number(l.id)]));
    const courseNames = [...new Map(rows.map((r) => [r.student.course.name, r.student.course.level])).entries()];
    const courseIds = rowsOf<{ id: number; name: string }>(
      await tx.execute(sql`insert into courses (institution_id, level_id, name) values
        ${sql.join(
          courseNames.map(([name, level]) => sql`(${institutionId}, ${levelOf.get(level)}, ${name})`),
          sql`, `,
        )} returning id, name`),
    );
    const courseOf = new Map(courseIds.map((c) => [c.name, Number(c.id)]));
    const students = new Map<string, RosterRow['student']>();
    const guardians = new Map<string, NonNullable<RosterRow['guardian']>>();
    for (const r of rows) {
      students.set(r.student.document!.value, r.student);
      if (r.guardian) guardians.set(r.guardian.document!.value, r.guardian);
    }
    const ids = async (table: string, n: number) =>
      rowsOf<{ id: number }>(
        await tx.execute(sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${n})`),
      ).map((r) => Number(r.id));
    const studentIds = new Map([...students.keys()].map((k, i) => [k, i] as const));
    const sIds = await ids('students', students.size);
    const gIds = await ids('guardians', guardians.size);
    const guardianIds = new Map([...guardians.keys()].map((k, i) => [k, gIds[i]!]));
    await tx.execute(sql`insert into students (id, institution_id, course_id, first_names, last_name_father, last_name_mother, dni, document_type) values
      ${sql.join(
        [...students.values()].map(
          (s, i) =>
            sql`(${sIds[i]}, ${institutionId}, ${courseOf.get(s.course.name)}, ${s.first_names}, ${s.last_name_father}, ${s.last_name_mother}, ${s.document!.value}, 1)`,
        ),
        sql`, `,
      )}`);
    await tx.execute(sql`insert into guardians (id, institution_id, first_names, last_name_father, last_name_mother, dni, document_type, phone, email) values
      ${sql.join(
        [...guardians.values()].map(
          (g, i) =>
            sql`(${gIds[i]}, ${institutionId}, ${g.first_names}, ${g.last_name_father}, ${g.last_name_mother}, ${g.document!.value}, 1, ${g.phone}, ${g.email})`,
        ),
        sql`, `,
      )}`);
    await tx.execute(sql`insert into student_guardians (student_id, guardian_id, role, relationship) values
      ${sql.join(
        rows.map(
          (r) =>
            sql`(${sIds[studentIds.get(r.student.document!.value)!]}, ${guardianIds.get(r.guardian!.document!.value)}, ${r.guardian!.role === 'titular' ? 1 : 2}, ${r.guardian!.relationship})`,
        ),
        sql`, `,
      )}`);
  });
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (ms: number) => Math.round(ms);

export async function rosterBenchReport(): Promise<RosterBenchReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-bench-roster-'));
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const handle = await openDb({ dataDir, databaseUrl: '' });
    try {
      const db = handle.db;
      await handle.migrate();
      const bytes = new TextEncoder().encode(rosterCsv());
      const times = { read: [] as number[], preview: [] as number[], apply: [] as number[], bare: [] as number[] };
      let again = { preview: 0, apply: 0 };
      let lines = 0;
      let guardians = 0;
      // One untimed round warms the plan caches and the WASM heap.
      for (let n = -1; n < RUNS; n++) {
        const institutionId = await newSchool(db, 2 * n + 10);
        const scope = { userId: null, institutionId };
        const year = await calendarYear(db, institutionId, new Date());
        let t = performance.now();
        const read = await readRoster({ bytes, fileName: 'nomina.csv', country: 'CL' });
        const readMs = performance.now() - t;
        if (read.status !== 'read' || read.problems.length > 0) throw new Error('el archivo del bench no se leyó entero');
        const input = {
          fileName: 'nomina.csv',
          bytes,
          schoolYear: year,
          rows: read.rows,
          problems: [],
          rowsRead: read.rowsRead,
          calendarYear: year,
        };
        t = performance.now();
        const preview = await previewImport(db, scope, input);
        const previewMs = performance.now() - t;
        t = performance.now();
        if ((await applyImport(db, scope, preview.id, {}, year)).kind !== 'done') throw new Error('la importación del bench no se aplicó');
        const applyMs = performance.now() - t;
        const bareMs = await bareInsert(db, await newSchool(db, 2 * n + 11), read.rows);
        if (n < 0) continue;
        times.read.push(readMs);
        times.preview.push(previewMs);
        times.apply.push(applyMs);
        times.bare.push(bareMs);
        lines = read.rowsRead;
        guardians = preview.counts.guardians.new;
        if (n === RUNS - 1) {
          t = performance.now();
          const second = await previewImport(db, scope, input);
          const secondPreviewMs = performance.now() - t;
          t = performance.now();
          await applyImport(db, scope, second.id, {}, year);
          again = { preview: secondPreviewMs, apply: performance.now() - t };
          if (second.counts.students.unchanged !== STUDENTS) throw new Error('la segunda importación no quedó sin cambios');
        }
      }
      const [readMs, previewMs, applyMs, bareInsertMs] = [
        median(times.read),
        median(times.preview),
        median(times.apply),
        median(times.bare),
      ];
      const totalMs = readMs + previewMs + applyMs;
      return {
        students: STUDENTS,
        guardians,
        lines,
        fileKB: Math.round(bytes.byteLength / 1024),
        readMs: round(readMs),
        previewMs: round(previewMs),
        applyMs: round(applyMs),
        totalMs: round(totalMs),
        totalTargetMs: ROSTER_TOTAL_TARGET_MS,
        bareInsertMs: round(bareInsertMs),
        ratio: Math.round((applyMs / bareInsertMs) * 100) / 100,
        rowsPerSecond: Math.round(lines / (totalMs / 1000)),
        againPreviewMs: round(again.preview),
        againApplyMs: round(again.apply),
        peakRssMB: Math.round(peak / (1024 * 1024)),
        loadavg1: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      };
    } finally {
      await handle.close();
    }
  } finally {
    clearInterval(sampler);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printRoster(r: RosterBenchReport): void {
  console.log(
    `\n(i) Importación de nómina: ${r.students} estudiantes, ${r.guardians} apoderados, ${r.lines} líneas (${r.fileKB} kB), PGlite`,
  );
  console.log(
    `    leer ${r.readMs} ms + vista previa ${r.previewMs} ms + aplicar ${r.applyMs} ms = ${r.totalMs} ms (objetivo ≤ ${r.totalTargetMs} ms), ${r.rowsPerSecond} líneas/s`,
  );
  console.log(`    INSERT de varias filas de lo mismo: ${r.bareInsertMs} ms; aplicar ÷ INSERT: ${r.ratio}×`);
  console.log(`    el mismo archivo otra vez: vista previa ${r.againPreviewMs} ms, aplicar ${r.againApplyMs} ms (nada que escribir)`);
  console.log(`    memoria (RSS) máxima del proceso: ${r.peakRssMB} MB; loadavg 1 min ${r.loadavg1}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  rosterBenchReport().then(printRoster, (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
