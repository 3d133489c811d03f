// Checks across the file's lines (a line per student and guardian): the same student on two lines with
// different data, the same guardian (by RUN/CURP) with a different phone or e-mail, a third guardian, two
// titulares. The later line is refused and its problem names the earlier one. Roles left empty are decided
// here: the student's first guardian is the titular (unless another line says who is), the next the suplente.
import { fold } from '../../../shared/fold';
import type { RosterDocument, RosterGuardian, RosterRow, RosterStudent, RowProblem } from '../../../shared/roster-contract';
import { ROW_ERRORS } from './messages';
import type { DraftRow } from './rows';

const documentKey = (d: RosterDocument) => `${d.type}:${d.value}`;
const nameKey = (p: { first_names: string; last_name_father: string; last_name_mother: string }) =>
  fold(`${p.first_names}|${p.last_name_father}|${p.last_name_mother}`);

const fullName = (p: { first_names: string; last_name_father: string; last_name_mother: string }) =>
  `${p.first_names} ${p.last_name_father} ${p.last_name_mother}`.trimEnd();

function studentDifference(a: RosterStudent, b: RosterStudent): string | null {
  if (a.course.name !== b.course.name) return `otro curso (${a.course.name})`;
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
  /** Guardians of the student by key, with the first line naming each and the role that line gave. */
  guardians: Map<string, { line: number; role: 'titular' | 'suplente' | null }>;
}

export function checkAcrossLines(drafts: readonly DraftRow[]): { rows: RosterRow[]; problems: RowProblem[] } {
  const students = new Map<string, { line: number; student: RosterStudent }>();
  const guardians = new Map<string, { line: number; guardian: RosterGuardian }>();
  const families = new Map<string, Family>();
  const kept: DraftRow[] = [];
  const problems: RowProblem[] = [];
  const refuse = (line: number, message: string) => problems.push({ line, column: null, message });

  // Who the file names as titular, so an unmarked first guardian does not take the place.
  const titularGiven = new Set<string>();

  for (const row of drafts) {
    const studentKey = row.student.document ? documentKey(row.student.document) : `name:${nameKey(row.student)}`;
    const seen = students.get(studentKey);
    if (seen) {
      const difference = studentDifference(seen.student, row.student);
      if (difference) {
        refuse(row.line, ROW_ERRORS.studentTwice(seen.line, difference));
        continue;
      }
    }
    const guardian = row.guardian;
    if (guardian?.document) {
      const same = guardians.get(documentKey(guardian.document));
      const difference = same && guardianDifference(same.guardian, guardian);
      if (same && difference) {
        refuse(row.line, ROW_ERRORS.guardianTwice(same.line, difference));
        continue;
      }
    }
    const family = families.get(studentKey) ?? { guardians: new Map() };
    if (guardian) {
      const guardianKey = guardian.document ? documentKey(guardian.document) : `name:${nameKey(guardian)}`;
      if (!family.guardians.has(guardianKey)) {
        if (family.guardians.size >= 2) {
          refuse(row.line, ROW_ERRORS.thirdGuardian([...family.guardians.values()].map((g) => g.line)));
          continue;
        }
        const titular = row.roleGiven === 'titular' ? [...family.guardians.values()].find((g) => g.role === 'titular') : undefined;
        if (titular) {
          refuse(row.line, ROW_ERRORS.twoTitulares(titular.line));
          continue;
        }
        family.guardians.set(guardianKey, { line: row.line, role: row.roleGiven });
        if (row.roleGiven === 'titular') titularGiven.add(studentKey);
      }
      if (guardian.document && !guardians.has(documentKey(guardian.document)))
        guardians.set(documentKey(guardian.document), { line: row.line, guardian });
    }
    if (!seen) students.set(studentKey, { line: row.line, student: row.student });
    families.set(studentKey, family);
    kept.push(row);
  }

  // Roles the file left empty: titular for the first unmarked guardian when the file names no titular, suplente otherwise.
  const decided = new Map<string, 'titular' | 'suplente'>();
  const rows: RosterRow[] = kept.map(({ roleGiven, ...row }) => {
    if (!row.guardian || roleGiven) return row;
    const studentKey = row.student.document ? documentKey(row.student.document) : `name:${nameKey(row.student)}`;
    const guardianKey = row.guardian.document ? documentKey(row.guardian.document) : `name:${nameKey(row.guardian)}`;
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
