// API contract of a person's data rights (the administrators' "Datos personales" screens): finding a
// student, guardian or colleague, everything Hermes holds about them, and that as one ZIP file. Shared by
// the SPA and `server/`. Plain types and constants only; the response structs are in privacy-structs.ts.

// ---------------------------------------------------------------------------------------------------------
// Access: search, inventory, export
// ---------------------------------------------------------------------------------------------------------

/** A person's kind in the path, the same words as the audit log's and the people contract's. */
export const PRIVACY_KINDS = ['apoderado', 'estudiante', 'funcionario'] as const;
export type PrivacyKind = (typeof PRIVACY_KINDS)[number];

export const PRIVACY_Q_MIN = 2;
export const PRIVACY_Q_MAX = 100;
/** At most this many people per search: a request names one person, the search narrows to them. */
export const PRIVACY_SEARCH_LIMIT = 30;

export const PRIVACY_API = {
  people: '/api/privacy/people',
  person: (kind: PrivacyKind, id: number) => `/api/privacy/people/${kind}/${id}`,
  exportOf: (kind: PrivacyKind, id: number) => `/api/privacy/people/${kind}/${id}/export`,
} as const;

/** One person found by `GET /people?q=`. */
export interface PrivacyMatch {
  kind: PrivacyKind;
  id: number;
  name: string;
  /** RUT or CURP as stored; colleagues have none. */
  dni: string | null;
  /** A student's course, a guardian's students, a colleague's position. */
  hint: string | null;
}

/** `GET /people?q=` → `{ data: PrivacyMatch[] }`; a `q` shorter than PRIVACY_Q_MIN answers no one. */
export interface PrivacySearch {
  data: PrivacyMatch[];
}

/**
 * The sections of a person's data, in the order the screen and the summary show them. Each is a list of
 * rows of plain values (a row is one thing held: a course, a message received, a delivery, a session…).
 */
export const PRIVACY_SECTIONS = [
  'contactos',
  'cursos',
  'vinculos',
  'listas',
  'mensajes_recibidos',
  'entregas',
  'mensajes_escritos',
  'adjuntos',
  'mensajes_entrantes',
  'sesiones_app',
  'codigos_acceso',
  'dispositivos_push',
  'silencios_push',
  'enlaces_app',
  'bajas_canal',
  'eventos_baja',
  'cambios_contacto',
  'lectura_anual',
  'cuenta',
  'roles',
  'sesiones',
  'cambios_cuenta',
] as const;
export type PrivacySection = (typeof PRIVACY_SECTIONS)[number];

type PrivacyValue = string | number | boolean | null;
export type PrivacyRow = Record<string, PrivacyValue>;

/** Who the person is, as stored now. */
export interface PrivacyIdentity {
  kind: PrivacyKind;
  id: number;
  name: string;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  dni: string | null;
  email: string | null;
  /** E.164; students have none. */
  phone: string | null;
  birth_date: string | null;
  withdrawn_at: string | null;
}

/** A block of every message to the person (shared/privacy-requests-contract.ts): who asked, since when (ISO). */
export interface PrivacyBlockState {
  solicitado_por: 'persona' | 'apoderado' | 'representante';
  bloqueado_el: string;
}

/** `GET /people/:kind/:id` → `{ data: PrivacyInventory }`. Every section is present, empty when nothing is held. */
export interface PrivacyInventory {
  person: PrivacyIdentity;
  /** The person's block, null when they may be sent messages. */
  bloqueo: PrivacyBlockState | null;
  /** ISO instant the person was erased, null while they are not. */
  eliminado_el: string | null;
  /** ISO instant the inventory was read. */
  read_at: string;
  sections: Record<PrivacySection, PrivacyRow[]>;
}

/** `GET /people/:kind/:id/export` → application/zip, these entries (plus `adjuntos/<id>-<name>`). */
export const PRIVACY_EXPORT_FILES = {
  summary: 'LEEME.txt',
  json: 'datos.json',
  csv: (section: PrivacySection) => `${section}.csv`,
} as const;

/** Sections also written as CSV in the ZIP: the long lists. */
export const PRIVACY_CSV_SECTIONS: readonly PrivacySection[] = [
  'mensajes_recibidos',
  'entregas',
  'mensajes_escritos',
  'mensajes_entrantes',
];
