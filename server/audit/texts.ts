// The audit screen's Spanish answers and field errors, and the words of its CSV file: one object the route,
// the domain and the tests read.
import { AUDIT_PER_PAGE_MAX, type AuditAction } from '../../shared/audit-contract';

/** Far beyond any school's log; keeps OFFSET and the link arithmetic in safe integers. */
export const AUDIT_MAX_PAGE = 100_000;

export const AUDIT_MESSAGES = {
  forbidden: 'Solo la administración de la institución puede ver el registro de auditoría.',
  page: `La página debe ser un número entero entre 1 y ${AUDIT_MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${AUDIT_PER_PAGE_MAX}.`,
  action: 'La acción no es una de las que registra la auditoría.',
  subjectKind: 'El tipo de persona o elemento no es válido.',
  subjectId: 'El identificador de la persona o elemento debe ser un número entero positivo.',
  subjectPair: 'Indica a la vez el tipo y el identificador de la persona o elemento.',
  actorId: 'El identificador de quien actuó debe ser un número entero positivo.',
  date: 'La fecha debe tener el formato AAAA-MM-DD y ser una fecha real.',
  range: 'La fecha «hasta» no puede ser anterior a la fecha «desde».',
  tooMany: (max: number) => `El registro filtrado tiene más de ${max} entradas: acota las fechas para exportarlo.`,
} as const;

/** Neutral words for what is no longer there (an erased person reads as their anonymised row does). */
export const AUDIT_WORDS = {
  system: 'Sistema',
  anonymous: 'Sin sesión',
  goneAccount: 'Cuenta eliminada',
  gonePerson: 'Persona eliminada',
  columns: ['Fecha', 'Acción', 'Código', 'Quién', 'Dirección IP', 'Sobre', 'Tipo', 'Id', 'Detalle'],
} as const;

/** Each action as the CSV names it (the screen's es-CL words). */
export const AUDIT_ACTION_WORDS: Readonly<Record<AuditAction, string>> = {
  'session.signed_in': 'Inicio de sesión',
  'session.sign_in_failed': 'Inicio de sesión fallido',
  'session.signed_out': 'Cierre de sesión',
  'staff.invited': 'Invitación al personal',
  'staff.changed': 'Cambio de roles o dispositivo',
  'staff.deactivated': 'Cuenta desactivada',
  'staff.reactivated': 'Cuenta reactivada',
  'roster.imported': 'Importación de nómina',
  'person.changed': 'Datos de una persona modificados',
  'person.withdrawn': 'Alumno retirado',
  'person.contacts_viewed': 'Consulta de contactos',
  'export.call_list': 'Exportación de lista de llamados',
  'export.csv': 'Exportación CSV',
  'person.data_viewed': 'Consulta de los datos de una persona',
  'person.exported': 'Exportación de los datos de una persona',
  'audit.exported': 'Exportación del registro de auditoría',
  'person.blocked': 'Bloqueo de envíos',
  'person.unblocked': 'Desbloqueo de envíos',
  'person.erased': 'Supresión de una persona',
  'message.purged': 'Mensaje eliminado definitivamente',
  'settings.changed': 'Cambio de configuración',
  'channels.changed': 'Cambio de canales',
  'sso.changed': 'Cambio de inicio de sesión único',
  'retention.changed': 'Cambio de plazos de conservación',
  'retention.applied': 'Aplicación de plazos de conservación',
};
