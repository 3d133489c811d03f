// The reader's Spanish texts: a file refused as a whole (RosterFileError) and a line refused (RowProblem), in
// the words of the school's country: a Mexican school reads alumno, padre o tutor, grado y grupo and CURP.
// Contact-data texts come from shared/person-rules.ts so the import and the member editor say the same.
import { ROSTER_FILE_MAX_BYTES, ROSTER_ROWS_MAX } from '../../../shared/roster-contract';
import type { Country } from './course';

const MB = Math.round(ROSTER_FILE_MAX_BYTES / (1024 * 1024));
const thousands = (n: number) => n.toLocaleString('es-CL');

/** Texts with no country word in them (the file's size, type and shape), the same for every school. */
const FILE_ERRORS_ANY = {
  empty: 'El archivo está vacío.',
  tooBig: `El archivo pesa más de ${MB} MB: divídelo en partes o quita las columnas que Hermes no usa.`,
  tooManyRows: `El archivo tiene más de ${thousands(ROSTER_ROWS_MAX)} filas: divídelo en partes.`,
  type: 'Sube un archivo CSV o Excel (.xlsx).',
  oldExcel: 'Ese es un archivo de Excel antiguo (.xls): ábrelo en Excel y guárdalo como .xlsx o CSV.',
  unreadableXlsx: 'No pudimos abrir el archivo de Excel: revisa que sea un .xlsx y que no esté dañado o protegido con contraseña.',
  notText: 'El archivo no es un CSV de texto: guárdalo desde Excel como «CSV (delimitado por punto y coma)» o súbelo como .xlsx.',
  openQuote: (line: number) => `La línea ${line} abre comillas (") que no se cierran: ciérralas o quítalas y vuelve a subir el archivo.`,
  mappingLength: (given: number, columns: number) =>
    `La asignación de columnas no corresponde al archivo: trae ${given} columnas y el archivo tiene ${columns}. Vuelve a asignarlas.`,
  mappingField: (value: string) => `La asignación de columnas trae un campo desconocido: «${value}».`,
  mappingTwice: (field: string) => `Asignaste dos columnas a «${field}»: cada dato va en una sola columna.`,
};

/** The file's refusals that name people, courses or documents, as Chile writes them. */
const FILE_ERRORS_CL = {
  ...FILE_ERRORS_ANY,
  staffFile:
    'Este archivo parece una lista del personal (nombre, correo y rol), no de estudiantes: invítalos en Configuración › Personal › «Invitar personal», que acepta este mismo archivo.',
  noHeader:
    'No encontramos la fila de títulos de las columnas (por ejemplo RUN, Nombres, Apellido paterno, Curso). Descarga la plantilla para ver cómo escribirlos.',
  noRows: 'El archivo tiene la fila de títulos pero ningún estudiante.',
  mappingName: 'Falta la columna del nombre del estudiante: asigna «Nombres» y «Apellido paterno», o «Nombre completo».',
  mappingCourse: 'Falta la columna del curso: asigna «Curso», o «Nivel» y «Letra».',
  mappingDv: (who: string) => `Asignaste el dígito verificador ${who} sin la columna de su RUN.`,
  mappingGuardianName:
    'Hay columnas del apoderado (RUN, celular, correo o relación) pero ninguna con su nombre: asigna «Nombres apoderado» y «Apellido paterno apoderado», o «Nombre apoderado».',
  mappingSecondGuardianName:
    'Hay columnas del segundo apoderado (RUN, celular, correo o relación) pero ninguna con su nombre: asigna «Nombres del segundo apoderado» y «Apellido paterno del segundo apoderado», o «Nombre completo del segundo apoderado».',
};

type FileErrors = typeof FILE_ERRORS_CL;

/**
 * The same as a Mexican school reads them: alumno, padre o tutor, grado y grupo, CURP; the fields named as
 * the mapping step names them there (src/i18n/roster/es-MX.json).
 */
const FILE_ERRORS_MX: FileErrors = {
  ...FILE_ERRORS_ANY,
  staffFile:
    'Este archivo parece una lista del personal (nombre, correo y rol), no de alumnos: invítalos en Configuración › Personal › «Invitar personal», que acepta este mismo archivo.',
  noHeader:
    'No encontramos la fila de títulos de las columnas (por ejemplo CURP, Nombres, Apellido paterno, Grado, Grupo). Descarga la plantilla para ver cómo escribirlos.',
  noRows: 'El archivo tiene la fila de títulos pero ningún alumno.',
  mappingName:
    'Falta la columna del nombre del alumno: asigna «Nombres del alumno» y «Apellido paterno del alumno», o «Nombre completo del alumno».',
  mappingCourse: 'Falta la columna del grado: asigna «Grado y grupo», o «Grado» y «Grupo».',
  mappingDv: (who: string) => `Asignaste el dígito verificador ${who} sin la columna de su documento.`,
  mappingGuardianName:
    'Hay columnas del padre o tutor (CURP, celular, correo o parentesco) pero ninguna con su nombre: asigna «Nombres del padre o tutor» y «Apellido paterno del padre o tutor», o «Nombre completo del padre o tutor».',
  mappingSecondGuardianName:
    'Hay columnas del segundo padre o tutor (CURP, celular, correo o parentesco) pero ninguna con su nombre: asigna «Nombres del segundo padre o tutor» y «Apellido paterno del segundo padre o tutor», o «Nombre completo del segundo padre o tutor».',
};

/** A file refused as a whole, by the school's country. */
export const FILE_TEXTS: Readonly<Record<Country, FileErrors>> = { CL: FILE_ERRORS_CL, MX: FILE_ERRORS_MX };

