// The words of the export's summary and the privacy routes' refusals, in the Spanish both countries read.
import type { PrivacyKind, PrivacySection } from '../../shared/privacy-contract';

export const PRIVACY_SECTION_TITLES: Readonly<Record<PrivacySection, string>> = {
  contactos: 'Datos de contacto',
  cursos: 'Cursos',
  vinculos: 'Estudiantes o apoderados vinculados',
  listas: 'Listas de destinatarios en que figura',
  mensajes_recibidos: 'Mensajes recibidos',
  entregas: 'Envíos de esos mensajes (canal, estado)',
  mensajes_escritos: 'Mensajes y respuestas que escribió',
  adjuntos: 'Archivos que adjuntó',
  mensajes_entrantes: 'Mensajes de texto o WhatsApp recibidos desde su teléfono',
  sesiones_app: 'Sesiones en la app',
  codigos_acceso: 'Códigos de acceso a la app',
  dispositivos_push: 'Dispositivos con notificaciones',
  silencios_push: 'Notificaciones silenciadas',
  enlaces_app: 'Enlaces de instalación de la app',
  bajas_canal: 'Bajas de SMS o WhatsApp',
  eventos_baja: 'Solicitudes de baja y alta',
  cambios_contacto: 'Historial de cambios de sus datos',
  lectura_anual: 'Lectura por año escolar',
  cuenta: 'Cuenta de usuario',
  roles: 'Roles',
  sesiones: 'Sesiones iniciadas',
  cambios_cuenta: 'Cambios de la cuenta',
};

export const PRIVACY_TEXTS = {
  summaryTitle: 'Sus datos personales en Hermes',
  summaryIntro: (school: string, at: string) =>
    `Este archivo reúne todo lo que ${school} guarda sobre usted en Hermes, leído el ${at.slice(0, 10)} a las ${at.slice(11, 16)} (UTC). ` +
    'datos.json tiene todo; los archivos .csv se abren con una planilla; la carpeta adjuntos tiene los archivos que usted envió.',
  identity: 'Quién es',
  files: 'Qué guardamos',
  fields: {
    name: 'Nombre',
    kind: 'Calidad',
    dni: 'RUT o CURP',
    email: 'Correo',
    phone: 'Teléfono',
    birthDate: 'Fecha de nacimiento',
    withdrawnAt: 'Retirado el',
  },
  kinds: { apoderado: 'Apoderado o tutor', estudiante: 'Estudiante', funcionario: 'Funcionario' } satisfies Record<PrivacyKind, string>,
  count: (n: number) => (n === 1 ? '1 registro' : `${n} registros`),
  shownRows: 20,
  more: (n: number, file: string) => (n === 1 ? `… y 1 más en ${file}` : `… y ${n} más en ${file}`),
  forbidden: 'Solo la dirección del colegio puede ver los datos personales de una persona.',
  q: 'Escribe a lo más 100 caracteres.',
} as const;
