// (y) The school's directory, `GET /api/recipients` (the picker's people; news compose's courses), for a
// school of ≥ 5,000 families: `seed --students` sizes Colegio San Andrés (the real server on PGlite,
// administrador@sanandres.cl). Timed to the whole body, median and p90 after a warm-up; its size raw and
// compressed, computed here with node:zlib on the body (gzip and brotli at the levels server/http/compress.ts
// answers with, and brotli at its maximum, with what each costs in CPU), whatever the server sends. Beside
// it, `GET /api/recipients/courses`: the levels and courses alone, what a screen needs before the people.
// Families: students with the same guardians count once (siblings), students without guardians are none.
//
// `npm run bench -- --only y` (bench/run.ts).
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Recipients } from '../shared/compose-contract';
import { COMPOSE_API } from '../shared/compose-contract';
import { DEMO_PASSWORD } from '../shared/demo';
import { BROTLI_QUALITY, GZIP_LEVEL } from '../server/http/compress';
import { ApiClient, median, onSeededServer, p90, round, round2 } from './support';

/** San Andrés's students so its families pass 5,000 (siblings share their guardians). */
const STUDENTS = 7_200;
const MIN_FAMILIES = 5_000;
const RUNS = 15;
const WARM_UP = 2;
const OWNER = 'administrador@sanandres.cl';

interface Timing {
  n: number;
  medianMs: number;
  p90Ms: number;
}

interface Compressed {
  bytes: number;
  /** CPU time to compress the body once, in this process. */
  ms: number;
}

export interface RecipientsSizeReport {
  students: number;
  families: number;
  guardians: number;
  /** Courses and electives. */
  groups: number;
  staff: number;
  seedMs: number;
  /** The whole directory. */
  directory: {
    time: Timing;
    rawBytes: number;
    gzip: Compressed;
    brotliOnTheFly: Compressed;
    brotliMax: Compressed;
  };
  /** Levels and courses alone (`GET /api/recipients/courses`). */
  courses: { time: Timing; rawBytes: number; gzip: Compressed };
  brotliOnTheFlyLevel: number;
}

function timing(samples: number[]): Timing {
  return { n: samples.length, medianMs: round2(median(samples)), p90Ms: round2(p90(samples)) };
}

function compressed(compress: () => Buffer): Compressed {
  const started = performance.now();
  const bytes = compress().length;
  return { bytes, ms: round2(performance.now() - started) };
}

/** RUNS timed reads of `path` after the warm-up: their times and the last body's text. */
async function timedReads(client: ApiClient, path: string): Promise<{ samples: number[]; text: string }> {
  const samples: number[] = [];
  let text = '';
  for (let run = 0; run < WARM_UP + RUNS; run += 1) {
    const started = performance.now();
    const response = await client.request(path);
    text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}: ${text.slice(0, 300)}`);
    if (run >= WARM_UP) samples.push(ms);
  }
  return { samples, text };
}

/** Distinct guardian sets among the regular courses' students (a student is in one course). */
function familiesOf(directory: Recipients): { families: number; guardians: number } {
  const guardiansOf = new Map<number, number[]>();
  const guardians = new Set<number>();
  for (const course of directory.courses) {
    if (course.grupo_type !== 'curso') continue;
    for (const guardian of course.apoderados) {
      guardians.add(guardian.id);
      guardiansOf.set(guardian.student_id, [...(guardiansOf.get(guardian.student_id) ?? []), guardian.id]);
    }
  }
  const families = new Set([...guardiansOf.values()].map((ids) => [...ids].sort((a, b) => a - b).join(',')));
  return { families: families.size, guardians: guardians.size };
}

export function recipientsSizeBenchReport(): Promise<RecipientsSizeReport> {
  return onSeededServer('hermes-bench-recipients-', STUDENTS, async (baseUrl, seedMs) => {
    const client = new ApiClient(baseUrl);
    await client.login(OWNER, DEMO_PASSWORD);

    const whole = await timedReads(client, `/api${COMPOSE_API.recipients}`);
    const { data } = JSON.parse(whole.text) as { data: Recipients };
    const { families, guardians } = familiesOf(data);
    if (families < MIN_FAMILIES) throw new Error(`la semilla dio ${families} familias, menos de ${MIN_FAMILIES}: sube STUDENTS`);
    const body = Buffer.from(whole.text);

    const slice = await timedReads(client, `/api${COMPOSE_API.recipientCourses}`);
    const sliceBody = Buffer.from(slice.text);

    return {
      students: STUDENTS,
      families,
      guardians,
      groups: data.courses.length,
      staff: data.appointments.reduce((sum, appointment) => sum + appointment.users.length, 0),
      seedMs: round(seedMs),
      directory: {
        time: timing(whole.samples),
        rawBytes: body.length,
        gzip: compressed(() => gzipSync(body, { level: GZIP_LEVEL })),
        brotliOnTheFly: compressed(() => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })),
        brotliMax: compressed(() => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })),
      },
      courses: {
        time: timing(slice.samples),
        rawBytes: sliceBody.length,
        gzip: compressed(() => gzipSync(sliceBody, { level: GZIP_LEVEL })),
      },
      brotliOnTheFlyLevel: BROTLI_QUALITY,
    };
  });
}

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

export function printRecipientsSize(report: RecipientsSizeReport): void {
  const { directory, courses } = report;
  const time = (t: Timing): string => `mediana ${t.medianMs.toFixed(1)} ms, p90 ${t.p90Ms.toFixed(1)} ms (n=${t.n})`;
  const size = (label: string, c: Compressed): string => `${label} ${kB(c.bytes)} (${c.ms.toFixed(1)} ms de CPU)`;
  console.log(
    `\n(y) Directorio del colegio: GET /api/recipients (PGlite, semilla de ${report.students} estudiantes en ${report.seedMs} ms: ` +
      `${report.families} familias, ${report.guardians} apoderados, ${report.groups} cursos y electivos, ${report.staff} funcionarios)`,
  );
  console.log(`    tiempo hasta el cuerpo completo: ${time(directory.time)}`);
  console.log(
    `    tamaño: ${kB(directory.rawBytes)} sin comprimir; ${size('gzip', directory.gzip)}; ` +
      `${size(`brotli ${report.brotliOnTheFlyLevel}`, directory.brotliOnTheFly)}; ${size('brotli 11', directory.brotliMax)}`,
  );
  console.log(
    `    GET /api/recipients/courses (niveles y cursos, sin personas): ${time(courses.time)}; ` +
      `${kB(courses.rawBytes)} sin comprimir, gzip ${kB(courses.gzip.bytes)}`,
  );
}
