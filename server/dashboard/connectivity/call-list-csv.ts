// The call list as a CSV file Excel in es-CL / es-MX opens as it is.
import { CALL_LIST_TEXT, reasonsText } from '../../../shared/call-list-text';
import type { Locale } from '../../../shared/contract';
import { CALL_LIST_COLUMNS, type CallList, type CallListRow } from '../../../shared/dashboard-contract';
import { fold } from '../../../shared/fold';
import { formatPhone } from '../../../shared/phone-format';

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

/**
 * BOM, `;` separated (Excel in es-CL / es-MX), CRLF lines, the contract's columns in order, in the words
 * the screen shows in `locale` (an opt-out's day in the school's `timeZone`).
 */
export function callListCsv(list: CallList, locale: Locale, timeZone: string): string {
  const text = CALL_LIST_TEXT[locale];
  const cells = (r: CallListRow): Record<(typeof CALL_LIST_COLUMNS)[number], string> => ({
    student: r.student,
    course: r.course,
    guardian: r.guardian,
    role: text.roles[r.role],
    reasons: reasonsText(r, locale, timeZone),
    phone: csvPhone(r.phone),
    email: r.email ?? '',
    alternatives: r.alternatives.join(' | '),
  });
  const lines = [
    CALL_LIST_COLUMNS.map((c) => field(text.columns[c])).join(';'),
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
