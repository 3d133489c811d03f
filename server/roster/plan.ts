// What an import would do, worked out in memory from the file's valid rows and the school's roster
// (snapshot.ts): who is new, changed, unchanged or withdrawn, which fields change and which of those an
// administrator corrected by hand (a conflict to choose on). Pure: preview shows it, apply recomputes it in
// its transaction and writes it (apply.ts), so both always agree.
import { fold } from '../../shared/fold';
import { DOCUMENT_TYPES } from '../../shared/recipient-lists-contract';
import type {
  ChangeKind,
  FieldChange,
  MatchBasis,
  PreviewCounts,
  PreviewPerson,
  RosterCourse,
  RosterDocument,
  RosterGuardian,
  RosterRow,
  RosterStudent,
} from '../../shared/roster-contract';
import type { GuardianRow, RosterSnapshot, StudentRow } from './snapshot';

/** A course's name as matched: "1° Básico A", "1º basico a" and "1 Básico  A" are one course. */
export const courseKey = (name: string) => fold(name).replace(/[°º]/g, ' ').replace(/\s+/g, ' ').trim();
const nameKey = (p: { first_names: string; last_name_father: string; last_name_mother: string }) =>
  fold([p.first_names, p.last_name_father, p.last_name_mother].join(' ')).replace(/\s+/g, ' ').trim();
const fullName = (p: { first_names: string; last_name_father: string; last_name_mother: string }) =>
  [p.first_names, p.last_name_father, p.last_name_mother].filter((part) => part !== '').join(' ');
const documentType = (d: RosterDocument) => (d.type === 'rut' ? DOCUMENT_TYPES.rut : DOCUMENT_TYPES.curp);
const ROLE_ID = { titular: 1, suplente: 2 } as const;
export const ROLE_FIELD = { 1: 'titular', 2: 'suplente' } as const;

/** A person's stored columns as the import writes them: the snapshot's row without what the import decides apart. */
export type StudentValues = Omit<StudentRow, 'id' | 'course_id' | 'withdrawn'> & { course_key: string };
export type GuardianValues = Omit<GuardianRow, 'id'>;

interface PlannedStudent {
  id: number | null;
  values: StudentValues;
  rejoins: boolean;
  changes: FieldChange[];
}
interface PlannedGuardian {
  id: number | null;
  values: GuardianValues;
  changes: FieldChange[];
}
interface PlannedLink {
  student: number;
  guardian: number;
  role: 1 | 2;
  relationship: string;
}
interface PlannedCourse {
  key: string;
  name: string;
  level: string;
  position: number;
}

export interface Plan {
  students: PlannedStudent[];
  guardians: PlannedGuardian[];
  /** Every link the file gives (indexes into students and guardians); `linksChanged` the students whose links differ. */
  links: PlannedLink[];
  linksChanged: Set<number>;
  newCourses: PlannedCourse[];
  withdraw: number[];
  people: PreviewPerson[];
  counts: Omit<PreviewCounts, 'rows'>;
  /** `student:12:fono_celular`: changes over an administrator's correction. */
  conflicts: string[];
}

/** Fields whose changes are recorded in contact_changes, as the member editor names them. */
export const CONTACT_FIELDS = ['nombres', 'apellido_paterno', 'apellido_materno', 'email', 'fono_celular', 'dni'] as const;

interface FileStudent {
  student: RosterStudent;
  lines: number[];
  guardians: { index: number; role: 1 | 2; relationship: string }[];
}
interface FileGuardian {
  guardian: RosterGuardian;
  lines: number[];
  /** The file students this guardian is listed with. */
  students: number[];
}

/** Groups the rows into people: a student per document (or name and course), a guardian per document, phone or name. */
function group(rows: RosterRow[]): { students: FileStudent[]; guardians: FileGuardian[] } {
  const students: FileStudent[] = [];
  const guardians: FileGuardian[] = [];
  const studentAt = new Map<string, number>();
  const guardianAt = new Map<string, number>();
  for (const row of rows) {
    const s = row.student;
    const sKey = s.document ? `d:${s.document.value}` : `n:${nameKey(s)}|${courseKey(s.course.name)}`;
    let si = studentAt.get(sKey);
    if (si === undefined) {
      si = students.push({ student: s, lines: [], guardians: [] }) - 1;
      studentAt.set(sKey, si);
    }
    const fs = students[si]!;
    // A line with both guardians gives two rows with its number.
    if (!fs.lines.includes(row.line)) fs.lines.push(row.line);
    const g = row.guardian;
    if (!g) continue;
    // A family's shared phone is not one person: without a document, the phone and the name make a guardian.
    const gKey = g.document ? `d:${g.document.value}` : g.phone ? `p:${g.phone}|${nameKey(g)}` : `n:${nameKey(g)}|${sKey}`;
    let gi = guardianAt.get(gKey);
    if (gi === undefined) {
      gi = guardians.push({ guardian: g, lines: [], students: [] }) - 1;
      guardianAt.set(gKey, gi);
    }
    const fg = guardians[gi]!;
    if (!fg.lines.includes(row.line)) fg.lines.push(row.line);
    if (!fg.students.includes(si)) fg.students.push(si);
    const role = ROLE_ID[g.role];
    // One titular and one suplente per student (the first line wins; the reader refuses contradicting ones).
    if (!fs.guardians.some((x) => x.role === role || x.index === gi)) fs.guardians.push({ index: gi, role, relationship: g.relationship });
  }
  return { students, guardians };
}

