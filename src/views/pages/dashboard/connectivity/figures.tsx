// The connectivity figures of the school (or of one course): students and guardians, what each channel
// reaches (a meter per channel), the device mix as a 100 % bar with the SPEC §3 legend always beside it,
// and "cobertura efectiva" with what it means. Shared by /dashboard/connectivity and a course's page.
import { CHANNEL_CODES } from '../../../../../shared/codes';
import { COVERAGE_HOURS, COVERAGE_MESSAGES, type ConnectivityRow } from '../../../../../shared/dashboard-contract';
import { deviceTotal, reachShare } from '../../../../machines/dashboard/connectivity-rules';
import { Meter } from '../../../charts/meter';
import { formatNumber } from '../../../charts/scale';
import { StackedBar } from '../../../charts/stacked-bar';
import { DEVICE_FILL, DEVICE_STATUSES, DeviceLegend } from '../../../lib/device-status';
import { useT } from '../../../lib/i18n';
import { cn } from '../../../lib/utils';

/** "75 %" (es-CL, es-MX); null: "—". */
export function formatPercent(share: number | null, locale: string): string {
  return share === null ? '—' : `${formatNumber(Math.round(share * 100), locale)} %`;
}

export function ConnectivityFigures({
  row,
  title,
  locale,
  className,
  level = 3,
}: {
  row: ConnectivityRow;
  title: string;
  locale: string;
  className?: string;
  /** The figures' heading level: 2 right under the page's h1 (the school), 3 under a course's h2. */
  level?: 2 | 3;
}) {
  const t = useT();
  const n = (value: number) => formatNumber(value, locale);
  const total = deviceTotal(row);
  const Heading = level === 2 ? 'h2' : 'h3';
  const Subheading = level === 2 ? 'h3' : 'h4';
  return (
    <section
      aria-label={title}
      data-slot="connectivity-figures"
      className={cn('grid min-w-0 gap-4 rounded-lg border bg-card p-4 md:grid-cols-2 md:p-6', className)}
    >
      <div className="flex min-w-0 flex-col gap-4">
        <Heading className="text-lg font-semibold">{title}</Heading>
        <dl className="grid grid-cols-2 gap-3">
          <div data-figure="students">
            <dt className="text-sm text-muted-foreground">{t('connectivity.school.students')}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{n(row.students)}</dd>
          </div>
          <div data-figure="guardians">
            <dt className="text-sm text-muted-foreground">{t('connectivity.school.guardians')}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{n(row.guardians)}</dd>
          </div>
        </dl>
        <div className="flex flex-col gap-2" data-slot="coverage">
          <Subheading className="font-medium">{t('connectivity.coverage.title')}</Subheading>
          <p className="text-3xl font-semibold tabular-nums" data-figure="coverage">
            {row.coverage.share === null ? t('connectivity.coverage.none') : formatPercent(row.coverage.share, locale)}
          </p>
          {row.coverage.share === null ? null : (
            <Meter
              label={t('connectivity.coverage.meter')}
              value={row.coverage.reached}
              max={Math.max(row.coverage.addressed, 1)}
              valueText={t('connectivity.coverage.detail', { reached: row.coverage.reached, count: row.coverage.addressed })}
            />
          )}
          <p className="text-sm text-muted-foreground">
            {row.coverage.share === null
              ? null
              : `${t('connectivity.coverage.detail', { reached: row.coverage.reached, count: row.coverage.addressed })}. `}
            {t('connectivity.coverage.explain', { messages: COVERAGE_MESSAGES, hours: COVERAGE_HOURS })}
          </p>
        </div>
      </div>
      <div className="flex min-w-0 flex-col gap-4">
        <div className="flex flex-col gap-2">
          <Subheading className="font-medium">{t('connectivity.reach.title')}</Subheading>
          <ul className="flex flex-col gap-2">
            {CHANNEL_CODES.map((channel) => (
              <li key={channel} data-reach={channel} className="flex flex-col gap-1">
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span>{t(`connectivity.reach.${channel}`)}</span>
                  <span className="tabular-nums">
                    {n(row.reach[channel])} · {formatPercent(reachShare(row, channel), locale)}
                  </span>
                </div>
                <Meter
                  label={t(`connectivity.reach.${channel}`)}
                  value={row.reach[channel]}
                  max={Math.max(row.guardians, 1)}
                  valueText={t('connectivity.reach.valueText', { value: row.reach[channel], count: row.guardians })}
                />
              </li>
            ))}
          </ul>
          <p className="text-sm text-muted-foreground" data-slot="reach-note">
            {t('connectivity.reach.note')}
          </p>
        </div>
        <div className="flex flex-col gap-2">
          <Subheading className="font-medium">{t('connectivity.devices.title')}</Subheading>
          {total === 0 ? (
            <p className="text-sm text-muted-foreground">{t('connectivity.devices.none')}</p>
          ) : (
            <StackedBar
              title={t('connectivity.devices.title')}
              summary={t('connectivity.devices.summary', {
                count: total,
                blue: t('connectivity.devices.blue', { count: row.devices.blue }),
                green: t('connectivity.devices.green', { count: row.devices.green }),
                yellow: t('connectivity.devices.yellow', { count: row.devices.yellow }),
                red: t('connectivity.devices.red', { count: row.devices.red }),
              })}
              segments={DEVICE_STATUSES.map((status) => ({
                key: status,
                label: t(`device.legend.${status}`),
                value: row.devices[status],
                fillClassName: DEVICE_FILL[status],
              }))}
              locale={locale}
              labels={{
                category: t('connectivity.devices.status'),
                value: t('connectivity.devices.guardians'),
                share: t('connectivity.devices.share'),
                showTable: t('connectivity.devices.showTable'),
                hideTable: t('connectivity.devices.hideTable'),
              }}
            />
          )}
          <DeviceLegend />
        </div>
      </div>
    </section>
  );
}
