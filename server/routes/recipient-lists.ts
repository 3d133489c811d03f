// Saved recipient lists (shared/recipient-lists-contract.ts; the reading side compose uses is in
// compose-contract.ts): the paged lists a user can see (own and shared) and their trash, one list, its
// members and a member's person record; create from the picker's selection, rename, share, add and remove
// members, remove the stale ones, trash, restore, delete forever. A list the user cannot see is a 404
// everywhere, and so is a colleague's shared list on the calls that change it. Queries: server/recipient-lists/.
import { sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { MAX_PICKS, type NumberedPage, type RecipientPick } from '../../shared/compose-contract';
import { ADMIN_ROLES } from '../../shared/codes';
import { LIST_NAME_MAX, RECIPIENT_LISTS_API, type UserToEditInput } from '../../shared/recipient-lists-contract';
import { checkPicks, summarizeReach, parsePick } from '../recipients/expand';
import { rowsOf } from '../db/sql';
import { listUsers } from '../recipient-lists/users';
import { transactionRetrying, type Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import { intParam, parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { addPicks, editPerson, readPerson, removeMember, removeStale, touchList } from '../recipient-lists/members';
import { findList, listSummary, nameTaken, pageOfLists, scheduledUse, type ListScope, type ListWhere } from '../recipient-lists/queries';
import { inZone } from '../db/time';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** Far beyond any real number of lists; keeps OFFSET and the link arithmetic in safe integers. */
const MAX_PAGE = 100_000;
const Q_MAX = 100;

export const LIST_MESSAGES = {
  page: `La página debe ser un número entero entre 1 y ${MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${MAX_PER_PAGE}.`,
  q: `La búsqueda puede tener hasta ${Q_MAX} caracteres.`,
  name: 'Escribe un nombre para la lista.',
  nameLong: `El nombre de la lista puede tener hasta ${LIST_NAME_MAX} caracteres.`,
  nameTaken: 'Ya tienes una lista con ese nombre. Elige otro.',
  shared: 'Indica si la lista se comparte con el equipo del colegio (sí o no).',
  picks: 'Elige a quiénes incluir en la lista.',
  picksInvalid: 'Los destinatarios elegidos no son válidos.',
  picksMany: `No se pueden elegir más de ${MAX_PICKS} destinatarios a la vez.`,
  picksEmpty: 'Los grupos elegidos no tienen personas: elige otros destinatarios.',
  nothing: 'No hay cambios que guardar.',
  staffEdit: 'Solo la dirección o la administración del colegio puede cambiar los datos de un funcionario.',
  personSaved: (name: string) =>
    `Datos de ${name} actualizados. El cambio se aplica en todas las listas y en los próximos mensajes.`,
  scheduled: (title: string, when: string, author: string | null) =>
    `No puedes eliminar esta lista: la usa el mensaje programado «${title}»${author ? ` de ${author}` : ''} para el ${when}. ` +
    (author ? 'Pide que cancelen esa programación y vuelve a intentarlo.' : 'Cancela esa programación y vuelve a intentarlo.'),
} as const;

const scopeOf = (c: Context<AppEnv>): ListScope => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId });

/** `name` of a body: trimmed, 1–80 characters; or its field error. */
function parseName(raw: unknown): { ok: true; name: string } | { ok: false; error: string } {
  const name = typeof raw === 'string' ? raw.trim().replace(/\s+/g, ' ') : '';
  if (name === '') return { ok: false, error: LIST_MESSAGES.name };
  if (name.length > LIST_NAME_MAX) return { ok: false, error: LIST_MESSAGES.nameLong };
  return { ok: true, name };
}

/** `picks` of a body: one or more well-formed picks, each id of this school, each list visible to the user. */
async function parsePicks(db: Db, scope: ListScope, raw: unknown): Promise<{ ok: true; picks: RecipientPick[] } | { ok: false; error: string }> {
  if (!Array.isArray(raw) || raw.length === 0) return { ok: false, error: Array.isArray(raw) ? LIST_MESSAGES.picks : LIST_MESSAGES.picksInvalid };
  if (raw.length > MAX_PICKS) return { ok: false, error: LIST_MESSAGES.picksMany };
  const picks = raw.map(parsePick);
  if (picks.some((p) => p === null)) return { ok: false, error: LIST_MESSAGES.picksInvalid };
  const checked = await checkPicks(db, scope, picks as RecipientPick[]);
  if (!checked.ok) return { ok: false, error: checked.message };
  return { ok: true, picks: picks as RecipientPick[] };
}

/** Whether picks that added nobody reach nobody at all (empty groups), rather than only people already in. */
const reachesNobody = async (db: Db, scope: ListScope, picks: RecipientPick[]) => (await summarizeReach(db, scope, picks)).recipients === 0;

/** Thrown inside the create transaction to undo a list that would have no members. */
class EmptyList extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function recipientListRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Auth per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone, as it always was.
  const auth = requireAuth(db);
  /** The path's list id when `where` finds it for the signed-in user; null answers 404. */
  const listIn = async (c: Context<AppEnv>, where: ListWhere): Promise<number | null> => {
    const id = parseId(c.req.param('id'));
    return id !== null && (await findList(db, scopeOf(c), id, where)) ? id : null;
  };

  /** The paged lists (visible or trashed) with `q`; links keep `q` and `per_page`. */
  const paged = (where: 'visible' | 'trashed', path: string) => async (c: Context<AppEnv>) => {
    const page = intParam(c.req.query('page'), 1, MAX_PAGE);
    const perPage = intParam(c.req.query('per_page'), DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const q = c.req.query('q') ?? '';
    const errors: FieldErrors = {};
    if (page === null) errors.page = [LIST_MESSAGES.page];
    if (perPage === null) errors.per_page = [LIST_MESSAGES.perPage];
    if (q.length > Q_MAX) errors.q = [LIST_MESSAGES.q];
    if (page === null || perPage === null || errors.q) return invalid(c, errors);

    const { items, total } = await pageOfLists(db, scopeOf(c), where, q, page, perPage);
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const query = q.trim() === '' ? '' : `&q=${encodeURIComponent(q.trim())}`;
    const link = (n: number) => `/api${path}?page=${n}&per_page=${perPage}${query}`;
    const body: NumberedPage<(typeof items)[number]> = {
      data: items,
      meta: { current_page: page, last_page: lastPage, per_page: perPage, total },
      links: {
        next: page < lastPage ? link(page + 1) : null,
        // Past the end, "previous" is the last real page, so a stale link still leads somewhere useful.
        prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      },
    };
    return c.json(body);
  };

  app.get('/', auth, paged('visible', RECIPIENT_LISTS_API.lists));
  app.get('/trash', auth, paged('trashed', RECIPIENT_LISTS_API.trash));

  app.post('/', auth, async (c) => {
    const scope = scopeOf(c);
    const body = await readJson(c);
    if (!isObject(body)) return invalid(c, { name: [LIST_MESSAGES.name], picks: [LIST_MESSAGES.picks] });
    const errors: FieldErrors = {};
    const name = parseName(body.name);
    if (!name.ok) errors.name = [name.error];
    else if (await nameTaken(db, scope, name.name, null)) errors.name = [LIST_MESSAGES.nameTaken];
    if (body.shared !== undefined && typeof body.shared !== 'boolean') errors.shared = [LIST_MESSAGES.shared];
    const picks = await parsePicks(db, scope, body.picks);
    if (!picks.ok) errors.picks = [picks.error];
    if (!name.ok || !picks.ok || hasFieldErrors(errors)) return invalid(c, errors);

    let id: number;
    try {
      id = await transactionRetrying(db, async (tx) => {
        const result = await tx.execute(sql`
          insert into recipient_lists (institution_id, owner_user_id, name, shared)
          values (${scope.institutionId}, ${scope.userId}, ${name.name}, ${body.shared === true}) returning id`);
        const listId = Number(rowsOf<{ id: number }>(result)[0]!.id);
        // The groups picked have nobody in them: no list (one expansion, not a dry run before the real one).
        if ((await addPicks(tx, scope, listId, picks.picks)) === 0) throw new EmptyList();
        return listId;
      });
    } catch (error) {
      if (error instanceof EmptyList) return invalid(c, { picks: [LIST_MESSAGES.picksEmpty] });
      throw error;
    }
    return c.json({ data: await listSummary(db, scope, id, 'owned') }, 201);
  });

  app.get('/:id', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    const summary = id === null ? null : await listSummary(db, scopeOf(c), id, 'visible');
    return summary ? c.json({ data: summary }) : notFound(c);
  });

  app.patch('/:id', auth, async (c) => {
    const scope = scopeOf(c);
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    const body = await readJson(c);
    if (!isObject(body) || (body.name === undefined && body.shared === undefined)) return invalid(c, { name: [LIST_MESSAGES.nothing] });
    const errors: FieldErrors = {};
    let name: string | undefined;
    if (body.name !== undefined) {
      const parsed = parseName(body.name);
      if (!parsed.ok) errors.name = [parsed.error];
      else if (await nameTaken(db, scope, parsed.name, id)) errors.name = [LIST_MESSAGES.nameTaken];
      else name = parsed.name;
    }
    if (body.shared !== undefined && typeof body.shared !== 'boolean') errors.shared = [LIST_MESSAGES.shared];
    if (hasFieldErrors(errors)) return invalid(c, errors);
    await db.execute(sql`
      update recipient_lists set updated_at = now()
        ${name === undefined ? sql`` : sql`, name = ${name}`}
        ${body.shared === undefined ? sql`` : sql`, shared = ${body.shared as boolean}`}
      where id = ${id}`);
    return c.json({ data: await listSummary(db, scope, id, 'owned') });
  });

  app.delete('/:id', auth, async (c) => {
    const scope = scopeOf(c);
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    const use = await scheduledUse(db, scope, id);
    if (use) {
      const message = LIST_MESSAGES.scheduled(use.title, inZone(use.scheduledAt, use.timezone), use.byOwner ? null : use.authorName);
      return apiError(c, 409, 'list.scheduled', message, { list: [message], ...(use.messageId !== null ? { message_id: [String(use.messageId)] } : {}) });
    }
    await db.execute(sql`
      update recipient_lists set deleted_at = now(), deleted_by_user_id = ${scope.userId}
      where id = ${id} and deleted_at is null`);
    return c.body(null, 204);
  });

  app.post('/:id/restore', auth, async (c) => {
    const scope = scopeOf(c);
    const id = await listIn(c, 'trashed');
    if (id === null) return notFound(c);
    await db.execute(sql`update recipient_lists set deleted_at = null, deleted_by_user_id = null where id = ${id}`);
    return c.json({ data: await listSummary(db, scope, id, 'owned') });
  });

  app.delete('/:id/forever', auth, async (c) => {
    const id = await listIn(c, 'trashed');
    if (id === null) return notFound(c);
    await db.execute(sql`delete from recipient_lists where id = ${id} and deleted_at is not null`);
    return c.body(null, 204);
  });

  app.get('/:id/users', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const users = await listUsers(db, c.var.auth.userId, c.var.auth.institutionId, id);
    return users ? c.json({ data: users }) : notFound(c);
  });

  app.post('/:id/members', auth, async (c) => {
    const scope = scopeOf(c);
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    const body = await readJson(c);
    const picks = await parsePicks(db, scope, isObject(body) ? body.picks : undefined);
    if (!picks.ok) return invalid(c, { picks: [picks.error] });
    const added = await transactionRetrying(db, async (tx) => {
      const n = await addPicks(tx, scope, id, picks.picks);
      if (n > 0) await touchList(tx, id);
      return n;
    });
    // Nobody new is fine when they were all in the list already; picks of empty groups are a mistake to say.
    if (added === 0 && (await reachesNobody(db, scope, picks.picks))) return invalid(c, { picks: [LIST_MESSAGES.picksEmpty] });
    return c.json({ data: await listSummary(db, scope, id, 'owned') });
  });

  app.post('/:id/members/remove-stale', auth, async (c) => {
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    const removed = await transactionRetrying(db, async (tx) => {
      const n = await removeStale(tx, id);
      if (n > 0) await touchList(tx, id);
      return n;
    });
    return c.json({ data: { removed } });
  });

  app.delete('/:id/members/:memberId', auth, async (c) => {
    const memberId = parseId(c.req.param('memberId'));
    const id = memberId === null ? null : await listIn(c, 'owned');
    if (id === null || memberId === null) return notFound(c);
    const removed = await transactionRetrying(db, async (tx) => {
      const ok = await removeMember(tx, id, memberId);
      if (ok) await touchList(tx, id);
      return ok;
    });
    return removed ? c.body(null, 204) : notFound(c);
  });

  app.get('/:id/users/:memberId', auth, async (c) => {
    const scope = scopeOf(c);
    const memberId = parseId(c.req.param('memberId'));
    const id = memberId === null ? null : await listIn(c, 'visible');
    if (id === null || memberId === null) return notFound(c);
    const person = await readPerson(db, scope, id, memberId);
    return person ? c.json({ data: person }) : notFound(c);
  });

  const staffEditors = requireRole(...ADMIN_ROLES).withMessage(LIST_MESSAGES.staffEdit);
  app.patch('/:id/users/:memberId', auth, async (c) => {
    const scope = scopeOf(c);
    const memberId = parseId(c.req.param('memberId'));
    const id = memberId === null ? null : await listIn(c, 'owned');
    if (id === null || memberId === null) return notFound(c);
    const person = await readPerson(db, scope, id, memberId);
    if (!person) return notFound(c);
    // A colleague's record is the school's staff file: only the leadership changes it.
    if (person.user_type === 'funcionario') {
      const denied = await staffEditors(c, async () => {});
      if (denied) return denied;
    }
    const body = await readJson(c);
    if (!isObject(body)) return invalid(c, { nombres: [LIST_MESSAGES.nothing] });
    const input: UserToEditInput = {};
    for (const field of ['nombres', 'apellido_paterno', 'email', 'fono_celular', 'dni', 'tipo_documento_id'] as const) {
      if (body[field] !== undefined) (input as Record<string, unknown>)[field] = body[field];
    }
    const result = await editPerson(db, scope, id, memberId, input);
    if (!result.ok) return result.status === 404 ? notFound(c) : invalid(c, result.errors);
    return c.json({ data: result.person, message: LIST_MESSAGES.personSaved(result.person.name) });
  });

  return app;
}
