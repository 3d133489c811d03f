// The filtered audit log as a CSV file a spreadsheet opens as it is: `;`-separated (Excel in Spanish), UTF-8
// with a BOM, CRLF lines, cells that start like a formula prefixed with `'` (the roster's CSV conventions,
// server/roster/csv.ts), times as the school reads its clock.
import type { AuditRow } from '../../shared/audit-contract';
import { auditDetailParts, type AuditDetailWords } from '../../shared/audit-detail';
import type { Locale } from '../../shared/contract';
import { dayIn, minuteIn } from '../db/time';
import { AUDIT_ACTION_WORDS, AUDIT_WORDS, auditDetailWords } from './texts';

const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function actorText(row: AuditRow): string {
  if (row.actor.kind === 'system') return AUDIT_WORDS.system;
  if (row.actor.kind === 'anonymous') return AUDIT_WORDS.anonymous;
  return row.actor.name ?? AUDIT_WORDS.goneAccount;
}

const PERSON_KINDS = new Set(['apoderado', 'estudiante', 'funcionario', 'usuario']);

function subjectText(row: AuditRow): string {
  if (!row.subject) return '';
  if (row.subject.name !== null) return row.subject.name;
  return PERSON_KINDS.has(row.subject.kind) ? (row.subject.kind === 'usuario' ? AUDIT_WORDS.goneAccount : AUDIT_WORDS.gonePerson) : '';
}

/** `clave=valor` pairs in words (shared/audit-detail.ts), lists joined with commas: ids and codes only (decision 0257). */
const detailText = (row: AuditRow, words: AuditDetailWords): string =>
  row.detail
    ? auditDetailParts(row.detail, words)
        .map(([key, value]) => `${key}=${value}`)
        .join(' · ')
    : '';

export function auditCsv(rows: readonly AuditRow[], timezone: string, locale: Locale): string {
  const words = auditDetailWords(locale);
  const lines = [
    [...AUDIT_WORDS.columns],
    ...rows.map((row) => [
      minuteIn(new Date(row.at), timezone),
      AUDIT_ACTION_WORDS[row.action],
      row.action,
      actorText(row),
      row.ip ?? '',
      subjectText(row),
      row.subject?.kind ?? '',
      row.subject ? String(row.subject.id) : '',
      detailText(row, words),
    ]),
  ];
  return `\uFEFF${lines.map((cells) => cells.map(csvCell).join(';')).join('\r\n')}\r\n`;
}

/** "registro-de-auditoria-2026-11-30.csv", the day as the school reads it. */
export const auditCsvFilename = (now: Date, timezone: string): string => `registro-de-auditoria-${dayIn(now, timezone)}.csv`;
