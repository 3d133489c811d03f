// The header row and what each of its columns holds. A header is compared folded (no accents, lower case,
// punctuation and extra spaces out), so "RUT Apoderado", "rut_apoderado" and "R.U.T. apoderado" are one.
// A header names a datum ("rut", "nombres", "celular"…) and sometimes whose it is ("alumno", "apoderado"…)
// and which of two guardians side by side ("titular"/"suplente", "madre"/"padre", "tutor 1"/"tutor 2",
// "1er apoderado"/"segundo apoderado");
// without a "whose", person data belong to the student until the file has shown a guardian's column (or the
// student's is taken), and phones, relationship and titular/suplente always to the guardian whose columns
// the file is showing (decision 0180).
import { fold } from '../../../shared/fold';
import { ROSTER_FIELDS, type ColumnMapping, type RosterField } from '../../../shared/roster-contract';
import type { Country } from './course';
import { FILE_ERRORS, FILE_TEXTS } from './messages';
import type { SheetRow } from './sheet';
import { RosterFileError } from './errors';

type Datum =
  | 'run'
  | 'dv'
  | 'curp'
  | 'first_names'
  | 'last_name_father'
  | 'last_name_mother'
  | 'full_name'
  | 'name'
  | 'email'
  | 'birth_date'
  | 'course'
  | 'level'
  | 'letter'
  | 'role'
  | 'relationship'
  | 'phone'
  | 'ignore';
type Whose = 'student' | 'guardian' | null;
/** Whose a field is: the student, the line's first guardian or the second beside it. */
type Person = 'student' | 'guardian' | 'guardian2';
/** The word of a header that tells one of two guardians side by side from the other. */
type Slot = 'titular' | 'suplente' | '1' | '2' | 'madre' | 'padre';

/** Header words (folded) naming whose the datum is; removed before the datum is looked up. */
const STUDENT_WORDS = ['del alumno', 'de la alumna', 'del estudiante', 'alumno', 'alumna', 'alumnos', 'estudiante', 'estudiantes', 'est'];
const GUARDIAN_WORDS = [
  'del apoderado',
  'de la apoderada',
  'del tutor',
  'de la tutora',
  'del padre o tutor',
  'padre madre o tutor',
  'padre madre o apoderado',
  'padre o apoderado',
  'madre o apoderado',
  'padre madre tutor',
  'padre o madre',
  'madre o padre',
  'padre madre',
  'madre padre',
  'padre o tutor',
  'madre o tutor',
  'apoderado',
  'apoderada',
  'apoderados',
  'tutor',
  'tutora',
  'responsable',
  'contacto',
  'apod',
];

