// The staff table of /dashboard/users: name and cargo, messages sent, people reached, read rate and active
// days, each column sortable by its header button (aria-sort on the header says the order), with the note
// that an SMS counts as delivered, never read. The old rows stay (dimmed, aria-busy) while a new period or
// cargo loads. On a phone the table scrolls inside its own focusable region, the page does not (the region
// is `relative`: the screen-reader-only texts are absolutely placed and would otherwise widen the page).
import { useId } from 'react';
import type { StaffActivityRow } from '../../../../../shared/dashboard-contract';
import {
  selectLoading,
  selectPositionId,
  selectSortColumn,
  selectSortDirection,
  selectSortedRows,
  type StaffActivityActor,
} from '../../../../machines/dashboard/staff-activity';
import type { StaffColumn } from '../../../../machines/dashboard/staff-activity-rules';
import type { MessageKey } from '../../../../i18n';
import { formatNumber } from '../../../charts/scale';
import { useT } from '../../../lib/i18n';
import { NumberCell, RowName, TableCard, TableEmpty, TableHead } from '../../../ui/data-table';
import { SortableHeader } from '../../../ui/sortable-header';
import { formatRate } from './format';
import { useSelectors } from '../../../lib/selectors';

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
  const { rows, loading, positionId } = useSelectors(actor, {
    rows: selectSortedRows,
    loading: selectLoading,
    positionId: selectPositionId,
  });
  if (!rows) return null;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <p id={`${id}-note`} className="text-sm text-muted-foreground" data-slot="read-note">
        {t('activity.table.readNote')}
      </p>
      {rows.length === 0 ? (
        <TableEmpty data-slot="staff-empty">{t(positionId === null ? 'activity.table.emptyAll' : 'activity.table.empty')}</TableEmpty>
      ) : (
        <TableCard
          captionId={`${id}-caption`}
          caption={`${t('activity.table.caption')} · ${t('activity.table.count', { count: rows.length })}`}
          busy={loading}
          wide
          aria-describedby={`${id}-note`}
          data-slot="staff-table"
        >
          <TableHead>
            {HEADERS.map((header) => (
              <SortHeader key={header.column} actor={actor} {...header} />
            ))}
          </TableHead>
          <tbody>
            {rows.map((row) => (
              <StaffRow key={row.user_id} row={row} locale={locale} />
            ))}
          </tbody>
        </TableCard>
      )}
    </div>
  );
}

function SortHeader({
  actor,
  column,
  label,
  numeric,
}: {
  actor: StaffActivityActor;
  column: StaffColumn;
  label: MessageKey;
  numeric: boolean;
}) {
  const t = useT();
  const { sorted, direction } = useSelectors(actor, { sorted: (s) => selectSortColumn(s) === column, direction: selectSortDirection });
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
      <RowName name={row.name} detail={row.position?.name ?? t('activity.table.noPosition')} />
      <NumberCell data-col="messages">{formatNumber(row.messages, locale)}</NumberCell>
      <NumberCell data-col="people_reached">{formatNumber(row.people_reached, locale)}</NumberCell>
      <NumberCell nowrap data-col="read_rate">
        {row.read_rate === null ? (
          <span title={t('activity.table.noRateLabel')}>
            <span aria-hidden="true">{t('activity.table.noRate')}</span>
            <span className="sr-only">{t('activity.table.noRateLabel')}</span>
          </span>
        ) : (
          formatRate(row.read_rate, locale)
        )}
      </NumberCell>
      <NumberCell data-col="active_days">{formatNumber(row.active_days, locale)}</NumberCell>
    </tr>
  );
}
