// Checks across the file's lines (a line per student and guardian, or both guardians side by side): the same
// student on two lines with different data, a line repeated for a student without a document, the same guardian (by RUN/CURP) with a different phone or e-mail,
// a third guardian, two titulares, one person as both guardians of a line. The later line is refused whole and
// its problem names the earlier one. Roles left empty are decided here: the student's first guardian is the
// titular (unless another line says who is), the next the suplente.
import { fold } from '../../../shared/fold';
import type { RosterDocument, RosterGuardian, RosterRow, RosterStudent, RowProblem } from '../../../shared/roster-contract';
import type { Country } from './course';
import { ROW_TEXTS } from './messages';
import type { DraftRow } from './rows';

const documentKey = (d: RosterDocument) => `${d.type}:${d.value}`;
const nameKey = (p: { first_names: string; last_name_father: string; last_name_mother: string }) =>
  fold(`${p.first_names}|${p.last_name_father}|${p.last_name_mother}`);

const fullName = (p: { first_names: string; last_name_father: string; last_name_mother: string }) =>
  `${p.first_names} ${p.last_name_father} ${p.last_name_mother}`.trimEnd();

function studentDifference(a: RosterStudent, b: RosterStudent, country: Country): string | null {
  if (a.course.name !== b.course.name) return ROW_TEXTS[country].otherCourse(a.course.name);
  if (nameKey(a) !== nameKey(b)) return `otro nombre (${fullName(a)})`;
  if (a.birth_date !== b.birth_date) return `otra fecha de nacimiento (${a.birth_date ?? 'ninguna'})`;
  if (a.email !== b.email) return `otro correo (${a.email ?? 'ninguno'})`;
  return null;
}

function guardianDifference(a: RosterGuardian, b: RosterGuardian): string | null {
  if (a.phone !== b.phone) return `otro celular (${a.phone ?? 'ninguno'})`;
  if (a.email !== b.email) return `otro correo (${a.email ?? 'ninguno'})`;
  if (nameKey(a) !== nameKey(b)) return `otro nombre (${fullName(a)})`;
  return null;
}

interface Family {
  /** Guardians of the student by key, with the first line naming each, the role that line gave and its data. */
  guardians: Map<string, { line: number; role: 'titular' | 'suplente' | null; guardian: RosterGuardian }>;
}

/**
 * A student without a document is its name in its course, as the plan matches it: two children of one name in
 * two courses are two students (decision 0199).
 */
const studentKeyOf = (student: RosterStudent) =>
  student.document ? documentKey(student.document) : `name:${nameKey(student)}|${fold(student.course.name)}`;
const guardianKeyOf = (guardian: RosterGuardian) => (guardian.document ? documentKey(guardian.document) : `name:${nameKey(guardian)}`);

/** The rows of each line together: a line with two guardians side by side is two rows, kept or refused as one. */
function byLine(drafts: readonly DraftRow[]): DraftRow[][] {
  const lines: DraftRow[][] = [];
  for (const row of drafts) {
    const last = lines[lines.length - 1];
    if (last && last[0]!.line === row.line) last.push(row);
    else lines.push([row]);
  }
  return lines;
}