/** Datum words (folded, after the "whose" words are taken out). */
const DATUM_WORDS: Readonly<Record<string, Datum>> = {
  run: 'run',
  rut: 'run',
  'run o ipe': 'run',
  ipe: 'run',
  'n run': 'run',
  'rut sin dv': 'run',
  'run sin dv': 'run',
  'rut con dv': 'run',
  'run con dv': 'run',
  documento: 'run',
  dv: 'dv',
  'digito verificador': 'dv',
  'digito ver': 'dv',
  digito: 'dv',
  'dv run': 'dv',
  'dv rut': 'dv',
  curp: 'curp',
  nombres: 'first_names',
  'primer nombre': 'first_names',
  nombre: 'name',
  'nombre completo': 'full_name',
  'nombres y apellidos': 'full_name',
  'nombre y apellidos': 'full_name',
  'nombre y apellido': 'full_name',
  'apellidos y nombres': 'full_name',
  'apellidos nombres': 'full_name',
  'apellido paterno': 'last_name_father',
  'ap paterno': 'last_name_father',
  'apellido p': 'last_name_father',
  paterno: 'last_name_father',
  'primer apellido': 'last_name_father',
  apellido: 'last_name_father',
  apellidos: 'last_name_father',
  'apellido materno': 'last_name_mother',
  'ap materno': 'last_name_mother',
  'apellido m': 'last_name_mother',
  materno: 'last_name_mother',
  'segundo apellido': 'last_name_mother',
  correo: 'email',
  'correo electronico': 'email',
  email: 'email',
  'e mail': 'email',
  mail: 'email',
  'fecha de nacimiento': 'birth_date',
  'fecha nacimiento': 'birth_date',
  'fecha nac': 'birth_date',
  nacimiento: 'birth_date',
  'f nacimiento': 'birth_date',
  curso: 'course',
  'nombre curso': 'course',
  'curso y letra': 'course',
  'grado y grupo': 'course',
  nivel: 'level',
  grado: 'level',
  'desc grado': 'level',
  'nivel educativo': 'level',
  letra: 'letter',
  'letra curso': 'letter',
  grupo: 'letter',
  seccion: 'letter',
  paralelo: 'letter',
  tipo: 'role',
  'tipo de apoderado': 'role',
  'titular o suplente': 'role',
  'titular suplente': 'role',
  rol: 'role',
  relacion: 'relationship',
  parentesco: 'relationship',
  vinculo: 'relationship',
  'relacion con el alumno': 'relationship',
  'relacion con el estudiante': 'relationship',
  telefono: 'phone',
  'telefono movil': 'phone',
  'telefono celular': 'phone',
  celular: 'phone',
  fono: 'phone',
  movil: 'phone',
  whatsapp: 'phone',
  'n celular': 'phone',
};

/**
 * Headers of data Hermes does not keep, ignored without asking: a list number and the SIGE export's
 * columns (year, school RBD, codes, gender, address). Anything else unknown goes to the mapping step.
 */
const IGNORED = new Set([
  'n',
  'no',
  'nro',
  'numero',
  'n lista',
  'numero de lista',
  'correlativo',
  'ano',
  'rbd',
  'cod tipo ensenanza',
  'cod grado',
  'genero',
  'sexo',
  'direccion',
  'comuna',
  'comuna residencia',
  'nacionalidad',
]);

/** A header as compared: folded, punctuation out ("N°", "R.U.T.", "e-mail"), spaces collapsed. */
export function headerKey(header: string): string {
  return fold(header)
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\b(r u t|r u n)\b/g, (m) => m.replace(/ /g, ''))
    .trim();
}

function stripWords(key: string, words: readonly string[]): string | null {
  for (const word of words) {
    const re = new RegExp(`(^| )${word}( |$)`);
    if (re.test(key)) return key.replace(re, ' ').replace(/\s+/g, ' ').trim();
  }
  return null;
}

/** "Padre o tutor", "Padre/Madre/Tutor": one guardian, whoever it is, not the father beside the mother. */
const ANY_PARENT =
  /(^| )(padre madre o tutor|padre madre o apoderado|padre o apoderado|madre o apoderado|padre madre tutor|padre o madre|madre o padre|padre madre|madre padre|padre o tutor|madre o tutor)( |$)/;
const GUARDIAN_NOUN = 'padre o tutor|madre o tutora|apoderado|apoderada|tutor|tutora|responsable|contacto|apod';
const NUMBERED = new RegExp(`(^| )(${GUARDIAN_NOUN})( n)? ([12])( |$)`);
/**
 * An ordinal before the guardian's word: "1er apoderado", "Segundo tutor", "Celular 2° apoderado" (the ° is
 * gone from the key). Only right before that word, so "Segundo apellido apoderado" stays a surname.
 */
const ORDINAL = new RegExp(`(^| )(primer|primero|primera|1er|1era|1ro|1ra|1|segundo|segunda|2do|2da|2)( (?:${GUARDIAN_NOUN}))( |$)`);
const PARENT = /(^| )(de la madre|del padre|de la mama|del papa|madre|padre|mama|papa)( |$)/;
const TITULAR_OR_SUPLENTE = /(^| )(titular|suplente)( |$)/;

