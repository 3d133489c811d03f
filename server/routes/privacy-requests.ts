// Objection and erasure of a school's person (shared/privacy-requests-contract.ts), for its administrators:
// PUT|DELETE /people/:kind/:id/block and GET|POST /people/:kind/:id/erasure, mounted at /api/privacy beside
// the access routes (./privacy.ts). Another school's person is a 404. Rules and SQL: server/privacy-requests/.
import { Hono, type Context } from 'hono';
import { ADMIN_ROLES } from '../../shared/codes';
import {
  BLOCK_REQUESTERS,
  type BlockRequester,
  ERASURE_CONFIRMATION,
  type ErasurePreview,
  PRIVACY_PERSON_KINDS,
  type PrivacyPersonKind,
} from '../../shared/privacy-requests-contract';
import { auditActorOf } from '../http/audit-actor';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { blockPerson, unblockPerson } from '../privacy-requests/blocks';
import { type ErasureFiles, erasePerson, previewErasure } from '../privacy-requests/erasure';
import type { PersonRef } from '../privacy-requests/person';
import { PRIVACY_REQUEST_MESSAGES } from '../privacy-requests/texts';

const isKind = (value: string | undefined): value is PrivacyPersonKind => PRIVACY_PERSON_KINDS.some((k) => k === value);
const isRequester = (value: unknown): value is BlockRequester => BLOCK_REQUESTERS.some((r) => r === value);

function personOf(c: Context<AppEnv>): PersonRef | null {
  const kind = c.req.param('kind');
  const id = parseId(c.req.param('id'));
  if (!isKind(kind) || id === null) return null;
  return { institutionId: c.var.auth.institutionId, kind, id };
}

const erased = (c: Context<AppEnv>) => apiError(c, 409, 'privacy.erased', PRIVACY_REQUEST_MESSAGES.erased);

export function privacyRequestRoutes(db: Db, files: ErasureFiles): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, so an unknown path is a 404 rather than a sign-in or role refusal.
  const admins = [requireAuth(db), requireRole(...ADMIN_ROLES).withMessage(PRIVACY_REQUEST_MESSAGES.forbidden)] as const;

  app.put('/people/:kind/:id/block', ...admins, async (c) => {
    const person = personOf(c);
    if (!person) return notFound(c);
    const body = await readJson(c);
    const requestedBy = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).solicitado_por : undefined;
    if (!isRequester(requestedBy)) return invalid(c, { solicitado_por: [PRIVACY_REQUEST_MESSAGES.requester] });
    const outcome = await blockPerson(db, auditActorOf(c), person, requestedBy);
    if (!outcome.ok) return outcome.reason === 'erased' ? erased(c) : notFound(c);
    return c.json({ data: outcome.block });
  });

  app.delete('/people/:kind/:id/block', ...admins, async (c) => {
    const person = personOf(c);
    if (!person) return notFound(c);
    const outcome = await unblockPerson(db, auditActorOf(c), person);
    if (!outcome.ok) return outcome.reason === 'erased' ? erased(c) : notFound(c);
    return c.body(null, 204);
  });

  app.get('/people/:kind/:id/erasure', ...admins, async (c) => {
    const person = personOf(c);
    if (!person) return notFound(c);
    const outcome = await previewErasure(db, auditActorOf(c), person);
    if (!outcome.ok) return outcome.reason === 'erased' ? erased(c) : notFound(c);
    const obstacle = outcome.obstacle === null ? null : { codigo: outcome.obstacle.code, mensaje: outcome.obstacle.message };
    const preview: ErasurePreview = {
      tipo: person.kind,
      id: person.id,
      conteos: outcome.counts,
      confirmacion: ERASURE_CONFIRMATION,
      impedimento: obstacle,
    };
    return c.json({ data: preview });
  });

  app.post('/people/:kind/:id/erasure', ...admins, async (c) => {
    const person = personOf(c);
    if (!person) return notFound(c);
    const body = await readJson(c);
    const confirmation = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).confirmacion : undefined;
    if (typeof confirmation !== 'string' || confirmation.trim() !== ERASURE_CONFIRMATION)
      return invalid(c, { confirmacion: [PRIVACY_REQUEST_MESSAGES.confirmation] });
    const outcome = await erasePerson(db, files, auditActorOf(c), person);
    if (!outcome.ok) {
      if (outcome.reason === 'refused') return apiError(c, 409, outcome.obstacle.code, outcome.obstacle.message);
      return outcome.reason === 'erased' ? erased(c) : notFound(c);
    }
    return c.json({ data: outcome.result });
  });
  return app;
}
