// How the activity screens write their figures, in the locale's numbers: a rate (0–1) as a percentage
// ("87,5 %"), a change of a rate in percentage points, a period's name.
import type { PeriodKind } from '../../../../../shared/dashboard-contract';
import { capitalize, longMonth } from '../../../charts/periods';
import type { Translate } from '../../../lib/i18n';

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string): Intl.NumberFormat {
  let f = cache.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    cache.set(locale, f);
  }
  return f;
}

/** 87.54 → "87,5" (es-CL) / "87.5" (es-MX); at most one decimal. */
export const formatDecimal = (value: number, locale: string): string => numberFormat(locale).format(value);

/** A rate 0–1 as a percentage: 0.875 → "87,5 %". */
export const formatRate = (rate: number, locale: string): string => `${formatDecimal(rate * 100, locale)} %`;

/** A period's name: "Octubre de 2026", "Año escolar 2026". */
export function periodName(t: Translate, kind: PeriodKind, key: string, locale: string): string {
  return kind === 'month' ? capitalize(longMonth(key, locale)) : t('activity.period.schoolYearName', { year: key });
}
