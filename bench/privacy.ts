// (p) A person's data, exported (GET /api/privacy/people/apoderado/:id/export) for the largest guardian of the
// large seed: `seed --students 2500` with a school year of messages (bench/connectivity.ts' history when the
// seed has less), the guardian with the most messages received. Timed to the last byte of the ZIP, median
// and p90 after a warm-up, its size, and the inventory (GET …/:id) beside it; the server's RSS after.
//
// `npm run bench -- --only p` (bench/run.ts).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDb } from '../server/db/client';
import { rowsOf } from '../server/db/sql';
import { DEMO_PASSWORD, DEMO_SCHOOLS } from '../shared/demo';
import { PRIVACY_API } from '../shared/privacy-contract';
import { addHistory } from './connectivity';
import { ApiClient, dataEnv, makeTempDir, median, p90, removeTempDir, round, round2, runScript, startServer, stopServer } from './support';

const STUDENTS = 2_500;
const RUNS = 7;
const WARM_UP = 1;
const OWNER = 'administrador@sanandres.cl';
/** Below this many messages to guardians, the bench adds a school year. */
const HISTORY_MIN = 1_000;

interface Timing {
  n: number;
  medianMs: number;
  p90Ms: number;
}

export interface PrivacyBenchReport {
  students: number;
  seedMs: number;
  historyAdded: boolean;
  guardian: { received: number; deliveries: number };
  exportTime: Timing;
  exportBytes: number;
  inventoryTime: Timing;
  inventoryBytes: number;
  /** The server's resident memory after the runs (Linux /proc), MB. */
  serverRssMB: number | null;
}

const timing = (samples: number[]): Timing => ({ n: samples.length, medianMs: round2(median(samples)), p90Ms: round2(p90(samples)) });

async function timed(client: ApiClient, path: string): Promise<{ samples: number[]; bytes: number }> {
  const samples: number[] = [];
  let bytes = 0;
  for (let run = 0; run < WARM_UP + RUNS; run += 1) {
    const started = performance.now();
    const response = await client.request(path);
    const body = new Uint8Array(await response.arrayBuffer());
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}`);
    bytes = body.length;
    if (run >= WARM_UP) samples.push(ms);
  }
  return { samples, bytes };
}

function rssMB(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? round(Number(line[1]) / 1024) : null;
  } catch {
    return null;
  }
}

export async function privacyBenchReport(): Promise<PrivacyBenchReport> {
  const dataDir = makeTempDir('hermes-bench-privacy-');
  try {
    const seedStarted = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(STUDENTS)], dataEnv(dataDir), 180_000);
    const seedMs = performance.now() - seedStarted;

    const handle = await openDb({ dataDir, databaseUrl: '' });
    let guardian: { id: number; received: number; deliveries: number };
    let historyAdded = false;
    try {
      const db = handle.db;
      const [school] = rowsOf<{ id: number }>(await db.execute(sql`select id from institutions where name = ${DEMO_SCHOOLS.sanAndres}`));
      const [sent] = rowsOf<{ n: number }>(
        await db.execute(sql`select count(distinct r.message_id)::int as n from message_recipients r join messages m on m.id = r.message_id
          where m.institution_id = ${school!.id} and r.recipient_kind = 'apoderado'`),
      );
      if (Number(sent!.n) < HISTORY_MIN) {
        await addHistory(db, school!.id);
        historyAdded = true;
      }
      [guardian] = rowsOf<{ id: number; received: number; deliveries: number }>(
        await db.execute(sql`select r.recipient_ref_id as id, count(distinct r.id)::int as received, count(d.id)::int as deliveries
          from message_recipients r join messages m on m.id = r.message_id left join deliveries d on d.recipient_id = r.id
          where m.institution_id = ${school!.id} and r.recipient_kind = 'apoderado'
          group by r.recipient_ref_id order by received desc, deliveries desc limit 1`),
      ) as [{ id: number; received: number; deliveries: number }];
    } finally {
      await handle.close();
    }

    const server = await startServer(dataDir);
    try {
      const client = new ApiClient(server.baseUrl);
      await client.login(OWNER, DEMO_PASSWORD);
      const zip = await timed(client, PRIVACY_API.exportOf('apoderado', Number(guardian.id)));
      const inventory = await timed(client, PRIVACY_API.person('apoderado', Number(guardian.id)));
      return {
        students: STUDENTS,
        seedMs: round(seedMs),
        historyAdded,
        guardian: { received: Number(guardian.received), deliveries: Number(guardian.deliveries) },
        exportTime: timing(zip.samples),
        exportBytes: zip.bytes,
        inventoryTime: timing(inventory.samples),
        inventoryBytes: inventory.bytes,
        serverRssMB: rssMB(server.child.pid),
      };
    } finally {
      await stopServer(server.child);
    }
  } finally {
    removeTempDir(dataDir);
  }
}

export function printPrivacy(report: PrivacyBenchReport): void {
  const time = (t: Timing): string => `mediana ${t.medianMs.toFixed(1)} ms, p90 ${t.p90Ms.toFixed(1)} ms (n=${t.n})`;
  console.log(
    `\n(p) Datos de una persona: el apoderado con más mensajes (${report.guardian.received} recibidos, ${report.guardian.deliveries} envíos; ` +
      `semilla de ${report.students} estudiantes en ${report.seedMs} ms${report.historyAdded ? ', más un año escolar de mensajes' : ''})`,
  );
  console.log(`    ZIP (GET …/export): ${time(report.exportTime)}; ${(report.exportBytes / 1000).toFixed(1)} kB`);
  console.log(
    `    inventario (GET …/:id): ${time(report.inventoryTime)}; ${(report.inventoryBytes / 1000).toFixed(1)} kB (respuesta comprimida)`,
  );
  if (report.serverRssMB !== null) console.log(`    memoria del servidor después: ${report.serverRssMB} MB`);
}