/** The header without the word telling which of two guardians it is, and that word. */
function takeSlot(key: string): { rest: string; slot: Slot | null } {
  const tidy = (text: string) => text.replace(/\s+/g, ' ').trim();
  const ordinal = ORDINAL.exec(key);
  if (ordinal) return { rest: tidy(key.replace(ORDINAL, '$1$3$4')), slot: /^(1|pri)/.test(ordinal[2]!) ? '1' : '2' };
  const numbered = NUMBERED.exec(key);
  if (numbered) return { rest: tidy(key.replace(NUMBERED, ` ${numbered[2]} `)), slot: numbered[4] === '1' ? '1' : '2' };
  if (!ANY_PARENT.test(key)) {
    const parent = PARENT.exec(key);
    if (parent) return { rest: tidy(key.replace(PARENT, ' ')), slot: /madre|mama/.test(parent[2]!) ? 'madre' : 'padre' };
  }
  const role = TITULAR_OR_SUPLENTE.exec(key);
  // "Tipo titular/suplente" names the role column, not one of the two.
  if (role && !(key.includes('titular') && key.includes('suplente')))
    return { rest: tidy(key.replace(TITULAR_OR_SUPLENTE, ' ')), slot: role[2] === 'titular' ? 'titular' : 'suplente' };
  return { rest: key, slot: null };
}

/** Which of two guardians side by side a header names ("Celular madre" → madre), null when it does not say. */
export function headerSlot(header: string): Slot | null {
  return takeSlot(headerKey(header)).slot;
}

/** What a header names: the datum, whose and which guardian, or null when it names nothing Hermes knows. */
function readHeader(header: string): { datum: Datum; whose: Whose; slot: Slot | null } | null {
  const key = headerKey(header);
  if (key === '') return null;
  if (IGNORED.has(key)) return { datum: 'ignore', whose: null, slot: null };
  const direct = DATUM_WORDS[key];
  if (direct) return { datum: direct, whose: null, slot: null };
  const student = stripWords(key, STUDENT_WORDS);
  if (student !== null) {
    if (student === '' || student === 'nombre') return { datum: 'full_name', whose: 'student', slot: null };
    const rest = student.replace(/^(de|del|de la) /, '');
    if (IGNORED.has(rest)) return { datum: 'ignore', whose: null, slot: null };
    const datum = DATUM_WORDS[rest];
    return datum ? { datum, whose: 'student', slot: null } : null;
  }
  const { rest: unslotted, slot } = takeSlot(key);
  const guardian = stripWords(unslotted, GUARDIAN_WORDS);
  if (guardian === null && slot === null) return null;
  const left = guardian ?? unslotted;
  if (left === '' || left === 'nombre') return { datum: 'full_name', whose: 'guardian', slot };
  // "Celular del padre o apoderado": the article stays behind when the words after it are taken out.
  const rest = left.replace(/^(de|del|de la) /, '').replace(/ (de|del|de la)$/, '');
  if (IGNORED.has(rest)) return { datum: 'ignore', whose: null, slot: null };
  const datum = DATUM_WORDS[rest];
  return datum ? { datum, whose: 'guardian', slot } : null;
}

const STUDENT_ONLY: ReadonlySet<Datum> = new Set(['birth_date', 'course', 'level', 'letter']);
const GUARDIAN_ONLY: ReadonlySet<Datum> = new Set(['role', 'relationship', 'phone']);

/**
 * The mapping the header suggests: each column's field, `ignore` where the header names nothing known (or
 * a field an earlier column already took), and how many non-empty headers were recognised.
 */
