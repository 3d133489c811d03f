// Saved recipient lists (shared/recipient-lists-contract.ts, the contract compose's picker reads too): the
// paged lists a user can see (own and shared) and their trash, one list, its members and a member's person
// record; create from the picker's selection, rename, share, add and remove members, remove the stale ones,
// trash, restore, delete forever. A list the user cannot see is a 404 everywhere, and so is a colleague's
// shared list on the calls that change it. Reads, rules and writes: server/recipient-lists/.
import { auditActorOf } from '../http/audit-actor';
import { recordContactsViewed } from '../audit/views';
import { Hono, type Context } from 'hono';
import { hasAnyRole } from '../../shared/codes';
import { PEOPLE_EDITORS } from '../../shared/person-rules';
import { RECIPIENT_LISTS_API, type NumberedPage, type UserToEditInput } from '../../shared/recipient-lists-contract';
import type { Db } from '../db/client';
import { numberedPage } from '../http/pages';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import type { FieldErrors } from '../http/field-errors';
import { intParam, parseId } from '../http/params';
import { requireRole } from '../http/roles';
import { parseCorrectionNote, requestCorrection } from '../recipient-lists/correction';
import { editPerson, readPerson, schoolCountry } from '../recipient-lists/members';
import { findList, listSummary, pageOfLists, type ListScope, type ListWhere } from '../recipient-lists/queries';
import { PEOPLE_MESSAGES } from '../people/texts';
import { DEFAULT_PER_PAGE, LIST_MESSAGES, MAX_PAGE, MAX_PER_PAGE, Q_MAX } from '../recipient-lists/texts';
import { listUsers } from '../recipient-lists/users';
import {
  addMembers,
  changeList,
  createList,
  deleteListForever,
  removeListMember,
  removeStaleMembers,
  restoreList,
  trashList,
  type ListChange,
} from '../recipient-lists/write';

