// Sending a message (shared/compose-contract.ts): the estimate shown before confirming
// (`POST /messages/estimate`), then `POST /messages/send` or `/messages/schedule` with an Idempotency-Key.
// Mounted inside messageRoutes, whose requireAuth covers /messages/*. The rules live in
// server/compose/estimate.ts and server/compose/send.ts.
import { Hono } from 'hono';
import { IDEMPOTENCY_HEADER } from '../../shared/compose-contract';
import { estimate } from '../compose/estimate';
import { SEND_MESSAGES, sendMessage, type SendMode } from '../compose/send';
import { parseComposeInput } from '../compose/validate';
import type { Db } from '../db/client';
import type { DeliveryEngine } from '../delivery/engine-contract';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

const IDEMPOTENCY_MESSAGE = `Falta el encabezado ${IDEMPOTENCY_HEADER} (entre 8 y 100 caracteres).`;
const KEY_PATTERN = /^[\x21-\x7e]{8,100}$/;

export function sendRoutes(db: Db, engine: DeliveryEngine): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/estimate', async (c) => {
    const parsed = parseComposeInput(await readJson(c));
    if (!parsed.ok) return invalid(c, parsed.errors);
    const { userId, institutionId } = c.var.auth;
    const outcome = await estimate(db, { userId, institutionId }, parsed.value);
    return outcome.kind === 'ok' ? c.json({ data: outcome.estimate }) : invalid(c, outcome.errors);
  });

  for (const mode of ['send', 'schedule'] as const satisfies readonly SendMode[]) {
    app.post(`/${mode}`, async (c) => {
      const key = c.req.header(IDEMPOTENCY_HEADER) ?? '';
      const parsed = parseComposeInput(await readJson(c));
      const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors };
      if (!KEY_PATTERN.test(key)) errors.idempotency_key = [IDEMPOTENCY_MESSAGE];
      if (!parsed.ok || hasFieldErrors(errors)) return invalid(c, errors);
      const { userId, institutionId } = c.var.auth;
      const outcome = await sendMessage(db, { userId, institutionId, parsed: parsed.value, mode, idempotencyKey: key });
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
