// The low-quota alert: administrators see, above the form, how few SMS are left this month and
// a link to the quota's settings, when less than the school's alert share is left (`GET /quota`'s `low`).
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { ADMIN_ROLES } from '../../../../shared/codes';
import { selectQuotaPercentLeft, selectQuotaSmsRemaining, selectSmsLow, selectSmsMonthlyLimit } from '../../../machines/compose/selectors';
import { selectHasAnyRole } from '../../../machines/session/selectors';
import { sessionActor } from '../../actors';
import { formatCount } from '../../lib/format';
import { useLocale, useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import type { ComposeActor } from './field';

const selectIsAdmin = selectHasAnyRole(ADMIN_ROLES);

export function QuotaBanner({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const admin = useSelector(sessionActor, selectIsAdmin);
  const { low, remaining, limit, percent } = useSelectors(compose, {
    low: selectSmsLow,
    remaining: selectQuotaSmsRemaining,
    limit: selectSmsMonthlyLimit,
    percent: selectQuotaPercentLeft,
  });
  const locale = useLocale();
  if (!admin || !low || limit === null) return null;
  return (
    <div
      role="status"
      aria-label={t('compose.quotaLow.label')}
      data-slot="quota-banner"
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-md border border-warning/60 bg-warning/10 px-3 py-2 text-sm"
    >
      <span className="min-w-0">
        {t('compose.quotaLow.text', {
          count: remaining,
          remaining: formatCount(remaining, locale),
          limit: formatCount(limit, locale),
          percent,
        })}
      </span>
      <Link
        href="/settings/message-quota"
        className="font-medium underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-ring"
      >
        {t('compose.quotaLow.link')}
      </Link>
    </div>
  );
}
