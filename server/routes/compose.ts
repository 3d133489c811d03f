// Compose (shared/compose-contract.ts): drafts, estimate, send, schedule under /messages, and the
// quota. Handlers parse and answer; the rules live in server/compose/*. `composeMessageRoutes` carries no
// auth of its own: it is mounted inside messageRoutes, whose requireAuth already covers /messages/*.
import { Hono, type Context } from 'hono';
import { IDEMPOTENCY_HEADER } from '../../shared/compose-contract';
import { createDraft, getDraft, updateDraft, type DraftOutcome } from '../compose/drafts';
import { estimate } from '../compose/estimate';
import { readQuota } from '../compose/quota';
import { SEND_MESSAGES, sendMessage, type SendMode } from '../compose/send';
import { parseComposeInput, type FieldErrors } from '../compose/validate';
import type { Db } from '../db/client';
import type { DeliveryEngine } from '../delivery/engine-contract';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { parseId } from '../http/params';

const IDEMPOTENCY_MESSAGE = `Falta el encabezado ${IDEMPOTENCY_HEADER} (entre 8 y 100 caracteres).`;
const KEY_PATTERN = /^[\x21-\x7e]{8,100}$/;


async function readBody(c: Context) {
  return parseComposeInput(await readJson(c));
}

function answerDraft(c: Context<AppEnv>, outcome: DraftOutcome, status: 200 | 201 = 200) {
  switch (outcome.kind) {
    case 'ok':
      return c.json({ data: outcome.draft }, status);
    case 'invalid':
      return invalid(c, outcome.errors);
    case 'not_found':
      return notFound(c);
    case 'illegal':
      return apiError(c, 409, 'message.illegal_transition', outcome.message);
  }
}

export function composeMessageRoutes(db: Db, engine: DeliveryEngine): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const scope = (c: Context<AppEnv>) => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId });

  app.post('/drafts', async (c) => {
    const parsed = await readBody(c);
    if (!parsed.ok) return invalid(c, parsed.errors);
    return answerDraft(c, await createDraft(db, scope(c), parsed.value), 201);
  });

  app.put('/drafts/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const parsed = await readBody(c);
    if (!parsed.ok) return invalid(c, parsed.errors);
    return answerDraft(c, await updateDraft(db, scope(c), id, parsed.value));
  });

  app.get('/drafts/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    return answerDraft(c, await getDraft(db, c.var.auth.userId, id));
  });

  app.post('/estimate', async (c) => {
    const parsed = await readBody(c);
    if (!parsed.ok) return invalid(c, parsed.errors);
    const outcome = await estimate(db, scope(c), parsed.value);
    return outcome.kind === 'ok' ? c.json({ data: outcome.estimate }) : invalid(c, outcome.errors);
  });

  for (const mode of ['send', 'schedule'] as const satisfies readonly SendMode[]) {
    app.post(`/${mode}`, async (c) => {
      const key = c.req.header(IDEMPOTENCY_HEADER) ?? '';
      const parsed = await readBody(c);
      const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors };
      if (!KEY_PATTERN.test(key)) errors.idempotency_key = [IDEMPOTENCY_MESSAGE];
      if (!parsed.ok || Object.keys(errors).length > 0) return invalid(c, errors);
      const outcome = await sendMessage(db, { ...scope(c), parsed: parsed.value, mode, idempotencyKey: key });
      switch (outcome.kind) {
        case 'created':
          // After the commit: if this process dies first, the engine's sweep finds the message anyway.
          if (mode === 'send') await engine.messageSent(outcome.result.id);
          else await engine.messageScheduled(outcome.result.id, new Date(parsed.value.input.scheduled_at!));
          return c.json({ data: outcome.result }, 201);
        case 'replayed':
          return c.json({ data: outcome.result }, 200);
        case 'invalid':
          return invalid(c, outcome.errors);
        case 'quota':
          return apiError(c, 409, 'compose.quota', SEND_MESSAGES.quota, { quota: outcome.problems });
        case 'not_found':
          return notFound(c);
        case 'illegal':
          return apiError(c, 409, 'message.illegal_transition', outcome.message);
      }
    });
  }

  return app;
}

/** `GET /quota`: the school's SMS quota of this month and its balances. */
export function quotaRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));
  app.get('/', async (c) => c.json({ data: await readQuota(db, c.var.auth.institutionId) }));
  return app;
}
