// Tenant isolation: a user only ever sees their own school's rows; other schools' ids do not exist for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Course } from '../../shared/contract';
import { institutions } from '../../server/db/schema/institutions';
import { courses } from '../../server/db/schema/school';
import { DEMO_SCHOOLS } from '../../shared/demo';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let sanAndres: Client;
let elqui: Client;
let elquiCourseId: number;

beforeAll(async () => {
  server = await startServer();
  sanAndres = server.client();
  elqui = server.client();
  expect((await sanAndres.login('docente@sanandres.cl')).status).toBe(200);
  expect((await elqui.login('administrador@liceoelqui.cl')).status).toBe(200);
  const [row] = await server.handle.db
    .select({ id: courses.id })
    .from(courses)
    .innerJoin(institutions, eq(institutions.id, courses.institutionId))
    .where(eq(institutions.name, DEMO_SCHOOLS.elqui))
    .limit(1);
  elquiCourseId = row!.id;
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/courses', () => {
  it('lists only the school’s own courses, in level order, with student counts', async () => {
    const res = await sanAndres.get('/api/courses');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Course[] };
    expect(data).toHaveLength(28);
    expect(data[0]).toEqual({
      id: expect.any(Number),
      nombre: 'Pre-kínder A',
      grupo_type: 'curso',
      level: { id: expect.any(Number), nombre: 'Pre-kínder' },
      students_count: expect.any(Number),
    });
    expect(data.at(-1)!.nombre).toBe('IV Medio B');
    expect(data.map((c) => c.nombre)).toContain('III Medio B');
    expect(data.map((c) => c.id)).not.toContain(elquiCourseId);
    const total = data.reduce((sum, c) => sum + c.students_count, 0);
    expect(total).toBe(800);
    for (const c of data) expect(c.students_count).toBeGreaterThan(15);
  });

  it('another school sees its own, different list', async () => {
    const { data } = (await (await elqui.get('/api/courses')).json()) as { data: Course[] };
    expect(data.map((c) => c.nombre)).toEqual(['7° Básico A', '8° Básico A', 'I Medio A', 'II Medio A', 'III Medio A', 'IV Medio A']);
    expect(data.map((c) => c.id)).toContain(elquiCourseId);
  });
});

describe('GET /api/courses/:id', () => {
  it('answers the own school’s course', async () => {
    const res = await elqui.get(`/api/courses/${elquiCourseId}`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Course };
    expect(data.id).toBe(elquiCourseId);
    expect(data.nombre).toBe('7° Básico A');
    expect(data.students_count).toBeGreaterThan(0);
  });

  it('answers 404 not_found (never 403) for another school’s course', async () => {
    const res = await sanAndres.get(`/api/courses/${elquiCourseId}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'El recurso solicitado no existe.', code: 'not_found' });
  });

  it('answers 404 for ids that do not exist or are not ids', async () => {
    for (const id of ['999999', '0', '-1', 'abc', '1.5', '99999999999']) {
      expect((await sanAndres.get(`/api/courses/${id}`)).status, id).toBe(404);
    }
  });

  it('requires a session', async () => {
    expect((await server.client().get(`/api/courses/${elquiCourseId}`)).status).toBe(401);
  });
});
