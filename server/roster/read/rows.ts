// Each data row of the file read through the mapping into a student and, when the row names one, a
// guardian. A row with any problem is refused whole (its problems say why, one per column); the others
// come out normalised. Roles left empty are decided later, over the whole file (duplicates.ts).
import { PERSON_ERRORS, PERSON_NAME_MAX } from '../../../shared/person-rules';
import type {
  ColumnMapping,
  GuardianRole,
  RosterCourse,
  RosterDocument,
  RosterField,
  RosterRow,
  RowProblem,
} from '../../../shared/roster-contract';
import { type Country, fileStage, parseCourse } from './course';
import { type Checked, checkBirthDate, checkCurp, checkEmail, checkPhone, checkRole, checkRun, relationshipOf } from './fields';
import { headerKey } from './header';
import { COURSE_EXAMPLE, ROW_ERRORS } from './messages';
import { nameCase, type SplitName, splitFullName, splitSurnames } from './names';
import type { SheetRow } from './sheet';

const RELATIONSHIP_MAX = 40;

/** A valid row before the file-level checks: its guardian's role may still be open. */
export interface DraftRow extends RosterRow {
  roleGiven: GuardianRole | null;
}

const GUARDIAN_FIELDS: readonly RosterField[] = [
  'guardian_run',
  'guardian_dv',
  'guardian_curp',
  'guardian_first_names',
  'guardian_last_name_father',
  'guardian_last_name_mother',
  'guardian_full_name',
  'guardian_role',
  'guardian_relationship',
  'guardian_phone',
  'guardian_email',
];

export function readRows(
  rows: readonly SheetRow[],
  headers: readonly string[],
  mapping: ColumnMapping,
  country: Country,
  today: Date,
): { rows: DraftRow[]; problems: RowProblem[] } {
  const column = new Map<RosterField, number>();
  mapping.forEach((field, index) => {
    if (field !== 'ignore') column.set(field, index);
  });
  const courseColumns = (['course', 'level'] as const).flatMap((f) => column.get(f) ?? []);
  const stage = fileStage(
    rows.map((r) => courseColumns.map((i) => r.cells[i] ?? '').join(' ')),
    country,
  );

  // A school has a few dozen courses written the same way on thousands of lines.
  const courses = new Map<string, RosterCourse | null>();
  const out: DraftRow[] = [];
  const problems: RowProblem[] = [];
  for (const row of rows) {
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

    const document = (who: 'student' | 'guardian'): RosterDocument | null => {
      const run = cell(`${who}_run`);
      const dv = cell(`${who}_dv`);
      const curp = cell(`${who}_curp`);
      if (run === '' && dv !== '') fail(`${who}_dv`, ROW_ERRORS.dvWithoutRun);
      // Some files carry the whole RUN and its DV again beside it.
      const whole = /-\s*[\dkK]$/.test(run);
      const rut = run === '' ? null : take(`${who}_run`, checkRun(run, whole ? null : dv));
      if (rut && whole && dv !== '' && rut.value.slice(-1) !== dv.toUpperCase()) fail(`${who}_dv`, ROW_ERRORS.dvMismatch);
      const mx = curp === '' ? null : take(`${who}_curp`, checkCurp(curp));
      return country === 'MX' ? (mx ?? rut) : (rut ?? mx);
    };

    const name = (who: 'student' | 'guardian'): SplitName | null => {
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
            who === 'student' ? ROW_ERRORS.studentName : ROW_ERRORS.guardianName,
          );
          return null;
        }
        if (father === '') {
          fail(`${who}_last_name_father`, who === 'student' ? ROW_ERRORS.studentLastName : ROW_ERRORS.guardianLastName);
          return null;
        }
        split = { first_names: first, last_name_father: father, last_name_mother: mother };
      } else {
        split = splitFullName(full, headerKey(header(`${who}_full_name`) ?? '').startsWith('apellido'));
        if (split === null) {
          fail(`${who}_full_name`, ROW_ERRORS.fullNameOneWord);
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
    if (courseText === '') fail(courseField, ROW_ERRORS.courseRequired);
    else if (course === null) fail(courseField, ROW_ERRORS.course(courseText, COURSE_EXAMPLE[country]));
    const birth = cell('student_birth_date');
    const birthDate = birth === '' ? null : take('student_birth_date', checkBirthDate(birth, today));
    const studentMail = cell('student_email');
    const studentEmail = studentMail === '' ? null : take('student_email', checkEmail(studentMail, country));

    // The guardian, when the row names one.
    let guardian: RosterRow['guardian'] = null;
    let roleGiven: GuardianRole | null = null;
    if (GUARDIAN_FIELDS.some((f) => cell(f) !== '')) {
      const guardianDocument = document('guardian');
      const guardianName = name('guardian');
      const phone = cell('guardian_phone');
      const guardianPhone = phone === '' ? null : take('guardian_phone', checkPhone(phone, country));
      const mail = cell('guardian_email');
      const guardianEmail = mail === '' ? null : take('guardian_email', checkEmail(mail, country));
      roleGiven = take('guardian_role', checkRole(cell('guardian_role')));
      const relationship = cell('guardian_relationship');
      if (relationship.length > RELATIONSHIP_MAX) fail('guardian_relationship', ROW_ERRORS.long(RELATIONSHIP_MAX));
      if (guardianName) {
        guardian = {
          document: guardianDocument,
          ...guardianName,
          role: roleGiven ?? 'titular',
          relationship: relationshipOf(relationship),
          phone: guardianPhone,
          email: guardianEmail,
        };
      }
    }

    if (found.length > 0 || studentName === null || course === null) {
      problems.push(...found);
      continue;
    }
    out.push({
      line: row.line,
      student: { document: studentDocument, ...studentName, course, birth_date: birthDate, email: studentEmail },
      guardian,
      roleGiven,
    });
  }
  return { rows: out, problems };
}
