// (e) Send of one message to ≥ 5,000 guardians × 2 channels (app-mobile + e-mail), measured in-process on
// PGlite: the whole send transaction as POST /messages/send runs it (idempotency check, validation,
// expansion of every level of Colegio San Andrés, quota lock, message, recipients, deliveries, mailbox
// entries) until commit, against a bare `INSERT … SELECT` writing the same recipient and delivery rows in
// one transaction. Alternated run by run so drift and background load hit both alike. Target ≤ 1.1×.
// Part of `npm run bench` (bench/run.ts); `tsx bench/send.ts` runs it alone.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { sendMessage } from '../server/compose/send';
import type { ParsedCompose } from '../server/compose/validate';
import { openDb, type Db } from '../server/db/client';
import { users } from '../server/db/schema/auth';
import { levels } from '../server/db/schema/school';
import { generateSeed } from '../server/seed/generate';
import { writeSeed } from '../server/seed/write';
import type { RecipientPick } from '../shared/compose-contract';

/** Students of San Andrés so its guardians pass 5,000 (the seed has ~1.19 guardians per student). */
export const SEND_STUDENTS = 4_300;
const SEND_MIN_GUARDIANS = 5_000;
const SEND_RUNS = 7;
const SEND_RATIO_TARGET = 1.1;
const SENDER = 'administrador@sanandres.cl';

export interface SendBenchReport {
  students: number;
  recipients: number;
  deliveries: number;
  channels: string[];
  runs: number;
  seedMs: number;
  sendMs: number[];
  bareMs: number[];
  sendMedianMs: number;
  bareMedianMs: number;
  ratio: number;
  ratioTarget: number;
  withinTarget: boolean;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round2 = (ms: number): number => Math.round(ms * 100) / 100;

/**
 * The same rows, written with nothing around them: a fresh message row, then recipients copied from the
 * sent message by INSERT … SELECT and their deliveries by INSERT … SELECT joined to the new ids.
 */
async function bareInsert(db: Db, sourceId: number, institutionId: number, userId: number): Promise<number> {
  const started = performance.now();
  await db.transaction(async (tx) => {
    const [row] = (
      (await tx.execute(sql`
        insert into messages (institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content,
          channels, kind, search)
        select ${institutionId}, ${userId}, sender_kind, sender_ref_id, sender_name, title, content, channels, 'sent', search
        from messages where id = ${sourceId}
        returning id`)) as unknown as { rows: { id: number }[] }
    ).rows;
    await tx.execute(sql`
      with ins as (
        insert into message_recipients (message_id, recipient_kind, recipient_ref_id, display_name, group_kind,
          group_label, status, student_names)
        select ${row!.id}, recipient_kind, recipient_ref_id, display_name, group_kind, group_label, status, student_names
        from message_recipients where message_id = ${sourceId} order by id
        returning id, recipient_kind, recipient_ref_id
      )
      insert into deliveries (message_id, recipient_id, channel, address, status, error, segments)
      select ${row!.id}, ins.id, d.channel, d.address, d.status, d.error, d.segments
      from deliveries d
      join message_recipients r on r.id = d.recipient_id
      join ins on ins.recipient_kind = r.recipient_kind and ins.recipient_ref_id = r.recipient_ref_id
      where d.message_id = ${sourceId}`);
  });
  return performance.now() - started;
}

export async function sendBenchReport(): Promise<SendBenchReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hermes-bench-send-'));
  try {
    const handle = await openDb({ dataDir, databaseUrl: '' });
    try {
      const db = handle.db;
      await handle.migrate();
      const seedStarted = performance.now();
      await writeSeed(db, generateSeed({ students: SEND_STUDENTS }));
      const seedMs = performance.now() - seedStarted;

      const [user] = await db.select({ id: users.id, institutionId: users.institutionId }).from(users).where(eq(users.email, SENDER));
      if (!user) throw new Error(`${SENDER} no existe en la base sembrada`);
      const levelRows = await db.select({ id: levels.id }).from(levels).where(eq(levels.institutionId, user.institutionId));
      const picks: RecipientPick[] = levelRows.map((l) => ({ kind: 'level', id: l.id, audience: 'apoderados' }));
      const channels = ['app-mobile', 'e-mail'] as const;
      const parsed: ParsedCompose = {
        input: {
          title: 'Suspensión de clases por emergencia climática',
          content: 'Estimadas familias: mañana no habrá clases por la alerta meteorológica. Les mantendremos informados.',
          channels: [...channels],
          recipients: picks,
          attachment_ids: [],
          allow_replies: false,
          copy_to_sender: false,
          scheduled_at: null,
        },
        draftId: null,
        replyToId: null,
      };

      const sendMs: number[] = [];
      const bareMs: number[] = [];
      let recipients = 0;
      let deliveries = 0;
      // One untimed round of each warms the plan caches and the WASM heap.
      for (let run = -1; run < SEND_RUNS; run++) {
        const started = performance.now();
        const outcome = await sendMessage(db, {
          userId: user.id,
          institutionId: user.institutionId,
          parsed,
          mode: 'send',
          idempotencyKey: randomUUID(),
        });
        const ms = performance.now() - started;
        if (outcome.kind !== 'created') throw new Error(`el envío no se creó: ${JSON.stringify(outcome)}`);
        recipients = outcome.result.recipients;
        deliveries = outcome.result.deliveries;
        const bare = await bareInsert(db, outcome.result.id, user.institutionId, user.id);
        if (run >= 0) {
          sendMs.push(ms);
          bareMs.push(bare);
        }
      }
      if (recipients < SEND_MIN_GUARDIANS)
        throw new Error(`el envío llegó a ${recipients} apoderados; se esperaban ≥ ${SEND_MIN_GUARDIANS}`);
      const sendMedianMs = round2(median(sendMs));
      const bareMedianMs = round2(median(bareMs));
      const ratio = Math.round((sendMedianMs / bareMedianMs) * 100) / 100;
      return {
        students: SEND_STUDENTS,
        recipients,
        deliveries,
        channels: [...channels],
        runs: SEND_RUNS,
        seedMs: Math.round(seedMs),
        sendMs: sendMs.map(round2),
        bareMs: bareMs.map(round2),
        sendMedianMs,
        bareMedianMs,
        ratio,
        ratioTarget: SEND_RATIO_TARGET,
        withinTarget: ratio <= SEND_RATIO_TARGET,
      };
    } finally {
      await handle.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printSend(report: SendBenchReport): void {
  console.log(
    `\n(e) Envío a ${report.recipients} apoderados × ${report.channels.length} canales (${report.channels.join(', ')}): ` +
      `${report.deliveries} entregas, PGlite, semilla de ${report.students} estudiantes (${report.seedMs} ms)`,
  );
  console.log(`    envío completo hasta el commit: mediana ${report.sendMedianMs} ms  [${report.sendMs.join(', ')}]`);
  console.log(`    INSERT … SELECT de las mismas filas: mediana ${report.bareMedianMs} ms  [${report.bareMs.join(', ')}]`);
  const verdict = report.withinTarget ? 'OK' : 'OVER';
  console.log(`    razón envío/INSERT … SELECT: ${report.ratio.toFixed(2)}× / objetivo ≤ ${report.ratioTarget}× → ${verdict}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  sendBenchReport().then(printSend, (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
