import { LOCALES, isLocale } from '../../i18n';
import { localeActor } from '../actors';
import { useLocale, useT } from '../lib/i18n';
import { NativeSelect } from '../ui/native-select';

export function LocaleSelect({ className }: { className?: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm text-muted-foreground">
      <span className="sr-only shrink-0 sm:not-sr-only">{t('locale.label')}</span>
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
