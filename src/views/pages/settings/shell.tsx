// The settings shell: the heading "Configuración" and the settings screens as real links (SPEC §2 /settings
// children message-quota and message-signature, the school's own data, and the staff for the school's administrators), the current one marked with
// aria-current. Plain links, so Tab reaches them and the browser's own link behaviour holds (open in a new
// tab, Back); on a 390 px phone they share the row and wrap rather than scroll sideways. Each settings page
// renders its content inside it; the shell's texts are the shell's (bundled), so either page can use it.
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useLocation } from 'wouter';
import { STAFF_ADMIN_ROLES } from '../../../../shared/codes';
import type { MessageKey } from '../../../i18n';
import { selectHasAnyRole } from '../../../machines/session/selectors';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { NavTabs } from '../../ui/nav-tab';
import { Page, PageTitle } from '../../ui/page';

const SETTINGS_SECTIONS: readonly { href: string; label: MessageKey; staffAdmin?: true }[] = [
  { href: '/settings/message-quota', label: 'settingsShell.quota' },
  { href: '/settings/message-signature', label: 'settingsShell.signature' },
  { href: '/settings/school', label: 'settingsShell.school' },
  // The staff screen is for the school's administrators only (route-table.ts): no tab for the others.
  { href: '/settings/staff', label: 'settingsShell.staff', staffAdmin: true },
];

const selectIsStaffAdmin = selectHasAnyRole(STAFF_ADMIN_ROLES);

export function SettingsShell({ children, className }: { children: ReactNode; className?: string }) {
  const t = useT();
  const [location] = useLocation();
  const staffAdmin = useSelector(sessionActor, selectIsStaffAdmin);
  const sections = SETTINGS_SECTIONS.filter((section) => staffAdmin || !section.staffAdmin);
  return (
    <Page width="w-full max-w-3xl" data-slot="settings-shell" className={className}>
      <PageTitle>{t('settingsShell.heading')}</PageTitle>
      <nav aria-label={t('settingsShell.sections')} className="border-b">
        <NavTabs items={sections.map(({ href, label }) => ({ href, label: t(label) }))} location={location} slot="settings-tab" />
      </nav>
      {children}
    </Page>
  );
}
