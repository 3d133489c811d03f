// This month's SMS: used, left and limit with a meter, the emergency reserve, the projection at the
// current pace, the low-quota state, and the e-mail and WhatsApp balances where the school has them.
import type { QuotaSettings } from '../../../../shared/quota-contract';
import { Meter } from '../../charts/meter';
import { capitalize, dayOfMonth, longMonth } from '../../charts/periods';
import { formatNumber } from '../../charts/scale';
import { useT, type Translate } from '../../lib/i18n';
import { Card, CardContent, CardHeader } from '../../ui/card';

function projection(t: Translate, settings: QuotaSettings, locale: string): string {
  if (settings.sms.runs_out_on) return t('quota.month.runsOut', { date: dayOfMonth(settings.sms.runs_out_on, locale) });
  return settings.sms.used > 0 ? t('quota.month.lasts') : t('quota.month.nothingYet');
}

export function MonthCard({ settings, locale }: { settings: QuotaSettings; locale: string }) {
  const t = useT();
  const n = (value: number) => formatNumber(value, locale);
  const { sms } = settings;
  const figures = [
    { key: 'used', label: t('quota.month.used'), value: n(sms.used) },
    { key: 'left', label: t('quota.month.left'), value: n(sms.remaining) },
    { key: 'limit', label: t('quota.month.limit'), value: n(sms.limit) },
  ];
  const balances = [
    { key: 'email', label: t('quota.balances.email'), value: settings.email.remaining },
    { key: 'whatsapp', label: t('quota.balances.whatsapp'), value: settings.whatsapp.remaining },
  ].filter((balance): balance is { key: string; label: string; value: number } => balance.value !== null);
  return (
    <Card data-slot="quota-month" className="min-w-0">
      <CardHeader>
        <h3 className="text-lg leading-tight font-semibold">
          {capitalize(t('quota.month.title', { month: longMonth(settings.month, locale) }))}
        </h3>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-3 gap-2">
          {figures.map((figure) => (
            <div key={figure.key} className="flex min-w-0 flex-col" data-figure={figure.key}>
              <dt className="text-xs text-muted-foreground">{figure.label}</dt>
              <dd className="truncate text-xl font-semibold tabular-nums sm:text-2xl">{figure.value}</dd>
            </div>
          ))}
        </dl>
        <Meter
          label={t('quota.month.meter')}
          value={sms.used}
          max={Math.max(sms.limit, 1)}
          reserved={sms.reserved}
          low={sms.low}
          valueText={t('quota.month.meterText', { used: n(sms.used), limit: n(sms.limit) })}
        />
        <p data-slot="quota-projection" className="text-sm">
          {sms.limit === 0 ? t('quota.month.noLimit') : projection(t, settings, locale)}
        </p>
        {sms.low && sms.alert_percent !== null ? (
          <p role="status" data-slot="quota-low" className="rounded-md border border-warning/60 bg-warning/15 p-2 text-sm">
            {t('quota.month.low', { percent: sms.alert_percent })}
          </p>
        ) : null}
        {sms.reserved > 0 ? (
          <p className="text-sm text-muted-foreground">
            {t('quota.month.reservedNote', { reserved: n(sms.reserved), percent: sms.reserve_percent })}
          </p>
        ) : null}
        {balances.length > 0 ? (
          <div className="flex flex-col gap-1 border-t pt-3">
            <h4 className="text-sm font-medium">{t('quota.balances.title')}</h4>
            <dl className="grid grid-cols-2 gap-2">
              {balances.map((balance) => (
                <div key={balance.key} className="flex flex-col" data-balance={balance.key}>
                  <dt className="text-xs text-muted-foreground">{balance.label}</dt>
                  <dd className="font-semibold tabular-nums">{n(balance.value)}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
