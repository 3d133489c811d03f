// Courses of the signed-in user's school (contract `Course`), scoped through the request's tenant: another
// school's course is simply not found.
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Course } from '../../shared/contract';
import type { Db } from '../db/client';
import { courses, levels, students } from '../db/schema/school';
import type { Tenant } from '../http/tenant';

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

/** The school's courses, by level then name. */
export async function listCourses(db: Db, tenant: Tenant): Promise<Course[]> {
  return (await selectCourses(db, tenant)).map(toCourse);
}

/** One course of the school, or null. */
export async function findCourse(db: Db, tenant: Tenant, id: number): Promise<Course | null> {
  const [row] = await selectCourses(db, tenant, eq(courses.id, id));
  return row ? toCourse(row) : null;
}