/** The refusals that name no country's words: the route's size check and the CSV and .xlsx readers use these. */
export const FILE_ERRORS = FILE_ERRORS_ANY;

const list = (lines: number[]) => (lines.length === 1 ? `línea ${lines[0]}` : `líneas ${lines.join(' y ')}`);

const ROW_ERRORS_CL = {
  studentName: 'Falta el nombre del estudiante.',
  studentLastName: 'Falta el apellido paterno del estudiante.',
  guardianName: 'Falta el nombre del apoderado.',
  guardianLastName: 'Falta el apellido paterno del apoderado.',
  fullNameOneWord: 'Escribe nombres y apellidos: con una sola palabra no sabemos cuál es el apellido.',
  courseRequired: 'Falta el curso.',
  course: (value: string) => `No reconocemos el curso «${value}»: escríbelo como «1° Básico A».`,
  birthDate: 'Escribe la fecha de nacimiento como día-mes-año, por ejemplo 15-03-2018.',
  birthDateFuture: 'La fecha de nacimiento es posterior a hoy.',
  /** `date` as the cell wrote it, with a two-digit year that this century puts after today. */
  birthDateShortYear: (date: string, year: number) =>
    `El año «${date.slice(-2)}» de la fecha de nacimiento se lee como ${year}, que es posterior a hoy: escríbelo con cuatro dígitos, por ejemplo ${date.slice(0, -2)}19${date.slice(-2)}.`,
  dvWithoutRun: 'Hay dígito verificador pero no RUN.',
  dvMismatch: 'El dígito verificador no coincide con el del RUN.',
  role: (value: string) => `No reconocemos «${value}» como tipo de apoderado: escribe titular o suplente.`,
  long: (max: number) => `Este dato puede tener hasta ${max} caracteres.`,
  studentTwice: (line: number, what: string) => `El estudiante ya aparece en la línea ${line} con ${what}.`,
  guardianTwice: (line: number, what: string) => `El apoderado ya aparece en la línea ${line} con ${what}.`,
  /** What differs between two lines of one student or guardian, for studentTwice and guardianTwice. */
  otherCourse: (course: string) => `otro curso (${course})`,
  sameNameNoDocument: (line: number) =>
    `El estudiante ya aparece en la línea ${line} con el mismo nombre y curso, sin RUN: si es la misma línea repetida, bórrala; si son dos estudiantes distintos, escribe el RUN de cada uno.`,
  thirdGuardian: (lines: number[]) => `El estudiante ya tiene dos apoderados (${list(lines)}): Hermes guarda un titular y un suplente.`,
  thirdWithThisLine: (line: number) =>
    `El estudiante ya tiene un apoderado en la línea ${line}: con los dos de esta línea serían tres, y Hermes guarda un titular y un suplente.`,
  twoTitulares: (line: number) => `El estudiante ya tiene un apoderado titular en la línea ${line}: marca uno de los dos como suplente.`,
  twoTitularesOnLine: 'Los dos apoderados de esta línea están marcados como titular: marca uno como suplente.',
  sameGuardianOnLine: 'Los dos apoderados de esta línea son la misma persona: deja vacías las columnas del segundo o corrígelas.',
};

type RowErrors = typeof ROW_ERRORS_CL;

const ROW_ERRORS_MX: RowErrors = {
  ...ROW_ERRORS_CL,
  studentName: 'Falta el nombre del alumno.',
  studentLastName: 'Falta el apellido paterno del alumno.',
  guardianName: 'Falta el nombre del padre o tutor.',
  guardianLastName: 'Falta el apellido paterno del padre o tutor.',
  courseRequired: 'Falta el grado y grupo.',
  course: (value: string) => `No reconocemos el grado y grupo «${value}»: escríbelo como «1° de Primaria A».`,
  dvWithoutRun: 'Hay dígito verificador pero no documento.',
  dvMismatch: 'El dígito verificador no coincide con el del documento.',
  role: (value: string) => `No reconocemos «${value}» como tipo de padre o tutor: escribe titular o suplente.`,
  studentTwice: (line: number, what: string) => `El alumno ya aparece en la línea ${line} con ${what}.`,
  guardianTwice: (line: number, what: string) => `El padre o tutor ya aparece en la línea ${line} con ${what}.`,
  otherCourse: (course: string) => `otro grupo (${course})`,
  sameNameNoDocument: (line: number) =>
    `El alumno ya aparece en la línea ${line} con el mismo nombre y grupo, sin CURP: si es la misma línea repetida, bórrala; si son dos alumnos distintos, escribe la CURP de cada uno.`,
  thirdGuardian: (lines: number[]) => `El alumno ya tiene dos padres o tutores (${list(lines)}): Hermes guarda un titular y un suplente.`,
  thirdWithThisLine: (line: number) =>
    `El alumno ya tiene un padre o tutor en la línea ${line}: con los dos de esta línea serían tres, y Hermes guarda un titular y un suplente.`,
  twoTitulares: (line: number) => `El alumno ya tiene un padre o tutor titular en la línea ${line}: marca uno de los dos como suplente.`,
  twoTitularesOnLine: 'Los dos padres o tutores de esta línea están marcados como titular: marca uno como suplente.',
  sameGuardianOnLine: 'Los dos padres o tutores de esta línea son la misma persona: deja vacías las columnas del segundo o corrígelas.',
};

/** A line refused, by the school's country. */
export const ROW_TEXTS: Readonly<Record<Country, RowErrors>> = { CL: ROW_ERRORS_CL, MX: ROW_ERRORS_MX };
