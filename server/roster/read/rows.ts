// Each data row of the file read through the mapping into a student and, when the row names them, its
// guardians: one row each, the second guardian's (its columns beside the first's) after the first's. A row
// with any problem is refused whole (its problems say why, one per column); the others come out normalised.
// Roles left empty are decided later, over the whole file (duplicates.ts).
import { PERSON_ERRORS, PERSON_NAME_MAX } from '../../../shared/person-rules';
import type {
  ColumnMapping,
  GuardianRole,
  RosterCourse,
  RosterDocument,
  RosterField,
  RosterGuardian,
  RosterRow,
  RowProblem,
} from '../../../shared/roster-contract';
import { ROSTER_PROGRESS_EVERY } from '../../../shared/roster-contract';
import { type Country, fileStage, parseCourse } from './course';
import { type Checked, checkBirthDate, checkCurp, checkEmail, checkPhone, checkRole, checkRun, relationshipOf } from './fields';
import { headerKey, headerSlot } from './header';
import { ROW_TEXTS } from './messages';
import { nameCase, type SplitName, splitFullName, splitSurnames } from './names';
import type { SheetRow } from './sheet';

const RELATIONSHIP_MAX = 40;

/** A valid row before the file-level checks: its guardian's role may still be open. */
export interface DraftRow extends RosterRow {
  roleGiven: GuardianRole | null;
}

type Guardian = 'guardian' | 'guardian2';
const GUARDIAN_DATA = [
  'run',
  'dv',
  'curp',
  'first_names',
  'last_name_father',
  'last_name_mother',
  'full_name',
  'role',
  'relationship',
  'phone',
  'email',
] as const;
/** The cells that say a guardian is there: a role or relationship alone describes no one (a column filled down). */
const PERSON_DATA = GUARDIAN_DATA.filter((datum) => datum !== 'role' && datum !== 'relationship');
const GUARDIAN_FIELDS = {
  guardian: PERSON_DATA.map((datum) => `guardian_${datum}` as const),
  guardian2: PERSON_DATA.map((datum) => `guardian2_${datum}` as const),
};

/**
 * What the headers of a guardian's columns say of them: "Celular suplente" a suplente, "Nombre madre" the
 * mother (decision 0180). The role and relationship columns say it in their cells instead.
 */
function headerSays(
  headers: readonly string[],
  mapping: ColumnMapping,
  guardian: Guardian,
): { role: GuardianRole | null; relationship: string | null } {
  const said: { role: GuardianRole | null; relationship: string | null } = { role: null, relationship: null };
  mapping.forEach((field, index) => {
    if (!field.startsWith(`${guardian}_`) || field === `${guardian}_role` || field === `${guardian}_relationship`) return;
    const slot = headerSlot(headers[index] ?? '');
    if (slot === 'titular' || slot === 'suplente') said.role ??= slot;
    if (slot === 'madre') said.relationship ??= 'Madre';
    if (slot === 'padre') said.relationship ??= 'Padre';
  });
  return said;
}

