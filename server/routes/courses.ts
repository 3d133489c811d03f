// Courses of the signed-in user's school (contract `Course`). Another school's id is a plain 404.
import { Hono } from 'hono';
import { asc, eq, sql } from 'drizzle-orm';
import type { Course } from '../../shared/contract';
import type { Db } from '../db/client';
import { courses, levels, students } from '../db/schema/school';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { parseId } from '../http/params';
import type { Tenant } from '../http/tenant';
import type { SQL } from 'drizzle-orm';

function selectCourses(db: Db, tenant: Tenant, condition?: SQL) {
  return db
    .select({
      id: courses.id,
      nombre: courses.name,
      levelId: levels.id,
      levelName: levels.name,
      studentsCount: sql<number>`(select count(*)::int from ${students} where ${students.courseId} = ${courses.id})`,
    })
    .from(courses)
    .innerJoin(levels, eq(levels.id, courses.levelId))
    .where(tenant.owns(courses, condition))
    .orderBy(asc(levels.position), asc(courses.name));
}

type CourseRow = Awaited<ReturnType<typeof selectCourses>>[number];

function toCourse(row: CourseRow): Course {
  return {
    id: row.id,
    nombre: row.nombre,
    grupo_type: 'curso',
    level: { id: row.levelId, nombre: row.levelName },
    students_count: row.studentsCount,
  };
}

export function courseRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));

  app.get('/', async (c) => {
    const rows = await selectCourses(db, c.var.tenant);
    return c.json({ data: rows.map(toCourse) });
  });

  app.get('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const [row] = await selectCourses(db, c.var.tenant, eq(courses.id, id));
    return row ? c.json({ data: toCourse(row) }) : notFound(c);
  });

  return app;
}
