import type { ReactNode } from 'react';
import {
  selectEmergency,
  selectEstimate,
  selectHasChannel,
  selectReachedCount,
  selectReserveNote,
  selectSmsReserved,
  selectSmsMonthlyLimit,
  selectSmsOtherMonth,
  selectSmsRemaining,
  selectSmsTotal,
  selectUnreachableCount,
} from '../../../machines/compose/selectors';
import { longMonth } from '../../charts/periods';
import { useLocale, useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { FieldError } from '../../ui/field';
import { useFieldError, type ComposeActor } from './field';

/** What the message costs: SMS left this month, and the last server estimate once there is one. */
export function EstimateSummary({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { sms, smsTotal, remaining, limit, estimate, reached, unreachable, emergency, reserveNote, reserved, otherMonth } = useSelectors(
    compose,
    {
      sms: (s) => selectHasChannel(s, 'sms'),
      smsTotal: selectSmsTotal,
      remaining: selectSmsRemaining,
      limit: selectSmsMonthlyLimit,
      estimate: selectEstimate,
      reached: selectReachedCount,
      unreachable: selectUnreachableCount,
      emergency: selectEmergency,
      reserveNote: selectReserveNote,
      reserved: selectSmsReserved,
      otherMonth: selectSmsOtherMonth,
    },
  );
  const locale = useLocale();
  const quota = useFieldError(compose, 'quota');
  // Nobody would get it: said once, as the reason «Enviar» is not offered (no "Llegará a 0 personas").
  const reach = useFieldError(compose, 'reach');
  const lines: ReactNode[] = [];
  if (reached !== null && reached > 0) {
    lines.push(<li key="people">{t('compose.estimate.recipients', { count: reached })}</li>);
    if (unreachable > 0) {
      lines.push(
        <li key="unreachable" className="text-foreground">
          {t('compose.estimate.unreachable', { count: unreachable })}
        </li>,
      );
    }
  }
  if (sms && smsTotal !== null && remaining !== null) {
    // Scheduled for another month: that month's limit pays for it, and the line says which (the settings
    // screen shows this month's).
    lines.push(
      <li key="sms">
        {otherMonth
          ? t('compose.estimate.smsIn', { total: smsTotal, count: remaining, month: longMonth(otherMonth, locale) })
          : t('compose.estimate.sms', { total: smsTotal, count: remaining })}
      </li>,
    );
  } else if (sms && remaining !== null && limit !== null) {
    lines.push(<li key="left">{t('compose.estimate.smsLeft', { count: remaining, limit })}</li>);
  }
  // The emergency reserve: how much of what is left a message not marked emergency may not use.
  if (sms && reserveNote !== null) lines.push(<li key="reserve">{t(reserveNote, { count: reserved })}</li>);
  if (emergency && !(sms && reserveNote !== null)) {
    lines.push(
      <li key="emergency" className="font-medium text-foreground">
        {t('compose.estimate.emergency')}
      </li>,
    );
  }
  for (const channel of estimate?.channels ?? []) {
    if (channel.missing_address > 0) {
      lines.push(
        <li key={`missing-${channel.code}`}>
          {t('compose.estimate.missing', { channel: t(`messages.channel.${channel.code}`), count: channel.missing_address })}
        </li>,
      );
    }
    // Phones that texted "BAJA" on this channel: counted apart from those with no number, and not paid for.
    if (channel.opted_out > 0) {
      lines.push(
        <li key={`opted-out-${channel.code}`}>
          {t('compose.estimate.optedOut', { channel: t(`messages.channel.${channel.code}`), count: channel.opted_out })}
        </li>,
      );
    }
  }
  // People blocked at their request get nothing on any channel: said once, not per channel.
  const blocked = estimate?.channels[0]?.blocked ?? 0;
  if (blocked > 0) lines.push(<li key="blocked">{t('compose.estimate.blocked', { count: blocked })}</li>);
  if (estimate && estimate.empty_courses.length > 0) {
    lines.push(
      <li key="empty" className="text-foreground">
        {t('compose.emptyCourses', {
          count: estimate.empty_courses.length,
          courses: estimate.empty_courses.map((c) => c.nombre).join(', '),
        })}
      </li>,
    );
  }
  if (lines.length === 0 && !quota.text && !reach.text) return null;
  return (
    <div id="compose-estimate" data-slot="estimate" className="flex flex-col gap-1 rounded-md bg-muted px-3 py-2 text-sm">
      {lines.length > 0 && <ul className="flex flex-col gap-0.5 text-muted-foreground">{lines}</ul>}
      <FieldError id={reach.id}>{reach.text}</FieldError>
      <FieldError id={quota.id}>{quota.text}</FieldError>
    </div>
  );
}
