// Applies a previewed import in one transaction, all or nothing: re-reads the roster, refuses when it is not
// what the preview saw, recomputes the same plan (plan.ts) and writes it with set-based statements of up to
// WRITE_BATCH rows per table (rows travel as one jsonb parameter), so a 3,000-student school is a few dozen
// statements, with its progress told after each.
import { sql } from 'drizzle-orm';
import { fold } from '../../shared/fold';
import { type FieldChange, ROSTER_PROGRESS_EVERY, type RosterRow } from '../../shared/roster-contract';
import { recordAudit } from '../audit/record';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { CONTACT_FIELDS, courseKey, planImport, ROLE_FIELD, type GuardianValues, type Plan, type StudentValues } from './plan';
import { NO_REPORT, phaseOf, type RosterReport } from './progress';
import { loadSnapshot, rosterStamp, type RosterSnapshot } from './snapshot';

export interface RosterScope {
  /** Null for the operators' command line (no one signed in). */
  userId: number | null;
  institutionId: number;
  /** The caller's address, for the audit log; absent on the command line. */
  ip?: string | null;
}

export type ConflictChoices = Record<string, 'keep' | 'file'>;

export type ApplyOutcome =
  | { kind: 'done' }
  | { kind: 'not_found' }
  | { kind: 'state' }
  | { kind: 'stale' }
  | { kind: 'conflicts'; missing: string[] };

/** A field of the contract's changes → its column. */
const COLUMN = {
  nombres: 'first_names',
  apellido_paterno: 'last_name_father',
  apellido_materno: 'last_name_mother',
  email: 'email',
  fono_celular: 'phone',
  dni: 'dni',
} as const;
type ContactField = keyof typeof COLUMN;
const isContactField = (field: string): field is ContactField => (CONTACT_FIELDS as readonly string[]).includes(field);
/** A student's standing and guardians' roles: recorded as the import's too, so a file that won them keeps them. */
const STUDENT_FIELDS = new Set(['estado', 'titular', 'suplente']);

/** Rows per statement: apply tells its progress after each, and one statement's jsonb stays a few hundred kB. */
const WRITE_BATCH = ROSTER_PROGRESS_EVERY;

/** Rows as one parameter, read back as a relation: `from ${records(rows)} as v(id int, name text)`. */
const records = (rows: object[]) => sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`;

/** The values to write once the administrator's "keep" choices put Hermes' value back. */
function chosen<T extends StudentValues | GuardianValues>(
  kind: 'student' | 'guardian',
  id: number,
  values: T,
  changes: FieldChange[],
  choices: ConflictChoices,
): { values: T; applied: FieldChange[] } {
  const kept: Partial<Record<(typeof COLUMN)[ContactField], string | null>> = {};
  const applied: FieldChange[] = [];
  for (const c of changes) {
    if (c.manual && choices[`${kind}:${id}:${c.field}`] === 'keep') {
      if (isContactField(c.field)) kept[COLUMN[c.field]] = c.from;
    } else applied.push(c);
  }
  return { values: { ...values, ...kept }, applied };
}

/** Ids from the table's identity sequence, taken before inserting so links can name new rows. */
async function newIds(tx: Queryable, table: 'students' | 'guardians', n: number): Promise<number[]> {
  if (n === 0) return [];
  const result = await tx.execute(sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${n})`);
  return rowsOf<{ id: number }>(result).map((r) => Number(r.id));
}

