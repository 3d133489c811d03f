// The school's people (shared/people-contract.ts PEOPLE_API), for its leadership only: the paged list with
// its search, one student's or guardian's record, correcting it (the same editor as the list member editor's),
// giving a student a guardian or taking one away, and marking a student withdrawn or enrolled again. Another
// school's person, or a guardian not linked to that student, is a 404. Rules and SQL: server/people/.
import { auditActorOf } from '../http/audit-actor';
import { recordContactsViewed } from '../audit/views';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { hasAnyRole } from '../../shared/codes';
import {
  PEOPLE_API,
  PEOPLE_KINDS,
  PEOPLE_PER_PAGE,
  PEOPLE_PER_PAGE_MAX,
  PEOPLE_Q_MAX,
  PEOPLE_STATUSES,
  type PeopleKind,
  type PeoplePage,
  type PeopleStatus,
  type PersonInput,
} from '../../shared/people-contract';
import { PEOPLE_EDITORS } from '../../shared/person-rules';
import type { Db } from '../db/client';
import { numberedPage } from '../http/pages';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound, readJson } from '../http/errors';
import type { FieldErrors } from '../http/field-errors';
import { intParam, parseId } from '../http/params';
import { editPerson } from '../people/edit';
import { addGuardian, type GuardianChange, unlinkGuardian } from '../people/guardians';
import { isSchoolCourse, pageOfPeople } from '../people/list';
import { type PeopleScope, schoolOf } from '../people/person';
import { readRecord } from '../people/record';
import { PEOPLE_MAX_PAGE, PEOPLE_MESSAGES } from '../people/texts';
import { changeStanding } from '../people/withdrawal';

const scopeOf = (c: Context<AppEnv>): PeopleScope => ({ userId: c.var.auth.userId, institutionId: c.var.auth.institutionId, ip: c.var.ip });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const EDIT_FIELDS = ['nombres', 'apellido_paterno', 'apellido_materno', 'email', 'fono_celular', 'dni', 'tipo_documento_id'] as const;

/** A query value among `allowed`: `fallback` when absent, undefined when anything else. */
function oneOf<T extends string>(raw: string | undefined, allowed: readonly T[], fallback: T | null): T | null | undefined {
  if (raw === undefined || raw === '') return fallback;
  return (allowed as readonly string[]).includes(raw) ? (raw as T) : undefined;
}

