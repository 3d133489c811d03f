// The built-in SMS / WhatsApp provider, used when no real one is configured so a fresh install can send
// and watch reception states move. It speaks the API of provider.ts (docs/provider-api.md): accepts a
// message, and `delayMs` later reports it delivered — or undelivered, with probability `failureRate` — to
// the message's callback URL, signed like a real provider would. A WhatsApp message delivered is read,
// half of the time, after another delay.
//
// Demo hook: numbers ending in 0000 always fail (`failed`, the reception error state).
//
// It also plays the families' side: `POST /incoming` (at /sim/provider/incoming, with the same bearer token)
// takes what a family answers and posts it, signed, to Hermes's incoming-messages webhook, as a gateway
// would (docs/provider-api.md). `npm run sim:reply` calls it; the token reaches that command through a file
// only this machine's user reads (shareToken).
//
// Each message is one row of provider_sim_messages; the row owes a report of its `status` while
// `reported_at` is null, so a restart resumes exactly what was not yet reported (resumeReports). Reports
// go out in rounds, one signed request per callback URL per round.
import { textList } from '../db/arrays';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { Db } from '../db/client';
import { providerSimMessages } from '../db/schema/delivery';
import { safeEqual } from '../auth/tokens';
import type { Logger } from '../log';
import { normalizePhone } from '../recipients/phone';
import { SIGNATURE_HEADER, signReport } from './provider';

export interface ProviderSimulatorOptions {
  db: Db;
  /** Bearer token the simulator expects (the adapter sends it). */
  token: string;
  /** Share of messages reported not delivered (0–1). */
  failureRate: number;
  /** Delay between accepting and reporting. */
  delayMs: number;
  /** Secret the status reports are signed with (HMAC-SHA256, header X-Hermes-Signature: sha256=<hex>). */
  webhookSecret: string;
  /** Posts a status report to its callback URL (the server passes its own in-process fetch). */
  deliver: (request: Request) => Promise<Response>;
  random?: () => number;
  /**
   * Where each accepted message is also written as a text file (`sim/<id>.txt` under it): the server's outbox
   * (HERMES_OUTBOX_DIR), beside the e-mails it writes without SMTP. Nobody's phone rings with the simulator,
   * so that is where a demo (or a browser test) reads the guardian app's sign-in code.
   */
  outboxDir?: string;
  /** Where a failed reporting round is told (its reports stay owed and are tried again with backoff). */
  logger?: Logger;
  /** This server's address (HERMES_PUBLIC_URL): the families' answers go to its incoming-messages webhook. */
  publicUrl?: string;
  /**
   * The channels it serves (default both): a family answers only by one of them, since on a channel a real
   * provider serves the answer would be threaded under a message a real family got.
   */
  channels?: readonly ('sms' | 'whatsapp')[];
}

export interface ProviderSimulator {
  /** The provider's JSON API, mounted by the app at /sim/provider. */
  routes: Hono;
  /**
   * Calls `routes` in-process (what the default adapters use as their `fetch`), whether their URL is the
   * public one (`{publicUrl}/sim/provider`) or any bare origin.
   */
  fetch(request: Request): Promise<Response>;
  setFailureRate(rate: number): void;
  /**
   * Writes the bearer token to `file` (owner-only), for `npm run sim:reply` to answer as a family. Only the
   * process that serves /sim/provider calls it: a worker's simulator has another token and no routes.
   */
  shareToken(file: string): Promise<void>;
  /** Sends the reports still owed (after a restart); the server calls it once at start. */
  resumeReports(): Promise<void>;
  close(): Promise<void>;
}

type SimRow = typeof providerSimMessages.$inferSelect;

/** Most reports decided, and sent in one signed request per callback URL, per round. */
const REPORT_BATCH = 500;
/** A callback that failed is tried again after this long, doubling, up to a minute. */
const RETRY_CAP_MS = 60_000;
/** Longest body accepted: ten concatenated SMS; WhatsApp's own limit. */
const MAX_BODY = { sms: 1600, whatsapp: 4096 } as const;
const ALWAYS_FAILS = /0000$/;

