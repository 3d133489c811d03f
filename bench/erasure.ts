// (z) Erasure of a guardian with a school year of messages on `seed --students 2500`: the guardian who received
// the most messages at San Andrés, erased in process (server/privacy-requests/erasure.ts) in one transaction,
// timed end to end (preview counts, anonymising every copy, deleting what they wrote, the audit entry).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDb } from '../server/db/client';
import { rowsOf } from '../server/db/sql';
import { erasePerson, previewErasure } from '../server/privacy-requests/erasure';
import { AttachmentStore } from '../server/storage/attachments';
import { DEMO_SCHOOLS } from '../shared/demo';
import type { ErasureCounts } from '../shared/privacy-requests-contract';
import { dataEnv, makeTempDir, removeTempDir, round2, runScript } from './support';

const STUDENTS = 2_500;

export interface ErasureBenchReport {
  students: number;
  seedMs: number;
  counts: ErasureCounts;
  previewMs: number;
  erasureMs: number;
}

export async function erasureBenchReport(): Promise<ErasureBenchReport> {
  const dataDir = makeTempDir('hermes-bench-erasure-');
  try {
    const seedStarted = performance.now();
    await runScript(['server/seed/cli.ts', '--students', String(STUDENTS)], dataEnv(dataDir), 180_000);
    const seedMs = performance.now() - seedStarted;
    const handle = await openDb({ dataDir, databaseUrl: '' });
    try {
      const db = handle.db;
      const [school] = rowsOf<{ id: number; admin: number }>(
        await db.execute(sql`select i.id, (select u.id from users u where u.institution_id = i.id order by u.id limit 1) as admin
          from institutions i where i.name = ${DEMO_SCHOOLS.sanAndres}`),
      ) as [{ id: number; admin: number }];
      const [guardian] = rowsOf<{ id: number }>(
        await db.execute(sql`select r.recipient_ref_id as id from message_recipients r join messages m on m.id = r.message_id
          where m.institution_id = ${school.id} and r.recipient_kind = 'apoderado'
          group by r.recipient_ref_id order by count(*) desc limit 1`),
      ) as [{ id: number }];
      const person = { institutionId: school.id, kind: 'apoderado' as const, id: Number(guardian.id) };
      const previewStarted = performance.now();
      const actor = { institutionId: school.id, actorUserId: Number(school.admin), ip: null };
      await previewErasure(db, actor, person);
      const previewMs = performance.now() - previewStarted;
      const store = new AttachmentStore(path.join(dataDir, 'attachments'));
      const started = performance.now();
      const outcome = await erasePerson(db, { store, outboxDir: path.join(dataDir, 'outbox') }, actor, person);
      const erasureMs = performance.now() - started;
      if (!outcome.ok) throw new Error(`La eliminación no se hizo: ${outcome.reason}`);
      return {
        students: STUDENTS,
        seedMs: round2(seedMs),
        counts: outcome.result.conteos,
        previewMs: round2(previewMs),
        erasureMs: round2(erasureMs),
      };
    } finally {
      await handle.close();
    }
  } finally {
    removeTempDir(dataDir);
  }
}

export function printErasure(report: ErasureBenchReport): void {
  console.log(`\n(z) Eliminación de un apoderado con un año escolar (seed --students ${report.students}, ${report.seedMs} ms de semilla)`);
  console.log(`  ${JSON.stringify(report.counts)}`);
  console.log(`  vista previa ${report.previewMs} ms · eliminación ${report.erasureMs} ms`);
}