export function peopleRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const country = async (c: Context<AppEnv>) => (await schoolOf(db, c.var.auth.institutionId)).country;
  // The leadership only; the refusal in the school's words (a Mexican school reads alumnos, padres o tutores).
  const editors: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!hasAnyRole(c.var.auth.roles, PEOPLE_EDITORS)) {
      return apiError(c, 403, 'auth.forbidden', PEOPLE_MESSAGES.forbidden[await country(c)]);
    }
    await next();
  };
  // Per route, not `use('*')`: an unknown path under the prefix stays a 404 for anyone.
  const leadership = [requireAuth(db), editors] as const;

  /** The path's kind and id when well formed (a person of another kind or school is found, or not, later). */
  const personOf = (c: Context<AppEnv>): { kind: PeopleKind; id: number } | null => {
    const kind = oneOf<PeopleKind>(c.req.param('kind'), PEOPLE_KINDS, null);
    const id = parseId(c.req.param('id'));
    return kind && id !== null ? { kind, id } : null;
  };
  /** The person's record now, or 404. */
  const answerRecord = async (c: Context<AppEnv>, kind: PeopleKind, id: number, status: 200 | 201 = 200) => {
    const record = await readRecord(db, scopeOf(c), kind, id);
    return record ? c.json({ data: record }, status) : notFound(c);
  };
  const answerGuardians = (c: Context<AppEnv>, id: number, change: GuardianChange, status: 200 | 201) => {
    if (change.kind === 'not_found') return notFound(c);
    if (change.kind === 'invalid') return invalid(c, change.errors);
    return answerRecord(c, 'estudiante', id, status);
  };

  app.get('/', ...leadership, async (c) => {
    const page = intParam(c.req.query('page'), 1, PEOPLE_MAX_PAGE);
    const perPage = intParam(c.req.query('per_page'), PEOPLE_PER_PAGE, PEOPLE_PER_PAGE_MAX);
    const q = c.req.query('q') ?? '';
    const kind = oneOf<PeopleKind>(c.req.query('kind'), PEOPLE_KINDS, null);
    const status = oneOf<PeopleStatus>(c.req.query('status'), PEOPLE_STATUSES, 'enrolled');
    const rawCourse = c.req.query('course_id');
    const courseId = rawCourse === undefined || rawCourse === '' ? null : parseId(rawCourse);
    const errors: FieldErrors = {};
    if (page === null) errors.page = [PEOPLE_MESSAGES.page];
    if (perPage === null) errors.per_page = [PEOPLE_MESSAGES.perPage];
    if (q.length > PEOPLE_Q_MAX) errors.q = [PEOPLE_MESSAGES.q];
    if (kind === undefined) errors.kind = [PEOPLE_MESSAGES.kind[await country(c)]];
    if (!status) errors.status = [PEOPLE_MESSAGES.status];
    // Another school's course is no course of this one: refused like a malformed id (decision 0192).
    const courseOk = courseId !== null ? await isSchoolCourse(db, scopeOf(c), courseId) : rawCourse === undefined || rawCourse === '';
    if (!courseOk) errors.course_id = [PEOPLE_MESSAGES.course[await country(c)]];
    if (page === null || perPage === null || kind === undefined || !status || errors.q || !courseOk) return invalid(c, errors);

    const { items, total } = await pageOfPeople(db, scopeOf(c), { q, kind, status, courseId, page, perPage });
    const withContacts = items.filter((p) => p.fono_celular !== null || p.email !== null).length;
    await recordContactsViewed(db, auditActorOf(c), 'people_list', withContacts, { course_id: courseId, page });
    const params = new URLSearchParams({ status });
    if (q.trim() !== '') params.set('q', q.trim());
    if (kind) params.set('kind', kind);
    if (courseId !== null) params.set('course_id', String(courseId));
    const body: PeoplePage = numberedPage(items, total, page, perPage, PEOPLE_API.people, params);
    return c.json(body);
  });

  app.get('/:kind/:id', ...leadership, async (c) => {
    const person = personOf(c);
    return person ? answerRecord(c, person.kind, person.id) : notFound(c);
  });

  app.patch('/:kind/:id', ...leadership, async (c) => {
    const person = personOf(c);
    if (!person) return notFound(c);
    const body = await readJson(c);
    if (!isObject(body))
      return (await readRecord(db, scopeOf(c), person.kind, person.id)) ? invalid(c, { nombres: [PEOPLE_MESSAGES.nothing] }) : notFound(c);
    const input: PersonInput = {};
    for (const field of EDIT_FIELDS) if (body[field] !== undefined) (input as Record<string, unknown>)[field] = body[field];
    const result = await editPerson(db, scopeOf(c), person.kind, person.id, input);
    if (!result.ok) {
      if (result.status === 409) return apiError(c, 409, 'privacy.erased', PEOPLE_MESSAGES.erased);
      return result.status === 404 ? notFound(c) : invalid(c, result.errors);
    }
    return answerRecord(c, person.kind, person.id);
  });

  app.post('/estudiante/:id/guardians', ...leadership, async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    return answerGuardians(c, id, await addGuardian(db, scopeOf(c), id, await readJson(c)), 201);
  });

  app.delete('/estudiante/:id/guardians/:guardianId', ...leadership, async (c) => {
    const id = parseId(c.req.param('id'));
    const guardianId = parseId(c.req.param('guardianId'));
    if (id === null || guardianId === null) return notFound(c);
    return answerGuardians(c, id, await unlinkGuardian(db, scopeOf(c), id, guardianId), 200);
  });

  const standing = (withdraw: boolean) => async (c: Context<AppEnv>) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const change = await changeStanding(db, scopeOf(c), id, withdraw);
    if (change.kind === 'not_found') return notFound(c);
    if (change.kind === 'state') {
      const messages = withdraw ? PEOPLE_MESSAGES.alreadyWithdrawn : PEOPLE_MESSAGES.notWithdrawn;
      return apiError(c, 409, 'people.state', messages[await country(c)]);
    }
    return answerRecord(c, 'estudiante', id);
  };
  app.post('/estudiante/:id/withdrawal', ...leadership, standing(true));
  app.delete('/estudiante/:id/withdrawal', ...leadership, standing(false));

  return app;
}