const problem = (c: Context, status: 401 | 422 | 502, code: string, message: string) => c.json({ code, message }, status);

export function createProviderSimulator(options: ProviderSimulatorOptions): ProviderSimulator {
  const { db } = options;
  const random = options.random ?? Math.random;
  let failureRate = options.failureRate;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  /** Failed callbacks per URL: how long the next try waits. */
  const backoff = new Map<string, number>();
  // Reports go out in rounds, like a real provider's batched callbacks: a round every `tick`, and at once
  // when a message is accepted with no delay. Batching keeps thousands of reports to a few requests.
  const tick = Math.min(250, Math.max(10, Math.round(options.delayMs / 2)));

  function wake(ms = tick): void {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      round = round.then(runRound).catch((error) => options.logger?.error('Simulador de proveedor: reporte fallido', error));
    }, ms);
    timer.unref();
  }

  /** Decides outcomes that are due, then posts every owed report that is due; keeps going while work is left. */
  async function runRound(): Promise<void> {
    if (closed) return;
    await decideDue();
    const owed = await db
      .select()
      .from(providerSimMessages)
      .where(
        and(
          isNull(providerSimMessages.reportedAt),
          sql`${providerSimMessages.status} <> 'accepted'`,
          sql`${providerSimMessages.reportAt} <= now()`,
        ),
      )
      .orderBy(providerSimMessages.reportAt)
      .limit(REPORT_BATCH);
    const byUrl = new Map<string, SimRow[]>();
    for (const row of owed) {
      if (!row.callbackUrl) continue;
      byUrl.set(row.callbackUrl, [...(byUrl.get(row.callbackUrl) ?? []), row]);
    }
    const told: SimRow[] = owed.filter((row) => !row.callbackUrl);
    for (const [url, rows] of byUrl) {
      if (closed) return;
      if (await post(url, rows)) {
        backoff.delete(url);
        told.push(...rows);
      } else {
        const wait = Math.min(RETRY_CAP_MS, (backoff.get(url) ?? Math.max(options.delayMs, 100)) * 2);
        backoff.set(url, wait);
        await db
          .update(providerSimMessages)
          .set({ reportAt: new Date(Date.now() + wait) })
          .where(sql`${providerSimMessages.id} = any(${textList(rows.map((r) => r.id))}::text[])`);
      }
    }
    await markTold(told);
    if (closed) return;
    const pending = await db
      .select({ at: sql<Date | string | null>`min(${providerSimMessages.reportAt})` })
      .from(providerSimMessages)
      .where(isNull(providerSimMessages.reportedAt));
    const next = pending[0]?.at;
    if (next) wake(Math.max(0, Math.min(new Date(next).getTime() - Date.now(), RETRY_CAP_MS)));
  }

  /** Messages past their delay get their outcome, once: the 0000 rule, else the failure rate. */
  async function decideDue(): Promise<void> {
    const due = await db
      .select({ id: providerSimMessages.id, to: providerSimMessages.to })
      .from(providerSimMessages)
      .where(and(eq(providerSimMessages.status, 'accepted'), sql`${providerSimMessages.reportAt} <= now()`))
      .limit(REPORT_BATCH);
    if (due.length === 0) return;
    const decided = due.map((row) => ({
      id: row.id,
      status: ALWAYS_FAILS.test(row.to) ? 'failed' : random() < failureRate ? 'undelivered' : 'delivered',
    }));
    await db.execute(sql`
      update provider_sim_messages m set status = v.status, report_at = now()
      from json_to_recordset(${JSON.stringify(decided)}::json) as v(id text, status text)
      where m.id = v.id and m.status = 'accepted'`);
  }

  /** Marks reports as told (only the status that was told); a delivered WhatsApp is then read half the time. */
  async function markTold(rows: SimRow[]): Promise<void> {
    if (rows.length === 0) return;
    const told = JSON.stringify(rows.map((r) => ({ id: r.id, status: r.status })));
    await db.execute(sql`
      update provider_sim_messages m set reported_at = now()
      from json_to_recordset(${told}::json) as v(id text, status text)
      where m.id = v.id and m.status = v.status and m.reported_at is null`);
    const reads = rows.filter((r) => r.channel === 'whatsapp' && r.status === 'delivered' && random() < 0.5).map((r) => r.id);
    if (reads.length === 0) return;
    await db.execute(sql`
      update provider_sim_messages set status = 'read', report_at = now() + ${`${options.delayMs} milliseconds`}::interval, reported_at = null
      where id = any(${textList(reads)}::text[]) and status = 'delivered'`);
  }

  /** One signed request with every report for this callback URL (the webhook takes a JSON array). */
  async function post(url: string, rows: SimRow[]): Promise<boolean> {
    const body = JSON.stringify(
      rows.map((row) => {
        const error = row.status === 'undelivered' ? 'unreachable' : row.status === 'failed' ? 'rejected' : undefined;
        return {
          id: row.id,
          reference: row.reference,
          status: row.status,
          at: (row.reportAt ?? new Date()).toISOString(),
          ...(error ? { error } : {}),
        };
      }),
    );
    try {
      const response = await options.deliver(
        new Request(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signReport(body, options.webhookSecret) },
          body,
          signal: AbortSignal.timeout(30_000),
        }),
      );
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  const routes = new Hono();

  routes.post('/messages', async (c) => {
    const auth = c.req.header('Authorization') ?? '';
    if (!safeEqual(auth, `Bearer ${options.token}`)) return problem(c, 401, 'unauthorized', 'Token de acceso inválido.');

    const input = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const channel = input?.channel;
    if (channel !== 'sms' && channel !== 'whatsapp') return problem(c, 422, 'invalid_request', 'El canal debe ser sms o whatsapp.');
    const { to, body, reference } = input as Record<string, unknown>;
    const callbackUrl = input?.callback_url ?? null;
    if (typeof reference !== 'string' || reference === '' || reference.length > 200) {
      return problem(c, 422, 'invalid_request', 'Falta la referencia del mensaje.');
    }
    if (typeof body !== 'string' || body.trim() === '' || body.length > MAX_BODY[channel]) {
      return problem(c, 422, 'invalid_request', 'El texto del mensaje está vacío o es demasiado largo.');
    }
    if (callbackUrl !== null && (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl) || !URL.canParse(callbackUrl))) {
      return problem(c, 422, 'invalid_request', 'La URL de reporte no es válida.');
    }
    const phone = typeof to === 'string' ? normalizePhone(to, 'CL') : ({ ok: false, reason: 'invalid' } as const);
    if (!phone.ok) {
      return phone.reason === 'not_mobile'
        ? problem(c, 422, 'not_mobile', 'El número no es un celular.')
        : problem(c, 422, 'invalid_number', 'El número de teléfono no es válido.');
    }

    // A repeated reference (the sender retrying after a lost answer) gets the first message back, unsent.
    const [created] = await db
      .insert(providerSimMessages)
      .values({
        id: `sim-${randomUUID()}`,
        reference,
        channel,
        to: phone.e164,
        body,
        status: 'accepted',
        callbackUrl,
        reportAt: new Date(Date.now() + options.delayMs),
      })
      .onConflictDoNothing({ target: providerSimMessages.reference })
      .returning();
    if (created) {
      if (options.outboxDir) await writeOutbox(options.outboxDir, created, options.logger);
      wake(options.delayMs);
      return c.json({ id: created.id, status: created.status }, 202);
    }
    const [first] = await db.select().from(providerSimMessages).where(eq(providerSimMessages.reference, reference));
    return c.json({ id: first!.id, status: first!.status }, 200);
  });

  // A family answers: what a gateway would post to Hermes when a phone writes to the school's number.
  routes.post('/incoming', async (c) => {
    const auth = c.req.header('Authorization') ?? '';
    if (!safeEqual(auth, `Bearer ${options.token}`)) return problem(c, 401, 'unauthorized', 'Token de acceso inválido.');
    const input = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const channel = input?.channel ?? 'sms';
    if (channel !== 'sms' && channel !== 'whatsapp') return problem(c, 422, 'invalid_request', 'El canal debe ser sms o whatsapp.');
    if (!(options.channels ?? ['sms', 'whatsapp']).includes(channel)) {
      const name = channel === 'sms' ? 'El SMS' : 'WhatsApp';
      return problem(c, 422, 'not_simulated', `${name} de este Hermes va por un proveedor real: el simulador no responde por ese canal.`);
    }
    const { from, body } = input ?? {};
    if (typeof body !== 'string' || body.trim() === '' || body.length > MAX_BODY[channel]) {
      return problem(c, 422, 'invalid_request', 'El texto del mensaje está vacío o es demasiado largo.');
    }
    const phone = typeof from === 'string' ? normalizePhone(from, 'CL') : ({ ok: false, reason: 'invalid' } as const);
    if (!phone.ok) return problem(c, 422, 'invalid_number', 'El número de quien responde no es un celular válido.');

    const id = `sim-in-${randomUUID()}`;
    const payload = JSON.stringify({ id, from: phone.e164, body, at: new Date().toISOString() });
    const url = `${options.publicUrl ?? 'http://localhost'}/api/webhooks/provider/${channel}/incoming`;
    const answer = await options
      .deliver(
        new Request(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signReport(payload, options.webhookSecret) },
          body: payload,
          signal: AbortSignal.timeout(30_000),
        }),
      )
      .catch(() => null);
    if (!answer?.ok) {
      // Hermes's own words when it refused it, so whoever typed the answer learns why.
      const said = answer ? ((await answer.json().catch(() => null)) as { message?: unknown } | null) : null;
      const why = typeof said?.message === 'string' ? `: ${said.message}` : '';
      return problem(c, 502, 'hermes_refused', `Hermes no recibió la respuesta (${answer?.status ?? 'sin respuesta'})${why}`);
    }
    await answer.body?.cancel();
    return c.json({ id, channel, from: phone.e164, status: 'delivered' }, 202);
  });

  // In-process calls may name the API by its public address (…/sim/provider/messages) or by its root.
  const inProcess = new Hono().route('/', routes).route('/sim/provider', routes);

  return {
    routes,
    fetch: async (request) => inProcess.fetch(request),
    setFailureRate(rate) {
      failureRate = Math.min(1, Math.max(0, rate));
    },
    async shareToken(file) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, `${options.token}\n`, { encoding: 'utf8', mode: 0o600 });
    },
    async resumeReports() {
      wake(0);
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await round.catch(() => {});
    },
  };
}

/** The accepted message as a text file; a failed write is told and changes nothing of the sending. */
async function writeOutbox(dir: string, message: SimRow, logger: Logger | undefined): Promise<void> {
  const text = `Canal: ${message.channel}\nPara: ${message.to}\nReferencia: ${message.reference}\n\n${message.body}\n`;
  try {
    const file = simulatorMessageFile(dir, message.id);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text, 'utf8');
  } catch (error) {
    logger?.error('El simulador no pudo escribir el mensaje en la bandeja de salida', error);
  }
}

/** The text file of an accepted message (an erasure removes the person's). */
export const simulatorMessageFile = (outboxDir: string, id: string): string => path.join(outboxDir, 'sim', `${id}.txt`);

/** Where `npm start` leaves the simulator's token for `npm run sim:reply` (beside the outbox it writes). */
export function simulatorTokenFile(outboxDir: string): string {
  return path.resolve(outboxDir, 'simulator.token');
}

/** The token `shareToken` wrote; null when no server with the simulator has started here. */
export async function readSimulatorToken(outboxDir: string): Promise<string | null> {
  const text = await readFile(simulatorTokenFile(outboxDir), 'utf8').catch(() => null);
  return text?.trim() || null;
}
