// The words of the export (LEEME.txt, the CSVs' headers) in the school's country's vocabulary (decision 0282):
// a Chilean school reads "curso", "apoderado" and "planilla", a Mexican one "grupo", "padre o tutor" and
// "hoja de cálculo". The routes' refusals are read before the school is known: words both countries read.
import type { PrivacyKind, PrivacySection } from '../../shared/privacy-contract';

export type ExportCountry = 'CL' | 'MX';

/** The school an export is made for: its name, its country's words, its time zone for the time it was read. */
export interface ExportSchool {
  name: string;
  country: ExportCountry;
  timezone: string;
}

const SECTION_TITLES_CL: Readonly<Record<PrivacySection, string>> = {
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

const SECTION_TITLES_MX: Readonly<Record<PrivacySection, string>> = {
  ...SECTION_TITLES_CL,
  cursos: 'Grupos',
  vinculos: 'Alumnos o padres o tutores vinculados',
  lectura_anual: 'Lectura por ciclo escolar',
};

/** A CSV column or a summary line's key, as the JSON names it (Chilean), in a Mexican school's words. */
const COLUMNS_MX: Readonly<Record<string, string>> = {
  curso: 'grupo',
  estudiantes: 'alumnos',
  estudiante_id: 'alumno_id',
  apoderado_id: 'padre_o_tutor_id',
};

const COMMON = {
  summaryTitle: 'Sus datos personales en Hermes',
  identity: 'Quién es',
  files: 'Qué guardamos',
  count: (n: number) => (n === 1 ? '1 registro' : `${n} registros`),
  shownRows: 20,
  more: (n: number, file: string) => (n === 1 ? `… y 1 más en ${file}` : `… y ${n} más en ${file}`),
  yes: 'sí',
  no: 'no',
} as const;

const intro = (spreadsheet: string) => (school: string, at: string) =>
  `Este archivo reúne todo lo que ${school} guarda sobre usted en Hermes, leído el ${at}. ` +
  `datos.json tiene todo; los archivos .csv se abren con una ${spreadsheet}; la carpeta adjuntos tiene los archivos que usted envió.`;

const TEXTS_CL = {
  ...COMMON,
  summaryIntro: intro('planilla'),
  sectionTitles: SECTION_TITLES_CL,
  column: (key: string) => key,
  fields: {
    name: 'Nombre',
    kind: 'Calidad',
    dni: 'RUT',
    email: 'Correo',
    phone: 'Teléfono',
    birthDate: 'Fecha de nacimiento',
    withdrawnAt: 'Retirado el',
  },
  kinds: { apoderado: 'Apoderado', estudiante: 'Estudiante', funcionario: 'Funcionario' } satisfies Record<PrivacyKind, string>,
};

const TEXTS_MX: typeof TEXTS_CL = {
  ...COMMON,
  summaryIntro: intro('hoja de cálculo'),
  sectionTitles: SECTION_TITLES_MX,
  column: (key: string) => COLUMNS_MX[key] ?? key,
  fields: { ...TEXTS_CL.fields, dni: 'CURP', withdrawnAt: 'Dado de baja el' },
  kinds: { apoderado: 'Padre o tutor', estudiante: 'Alumno', funcionario: 'Personal' },
};

/** The export's words for a school of `country`. */
export const exportTexts = (country: ExportCountry): typeof TEXTS_CL => (country === 'MX' ? TEXTS_MX : TEXTS_CL);

export const PRIVACY_TEXTS = {
  forbidden: 'Solo la dirección puede ver los datos personales de una persona.',
  q: 'Escribe a lo más 100 caracteres.',
} as const;
