// The course a student had in a school year: the roster import records it (enrolments) as a new year moves
// students to other courses. A year without its own record reads the next recorded one (what the student
// had when that year was read live), and after the last one the course now. What reads the past
// (reception, dashboards, rankings) names courses through this, so last year keeps its courses.
import { sql, type SQL } from 'drizzle-orm';

/** The course id of student `s` (a `students` alias) in school year `year` (a smallint expression or value). */
export function courseInYear(s: SQL, year: SQL | number | null): SQL {
  if (year === null) return sql`${s}.course_id`;
  return sql`coalesce((select e.course_id from enrolments e where e.student_id = ${s}.id and e.school_year >= ${year}
    order by e.school_year limit 1), ${s}.course_id)`;
}
