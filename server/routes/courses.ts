// Courses of the signed-in user's school (contract `Course`; the reads are server/courses/courses.ts).
// Another school's id is a plain 404.
import { Hono } from 'hono';
import { findCourse, listCourses } from '../courses/courses';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { parseId } from '../http/params';

export function courseRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requireAuth(db));

  app.get('/', async (c) => c.json({ data: await listCourses(db, c.var.tenant) }));

  app.get('/:id', async (c) => {
    const id = parseId(c.req.param('id'));
    if (id === null) return notFound(c);
    const course = await findCourse(db, c.var.tenant, id);
    return course ? c.json({ data: course }) : notFound(c);
  });

  return app;
}
