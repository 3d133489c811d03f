// The recipients of a sent message's reception status, one row each: the children they were reached for, the
// person, their e-mail and phone, and every channel's state with its times and reason. A table from md up,
// stacked cards below.
import type { ActorRefFrom } from 'xstate';
import type { ReceptionStatusMachine } from '../../../machines/reception/status';
import { selectIsRefreshing, selectRows, selectShownChannel } from '../../../machines/reception/selectors';
import { BLOCKED, OPTED_OUT, recipientStatusOf, settledReasonOf } from '../../../../shared/delivery-progress';
import type { ChannelDelivery, DeliveryStatus, ReceptionChannel, ReceptionRow } from '../../../../shared/reception-contract';
import { formatPhone } from '../../../../shared/phone-format';
import { hasText } from '../../../i18n';
import { useLocaleZone, useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { cn } from '../../lib/utils';
import { ListEmpty } from '../../ui/list-page';
import { DeviceDot } from '../../lib/device-status';
import { formatDateTime, formatDay } from '../../lib/format';

type ReceptionActor = ActorRefFrom<ReceptionStatusMachine>;

export const STATUS_STYLE: Record<DeliveryStatus, string> = {
  queued: 'border-border bg-muted text-muted-foreground',
  sent: 'border-border bg-secondary text-secondary-foreground',
  received: 'border-green-600/40 bg-green-50 text-green-900 dark:bg-green-950 dark:text-green-100',
  read: 'border-blue-600/40 bg-blue-50 text-blue-900 dark:bg-blue-950 dark:text-blue-100',
  not_received: 'border-yellow-600/50 bg-yellow-50 text-yellow-950 dark:bg-yellow-950 dark:text-yellow-100',
  error: 'border-red-600/40 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100',
  failed: 'border-red-600/40 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100',
};

/** The table's columns, in order. */
const COLUMNS = ['student', 'person', 'email', 'phone', 'channels'] as const;
export function Rows({ actor }: { actor: ReceptionActor }) {
  const t = useT();
  const { rows, refreshing, channel } = useSelectors(actor, {
    rows: selectRows,
    refreshing: selectIsRefreshing,
    channel: selectShownChannel,
  });
  if (rows.length === 0) {
    return (
      <ListEmpty live={false} large aria-busy={refreshing}>
        {t('reception.empty')}
      </ListEmpty>
    );
  }
  // One markup for every width: a table from md up, stacked cards below (cells become blocks).
  return (
    <table aria-label={t('reception.rows')} aria-busy={refreshing} className="w-full border-separate border-spacing-0 text-sm">
      <thead className="sr-only md:not-sr-only md:table-header-group">
        <tr className="text-left text-xs text-muted-foreground">
          {COLUMNS.map((column) => (
            <th key={column} scope="col" className="border-b px-3 py-2 font-medium">
              {t(`reception.col.${column}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="flex flex-col gap-2 md:table-row-group">
        {rows.map((row) => (
          <Row key={row.recipient_id} row={row} channel={channel} />
        ))}
      </tbody>
    </table>
  );
}

/** `channel`: the list's; the row then says that channel's state, the one the filters read. */
function Row({ row, channel }: { row: ReceptionRow; channel: ReceptionChannel }) {
  const t = useT();
  const cell = 'block px-3 py-1 md:table-cell md:border-b md:py-2 md:align-top';
  const listed = channel === 'all' ? undefined : row.channels.find((delivery) => delivery.channel === channel);
  const state = listed
    ? `${t(`messages.channel.${listed.channel}`)}: ${t(`reception.recipientStatus.${recipientStatusOf(listed.status)}`)}`
    : t(`reception.recipientStatus.${row.status}`);
  return (
    <tr
      data-status={row.status}
      className="block rounded-lg border bg-card py-2 md:table-row md:rounded-none md:border-0 md:bg-transparent"
    >
      {/* The children the guardian was reached for, each in full with the course (two children called
          "Maximiliano Pizarro" are two courses); a student: themself. */}
      <td className={cn(cell, 'font-medium md:font-normal')}>
        {row.students.length > 0
          ? row.students.map((student) => (
              <span key={`${student.name}:${student.course}`} data-slot="reception-student" className="block">
                {student.name} · {student.course}
              </span>
            ))
          : (row.student_names ?? (row.kind === 'estudiante' ? row.name : <NoStudent />))}
      </td>
      <td className={cell}>
        <span className="flex items-center gap-2">
          {row.device && <DeviceDot status={row.device} />}
          {row.name}
        </span>
        <span className="block text-xs text-muted-foreground">
          {row.group} · {state}
        </span>
      </td>
      <AddressCell column="email" address={row.email} className={cn(cell, 'break-all')} />
      <AddressCell column="phone" address={row.phone} className={cn(cell, 'whitespace-nowrap')} />
      <td className={cell}>
        {row.channels.length === 0 ? (
          <span className="text-xs text-muted-foreground">{t('reception.noDeliveries')}</span>
        ) : (
          <ul className="flex flex-col gap-1">
            {row.channels.map((delivery) => (
              <ChannelStatus key={delivery.channel} delivery={delivery} listed={delivery.channel === channel} />
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** A colleague's row has no student: a dash to the eye, words to a screen reader. */
function NoStudent() {
  const t = useT();
  return (
    <>
      <span aria-hidden>—</span>
      <span className="sr-only">{t('reception.col.noStudent')}</span>
    </>
  );
}

/** A row's e-mail or phone; on a narrow screen, where the table's header is hidden, it says which of the two it is. */
function AddressCell({ column, address, className }: { column: 'email' | 'phone'; address: string | null; className: string }) {
  const t = useT();
  return (
    <td className={className}>
      <span className="text-xs text-muted-foreground md:sr-only">{t(`reception.col.${column}`)}: </span>
      {address === null ? t('reception.noAddress') : column === 'phone' ? formatPhone(address) : address}
    </td>
  );
}

function ChannelStatus({ delivery, listed }: { delivery: ChannelDelivery; listed: boolean }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const when = (iso: string) => formatDateTime(iso, locale, timezone);
  const times = [
    delivery.sent_at && t('reception.times.sent', { at: when(delivery.sent_at) }),
    delivery.delivered_at && t('reception.times.delivered', { at: when(delivery.delivered_at) }),
    delivery.read_at && t('reception.times.read', { at: when(delivery.read_at) }),
    delivery.last_retry_at && t('reception.times.lastRetry', { at: when(delivery.last_retry_at) }),
    delivery.attempts > 1 && t('reception.times.attempts', { count: delivery.attempts }),
  ].filter((line): line is string => typeof line === 'string');
  const code = settledReasonOf(delivery);
  const reasonKey = `reception.errorCode.${code ?? ''}`;
  // An error code this client does not know yet still reads as Spanish; an opt-out says when.
  const reason =
    code === OPTED_OUT && delivery.opted_out_at
      ? t('reception.optedOutOn', { date: formatDay(delivery.opted_out_at, locale, timezone) })
      : code === BLOCKED && delivery.blocked_at
        ? t('reception.blockedOn', { date: formatDay(delivery.blocked_at, locale, timezone) })
        : code
          ? t(hasText(reasonKey) ? reasonKey : 'reception.errorCode.unknown')
          : null;
  const label = `${t(`messages.channel.${delivery.channel}`)}: ${t(`reception.deliveryStatus.${delivery.status}`)}`;
  return (
    <li className="flex flex-col gap-0.5">
      <span
        data-channel={delivery.channel}
        data-status={delivery.status}
        title={times.join('\n') || undefined}
        className={cn(
          'inline-flex w-fit items-center rounded-md border px-2 py-0.5 text-xs font-medium',
          STATUS_STYLE[delivery.status],
          // The channel the list is of stands out among the row's badges.
          listed && 'ring-2 ring-primary/60',
        )}
      >
        {label}
      </span>
      {/* "; " between them: a time may end in "p.m.", and a period after it would read "p.m.." */}
      {times.length > 0 && <span className="sr-only">{times.join('; ')}</span>}
      {reason && <span className="text-xs text-destructive">{reason}</span>}
    </li>
  );
}
