// What compose reads before writing (compose-contract.ts): channels, the user's channel permissions, the
// recipient picker's data, saved recipient lists and the school's SMS signature (with its update). Every
// route is signed-in only and scoped to the user's school; another school's or user's ids are a plain 404.
import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { COMPOSE_API, type NumberedPage, type RecipientList } from '../../shared/compose-contract';
import { smsText } from '../../shared/sms-text';
import type { Db } from '../db/client';
import { listRecipientLists, listSignatures, listUsers, updateSignature } from '../compose/lists';
import { loadRecipients, schoolChannels, toChannels, toPermission, userChannels } from '../compose/recipients';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { invalid, notFound, readJson } from '../http/errors';
import { intParam, parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { ADMIN_ROLES } from '../../shared/codes';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** Far beyond any real number of lists; keeps OFFSET and the link arithmetic in safe integers. */
const MAX_PAGE = 100_000;
export const SIGNATURE_MIN = 3;
export const SIGNATURE_MAX = 4;

const VALIDATION = {
  page: `La página debe ser un número entero entre 1 y ${MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${MAX_PER_PAGE}.`,
  signatureLength: `La firma debe tener entre ${SIGNATURE_MIN} y ${SIGNATURE_MAX} caracteres.`,
  signatureCharacters: 'La firma solo puede tener letras, números y signos que se puedan enviar por SMS, sin espacios.',
  isActive: 'El estado de la firma debe ser 1 (activa) o 0 (inactiva).',
  forbidden: 'No tienes permiso para modificar la firma de la institución.',
} as const;


const listsLink = (page: number, perPage: number) => `/api${COMPOSE_API.recipientLists}?page=${page}&per_page=${perPage}`;

export function composeReadRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Per route, not `use('*')`: this app is mounted at the API root next to public routes.
  const auth = requireAuth(db);

  app.get(COMPOSE_API.channels, auth, async (c) => {
    return c.json({ data: toChannels(await schoolChannels(db, c.var.auth.institutionId)) });
  });

  app.get(COMPOSE_API.permissions, auth, async (c) => {
    return c.json({ data: toPermission(await userChannels(db, c.var.auth.userId)) });
  });

  // The picker's data is large and changes rarely: an ETag lets the browser revalidate it with a 304.
  app.get(COMPOSE_API.recipients, auth, etag(), async (c) => {
    const data = await loadRecipients(db, c.var.auth.institutionId);
    c.header('Cache-Control', 'private, no-cache');
    return c.json({ data });
  });

  app.get(COMPOSE_API.recipientLists, auth, async (c) => {
    const page = intParam(c.req.query('page'), 1, MAX_PAGE);
    const perPage = intParam(c.req.query('per_page'), DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const errors: Record<string, string[]> = {};
    if (page === null) errors.page = [VALIDATION.page];
    if (perPage === null) errors.per_page = [VALIDATION.perPage];
    if (page === null || perPage === null) return invalid(c, errors);

    const { items, total } = await listRecipientLists(db, c.var.auth.userId, c.var.auth.institutionId, page, perPage);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const body: NumberedPage<RecipientList> = {
      data: items,
      meta: { current_page: page, last_page: lastPage, per_page: perPage, total },
      links: {
        next: page < lastPage ? listsLink(page + 1, perPage) : null,
        // Past the end, "previous" is the last real page, so a stale link still leads somewhere useful.
        prev: page > 1 ? listsLink(Math.min(page - 1, lastPage), perPage) : null,
      },
    };
    return c.json(body);
  });

  app.get(`${COMPOSE_API.recipientLists}/:id/users`, auth, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const users = await listUsers(db, c.var.auth.userId, c.var.auth.institutionId, id);
    return users ? c.json({ data: users }) : notFound(c);
  });

  app.get(COMPOSE_API.signatures, auth, async (c) => c.json({ data: await listSignatures(db, c.var.auth.institutionId) }));

  app.patch(`${COMPOSE_API.signatures}/:id`, auth, requireRole(...ADMIN_ROLES).withMessage(VALIDATION.forbidden), async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const body = await readJson(c);
    const { signature, is_active: isActive } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = {};
    const text = typeof signature === 'string' ? signature.trim() : '';
    // Counted in characters as people see them, not UTF-16 units.
    const length = [...text].length;
    if (length < SIGNATURE_MIN || length > SIGNATURE_MAX) errors.signature = [VALIDATION.signatureLength];
    else if (smsText(text, false).unsupported.length > 0 || /\s/.test(text)) errors.signature = [VALIDATION.signatureCharacters];
    if (![0, 1, true, false].includes(isActive as number | boolean)) errors.is_active = [VALIDATION.isActive];
    if (Object.keys(errors).length > 0) return invalid(c, errors);

    const updated = await updateSignature(db, c.var.auth.institutionId, id, {
      signature: text,
      isActive: isActive === 1 || isActive === true,
    });
    return updated ? c.json({ data: updated }) : notFound(c);
  });

  return app;
}
