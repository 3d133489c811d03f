// The built-in SMS / WhatsApp provider, used when no real one is configured so a fresh install can send
// and watch reception states move. It speaks the API of provider.ts (docs/provider-api.md): accepts a
// message, and `delayMs` later reports it delivered — or undelivered, with probability `failureRate` — to
// the message's callback URL, signed like a real provider would. A WhatsApp message delivered is read,
// half of the time, after another delay.
//
// Demo hook: numbers ending in 0000 always fail (`failed`, the reception error state).
//
// Each message is one row of provider_sim_messages; the row owes a report of its `status` while
// `reported_at` is null, so a restart resumes exactly what was not yet reported (resumeReports).
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { Db } from '../db/client';
import { providerSimMessages } from '../db/schema';
import { safeEqual } from '../auth/tokens';
import type { Logger } from '../log';
import { normalizePhone } from './phone';
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
  /** Where failed report attempts are told (they are retried, then left for resumeReports). */
  logger?: Logger;
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
  /** Sends the reports still owed (after a restart); the server calls it once at start. */
  resumeReports(): Promise<void>;
  close(): Promise<void>;
}

type SimRow = typeof providerSimMessages.$inferSelect;

/** Attempts at posting one report before leaving it for the next resumeReports. */
const REPORT_ATTEMPTS = 4;
/** Longest body accepted: ten concatenated SMS; WhatsApp's own limit. */
const MAX_BODY = { sms: 1600, whatsapp: 4096 } as const;
const ALWAYS_FAILS = /0000$/;

const problem = (c: Context, status: 401 | 422, code: string, message: string) => c.json({ code, message }, status);

export function createProviderSimulator(options: ProviderSimulatorOptions): ProviderSimulator {
  const { db } = options;
  const random = options.random ?? Math.random;
  let failureRate = options.failureRate;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();

  /** Runs `task` after `ms`, tracked so close() can cancel it or wait for it. */
  function later(ms: number, task: () => Promise<void>) {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = task().catch((error) => options.logger?.error('Simulador de proveedor: reporte fallido', error));
      running.add(run);
      void run.finally(() => running.delete(run));
    }, Math.max(0, ms));
    timer.unref();
    timers.add(timer);
  }

  /** Schedules the report a row owes: decide the outcome first if still `accepted`. */
  function schedule(row: Pick<SimRow, 'id' | 'reportAt'>, attempt = 0) {
    const due = attempt === 0 ? (row.reportAt?.getTime() ?? Date.now()) - Date.now() : options.delayMs * 2 ** attempt;
    later(due, () => report(row.id, attempt));
  }

  async function report(id: string, attempt: number): Promise<void> {
    if (closed) return;
    let row = await decide(id);
    if (!row || row.reportedAt || closed) return;

    if (row.callbackUrl) {
      const ok = await post(row);
      if (closed) return;
      if (!ok) {
        if (attempt + 1 < REPORT_ATTEMPTS) schedule(row, attempt + 1);
        return;
      }
    }
    // Conditional on the status reported, so a concurrent instance's newer status is not marked as told.
    const [marked] = await db
      .update(providerSimMessages)
      .set({ reportedAt: new Date() })
      .where(and(eq(providerSimMessages.id, id), eq(providerSimMessages.status, row.status), isNull(providerSimMessages.reportedAt)))
      .returning();
    row = marked;
    if (row?.channel === 'whatsapp' && row.status === 'delivered' && random() < 0.5) {
      const [read] = await db
        .update(providerSimMessages)
        .set({ status: 'read', reportAt: new Date(Date.now() + options.delayMs), reportedAt: null })
        .where(and(eq(providerSimMessages.id, id), eq(providerSimMessages.status, 'delivered')))
        .returning();
      if (read) schedule(read);
    }
  }

  /** The row with its outcome decided (delivered / undelivered / failed), once, whoever gets there first. */
  async function decide(id: string): Promise<SimRow | undefined> {
    const [current] = await db.select().from(providerSimMessages).where(eq(providerSimMessages.id, id));
    if (!current || current.status !== 'accepted') return current;
    const status = ALWAYS_FAILS.test(current.to) ? 'failed' : random() < failureRate ? 'undelivered' : 'delivered';
    const [decided] = await db
      .update(providerSimMessages)
      .set({ status, reportAt: new Date() })
      .where(and(eq(providerSimMessages.id, id), eq(providerSimMessages.status, 'accepted')))
      .returning();
    return decided ?? (await db.select().from(providerSimMessages).where(eq(providerSimMessages.id, id)))[0];
  }

  async function post(row: SimRow): Promise<boolean> {
    const error = row.status === 'undelivered' ? 'unreachable' : row.status === 'failed' ? 'rejected' : undefined;
    const body = JSON.stringify({
      id: row.id,
      reference: row.reference,
      status: row.status,
      at: (row.reportAt ?? new Date()).toISOString(),
      ...(error ? { error } : {}),
    });
    try {
      const response = await options.deliver(
        new Request(row.callbackUrl!, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signReport(body, options.webhookSecret) },
          body,
          signal: AbortSignal.timeout(10_000),
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
      schedule(created);
      return c.json({ id: created.id, status: created.status }, 202);
    }
    const [first] = await db.select().from(providerSimMessages).where(eq(providerSimMessages.reference, reference));
    return c.json({ id: first!.id, status: first!.status }, 200);
  });

  // In-process calls may name the API by its public address (…/sim/provider/messages) or by its root.
  const inProcess = new Hono().route('/', routes).route('/sim/provider', routes);

  return {
    routes,
    fetch: async (request) => inProcess.fetch(request),
    setFailureRate(rate) {
      failureRate = Math.min(1, Math.max(0, rate));
    },
    async resumeReports() {
      const owed = await db
        .select({ id: providerSimMessages.id, reportAt: providerSimMessages.reportAt })
        .from(providerSimMessages)
        .where(isNull(providerSimMessages.reportedAt))
        .orderBy(sql`${providerSimMessages.reportAt} asc nulls first`);
      for (const row of owed) schedule(row);
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}
