// The call list's rows as a table, in CALL_LIST_COLUMNS' order (the CSV's columns): shown on a course's page
// and, cut into pages of CALL_LIST_PAGE_ROWS rows (dashboard/call-list.ts `selectPrintPages`), on the print view.
import { CALL_LIST_COLUMNS, type CallListRow } from '../../../../../shared/dashboard-contract';
import { useLocaleZone, useT } from '../../../lib/i18n';
import { optedOutDay } from '../../../../../shared/call-list-text';
import type { Locale } from '../../../../../shared/contract';
import { cn } from '../../../lib/utils';
import { formatPhone } from '../../../../../shared/phone-format';

export function CallListTable({ rows, caption, className }: { rows: readonly CallListRow[]; caption: string; className?: string }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const cell = (row: CallListRow, column: (typeof CALL_LIST_COLUMNS)[number]): string => {
    switch (column) {
      case 'role':
        return t(`course.role.${row.role}`);
      case 'reasons':
        return row.reasons
          .map((reason) => t(`course.fix.${reason}`, { date: optedOutDay(reason, row.opted_out, locale as Locale, timezone) }))
          .join('; ');
      case 'alternatives':
        return row.alternatives.length === 0 ? '—' : row.alternatives.join('; ');
      case 'phone':
        return row.phone ? formatPhone(row.phone) : '—';
      case 'email':
        return row.email ?? '—';
      default:
        return row[column];
    }
  };
  return (
    <table data-slot="call-list-table" className={cn('w-full min-w-[48rem] text-sm print:min-w-0 print:text-[9pt]', className)}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b text-left">
          {CALL_LIST_COLUMNS.map((column) => (
            <th key={column} scope="col" className="px-2 py-2 font-medium print:px-1 print:py-1">
              {t(`callList.${column}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr
            // biome-ignore lint/suspicious/noArrayIndexKey: rows carry names, not ids: two rows with the same student and guardian names are told apart by position.
            key={`${row.student}-${row.guardian}-${i}`}
            data-slot="call-list-row"
            className="border-b align-top last:border-0 print:break-inside-avoid"
          >
            {CALL_LIST_COLUMNS.map((column) =>
              column === 'student' ? (
                <th key={column} scope="row" className="px-2 py-2 text-left font-medium print:px-1 print:py-1">
                  {cell(row, column)}
                </th>
              ) : (
                <td key={column} data-column={column} className="px-2 py-2 print:px-1 print:py-1">
                  {cell(row, column)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