export async function readRows(
  rows: readonly SheetRow[],
  headers: readonly string[],
  mapping: ColumnMapping,
  country: Country,
  today: Date,
  /** Told every ROSTER_PROGRESS_EVERY rows how many were read (the import's progress), awaited. */
  tick?: (done: number) => Promise<void>,
): Promise<{ rows: DraftRow[]; problems: RowProblem[] }> {
  const column = new Map<RosterField, number>();
  mapping.forEach((field, index) => {
    if (field !== 'ignore') column.set(field, index);
  });
  const texts = ROW_TEXTS[country];
  const said = { guardian: headerSays(headers, mapping, 'guardian'), guardian2: headerSays(headers, mapping, 'guardian2') };
  const courseColumns = (['course', 'level'] as const).flatMap((f) => column.get(f) ?? []);
  const stage = fileStage(
    rows.map((r) => courseColumns.map((i) => r.cells[i] ?? '').join(' ')),
    country,
  );

  // A school has a few dozen courses written the same way on thousands of lines.
  const courses = new Map<string, RosterCourse | null>();
  const out: DraftRow[] = [];
  const problems: RowProblem[] = [];
  for (const [index, row] of rows.entries()) {
    if (tick && index > 0 && index % ROSTER_PROGRESS_EVERY === 0) await tick(index);
    const found: RowProblem[] = [];
    const cell = (field: RosterField) => {
      const index = column.get(field);
      return index === undefined ? '' : (row.cells[index] ?? '');
    };
    const header = (field: RosterField) => {
      const index = column.get(field);
      return index === undefined ? null : (headers[index] ?? null);
    };
    const fail = (field: RosterField | null, message: string) => {
      found.push({ line: row.line, column: field === null ? null : header(field), message });
    };
    const take = <T>(field: RosterField, checked: Checked<T>): T | null => {
      if (checked.ok) return checked.value;
      fail(field, checked.error);
      return null;
    };

    const document = (who: 'student' | Guardian): RosterDocument | null => {
      const run = cell(`${who}_run`);
      const dv = cell(`${who}_dv`);
      const curp = cell(`${who}_curp`);
      if (run === '' && dv !== '') fail(`${who}_dv`, texts.dvWithoutRun);
      // Some files carry the whole RUN and its DV again beside it.
      const whole = /-\s*[\dkK]$/.test(run);
      const rut = run === '' ? null : take(`${who}_run`, checkRun(run, whole ? null : dv));
      if (rut && whole && dv !== '' && rut.value.slice(-1) !== dv.toUpperCase()) fail(`${who}_dv`, texts.dvMismatch);
      const mx = curp === '' ? null : take(`${who}_curp`, checkCurp(curp));
      return country === 'MX' ? (mx ?? rut) : (rut ?? mx);
    };

    const name = (who: 'student' | Guardian): SplitName | null => {
      const first = cell(`${who}_first_names`);
      const full = cell(`${who}_full_name`);
      let split: SplitName | null;
      if (first !== '' || full === '') {
        let father = cell(`${who}_last_name_father`);
        let mother = cell(`${who}_last_name_mother`);
        // One "Apellidos" column holds both surnames.
        if (!column.has(`${who}_last_name_mother`)) ({ father, mother } = splitSurnames(father));
        if (first === '') {
          fail(
            column.has(`${who}_first_names`) ? `${who}_first_names` : `${who}_full_name`,
            who === 'student' ? texts.studentName : texts.guardianName,
          );
          return null;
        }
        if (father === '') {
          fail(`${who}_last_name_father`, who === 'student' ? texts.studentLastName : texts.guardianLastName);
          return null;
        }
        split = { first_names: first, last_name_father: father, last_name_mother: mother };
      } else {
        split = splitFullName(full, headerKey(header(`${who}_full_name`) ?? '').startsWith('apellido'));
        if (split === null) {
          fail(`${who}_full_name`, texts.fullNameOneWord);
          return null;
        }
      }
      split = {
        first_names: nameCase(split.first_names),
        last_name_father: nameCase(split.last_name_father),
        last_name_mother: nameCase(split.last_name_mother),
      };
      const nameField = (f: RosterField): RosterField => (column.has(f) ? f : `${who}_full_name`);
      if (split.first_names.length > PERSON_NAME_MAX) fail(nameField(`${who}_first_names`), PERSON_ERRORS.nombresLong);
      else if (split.last_name_father.length > PERSON_NAME_MAX) fail(nameField(`${who}_last_name_father`), PERSON_ERRORS.apellidoLong);
      else if (split.last_name_mother.length > PERSON_NAME_MAX)
        fail(nameField(`${who}_last_name_mother`), PERSON_ERRORS.apellidoMaternoLong);
      else return split;
      return null;
    };

    // The student.
    const studentDocument = document('student');
    const studentName = name('student');
    // The course may be spread over Curso, Nivel/Grado and Letra/Grupo: read together.
    const courseText = [cell('course'), cell('level'), cell('letter')].filter((c) => c !== '').join(' ');
    const courseField: RosterField = column.has('course') ? 'course' : 'level';
    let course = courses.get(courseText);
    if (course === undefined) {
      course = courseText === '' ? null : parseCourse(courseText, country, stage);
      courses.set(courseText, course);
    }
    if (courseText === '') fail(courseField, texts.courseRequired);
    else if (course === null) fail(courseField, texts.course(courseText));
    const birth = cell('student_birth_date');
    const birthDate = birth === '' ? null : take('student_birth_date', checkBirthDate(birth, today, country));
    const studentMail = cell('student_email');
    const studentEmail = studentMail === '' ? null : take('student_email', checkEmail(studentMail, country));

    // Each guardian the row names: one whose person's cells are all empty is not there.
    const guardianOf = (who: Guardian): { guardian: RosterGuardian | null; roleGiven: GuardianRole | null } | null => {
      if (GUARDIAN_FIELDS[who].every((f) => cell(f) === '')) return null;
      const guardianDocument = document(who);
      const guardianName = name(who);
      const phone = cell(`${who}_phone`);
      const guardianPhone = phone === '' ? null : take(`${who}_phone`, checkPhone(phone, country));
      const mail = cell(`${who}_email`);
      const guardianEmail = mail === '' ? null : take(`${who}_email`, checkEmail(mail, country));
      const roleGiven = take(`${who}_role`, checkRole(cell(`${who}_role`), country)) ?? said[who].role;
      const relationship = cell(`${who}_relationship`);
      if (relationship.length > RELATIONSHIP_MAX) fail(`${who}_relationship`, texts.long(RELATIONSHIP_MAX));
      if (!guardianName) return { guardian: null, roleGiven };
      const guardian: RosterGuardian = {
        document: guardianDocument,
        ...guardianName,
        role: roleGiven ?? 'titular',
        relationship: relationshipOf(relationship === '' ? (said[who].relationship ?? '') : relationship, country),
        phone: guardianPhone,
        email: guardianEmail,
      };
      return { guardian, roleGiven };
    };
    const guardians = [guardianOf('guardian'), guardianOf('guardian2')].filter((g) => g !== null);

    if (found.length > 0 || studentName === null || course === null) {
      problems.push(...found);
      continue;
    }
    const student = { document: studentDocument, ...studentName, course, birth_date: birthDate, email: studentEmail };
    if (guardians.length === 0) out.push({ line: row.line, student, guardian: null, roleGiven: null });
    for (const { guardian, roleGiven } of guardians) out.push({ line: row.line, student, guardian, roleGiven });
  }
  return { rows: out, problems };
}