/** Levels and courses the file names that the school does not have yet; every course key → its id. */
async function writeCourses(tx: Queryable, institutionId: number, snapshot: RosterSnapshot, plan: Plan): Promise<Map<string, number>> {
  const ids = new Map(snapshot.courses.map((c) => [courseKey(c.name), c.id]));
  if (plan.newCourses.length === 0) return ids;
  const levelIds = new Map(snapshot.levels.map((l) => [fold(l.name), l.id]));
  const taken = new Set(snapshot.levels.map((l) => l.position));
  const newLevels = new Map<string, { name: string; position: number }>();
  for (const c of plan.newCourses) {
    const key = fold(c.level);
    if (levelIds.has(key) || newLevels.has(key)) continue;
    // The country's order when free; after the school's own levels otherwise (the school orders them).
    let position = c.position;
    if (taken.has(position)) position = Math.max(-1, ...taken) + 1;
    taken.add(position);
    newLevels.set(key, { name: c.level, position });
  }
  if (newLevels.size > 0) {
    const inserted = await tx.execute(sql`
      insert into levels (institution_id, name, position)
      select ${institutionId}, v.name, v.position from ${records([...newLevels.values()])} as v(name text, position smallint)
      returning id, name`);
    for (const r of rowsOf<{ id: number; name: string }>(inserted)) levelIds.set(fold(r.name), Number(r.id));
  }
  const courses = plan.newCourses.map((c) => ({ name: c.name, level_id: levelIds.get(fold(c.level))! }));
  const inserted = await tx.execute(sql`
    insert into courses (institution_id, level_id, name)
    select ${institutionId}, v.level_id, v.name from ${records(courses)} as v(name text, level_id int)
    returning id, name`);
  for (const r of rowsOf<{ id: number; name: string }>(inserted)) ids.set(courseKey(r.name), Number(r.id));
  return ids;
}

