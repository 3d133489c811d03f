// The staff screen's and the invitation page's Spanish answers and field errors, and the limits they name:
// one object the route, the domain and the tests read.
import { PASSWORD_MAX } from '../../shared/password-rules';
import {
  INVITE_MAX_PEOPLE,
  STAFF_EMAIL_MAX,
  STAFF_NAME_MAX,
  STAFF_PER_PAGE_MAX,
  STAFF_Q_MAX,
  INVITATION_DAYS,
} from '../../shared/staff-contract';

/** Far beyond any school's staff; keeps OFFSET and the link arithmetic in safe integers. */
export const STAFF_MAX_PAGE = 100_000;

export const STAFF_MESSAGES = {
  page: `La página debe ser un número entero entre 1 y ${STAFF_MAX_PAGE}.`,
  perPage: `La cantidad por página debe ser un número entero entre 1 y ${STAFF_PER_PAGE_MAX}.`,
  q: `La búsqueda puede tener hasta ${STAFF_Q_MAX} caracteres.`,
  state: 'El estado debe ser invitado, activo o desactivado.',
  sort: 'El orden debe ser por nombre, correo, último ingreso o estado.',
  order: 'El sentido del orden debe ser ascendente o descendente.',
  forbidden: 'Solo la administración de la institución puede gestionar las cuentas del personal.',
  people: 'Indica al menos una persona a quien invitar.',
  peopleMany: `Se pueden invitar hasta ${INVITE_MAX_PEOPLE} personas a la vez.`,
  name: 'Escribe el nombre de la persona.',
  nameLong: `El nombre puede tener hasta ${STAFF_NAME_MAX} caracteres.`,
  email: 'Escribe el correo electrónico de la persona.',
  emailInvalid: 'El correo electrónico no es válido.',
  emailLong: `El correo electrónico puede tener hasta ${STAFF_EMAIL_MAX} caracteres.`,
  emailRepeated: 'Este correo ya aparece más arriba en la misma invitación.',
  emailElsewhere: 'Este correo ya tiene una cuenta en Hermes en otra institución. Usa otro correo.',
  role: 'El rol debe ser administrador, director, jefe de UTP, UTP de corporación o docente.',
  roles: 'Elige al menos un rol válido: administrador, director, jefe de UTP, UTP de corporación o docente.',
  device: 'El dispositivo debe ser latam o cl.',
  nothing: 'Indica los roles o el dispositivo que quieres cambiar.',
  ownAdmin: 'No puedes quitarte tu propio rol de administrador. Pídeselo a otro administrador de la institución.',
  lastAdmin: 'La institución debe tener al menos un administrador activo: asigna el rol a otra persona antes.',
  lastAdminDeactivate: 'La institución debe tener al menos un administrador activo: no puedes desactivar al último.',
  self: 'No puedes desactivar tu propia cuenta. Pídeselo a otro administrador de la institución.',
  notInvited: 'Esta persona ya no tiene una invitación pendiente.',
  noPending: 'Esta invitación ya no está pendiente: reenvíala para generar un enlace nuevo.',
  alreadyDeactivated: 'Esta cuenta ya está desactivada.',
  notDeactivated: 'Esta cuenta no está desactivada.',
  invitationExpired: `Este enlace de invitación venció (duran ${INVITATION_DAYS} días). Pide al administrador de tu institución que te envíe uno nuevo.`,
  invitationUsed: 'Este enlace de invitación ya se usó. Inicia sesión con tu correo y contraseña.',
  invitationRevoked: 'Este enlace de invitación ya no es válido. Pide al administrador de tu institución que te envíe uno nuevo.',
  invitationUnknown: 'Este enlace de invitación no existe. Revisa que lo hayas copiado completo.',
  password: 'Escribe una contraseña.',
  passwordLong: `La contraseña puede tener como máximo ${PASSWORD_MAX} caracteres.`,
} as const;
