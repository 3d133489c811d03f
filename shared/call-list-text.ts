// The call list's words in each locale, for the CSV the server writes: the same words as the table on the
// screen (src/i18n/dashboard, `callList.*`, `course.role.*`, `course.fix.*`), so a file opened in a
// spreadsheet reads as the page it came from. tests/api/call-list-csv.test.ts holds the two to each other.
import type { Locale } from './contract';
import type { CALL_LIST_COLUMNS, CallListRow, FixHint, OptedOut } from './dashboard-contract';

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
  sms_opted_out: 'Se dio de baja por SMS el {{date}}',
  whatsapp_opted_out: 'Se dio de baja por WhatsApp el {{date}}',
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

/** "05-03-2026" (es-CL), "05/03/2026" (es-MX) in the school's zone: the screens' day (src/views/lib/format.ts formatDay). */
const reasonDay = (iso: string, locale: Locale, timeZone: string): string =>
  new Intl.DateTimeFormat(locale, { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

/** The day an opt-out reason names ("se dio de baja por SMS el …"); '' for the other reasons. */
export function optedOutDay(reason: FixHint, optedOut: readonly OptedOut[], locale: Locale, timeZone: string): string {
  const channel = reason === 'sms_opted_out' ? 'sms' : reason === 'whatsapp_opted_out' ? 'whatsapp' : null;
  const at = channel === null ? undefined : optedOut.find((o) => o.channel === channel)?.at;
  return at === undefined ? '' : reasonDay(at, locale, timeZone);
}

/** The reasons of one row as the table lists them, an opt-out with its day. */
export const reasonsText = (row: Pick<CallListRow, 'reasons' | 'opted_out'>, locale: Locale, timeZone: string): string =>
  row.reasons
    .map((reason) => CALL_LIST_TEXT[locale].reasons[reason].replace('{{date}}', optedOutDay(reason, row.opted_out, locale, timeZone)))
    .join('; ');
