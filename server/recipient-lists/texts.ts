// The recipient lists' Spanish answers and field errors, and the limits they name (the paged lists' query
// parameters, a list's name): one object the route, the writes and the tests read.
import { MAX_PICKS } from '../../shared/compose-contract';
import { LIST_NAME_MAX } from '../../shared/recipient-lists-contract';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** Far beyond any real number of lists; keeps OFFSET and the link arithmetic in safe integers. */
export const MAX_PAGE = 100_000;
export const Q_MAX = 100;

export const LIST_MESSAGES = {
  page: `La página debe ser un número entero entre 1 y ${MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${MAX_PER_PAGE}.`,
  q: `La búsqueda puede tener hasta ${Q_MAX} caracteres.`,
  name: 'Escribe un nombre para la lista.',
  nameLong: `El nombre de la lista puede tener hasta ${LIST_NAME_MAX} caracteres.`,
  nameTaken: 'Ya tienes una lista con ese nombre. Elige otro.',
  shared: 'Indica si la lista se comparte con el equipo del colegio (sí o no).',
  picks: 'Elige a quiénes incluir en la lista.',
  picksInvalid: 'Los destinatarios elegidos no son válidos.',
  picksMany: `No se pueden elegir más de ${MAX_PICKS} destinatarios a la vez.`,
  picksEmpty: 'Los grupos elegidos no tienen personas: elige otros destinatarios.',
  nothing: 'No hay cambios que guardar.',
  staffEdit: 'Solo la dirección o la administración del colegio puede cambiar los datos de un funcionario.',
  familyEdit: {
    CL: 'Solo la dirección o la administración del colegio puede cambiar los datos de una familia. Pídeles la corrección.',
    MX: 'Solo la dirección o la administración de la escuela puede cambiar los datos de una familia. Pídeles la corrección.',
  },
  personSaved: (name: string) => `Datos de ${name} actualizados. El cambio se aplica en todas las listas y en los próximos mensajes.`,
  scheduled: (title: string, when: string, author: string | null) =>
    `No puedes eliminar esta lista: la usa el mensaje programado «${title}»${author ? ` de ${author}` : ''} para el ${when}. ` +
    (author ? 'Pide que cancelen esa programación y vuelve a intentarlo.' : 'Cancela esa programación y vuelve a intentarlo.'),
} as const;