const scopeOf = (c: Context<AppEnv>): ListScope => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A change's answer: the list's summary, or 422 with its field errors. */
const answer = (c: Context<AppEnv>, change: ListChange, status: 200 | 201 = 200) =>
  change.kind === 'invalid' ? invalid(c, change.errors) : c.json({ data: change.list }, status);

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
    const params = new URLSearchParams(q.trim() === '' ? {} : { q: q.trim() });
    const body: NumberedPage<(typeof items)[number]> = numberedPage(items, total, page, perPage, path, params);
    return c.json(body);
  };

  app.get('/', auth, paged('visible', RECIPIENT_LISTS_API.lists));
  app.get('/trash', auth, paged('trashed', RECIPIENT_LISTS_API.trash));

  app.post('/', auth, async (c) => answer(c, await createList(db, scopeOf(c), await readJson(c)), 201));

  app.get('/:id', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    const summary = id === null ? null : await listSummary(db, scopeOf(c), id, 'visible');
    return summary ? c.json({ data: summary }) : notFound(c);
  });

  app.patch('/:id', auth, async (c) => {
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    return answer(c, await changeList(db, scopeOf(c), id, await readJson(c)));
  });

  app.delete('/:id', auth, async (c) => {
    const scope = scopeOf(c);
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    const outcome = await trashList(db, scope, id);
    if (outcome.kind === 'scheduled') {
      const { message, messageId } = outcome;
      const errors = { list: [message], ...(messageId !== null ? { message_id: [String(messageId)] } : {}) };
      return apiError(c, 409, 'list.scheduled', message, errors);
    }
    return c.body(null, 204);
  });

  app.post('/:id/restore', auth, async (c) => {
    const id = await listIn(c, 'trashed');
    if (id === null) return notFound(c);
    return c.json({ data: await restoreList(db, scopeOf(c), id) });
  });

  app.delete('/:id/forever', auth, async (c) => {
    const id = await listIn(c, 'trashed');
    if (id === null) return notFound(c);
    await deleteListForever(db, id);
    return c.body(null, 204);
  });

  app.get('/:id/users', auth, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const users = await listUsers(db, c.var.auth.userId, c.var.auth.institutionId, id);
    if (!users) return notFound(c);
    await recordContactsViewed(db, auditActorOf(c), 'recipient_list', users.length, { list_id: id });
    return c.json({ data: users });
  });

  app.post('/:id/members', auth, async (c) => {
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    return answer(c, await addMembers(db, scopeOf(c), id, await readJson(c)));
  });

  app.post('/:id/members/remove-stale', auth, async (c) => {
    const id = await listIn(c, 'owned');
    if (id === null) return notFound(c);
    return c.json({ data: { removed: await removeStaleMembers(db, id) } });
  });

  app.delete('/:id/members/:memberId', auth, async (c) => {
    const memberId = parseId(c.req.param('memberId'));
    const id = memberId === null ? null : await listIn(c, 'owned');
    if (id === null || memberId === null) return notFound(c);
    return (await removeListMember(db, id, memberId)) ? c.body(null, 204) : notFound(c);
  });

  const mayEditPeople = (c: Context<AppEnv>) => hasAnyRole(c.var.auth.roles, PEOPLE_EDITORS);

  app.get('/:id/users/:memberId', auth, async (c) => {
    const scope = scopeOf(c);
    const memberId = parseId(c.req.param('memberId'));
    const id = memberId === null ? null : await listIn(c, 'visible');
    if (id === null || memberId === null) return notFound(c);
    const person = await readPerson(db, scope, id, memberId, mayEditPeople(c));
    return person ? c.json({ data: person }) : notFound(c);
  });

  // A person's record is the school's, not the list's: the leadership changes it through any list it sees,
  // and nobody else through any list (a teacher asks them; decision 0135).
  const staffEditors = requireRole(...PEOPLE_EDITORS).withMessage(LIST_MESSAGES.staffEdit);
  app.patch('/:id/users/:memberId', auth, async (c) => {
    const scope = scopeOf(c);
    const memberId = parseId(c.req.param('memberId'));
    const id = memberId === null ? null : await listIn(c, 'visible');
    if (id === null || memberId === null) return notFound(c);
    const person = await readPerson(db, scope, id, memberId, false);
    if (!person) return notFound(c);
    if (person.user_type === 'funcionario') {
      const denied = await staffEditors(c, async () => {});
      if (denied) return denied;
    } else if (!mayEditPeople(c)) {
      const country = await schoolCountry(db, scope.institutionId);
      return apiError(c, 403, 'auth.forbidden', LIST_MESSAGES.familyEdit[country]);
    }
    const body = await readJson(c);
    if (!isObject(body)) return invalid(c, { nombres: [LIST_MESSAGES.nothing] });
    const input: UserToEditInput = {};
    for (const field of ['nombres', 'apellido_paterno', 'apellido_materno', 'email', 'fono_celular', 'dni', 'tipo_documento_id'] as const) {
      if (body[field] !== undefined) (input as Record<string, unknown>)[field] = body[field];
    }
    const result = await editPerson(db, scope, id, memberId, input);
    if (!result.ok) {
      if (result.status === 409) return apiError(c, 409, 'privacy.erased', PEOPLE_MESSAGES.erased);
      return result.status === 404 ? notFound(c) : invalid(c, result.errors);
    }
    return c.json({ data: result.person, message: LIST_MESSAGES.personSaved(result.person.name) });
  });

  // «Solicitar corrección»: anyone who sees the list may ask the leadership to fix a person's data.
  app.post('/:id/users/:memberId/correction', auth, async (c) => {
    const memberId = parseId(c.req.param('memberId'));
    const id = memberId === null ? null : await listIn(c, 'visible');
    if (id === null || memberId === null) return notFound(c);
    const parsed = parseCorrectionNote(await readJson(c));
    if (!parsed.ok) return invalid(c, parsed.errors);
    const outcome = await requestCorrection(db, scopeOf(c), id, memberId, parsed.note);
    if (outcome.kind === 'not_found') return notFound(c);
    if (outcome.kind === 'invalid') return invalid(c, outcome.errors);
    return c.json({ data: { message_id: outcome.messageId }, message: outcome.message }, 201);
  });

  return app;
}
