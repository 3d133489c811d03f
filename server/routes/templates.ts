// Message templates (shared/templates-contract.ts): `GET /templates?repository=&q=`, create, edit and delete
// the user's own, copy any visible one to "Mis plantillas". Every signed-in staff member has templates; a
// library template cannot be edited or deleted, and another user's or school's is a 404, like an id that
// does not exist. The rules live in server/templates/templates.ts.
import { Hono, type Context } from 'hono';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, notFound, readJson } from '../http/errors';
import { parseId } from '../http/params';
import {
  copyTemplate,
  createTemplate,
  deleteTemplate,
  listTemplates,
  parseTemplateInput,
  parseTemplateQuery,
  schoolLocale,
  updateTemplate,
  type TemplateUser,
} from '../templates/templates';
import type { TemplateInput } from '../../shared/templates-contract';

export function templateRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Auth per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone.
  const auth = requireAuth(db);
  const userOf = async (c: Context<AppEnv>): Promise<TemplateUser> => ({
    userId: c.var.auth.userId,
    institutionId: c.var.auth.institutionId,
    locale: await schoolLocale(db, c.var.auth.institutionId),
  });

  app.get('/', auth, async (c) => {
    const query = parseTemplateQuery(c.req.query('repository'), c.req.query('q'));
    if (!query.ok) return invalid(c, query.errors);
    return c.json({ data: await listTemplates(db, await userOf(c), query.value) });
  });

  app.post('/', auth, async (c) => {
    const input = parseTemplateInput(await readJson(c), 'create');
    if (!input.ok) return invalid(c, input.errors);
    const created = await createTemplate(db, await userOf(c), input.value as TemplateInput);
    if (!created.ok) return invalid(c, created.errors);
    return c.json({ data: created.template }, 201);
  });

  app.patch('/:id', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const change = parseTemplateInput(await readJson(c), 'update');
    if (!change.ok) return invalid(c, change.errors);
    const updated = await updateTemplate(db, await userOf(c), id, change.value);
    if (updated === null) return notFound(c);
    return updated.ok ? c.json({ data: updated.template }) : invalid(c, updated.errors);
  });

  app.delete('/:id', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    return (await deleteTemplate(db, await userOf(c), id)) ? c.body(null, 204) : notFound(c);
  });

  app.post('/:id/copy', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const copy = await copyTemplate(db, await userOf(c), id);
    return copy ? c.json({ data: copy }, 201) : notFound(c);
  });

  return app;
}
