// Drafts (`/messages/drafts`, shared/compose-contract.ts): create, update and reopen the user's own; anyone
// else's id is a 404. Mounted inside messageRoutes, whose requireAuth covers /messages/*. The rules live
// in server/compose/drafts.ts.
import { Hono, type Context } from 'hono';
import { createDraft, getDraft, updateDraft, type DraftOutcome } from '../compose/drafts';
import { parseComposeInput } from '../compose/validate';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { parseId } from '../http/params';

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

export function draftRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/', async (c) => {
    const parsed = parseComposeInput(await readJson(c));
    if (!parsed.ok) return invalid(c, parsed.errors);
    const { userId, institutionId } = c.var.auth;
    return answerDraft(c, await createDraft(db, { userId, institutionId }, parsed.value), 201);
  });

  app.put('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const parsed = parseComposeInput(await readJson(c));
    if (!parsed.ok) return invalid(c, parsed.errors);
    const { userId, institutionId } = c.var.auth;
    return answerDraft(c, await updateDraft(db, { userId, institutionId }, id, parsed.value));
  });

  app.get('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    return answerDraft(c, await getDraft(db, c.var.auth.userId, id));
  });

  return app;
}