export function planImport(snapshot: RosterSnapshot, rows: RosterRow[]): Plan {
  const { students: fileStudents, guardians: fileGuardians } = group(rows);
  const courseById = new Map(snapshot.courses.map((c) => [c.id, c]));
  const courseByKey = new Map(snapshot.courses.map((c) => [courseKey(c.name), c]));
  const manualOf = (kind: 'estudiante' | 'apoderado', id: number, field: string) => snapshot.manual.has(`${kind}:${id}:${field}`);

  // Guardians first: a student without a document is matched by name and one of their guardians' phones.
  const guardianById = new Map(snapshot.guardians.map((g) => [g.id, g]));
  const studentById = new Map(snapshot.students.map((s) => [s.id, s]));
  const guardianByDoc = new Map<string, GuardianRow>();
  const guardiansByPhone = new Map<string, GuardianRow[]>();
  for (const g of snapshot.guardians) {
    if (g.dni) guardianByDoc.set(g.dni.toUpperCase(), g);
    if (g.phone) guardiansByPhone.set(g.phone, [...(guardiansByPhone.get(g.phone) ?? []), g]);
  }
  const guardiansOfStudent = new Map<number, number[]>();
  for (const l of snapshot.links) guardiansOfStudent.set(l.student_id, [...(guardiansOfStudent.get(l.student_id) ?? []), l.guardian_id]);

  const studentByDoc = new Map<string, StudentRow>();
  const studentsByName = new Map<string, StudentRow[]>();
  for (const s of snapshot.students) {
    if (s.dni) studentByDoc.set(s.dni.toUpperCase(), s);
    studentsByName.set(nameKey(s), [...(studentsByName.get(nameKey(s)) ?? []), s]);
  }
  const phonesOf = (studentId: number) =>
    new Set(
      (guardiansOfStudent.get(studentId) ?? []).flatMap((gid) => {
        const phone = guardianById.get(gid)?.phone;
        return phone ? [phone] : [];
      }),
    );

  const claimedStudents = new Set<number>();
  const studentMatch: { row: StudentRow | null; basis: MatchBasis }[] = fileStudents.map((fs) => {
    const s = fs.student;
    if (s.document) {
      const found = studentByDoc.get(s.document.value.toUpperCase());
      if (found && !claimedStudents.has(found.id)) {
        claimedStudents.add(found.id);
        return { row: found, basis: 'document' };
      }
      // A document Hermes does not have yet: the student Hermes has without one, by name and phone, takes it.
    }
    const phones = fs.guardians.flatMap((g) => (fileGuardians[g.index]!.guardian.phone ? [fileGuardians[g.index]!.guardian.phone!] : []));
    const found = (studentsByName.get(nameKey(s)) ?? []).find(
      (candidate) => !claimedStudents.has(candidate.id) && !candidate.dni && phones.some((p) => phonesOf(candidate.id).has(p)),
    );
    if (found) {
      claimedStudents.add(found.id);
      return { row: found, basis: 'name_phone' };
    }
    return { row: null, basis: 'new' };
  });

  const claimedGuardians = new Set<number>();
  const take = (row: GuardianRow | undefined, basis: MatchBasis) => {
    if (!row || claimedGuardians.has(row.id)) return null;
    claimedGuardians.add(row.id);
    return { row, basis };
  };
  // A number is one person's unless both have documents that differ.
  const phoneCandidates = (g: RosterGuardian) =>
    (g.phone ? (guardiansByPhone.get(g.phone) ?? []) : []).filter((row) => !claimedGuardians.has(row.id) && (!g.document || !row.dni));
  // First by document, or by phone and name together, so that a parent sharing the family's phone never takes the
  // other parent's record because the file listed them first.
  const firstPass = fileGuardians.map((fg) => {
    const g = fg.guardian;
    if (g.document) {
      const byDoc = take(guardianByDoc.get(g.document.value.toUpperCase()), 'document');
      if (byDoc) return byDoc;
    }
    return take(
      phoneCandidates(g).find((row) => nameKey(row) === nameKey(g)),
      'name_phone',
    );
  });
  // Then the number alone (a name corrected in the file), when only one record unclaimed has it; else by name
  // within the family, among the guardians of the students this one is listed with.
  const guardianMatch: { row: GuardianRow | null; basis: MatchBasis }[] = fileGuardians.map((fg, i) => {
    const first = firstPass[i];
    if (first) return first;
    const g = fg.guardian;
    const byPhone = phoneCandidates(g);
    const single = byPhone.length === 1 ? take(byPhone[0], 'name_phone') : null;
    if (single) return single;
    const family = fg.students.flatMap((si) => {
      const sid = studentMatch[si]!.row?.id;
      return sid === undefined ? [] : (guardiansOfStudent.get(sid) ?? []);
    });
    const byName = family.map((gid) => guardianById.get(gid)!).find((row) => nameKey(row) === nameKey(g) && (!g.document || !row.dni));
    return take(byName, 'name_phone') ?? { row: null, basis: 'new' as const };
  });

  const conflicts: string[] = [];
  const change = (
    kind: 'student' | 'guardian',
    id: number | null,
    field: string,
    from: string | null,
    to: string | null,
    manual: boolean,
  ): FieldChange[] => {
    if (id === null || from === to) return [];
    if (manual) conflicts.push(`${kind}:${id}:${field}`);
    return [{ field, from, to, manual }];
  };

  const plannedGuardians: PlannedGuardian[] = fileGuardians.map((fg, i) => {
    const g = fg.guardian;
    const row = guardianMatch[i]!.row;
    const values: GuardianValues = {
      first_names: g.first_names,
      last_name_father: g.last_name_father,
      last_name_mother: g.last_name_mother,
      // What the file does not give stays as Hermes has it.
      dni: g.document?.value ?? row?.dni ?? null,
      document_type: g.document ? documentType(g.document) : (row?.document_type ?? null),
      phone: g.phone ?? row?.phone ?? null,
      email: g.email ?? row?.email ?? null,
    };
    const id = row?.id ?? null;
    const m = (field: string) => id !== null && manualOf('apoderado', id, field);
    const changes = row
      ? [
          ...change('guardian', id, 'nombres', row.first_names, values.first_names, m('nombres')),
          ...change('guardian', id, 'apellido_paterno', row.last_name_father, values.last_name_father, m('apellido_paterno')),
          ...change('guardian', id, 'apellido_materno', row.last_name_mother, values.last_name_mother, m('apellido_materno')),
          ...change('guardian', id, 'dni', row.dni, values.dni, m('dni')),
          ...change('guardian', id, 'fono_celular', row.phone, values.phone, m('fono_celular')),
          ...change('guardian', id, 'email', row.email, values.email, m('email')),
        ]
      : [];
    return { id, values, changes };
  });

  const newCourses = new Map<string, PlannedCourse>();
  const courseName = (c: RosterCourse) => courseByKey.get(courseKey(c.name))?.name ?? c.name;
  const linksOf = new Map<number, Map<number, { guardian: number; relationship: string }>>();
  for (const l of snapshot.links) {
    const roles = linksOf.get(l.student_id) ?? new Map();
    roles.set(l.role, { guardian: l.guardian_id, relationship: l.relationship });
    linksOf.set(l.student_id, roles);
  }
  const guardianLabel = (id: number | null, name: string, relationship: string) =>
    `${id === null ? name : fullName(guardianById.get(id) ?? { first_names: name, last_name_father: '', last_name_mother: '' })} (${relationship})`;

  const links: PlannedLink[] = [];
  const linksChanged = new Set<number>();
  const plannedStudents: PlannedStudent[] = fileStudents.map((fs, i) => {
    const s = fs.student;
    const { row } = studentMatch[i]!;
    const key = courseKey(s.course.name);
    if (!courseByKey.has(key) && !newCourses.has(key))
      newCourses.set(key, { key, name: s.course.name, level: s.course.level, position: s.course.position });
    const values: StudentValues = {
      first_names: s.first_names,
      last_name_father: s.last_name_father,
      last_name_mother: s.last_name_mother,
      dni: s.document?.value ?? row?.dni ?? null,
      document_type: s.document ? documentType(s.document) : (row?.document_type ?? null),
      birth_date: s.birth_date ?? row?.birth_date ?? null,
      email: s.email ?? row?.email ?? null,
      course_key: key,
    };
    const id = row?.id ?? null;
    const m = (field: string) => id !== null && manualOf('estudiante', id, field);
    const changes: FieldChange[] = row
      ? [
          ...change('student', id, 'nombres', row.first_names, values.first_names, m('nombres')),
          ...change('student', id, 'apellido_paterno', row.last_name_father, values.last_name_father, m('apellido_paterno')),
          ...change('student', id, 'apellido_materno', row.last_name_mother, values.last_name_mother, m('apellido_materno')),
          ...change('student', id, 'dni', row.dni, values.dni, m('dni')),
          ...change('student', id, 'email', row.email, values.email, m('email')),
          ...change('student', id, 'fecha_nacimiento', row.birth_date, values.birth_date, false),
          ...change('student', id, 'curso', courseById.get(row.course_id)?.name ?? null, courseName(s.course), false),
          // Withdrawn by hand, and no import wrote the standing since: coming back is a conflict, like a corrected phone.
          ...(row.withdrawn ? change('student', id, 'estado', 'retirado', 'matriculado', m('estado')) : []),
        ]
      : [];
    // The file's guardians replace those of the same role; a role the file leaves empty keeps its guardian.
    const current = id === null ? new Map() : (linksOf.get(id) ?? new Map());
    for (const target of fs.guardians) {
      links.push({ student: i, guardian: target.index, role: target.role, relationship: target.relationship });
      const gid = plannedGuardians[target.index]!.id;
      const now = current.get(target.role);
      if (now?.guardian === gid && now?.relationship === target.relationship && gid !== null) continue;
      linksChanged.add(i);
      if (row) {
        const fg = fileGuardians[target.index]!.guardian;
        // A guardian given or taken away by hand in that role, and no import wrote it since: a conflict.
        const manual = m(ROLE_FIELD[target.role]);
        if (manual) conflicts.push(`student:${row.id}:${ROLE_FIELD[target.role]}`);
        changes.push({
          field: ROLE_FIELD[target.role],
          from: now ? guardianLabel(now.guardian, '', now.relationship) : null,
          to: guardianLabel(gid, fullName(fg), target.relationship),
          manual,
        });
      }
    }
    return { id, values, rejoins: row?.withdrawn ?? false, changes };
  });

  const withdraw = snapshot.students.filter((s) => !s.withdrawn && !claimedStudents.has(s.id)).map((s) => s.id);

  const kindOf = (id: number | null, changes: FieldChange[]): ChangeKind =>
    id === null ? 'new' : changes.length > 0 ? 'changed' : 'unchanged';
  const people: PreviewPerson[] = [
    ...plannedStudents.map(
      (p, i): PreviewPerson => ({
        kind: 'student',
        change: kindOf(p.id, p.changes),
        match: studentMatch[i]!.basis,
        id: p.id,
        name: fullName(fileStudents[i]!.student),
        document: fileStudents[i]!.student.document?.value ?? null,
        course: courseName(fileStudents[i]!.student.course),
        lines: fileStudents[i]!.lines,
        changes: p.changes,
      }),
    ),
    ...withdraw.map((id): PreviewPerson => {
      const s = studentById.get(id)!;
      // Enrolled again by hand, and no import wrote the standing since: leaving again is a conflict too.
      const changes = change('student', id, 'estado', 'matriculado', 'retirado', manualOf('estudiante', id, 'estado'));
      return {
        kind: 'student',
        change: 'withdrawn',
        match: 'document',
        id,
        name: fullName(s),
        document: s.dni,
        course: courseById.get(s.course_id)?.name ?? null,
        lines: [],
        changes: changes.filter((c) => c.manual),
      };
    }),
    ...plannedGuardians.map(
      (p, i): PreviewPerson => ({
        kind: 'guardian',
        change: kindOf(p.id, p.changes),
        match: guardianMatch[i]!.basis,
        id: p.id,
        name: fullName(fileGuardians[i]!.guardian),
        document: fileGuardians[i]!.guardian.document?.value ?? null,
        course: null,
        lines: fileGuardians[i]!.lines,
        changes: p.changes,
      }),
    ),
  ];
  const count = (kind: 'student' | 'guardian', c: ChangeKind) => people.filter((p) => p.kind === kind && p.change === c).length;
  const fileCourseKeys = new Set(plannedStudents.map((p) => p.values.course_key));
  return {
    students: plannedStudents,
    guardians: plannedGuardians,
    links,
    linksChanged,
    newCourses: [...newCourses.values()],
    withdraw,
    people,
    counts: {
      students: {
        new: count('student', 'new'),
        changed: count('student', 'changed'),
        unchanged: count('student', 'unchanged'),
        withdrawn: withdraw.length,
      },
      guardians: { new: count('guardian', 'new'), changed: count('guardian', 'changed'), unchanged: count('guardian', 'unchanged') },
      courses: { new: newCourses.size, unchanged: fileCourseKeys.size - newCourses.size },
      conflicts: conflicts.length,
    },
    conflicts,
  };
}
