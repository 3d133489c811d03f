// The school's SMS signature: everyone reads it (`GET /institutions-signatures`, compose shows it), only
// the admin roles change it (`PATCH /institutions-signatures/:id`). Another school's id is a 404. The rules
// live in server/signatures/signatures.ts.
import { auditActorOf } from '../http/audit-actor';
import { Hono } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import { SIGNATURE_MESSAGES } from '../../shared/signature-rules';
import { listSignatures, parseSignatureChange, updateSignature } from '../signatures/signatures';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, notFound, readJson } from '../http/errors';
import { parseId } from '../http/params';
import { requireRole } from '../http/roles';

export function signatureRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Auth per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone, as it always was.
  const auth = requireAuth(db);

  app.get('/', auth, async (c) => c.json({ data: await listSignatures(db, c.var.auth.institutionId) }));

  app.patch('/:id', auth, requireRole(...ADMIN_ROLES).withMessage(SIGNATURE_MESSAGES.forbidden), async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const change = parseSignatureChange(await readJson(c));
    if (!change.ok) return invalid(c, change.errors);
    const updated = await updateSignature(db, c.var.auth.institutionId, id, change.value, auditActorOf(c));
    return updated ? c.json({ data: updated }) : notFound(c);
  });

  return app;
}
