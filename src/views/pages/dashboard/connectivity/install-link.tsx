// The families' app's install link on the connectivity screen: to how many guardians without the app the
// school's SMS and WhatsApp carried it, and how many of them signed in to the app since.
import type { InstallLinkFigures } from '../../../../../shared/dashboard-contract';
import { useT } from '../../../lib/i18n';

export function InstallLinkFigure({ figures }: { figures: InstallLinkFigures }) {
  const t = useT();
  return (
    <section aria-labelledby="install-link-title" data-slot="install-link" className="flex flex-col gap-1 rounded-lg border bg-card p-4">
      <h2 id="install-link-title" className="text-lg font-semibold">
        {t('connectivity.installLink.title')}
      </h2>
      {figures.sent === 0 ? (
        <p className="text-sm text-muted-foreground">{t('connectivity.installLink.none')}</p>
      ) : (
        <p data-figure="install-link">
          {t('connectivity.installLink.sent', { count: figures.sent })}{' '}
          {t('connectivity.installLink.installed', { count: figures.installed })}
        </p>
      )}
    </section>
  );
}