export function checkAcrossLines(drafts: readonly DraftRow[], country: Country): { rows: RosterRow[]; problems: RowProblem[] } {
  const texts = ROW_TEXTS[country];
  const students = new Map<string, { line: number; student: RosterStudent }>();
  const guardians = new Map<string, { line: number; guardian: RosterGuardian }>();
  const families = new Map<string, Family>();
  const kept: DraftRow[] = [];
  const problems: RowProblem[] = [];

  // Who the file names as titular, so an unmarked first guardian does not take the place.
  const titularGiven = new Set<string>();

  /** Why the line cannot be kept, checked against the lines kept before it (null: it can). */
  const lineProblem = (rows: readonly DraftRow[], line: number): string | null => {
    const student = rows[0]!.student;
    const studentKey = studentKeyOf(student);
    const seen = students.get(studentKey);
    const difference = seen && studentDifference(seen.student, student, country);
    if (seen && difference) return texts.studentTwice(seen.line, difference);
    // Without a document, a line of the same name and course that names no guardian the student lacks is
    // the same line twice, or another child Hermes cannot tell apart: the school must say which.
    const known = families.get(studentKey)?.guardians;
    if (seen && !student.document && !rows.some(({ guardian }) => guardian && !known?.has(guardianKeyOf(guardian)))) {
      // The same guardian with another phone or e-mail is that difference, not a line repeated.
      for (const { guardian } of rows) {
        const before = guardian ? known?.get(guardianKeyOf(guardian)) : undefined;
        const changed = before && guardian && guardianDifference(before.guardian, guardian);
        if (before && changed) return texts.guardianTwice(before.line, changed);
      }
      return texts.sameNameNoDocument(seen.line);
    }
    // The family as it would be with this line: its guardians and the line and role that named each first.
    const family = new Map(families.get(studentKey)?.guardians);
    const onLine = new Set<string>();
    for (const { guardian, roleGiven } of rows) {
      if (!guardian) continue;
      const guardianKey = guardianKeyOf(guardian);
      if (onLine.has(guardianKey)) return texts.sameGuardianOnLine;
      onLine.add(guardianKey);
      if (guardian.document) {
        const same = guardians.get(documentKey(guardian.document));
        const difference = same && guardianDifference(same.guardian, guardian);
        if (same && difference) return texts.guardianTwice(same.line, difference);
      }
      if (family.has(guardianKey)) continue;
      if (family.size >= 2) {
        // Both earlier, or one earlier and the other this line's first guardian.
        const earlier = [...family.values()].filter((g) => g.line !== line).map((g) => g.line);
        return earlier.length === family.size ? texts.thirdGuardian([...new Set(earlier)]) : texts.thirdWithThisLine(earlier[0]!);
      }
      const titular = roleGiven === 'titular' ? [...family.values()].find((g) => g.role === 'titular') : undefined;
      if (titular) return titular.line === line ? texts.twoTitularesOnLine : texts.twoTitulares(titular.line);
      family.set(guardianKey, { line, role: roleGiven, guardian });
    }
    return null;
  };

  for (const rows of byLine(drafts)) {
    const line = rows[0]!.line;
    const problem = lineProblem(rows, line);
    if (problem !== null) {
      problems.push({ line, column: null, message: problem });
      continue;
    }
    const studentKey = studentKeyOf(rows[0]!.student);
    if (!students.has(studentKey)) students.set(studentKey, { line, student: rows[0]!.student });
    const family = families.get(studentKey) ?? { guardians: new Map() };
    families.set(studentKey, family);
    for (const row of rows) {
      const { guardian } = row;
      if (guardian && !family.guardians.has(guardianKeyOf(guardian))) {
        family.guardians.set(guardianKeyOf(guardian), { line, role: row.roleGiven, guardian });
        if (row.roleGiven === 'titular') titularGiven.add(studentKey);
      }
      if (guardian?.document && !guardians.has(documentKey(guardian.document)))
        guardians.set(documentKey(guardian.document), { line, guardian });
      kept.push(row);
    }
  }

  // Roles the file left empty: titular for the first unmarked guardian when the file names no titular, suplente otherwise.
  const decided = new Map<string, 'titular' | 'suplente'>();
  const rows: RosterRow[] = kept.map(({ roleGiven, ...row }) => {
    if (!row.guardian || roleGiven) return row;
    const studentKey = studentKeyOf(row.student);
    const guardianKey = guardianKeyOf(row.guardian);
    const key = `${studentKey}>${guardianKey}`;
    let role = decided.get(key);
    if (!role) {
      role = titularGiven.has(studentKey) ? 'suplente' : 'titular';
      titularGiven.add(studentKey);
      decided.set(key, role);
    }
    return { ...row, guardian: { ...row.guardian, role } };
  });
  return { rows, problems };
}