export function suggestMapping(headers: readonly string[]): { mapping: ColumnMapping; recognised: number; unknown: number } {
  const mapping: ColumnMapping = [];
  const taken = new Set<RosterField>();
  let guardianSeen = false;
  let recognised = 0;
  let unknown = 0;
  const read = headers.map(readHeader);
  // "Titular" alone is the titular's name beside "Celular titular", "Suplente"…; else the role column.
  const lone = (index: number) => ['titular', 'suplente'].includes(headerKey(headers[index] ?? ''));
  const sideBySide = read.some((h, index) => (h?.slot === 'titular' || h?.slot === 'suplente') && !lone(index));
  // Madre and padre are the first and the second guardian in the order the file shows them.
  const parents: Slot[] = [];
  const guardianOf = (slot: Slot): 'guardian' | 'guardian2' => {
    if (slot === 'titular' || slot === '1') return 'guardian';
    if (slot === 'suplente' || slot === '2') return 'guardian2';
    if (!parents.includes(slot)) parents.push(slot);
    return parents.indexOf(slot) === 0 ? 'guardian' : 'guardian2';
  };
  // The guardian whose columns the file is showing: a column that does not say whose is theirs.
  let current: 'guardian' | 'guardian2' = 'guardian';
  read.forEach((header, index) => {
    const found = header && lone(index) && !sideBySide ? { datum: 'role' as const, whose: 'guardian' as const, slot: null } : header;
    if (found === null) {
      if (headers[index] !== '') unknown++;
      mapping.push('ignore');
      return;
    }
    const { datum } = found;
    if (datum === 'ignore') {
      mapping.push('ignore');
      return;
    }
    if (found.slot !== null) current = guardianOf(found.slot);
    const previous = index > 0 ? mapping[index - 1] : undefined;
    let whose: Person;
    if (STUDENT_ONLY.has(datum)) whose = 'student';
    else if (GUARDIAN_ONLY.has(datum) || found.whose === 'guardian') whose = current;
    else if (found.whose === 'student') whose = 'student';
    else if (datum === 'dv' && (previous === 'student_run' || previous === 'guardian_run' || previous === 'guardian2_run'))
      whose = previous === 'student_run' ? 'student' : previous === 'guardian_run' ? 'guardian' : 'guardian2';
    else whose = guardianSeen || taken.has(fieldOf(datum, 'student')) ? current : 'student';
    // After a column only a guardian has (phone, relationship, role) or one that says so, the family's data begin.
    if (whose !== 'student' && (found.whose === 'guardian' || GUARDIAN_ONLY.has(datum))) guardianSeen = true;
    let field = fieldOf(datum, whose);
    // Mexico's "Nivel" (Primaria) beside "Grado" (3): the second is read with the first, as the course.
    if (field === 'level' && taken.has('level') && !taken.has('course')) field = 'course';
    if (taken.has(field)) {
      unknown++;
      mapping.push('ignore');
      return;
    }
    taken.add(field);
    recognised++;
    mapping.push(field);
  });
  // "Nombre" beside a surname column is the first names; alone it is the whole name.
  for (const whose of ['student', 'guardian', 'guardian2'] as const) {
    const full = mapping.indexOf(`${whose}_full_name`);
    if (full >= 0 && headerKey(headers[full] ?? '').replace(/ .*/, '') === 'nombre' && mapping.includes(`${whose}_last_name_father`)) {
      if (!mapping.includes(`${whose}_first_names`)) mapping[full] = `${whose}_first_names`;
    }
  }
  return { mapping, recognised, unknown };
}

function fieldOf(datum: Datum, whose: Person): RosterField {
  switch (datum) {
    case 'ignore':
      return 'ignore';
    case 'course':
    case 'level':
    case 'letter':
      return datum;
    case 'role':
    case 'relationship':
    case 'phone':
      return `${whose === 'guardian2' ? 'guardian2' : 'guardian'}_${datum}`;
    case 'name':
      return `${whose}_full_name`;
    case 'birth_date':
      return 'student_birth_date';
    default:
      return `${whose}_${datum}`;
  }
}

const HEADER_SEARCH_ROWS = 30;

