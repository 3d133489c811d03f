import { useSelector } from '@xstate/react';
import type { Locale } from '../../services/contract';
import { LOCALES, isLocale } from '../../i18n';
import { localeActor } from '../actors';
import { useT } from '../lib/i18n';
import { NativeSelect } from '../ui/native-select';

const selectLocale = (s: { context: { locale: Locale } }) => s.context.locale;

export function LocaleSelect({ className }: { className?: string }) {
  const t = useT();
  const locale = useSelector(localeActor, selectLocale);
  return (
    <label className="flex items-center gap-2 text-sm text-muted-foreground">
      <span>{t('locale.label')}</span>
      <NativeSelect
        className={className}
        value={locale}
        onChange={(e) => {
          const next = e.currentTarget.value;
          if (isLocale(next)) localeActor.send({ type: 'locale.change', locale: next });
        }}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l}>
            {t(`locale.${l}`)}
          </option>
        ))}
      </NativeSelect>
    </label>
  );
}
