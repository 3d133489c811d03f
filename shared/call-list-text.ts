// The call list's words in each locale, for the CSV the server writes: the same words as the table on the
// screen (src/i18n/dashboard, `callList.*`, `course.role.*`, `course.fix.*`), so a file opened in a
// spreadsheet reads as the page it came from. tests/api/call-list-csv.test.ts holds the two to each other.
import type { Locale } from './contract';
import type { CALL_LIST_COLUMNS, CallListRow, FixHint } from './dashboard-contract';

interface CallListText {
  columns: Record<(typeof CALL_LIST_COLUMNS)[number], string>;
  roles: Record<CallListRow['role'], string>;
  reasons: Record<FixHint, string>;
}

const REASONS: Record<FixHint, string> = {
  phone_missing: 'Falta el número de celular',
  phone_invalid: 'El número está mal formateado o no existe',
  email_missing: 'Falta el correo',
  email_bounced: 'El correo rebota',
  sms_failed: 'Los SMS no le llegan',
  no_app: 'No tiene la app',
};

const ROLES: Record<CallListRow['role'], string> = { titular: 'titular', suplente: 'suplente' };

/** The columns both countries name alike. */
const SAME_COLUMNS = {
  role: 'Rol',
  reasons: 'Motivo',
  phone: 'Teléfono',
  email: 'Correo',
  alternatives: 'Contactos alternativos',
} as const;

export const CALL_LIST_TEXT: Readonly<Record<Locale, CallListText>> = {
  'es-CL': {
    columns: {
      student: 'Estudiante',
      course: 'Curso',
      guardian: 'Apoderado',
      ...SAME_COLUMNS,
    },
    roles: ROLES,
    reasons: REASONS,
  },
  'es-MX': {
    columns: {
      student: 'Alumno',
      course: 'Grupo',
      guardian: 'Padre o tutor',
      ...SAME_COLUMNS,
    },
    roles: ROLES,
    reasons: REASONS,
  },
};

/** The reasons of one row as the table lists them. */
export const reasonsText = (reasons: readonly FixHint[], locale: Locale): string =>
  reasons.map((reason) => CALL_LIST_TEXT[locale].reasons[reason]).join('; ');
