// The call list as a CSV file Excel in es-CL / es-MX opens as it is.
import { CALL_LIST_COLUMNS, type CallList, type CallListRow, type FixHint } from '../../../shared/dashboard-contract';
import { fold } from '../../../shared/fold';
import { formatPhone } from '../../../shared/phone-format';

const CALL_LIST_HEADERS: Record<(typeof CALL_LIST_COLUMNS)[number], string> = {
  student: 'Estudiante',
  course: 'Curso',
  guardian: 'Apoderado',
  role: 'Rol',
  reasons: 'Motivos',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  alternatives: 'Contactos alternativos',
};

const FIX_TEXTS: Record<FixHint, string> = {
  phone_missing: 'Sin teléfono',
  phone_invalid: 'Teléfono inválido',
  email_missing: 'Sin correo',
  email_bounced: 'Correo rebotado',
  sms_failed: 'SMS fallido',
  no_app: 'Sin app',
};

/**
 * One field: always quoted, quotes doubled. A field Excel would run as a formula (= + - @ first) gets a
 * leading apostrophe; phones are written "(+56) 9 1234 5678" so they stay text without one.
 */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The screens' format (shared/phone-format.ts) with its prefix in parentheses: Excel runs a leading "+" as a formula. */
const csvPhone = (phone: string | null) => (phone ? formatPhone(phone).replace(/^\+(\d+)/, '(+$1)') : '');

/** BOM, `;` separated (Excel in es-CL / es-MX), CRLF lines, the contract's columns in order. */
export function callListCsv(list: CallList): string {
  const cells = (r: CallListRow): Record<(typeof CALL_LIST_COLUMNS)[number], string> => ({
    student: r.student,
    course: r.course,
    guardian: r.guardian,
    role: r.role,
    reasons: r.reasons.map((h) => FIX_TEXTS[h]).join(', '),
    phone: csvPhone(r.phone),
    email: r.email ?? '',
    alternatives: r.alternatives.join(' | '),
  });
  const lines = [
    CALL_LIST_COLUMNS.map((c) => field(CALL_LIST_HEADERS[c])).join(';'),
    ...list.rows.map((r) => {
      const row = cells(r);
      return CALL_LIST_COLUMNS.map((c) => field(row[c])).join(';');
    }),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** "lista-de-llamados-3-basico-a.csv" */
export function callListFilename(courseName: string): string {
  const slug =
    fold(courseName)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'curso';
  return `lista-de-llamados-${slug}.csv`;
}
