// The people screen's Spanish answers and field errors, and the limits they name: one object the route, the
// domain and the tests read. A Mexican school reads its own words (alumno, padre o tutor, escuela); the texts
// shared with the member editor are shared/person-rules.ts'.
import { PEOPLE_PER_PAGE_MAX, PEOPLE_Q_MAX, RELATIONSHIP_MAX } from '../../shared/people-contract';

/** Far beyond any school's people; keeps OFFSET and the link arithmetic in safe integers. */
export const PEOPLE_MAX_PAGE = 100_000;

export type Country = 'CL' | 'MX';

/** A text in each country's words. */
type Worded = Readonly<Record<Country, string>>;

export const PEOPLE_MESSAGES = {
  erased: 'Esta persona fue eliminada a su pedido: sus datos ya no se pueden editar.',
  page: `La página debe ser un número entero entre 1 y ${PEOPLE_MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${PEOPLE_PER_PAGE_MAX}.`,
  q: `La búsqueda puede tener hasta ${PEOPLE_Q_MAX} caracteres.`,
  kind: {
    CL: 'El tipo debe ser estudiante o apoderado.',
    MX: 'El tipo debe ser alumno o padre o tutor.',
  } satisfies Worded,
  status: 'La situación debe ser matriculados, retirados o todos.',
  course: {
    CL: 'Ese curso no existe en el colegio: elige uno de la lista.',
    MX: 'Ese grupo no existe en la escuela: elige uno de la lista.',
  } satisfies Worded,
  forbidden: {
    CL: 'Solo la dirección o la administración del colegio puede cambiar los datos de estudiantes y apoderados.',
    MX: 'Solo la dirección o la administración de la escuela puede cambiar los datos de alumnos y padres o tutores.',
  } satisfies Worded,
  nothing: 'No hay cambios que guardar.',
  role: 'Elige si es titular (1) o suplente (2).',
  roleTaken: {
    CL: (role: 1 | 2) => `Este estudiante ya tiene apoderado ${role === 1 ? 'titular' : 'suplente'}: quítalo primero o elige el otro rol.`,
    MX: (role: 1 | 2) => `Este alumno ya tiene padre o tutor ${role === 1 ? 'titular' : 'suplente'}: quítalo primero o elige el otro rol.`,
  },
  relationship: {
    CL: 'Indica la relación con el estudiante: madre, padre, abuela…',
    MX: 'Indica la relación con el alumno: madre, padre, abuela…',
  } satisfies Worded,
  relationshipLong: `La relación puede tener hasta ${RELATIONSHIP_MAX} caracteres.`,
  alreadyLinked: {
    CL: 'Esa persona ya es apoderado de este estudiante.',
    MX: 'Esa persona ya es padre o tutor de este alumno.',
  } satisfies Worded,
  alreadyWithdrawn: {
    CL: 'Este estudiante ya está marcado como retirado.',
    MX: 'Este alumno ya está marcado como dado de baja.',
  } satisfies Worded,
  notWithdrawn: {
    CL: 'Este estudiante ya está matriculado: no hay retiro que deshacer.',
    MX: 'Este alumno ya está inscrito: no hay baja que deshacer.',
  } satisfies Worded,
} as const;