/**
 * The header row: the first of the first rows whose non-empty cells are mostly known headers (at least
 * two); else the one with most known headers, when it has at least two. Title rows above it are skipped.
 */
export function findHeader(rows: readonly SheetRow[]): number | null {
  let best: { index: number; recognised: number } | null = null;
  for (let index = 0; index < Math.min(rows.length, HEADER_SEARCH_ROWS); index++) {
    const cells = rows[index]!.cells;
    const filled = cells.filter((c) => c !== '').length;
    const read = cells.map(readHeader);
    const known = read.filter((h) => h !== null).length;
    // Only data Hermes keeps make a header: "N°" and "Año" alone do not.
    const recognised = read.filter((h) => h !== null && h.datum !== 'ignore').length;
    if (recognised >= 2 && known * 2 >= filled) return index;
    if (recognised >= 2 && (best === null || recognised > best.recognised)) best = { index, recognised };
  }
  return best?.index ?? null;
}

/** The header's cells, without the empty ones at its end. */
export function headerCells(row: SheetRow): string[] {
  const cells = [...row.cells];
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

const FIELD_NAMES_CL: Readonly<Partial<Record<RosterField, string>>> = {
  student_run: 'RUN del estudiante',
  student_dv: 'DV del estudiante',
  student_curp: 'CURP del estudiante',
  student_first_names: 'Nombres del estudiante',
  student_last_name_father: 'Apellido paterno del estudiante',
  student_last_name_mother: 'Apellido materno del estudiante',
  student_full_name: 'Nombre completo del estudiante',
  student_birth_date: 'Fecha de nacimiento',
  student_email: 'Correo del estudiante',
  course: 'Curso',
  level: 'Nivel',
  letter: 'Letra',
  guardian_run: 'RUN del apoderado',
  guardian_dv: 'DV del apoderado',
  guardian_curp: 'CURP del apoderado',
  guardian_first_names: 'Nombres del apoderado',
  guardian_last_name_father: 'Apellido paterno del apoderado',
  guardian_last_name_mother: 'Apellido materno del apoderado',
  guardian_full_name: 'Nombre completo del apoderado',
  guardian_role: 'Titular o suplente',
  guardian_relationship: 'Relación',
  guardian_phone: 'Celular del apoderado',
  guardian_email: 'Correo del apoderado',
  guardian2_run: 'RUN del segundo apoderado',
  guardian2_dv: 'DV del segundo apoderado',
  guardian2_curp: 'CURP del segundo apoderado',
  guardian2_first_names: 'Nombres del segundo apoderado',
  guardian2_last_name_father: 'Apellido paterno del segundo apoderado',
  guardian2_last_name_mother: 'Apellido materno del segundo apoderado',
  guardian2_full_name: 'Nombre completo del segundo apoderado',
  guardian2_role: 'Titular o suplente del segundo apoderado',
  guardian2_relationship: 'Relación del segundo apoderado',
  guardian2_phone: 'Celular del segundo apoderado',
  guardian2_email: 'Correo del segundo apoderado',
};

/** A Mexican school's names of the fields, as its mapping step shows them (src/i18n/roster/es-MX.json). */
const FIELD_NAMES_MX: Readonly<Partial<Record<RosterField, string>>> = {
  student_run: 'RUN del alumno',
  student_dv: 'Dígito verificador del RUN del alumno',
  student_curp: 'CURP del alumno',
  student_first_names: 'Nombres del alumno',
  student_last_name_father: 'Apellido paterno del alumno',
  student_last_name_mother: 'Apellido materno del alumno',
  student_full_name: 'Nombre completo del alumno',
  student_birth_date: 'Fecha de nacimiento del alumno',
  student_email: 'Correo del alumno',
  course: 'Grado y grupo',
  level: 'Grado',
  letter: 'Grupo',
  guardian_run: 'RUN del padre o tutor',
  guardian_dv: 'Dígito verificador del RUN del padre o tutor',
  guardian_curp: 'CURP del padre o tutor',
  guardian_first_names: 'Nombres del padre o tutor',
  guardian_last_name_father: 'Apellido paterno del padre o tutor',
  guardian_last_name_mother: 'Apellido materno del padre o tutor',
  guardian_full_name: 'Nombre completo del padre o tutor',
  guardian_role: 'Titular o suplente',
  guardian_relationship: 'Relación con el alumno',
  guardian_phone: 'Teléfono del padre o tutor',
  guardian_email: 'Correo del padre o tutor',
  guardian2_run: 'RUN del segundo padre o tutor',
  guardian2_dv: 'Dígito verificador del RUN del segundo padre o tutor',
  guardian2_curp: 'CURP del segundo padre o tutor',
  guardian2_first_names: 'Nombres del segundo padre o tutor',
  guardian2_last_name_father: 'Apellido paterno del segundo padre o tutor',
  guardian2_last_name_mother: 'Apellido materno del segundo padre o tutor',
  guardian2_full_name: 'Nombre completo del segundo padre o tutor',
  guardian2_role: 'Titular o suplente del segundo padre o tutor',
  guardian2_relationship: 'Relación del segundo padre o tutor con el alumno',
  guardian2_phone: 'Teléfono del segundo padre o tutor',
  guardian2_email: 'Correo del segundo padre o tutor',
};

const FIELD_NAMES: Readonly<Record<Country, Readonly<Partial<Record<RosterField, string>>>>> = { CL: FIELD_NAMES_CL, MX: FIELD_NAMES_MX };
/** Whose a DV is, in the words of mappingDv. */
const DV_OF: Readonly<Record<Country, readonly [string, string, string]>> = {
  CL: ['del estudiante', 'del apoderado', 'del segundo apoderado'],
  MX: ['del alumno', 'del padre o tutor', 'del segundo padre o tutor'],
};

const isField = (value: string): value is RosterField => (ROSTER_FIELDS as readonly string[]).includes(value);

/** Why a mapping cannot read a file (null: it can). Checks the fields a roster needs and their pairs. */
export function mappingProblem(mapping: readonly string[], country: Country): string | null {
  const errors = FILE_TEXTS[country];
  const seen = new Set<string>();
  for (const value of mapping) {
    if (!isField(value)) return errors.mappingField(value);
    if (value !== 'ignore' && seen.has(value)) return errors.mappingTwice(FIELD_NAMES[country][value] ?? value);
    seen.add(value);
  }
  const has = (field: RosterField) => seen.has(field);
  if (!has('student_full_name') && !(has('student_first_names') && has('student_last_name_father'))) return errors.mappingName;
  if (!has('course') && !has('level')) return errors.mappingCourse;
  const [student, guardian, guardian2] = DV_OF[country];
  if (has('student_dv') && !has('student_run')) return errors.mappingDv(student);
  if (has('guardian_dv') && !has('guardian_run')) return errors.mappingDv(guardian);
  if (has('guardian2_dv') && !has('guardian2_run')) return errors.mappingDv(guardian2);
  for (const who of ['guardian', 'guardian2'] as const) {
    const data = ['run', 'curp', 'phone', 'email', 'relationship', 'role'] as const;
    const named = has(`${who}_full_name`) || (has(`${who}_first_names`) && has(`${who}_last_name_father`));
    if (data.some((datum) => has(`${who}_${datum}`)) && !named)
      return who === 'guardian' ? errors.mappingGuardianName : errors.mappingSecondGuardianName;
  }
  return null;
}

/** A mapping sent by the administrator, checked against the file's header. */
export function checkMapping(mapping: readonly string[], headers: readonly string[], country: Country): ColumnMapping {
  if (mapping.length !== headers.length) throw new RosterFileError(FILE_ERRORS.mappingLength(mapping.length, headers.length));
  const problem = mappingProblem(mapping, country);
  if (problem !== null) throw new RosterFileError(problem);
  return mapping.filter(isField);
}
