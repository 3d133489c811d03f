// The roster import's Spanish answers and field errors, and the limits they name: one object the route, the
// command line and the tests read. The file's own errors are the reader's (server/roster/read/messages.ts).
export const ROSTER_PER_PAGE = 50;
export const ROSTER_PER_PAGE_MAX = 500;
/** Far beyond any school's imports or people; keeps OFFSET in safe integers. */
export const ROSTER_MAX_PAGE = 100_000;
/** School years an import may name: around the present, a typo of a century is refused. */
export const SCHOOL_YEAR_MIN = 2000;
export const SCHOOL_YEAR_MAX = 2100;

export const ROSTER_MESSAGES = {
  forbidden: 'Solo la administración de la institución puede importar la nómina de estudiantes y apoderados.',
  fileMissing: 'Adjunta el archivo de la nómina (CSV o Excel .xlsx) en el campo file.',
  mapping: 'La asignación de columnas no es válida: debe indicar, para cada columna del archivo, uno de los datos conocidos.',
  schoolYear: `El año escolar debe ser un número entre ${SCHOOL_YEAR_MIN} y ${SCHOOL_YEAR_MAX}.`,
  schoolYearPast: (current: number) =>
    `El año escolar no puede ser anterior a ${current}, el de la última nómina aplicada: importa la nómina de ${current} o de un año posterior.`,
  page: `La página debe ser un número entero entre 1 y ${ROSTER_MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${ROSTER_PER_PAGE_MAX}.`,
  change: 'El cambio debe ser nuevo, modificado, sin cambios, retirado o conflictos.',
  kind: 'El tipo debe ser estudiante o apoderado.',
  state: 'Esta importación ya fue aplicada o descartada: sube el archivo de nuevo para otra vista previa.',
  stale: {
    CL: 'La nómina del colegio cambió después de esta vista previa (otra importación o una edición): sube el archivo de nuevo para ver los cambios al día.',
    MX: 'La inscripción de la escuela cambió después de esta vista previa (otra importación o una edición): sube el archivo de nuevo para ver los cambios al día.',
  },
  conflicts: (n: number) =>
    n === 1
      ? 'Falta elegir qué dato conservar en 1 conflicto con una corrección hecha a mano.'
      : `Falta elegir qué dato conservar en ${n} conflictos con correcciones hechas a mano.`,
  choices: 'Las elecciones de los conflictos deben ser "keep" (conservar el dato de Hermes) o "file" (tomar el del archivo).',
  country: 'El país debe ser CL (Chile) o MX (México).',
} as const;
