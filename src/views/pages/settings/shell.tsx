// The settings shell: the heading "Configuración" and the two settings screens as real links
// (SPEC §2 /settings children message-quota and message-signature), the current one marked with
// aria-current. Plain links, so Tab reaches them and the browser's own link behaviour holds (open in a new
// tab, Back); on a 390 px phone they share the row and wrap rather than scroll sideways. Each settings page
// renders its content inside it; the shell's texts are the shell's (bundled), so either page can use it.
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { NavTabs } from '../../ui/nav-tab';
import { Page, PageTitle } from '../../ui/page';

const SETTINGS_SECTIONS: readonly { href: string; label: MessageKey }[] = [
  { href: '/settings/message-quota', label: 'settingsShell.quota' },
  { href: '/settings/message-signature', label: 'settingsShell.signature' },
  { href: '/settings/sso', label: 'settingsShell.sso' },
];

export function SettingsShell({ children, className }: { children: ReactNode; className?: string }) {
  const t = useT();
  const [location] = useLocation();
  return (
    <Page width="w-full max-w-3xl" data-slot="settings-shell" className={className}>
      <PageTitle>{t('settingsShell.heading')}</PageTitle>
      <nav aria-label={t('settingsShell.sections')} className="border-b">
        <NavTabs items={SETTINGS_SECTIONS.map(({ href, label }) => ({ href, label: t(label) }))} location={location} slot="settings-tab" />
      </nav>
      {children}
    </Page>
  );
}
