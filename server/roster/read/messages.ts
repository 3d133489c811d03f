// The reader's Spanish texts: a file refused as a whole (RosterFileError) and a line refused (RowProblem).
// Contact-data texts come from shared/person-rules.ts so the import and the member editor say the same.
import { ROSTER_FILE_MAX_BYTES, ROSTER_ROWS_MAX } from '../../../shared/roster-contract';

const MB = Math.round(ROSTER_FILE_MAX_BYTES / (1024 * 1024));
const thousands = (n: number) => n.toLocaleString('es-CL');

export const FILE_ERRORS = {
  empty: 'El archivo está vacío.',
  tooBig: `El archivo pesa más de ${MB} MB: divídelo en partes o quita las columnas que Hermes no usa.`,
  tooManyRows: `El archivo tiene más de ${thousands(ROSTER_ROWS_MAX)} filas: divídelo en partes.`,
  type: 'Sube un archivo CSV o Excel (.xlsx).',
  oldExcel: 'Ese es un archivo de Excel antiguo (.xls): ábrelo en Excel y guárdalo como .xlsx o CSV.',
  unreadableXlsx: 'No pudimos abrir el archivo de Excel: revisa que sea un .xlsx y que no esté dañado o protegido con contraseña.',
  notText: 'El archivo no es un CSV de texto: guárdalo desde Excel como «CSV (delimitado por punto y coma)» o súbelo como .xlsx.',
  noHeader:
    'No encontramos la fila de títulos de las columnas (por ejemplo RUN, Nombres, Apellido paterno, Curso). Descarga la plantilla para ver cómo escribirlos.',
  openQuote: (line: number) => `La línea ${line} abre comillas (") que no se cierran: ciérralas o quítalas y vuelve a subir el archivo.`,
  noRows: 'El archivo tiene la fila de títulos pero ningún estudiante.',
  staffFile:
    'Este archivo parece una lista del personal (nombre, correo y rol), no de estudiantes: invítalos en Configuración › Personal › «Invitar personal», que acepta este mismo archivo.',
  mappingLength: (given: number, columns: number) =>
    `La asignación de columnas no corresponde al archivo: trae ${given} columnas y el archivo tiene ${columns}. Vuelve a asignarlas.`,
  mappingField: (value: string) => `La asignación de columnas trae un campo desconocido: «${value}».`,
  mappingTwice: (field: string) => `Asignaste dos columnas a «${field}»: cada dato va en una sola columna.`,
  mappingName: 'Falta la columna del nombre del estudiante: asigna «Nombres» y «Apellido paterno», o «Nombre completo».',
  mappingCourse: 'Falta la columna del curso: asigna «Curso», o «Nivel» y «Letra».',
  mappingDv: (who: string) => `Asignaste el dígito verificador ${who} sin la columna de su RUN.`,
  mappingGuardianName:
    'Hay columnas del apoderado (RUN, celular, correo o relación) pero ninguna con su nombre: asigna «Nombres apoderado» y «Apellido paterno apoderado», o «Nombre apoderado».',
  mappingSecondGuardianName:
    'Hay columnas del segundo apoderado (RUN, celular, correo o relación) pero ninguna con su nombre: asigna «Nombres del segundo apoderado» y «Apellido paterno del segundo apoderado», o «Nombre completo del segundo apoderado».',
} as const;

export const ROW_ERRORS = {
  studentName: 'Falta el nombre del estudiante.',
  studentLastName: 'Falta el apellido paterno del estudiante.',
  guardianName: 'Falta el nombre del apoderado.',
  guardianLastName: 'Falta el apellido paterno del apoderado.',
  fullNameOneWord: 'Escribe nombres y apellidos: con una sola palabra no sabemos cuál es el apellido.',
  courseRequired: 'Falta el curso.',
  course: (value: string, example: string) => `No reconocemos el curso «${value}»: escríbelo como «${example}».`,
  birthDate: 'Escribe la fecha de nacimiento como día-mes-año, por ejemplo 15-03-2018.',
  birthDateFuture: 'La fecha de nacimiento es posterior a hoy.',
  dvWithoutRun: 'Hay dígito verificador pero no RUN.',
  dvMismatch: 'El dígito verificador no coincide con el del RUN.',
  role: (value: string) => `No reconocemos «${value}» como tipo de apoderado: escribe titular o suplente.`,
  long: (max: number) => `Este dato puede tener hasta ${max} caracteres.`,
  studentTwice: (line: number, what: string) => `El estudiante ya aparece en la línea ${line} con ${what}.`,
  guardianTwice: (line: number, what: string) => `El apoderado ya aparece en la línea ${line} con ${what}.`,
  thirdGuardian: (lines: number[]) =>
    `El estudiante ya tiene dos apoderados (${lines.length === 1 ? `línea ${lines[0]}` : `líneas ${lines.join(' y ')}`}): Hermes guarda un titular y un suplente.`,
  thirdWithThisLine: (line: number) =>
    `El estudiante ya tiene un apoderado en la línea ${line}: con los dos de esta línea serían tres, y Hermes guarda un titular y un suplente.`,
  twoTitulares: (line: number) => `El estudiante ya tiene un apoderado titular en la línea ${line}: marca uno de los dos como suplente.`,
  twoTitularesOnLine: 'Los dos apoderados de esta línea están marcados como titular: marca uno como suplente.',
  sameGuardianOnLine: 'Los dos apoderados de esta línea son la misma persona: deja vacías las columnas del segundo o corrígelas.',
} as const;

/** What a file's course should look like, in the school's country. */
export const COURSE_EXAMPLE = { CL: '1° Básico A', MX: '1° de Primaria A' } as const;