export async function applyImport(
  db: Queryable,
  scope: RosterScope,
  importId: number,
  choices: ConflictChoices,
  calendarYear: number,
  report: RosterReport = NO_REPORT,
): Promise<ApplyOutcome> {
  return db.transaction(async (tx) => {
    // One import at a time per school: the second waits here and then finds the roster changed.
    await tx.execute(sql`select id from institutions where id = ${scope.institutionId} for update`);
    const [record] = rowsOf<{ state: string; rows: RosterRow[]; roster_stamp: string; school_year: number }>(
      await tx.execute(sql`
        select state, rows, roster_stamp, school_year from roster_imports
        where id = ${importId} and institution_id = ${scope.institutionId} for update`),
    );
    if (!record) return { kind: 'not_found' };
    if (record.state !== 'previewed') return { kind: 'state' };
    if ((await rosterStamp(tx, scope.institutionId)) !== record.roster_stamp) return { kind: 'stale' };
    const rows: RosterRow[] = typeof record.rows === 'string' ? JSON.parse(record.rows) : record.rows;
    const schoolYear = Number(record.school_year);

    const snapshot = await loadSnapshot(tx, scope.institutionId, calendarYear);
    const plan = planImport(snapshot, rows);
    const missing = plan.conflicts.filter((key) => choices[key] !== 'keep' && choices[key] !== 'file');
    if (missing.length > 0) return { kind: 'conflicts', missing };

    const courseIds = await writeCourses(tx, scope.institutionId, snapshot, plan);
    const contactRecords: { kind: 'estudiante' | 'apoderado'; id: number; field: string; from: string | null; to: string | null }[] = [];

    // A new school year: what the students had until now stays recorded as the year that ends.
    if (schoolYear > snapshot.currentYear) {
      await tx.execute(sql`
        insert into enrolments (student_id, school_year, institution_id, course_id)
        select id, ${snapshot.currentYear}, institution_id, course_id from students where institution_id = ${scope.institutionId}
        on conflict (student_id, school_year) do nothing`);
    }

    // Every row to send is known before the first is written, so the progress has its total from the start.
    // Students.
    const newStudentIds = await newIds(tx, 'students', plan.students.filter((s) => s.id === null).length);
    let next = 0;
    const studentIds = plan.students.map((s) => s.id ?? newStudentIds[next++]!);
    const studentRow = (id: number, v: StudentValues) => ({
      id,
      course_id: courseIds.get(v.course_key)!,
      first_names: v.first_names,
      last_name_father: v.last_name_father,
      last_name_mother: v.last_name_mother,
      dni: v.dni,
      document_type: v.document_type,
      birth_date: v.birth_date,
      email: v.email,
    });
    const studentColumns = sql`id int, course_id int, first_names text, last_name_father text, last_name_mother text, dni text,
      document_type smallint, birth_date date, email text`;
    const inserts = plan.students.flatMap((s, i) => (s.id === null ? [studentRow(studentIds[i]!, s.values)] : []));
    // A standing set by hand that the administrator chose to keep (decision 0193): withdrawn stays withdrawn
    // whatever else of theirs the file changes, enrolled stays enrolled though the file leaves them out.
    const keeps = (id: number, field: string) =>
      plan.conflicts.includes(`student:${id}:${field}`) && choices[`student:${id}:${field}`] === 'keep';
    const keepsStanding = (id: number) => keeps(id, 'estado');
    const updates = plan.students.flatMap((s) => {
      if (s.id === null) return [];
      const { values, applied } = chosen('student', s.id, s.values, s.changes, choices);
      // The standing too: a withdrawal or re-enrolment by hand that the file won is the file's from then on.
      for (const c of applied)
        if (isContactField(c.field) || STUDENT_FIELDS.has(c.field)) contactRecords.push({ kind: 'estudiante', id: s.id, ...c });
      return applied.some((c) => c.field !== 'titular' && c.field !== 'suplente')
        ? [{ ...studentRow(s.id, values), stays_withdrawn: s.rejoins && keepsStanding(s.id) }]
        : [];
    });
    const withdraw = plan.withdraw.filter((id) => !keepsStanding(id));
    for (const id of withdraw) contactRecords.push({ kind: 'estudiante', id, field: 'estado', from: 'matriculado', to: 'retirado' });

    // Guardians.
    const newGuardianIds = await newIds(tx, 'guardians', plan.guardians.filter((g) => g.id === null).length);
    next = 0;
    const guardianIds = plan.guardians.map((g) => g.id ?? newGuardianIds[next++]!);
    const guardianRow = (id: number, v: GuardianValues) => ({ id, ...v });
    const guardianColumns = sql`id int, first_names text, last_name_father text, last_name_mother text, dni text, document_type smallint,
      phone text, email text`;
    const newGuardians = plan.guardians.flatMap((g, i) => (g.id === null ? [guardianRow(guardianIds[i]!, g.values)] : []));
    const changedGuardians = plan.guardians.flatMap((g) => {
      if (g.id === null || g.changes.length === 0) return [];
      const { values, applied } = chosen('guardian', g.id, g.values, g.changes, choices);
      for (const c of applied) if (isContactField(c.field)) contactRecords.push({ kind: 'apoderado', id: g.id, ...c });
      return applied.length > 0 ? [guardianRow(g.id, values)] : [];
    });

    // Who is whose: the file's guardian of a role replaces the one Hermes had in it.
    // A family corrected by hand and kept (decision 0193): that role is not written.
    const links = plan.links
      .filter((l) => plan.linksChanged.has(l.student) && !keeps(studentIds[l.student]!, ROLE_FIELD[l.role]))
      .map((l) => ({
        student_id: studentIds[l.student]!,
        guardian_id: guardianIds[l.guardian]!,
        role: l.role,
        relationship: l.relationship,
      }));
    // The course of this school year; an unchanged one is not written again.
    const enrolled = plan.students.map((s, i) => ({ student_id: studentIds[i]!, course_id: courseIds.get(s.values.course_key)! }));

    const batches = [inserts, updates, withdraw, newGuardians, changedGuardians, links, enrolled, contactRecords];
    const wrote = await phaseOf(
      'writing',
      batches.reduce((sum, rows) => sum + rows.length, 0),
      report,
    );
    const inBatches = async <T>(rows: T[], write: (batch: T[]) => Promise<unknown>, counted = true) => {
      for (let i = 0; i < rows.length; i += WRITE_BATCH) {
        const batch = rows.slice(i, i + WRITE_BATCH);
        await write(batch);
        if (counted) await wrote(batch.length);
      }
    };

    await inBatches(inserts, (batch) =>
      tx.execute(sql`
        insert into students (id, institution_id, course_id, first_names, last_name_father, last_name_mother, dni, document_type, birth_date, email)
        select v.id, ${scope.institutionId}, v.course_id, v.first_names, v.last_name_father, v.last_name_mother, v.dni, v.document_type,
          v.birth_date, v.email
        from ${records(batch)} as v(${studentColumns})`),
    );
    await inBatches(updates, (batch) =>
      tx.execute(sql`
        update students s set course_id = v.course_id, first_names = v.first_names, last_name_father = v.last_name_father,
          last_name_mother = v.last_name_mother, dni = v.dni, document_type = v.document_type, birth_date = v.birth_date,
          email = v.email, withdrawn_at = case when v.stays_withdrawn then s.withdrawn_at end
        from ${records(batch)} as v(${studentColumns}, stays_withdrawn boolean)
        where s.id = v.id and s.institution_id = ${scope.institutionId}`),
    );
    await inBatches(withdraw, (batch) =>
      tx.execute(sql`
        update students set withdrawn_at = now()
        where institution_id = ${scope.institutionId} and id in (select value::int from jsonb_array_elements_text(${JSON.stringify(batch)}::jsonb))`),
    );
    await inBatches(newGuardians, (batch) =>
      tx.execute(sql`
        insert into guardians (id, institution_id, first_names, last_name_father, last_name_mother, dni, document_type, phone, email)
        select v.id, ${scope.institutionId}, v.first_names, v.last_name_father, v.last_name_mother, v.dni, v.document_type, v.phone, v.email
        from ${records(batch)} as v(${guardianColumns})`),
    );
    // A new number starts its device record afresh, as the member editor does, and the phones that signed in
    // with the old one get no more pushes of this family (their app sessions stop at the next call).
    await inBatches(changedGuardians, async (batch) => {
      await tx.execute(sql`
        delete from push_subscriptions ps using ${records(batch)} as v(${guardianColumns}), guardians g
        where g.id = v.id and g.institution_id = ${scope.institutionId} and ps.guardian_id = g.id and g.phone is distinct from v.phone`);
      return tx.execute(sql`
        update guardians g set first_names = v.first_names, last_name_father = v.last_name_father, last_name_mother = v.last_name_mother,
          dni = v.dni, document_type = v.document_type, email = v.email, phone = v.phone,
          device_misses = case when g.phone is distinct from v.phone then 0 else g.device_misses end
        from ${records(batch)} as v(${guardianColumns})
        where g.id = v.id and g.institution_id = ${scope.institutionId}`);
    });
    // Every old link goes before any new one comes, as one statement each would (a batch must not delete the
    // link an earlier batch just wrote); the links are counted once, as they are written.
    const linkColumns = sql`student_id int, guardian_id int, role smallint, relationship text`;
    await inBatches(
      links,
      (batch) =>
        tx.execute(sql`
          delete from student_guardians sg using ${records(batch)} as v(${linkColumns})
          where sg.student_id = v.student_id and (sg.role = v.role or sg.guardian_id = v.guardian_id)`),
      false,
    );
    await inBatches(links, (batch) =>
      tx.execute(sql`
        insert into student_guardians (student_id, guardian_id, role, relationship)
        select v.student_id, v.guardian_id, v.role, v.relationship from ${records(batch)} as v(${linkColumns})`),
    );
    await inBatches(enrolled, (batch) =>
      tx.execute(sql`
        insert into enrolments (student_id, school_year, institution_id, course_id)
        select v.student_id, ${schoolYear}, ${scope.institutionId}, v.course_id from ${records(batch)} as v(student_id int, course_id int)
        on conflict (student_id, school_year) do update set course_id = excluded.course_id
        where enrolments.course_id <> excluded.course_id`),
    );
    // Recorded as this import's, so the next preview does not take them for an administrator's corrections.
    await inBatches(contactRecords, (batch) =>
      tx.execute(sql`
        insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value, changed_by, roster_import_id)
        select ${scope.institutionId}, v.kind, v.id, v.field, v."from", v."to", ${scope.userId}::int, ${importId}
        from ${records(batch)} as v(kind text, id int, field text, "from" text, "to" text)`),
    );
    await tx.execute(sql`update roster_imports set state = 'applied', applied_at = now() where id = ${importId}`);
    // One entry for the whole import, with its counts: the people it touched are in contact_changes.
    await recordAudit(
      tx,
      { institutionId: scope.institutionId, actorUserId: scope.userId, ip: scope.ip ?? null },
      {
        action: 'roster.imported',
        subject: { kind: 'importacion', id: importId },
        detail: {
          school_year: schoolYear,
          students_added: inserts.length,
          students_changed: updates.length,
          students_withdrawn: withdraw.length,
          guardians_added: newGuardians.length,
          guardians_changed: changedGuardians.length,
          courses_added: plan.newCourses.length,
          links_written: links.length,
        },
      },
    );
    return { kind: 'done' };
  });
}
