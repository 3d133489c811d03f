// The staff table of /dashboard/users: name and cargo, messages sent, people reached, read rate and active
// days, each column sortable by its header button (aria-sort on the header says the order), with the note
// that an SMS counts as delivered, never read. The old rows stay (dimmed, aria-busy) while a new period or
// cargo loads. On a phone the table scrolls inside its own focusable region, the page does not (the region
// is `relative`: the screen-reader-only texts are absolutely placed and would otherwise widen the page).
import { useId } from 'react';
import { useSelector } from '@xstate/react';
import type { StaffActivityRow } from '../../../../../shared/dashboard-contract';
import { selectLoading, selectPositionId, selectSortColumn, selectSortDirection, selectSortedRows, type StaffActivityActor } from '../../../../machines/dashboard/staff-activity';
import type { StaffColumn } from '../../../../machines/dashboard/staff-activity-rules';
import type { MessageKey } from '../../../../i18n';
import { formatNumber } from '../../../charts/scale';
import { useT } from '../../../lib/i18n';
import { cn } from '../../../lib/utils';
import { SortableHeader } from '../../../ui/sortable-header';
import { formatRate } from './format';

const HEADERS: readonly { column: StaffColumn; label: MessageKey; numeric: boolean }[] = [
  { column: 'name', label: 'activity.table.name', numeric: false },
  { column: 'messages', label: 'activity.table.messages', numeric: true },
  { column: 'people_reached', label: 'activity.table.reached', numeric: true },
  { column: 'read_rate', label: 'activity.table.readRate', numeric: true },
  { column: 'active_days', label: 'activity.table.activeDays', numeric: true },
];

export function StaffTable({ actor, locale }: { actor: StaffActivityActor; locale: string }) {
  const t = useT();
  const id = useId();
  const rows = useSelector(actor, selectSortedRows);
  const loading = useSelector(actor, selectLoading);
  const positionId = useSelector(actor, selectPositionId);
  if (!rows) return null;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <p id={`${id}-note`} className="text-sm text-muted-foreground" data-slot="read-note">
        {t('activity.table.readNote')}
      </p>
      {rows.length === 0 ? (
        <p className="rounded-lg border bg-card p-6 text-sm" data-slot="staff-empty">
          {t(positionId === null ? 'activity.table.emptyAll' : 'activity.table.empty')}
        </p>
      ) : (
        <div
          role="region"
          aria-labelledby={`${id}-caption`}
          tabIndex={0}
          className="relative min-w-0 overflow-x-auto rounded-lg border bg-card outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40"
        >
          <table aria-busy={loading} aria-describedby={`${id}-note`} className={cn('w-full min-w-[36rem] text-sm', loading && 'opacity-60')} data-slot="staff-table">
            <caption id={`${id}-caption`} className="p-3 text-left font-semibold">
              {t('activity.table.caption')} · {t('activity.table.count', { count: rows.length })}
            </caption>
            <thead className="border-b bg-muted/50 text-left">
              <tr>
                {HEADERS.map((header) => (
                  <SortHeader key={header.column} actor={actor} {...header} />
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <StaffRow key={row.user_id} row={row} locale={locale} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function SortHeader({ actor, column, label, numeric }: { actor: StaffActivityActor; column: StaffColumn; label: MessageKey; numeric: boolean }) {
  const t = useT();
  const sorted = useSelector(actor, selectSortColumn) === column;
  const direction = useSelector(actor, selectSortDirection);
  return (
    <SortableHeader
      align={numeric ? 'end' : 'start'}
      direction={sorted ? (direction === 'asc' ? 'ascending' : 'descending') : null}
      directionLabel={t(direction === 'asc' ? 'activity.table.ascending' : 'activity.table.descending')}
      onSort={() => actor.send({ type: 'activity.sort', column })}
    >
      {t(label)}
    </SortableHeader>
  );
}

function StaffRow({ row, locale }: { row: StaffActivityRow; locale: string }) {
  const t = useT();
  return (
    <tr className="border-b last:border-b-0" data-user={row.user_id}>
      <th scope="row" className="px-3 py-2 text-left font-normal">
        <span className="block font-medium">{row.name}</span>
        <span className="block text-xs text-muted-foreground">{row.position?.name ?? t('activity.table.noPosition')}</span>
      </th>
      <td className="px-3 py-2 text-right tabular-nums" data-col="messages">
        {formatNumber(row.messages, locale)}
      </td>
      <td className="px-3 py-2 text-right tabular-nums" data-col="people_reached">
        {formatNumber(row.people_reached, locale)}
      </td>
      <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums" data-col="read_rate">
        {row.read_rate === null ? (
          <span title={t('activity.table.noRateLabel')}>
            <span aria-hidden="true">{t('activity.table.noRate')}</span>
            <span className="sr-only">{t('activity.table.noRateLabel')}</span>
          </span>
        ) : (
          formatRate(row.read_rate, locale)
        )}
      </td>
      <td className="px-3 py-2 text-right tabular-nums" data-col="active_days">
        {formatNumber(row.active_days, locale)}
      </td>
    </tr>
  );
}
