// The settings shell: the heading "Configuración" and the settings screens the user may enter as real links
// (SPEC §2 /settings children message-quota and message-signature; the school's own data; its staff,
// single sign-on and roster import for the school's administrator), the current one marked with aria-current. Plain links, so
// Tab reaches them and the browser's own link behaviour holds (open in a new tab, Back); on a 390 px phone they share the row and wrap rather than scroll sideways. Each settings page
// renders its content inside it; the shell's texts are the shell's (bundled), so either page can use it.
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { MessageKey } from '../../../i18n';
import { selectMayEnter } from '../../../machines/app/route-guard';
import { routeGuardActor } from '../../actors';
import type { RouteName } from '../../route-table';
import { useT } from '../../lib/i18n';
import { NavTabs } from '../../ui/nav-tab';
import { Page, PageTitle } from '../../ui/page';

/** `narrower`: a section for fewer roles than the settings themselves, offered only to whom may enter it. */
const SETTINGS_SECTIONS: readonly { href: string; label: MessageKey; narrower?: RouteName }[] = [
  { href: '/settings/message-quota', label: 'settingsShell.quota' },
  { href: '/settings/message-signature', label: 'settingsShell.signature' },
  { href: '/settings/school', label: 'settingsShell.school', narrower: 'settings-school' },
  { href: '/settings/staff', label: 'settingsShell.staff', narrower: 'settings-staff' },
  { href: '/settings/sso', label: 'settingsShell.sso', narrower: 'settings-sso' },
  { href: '/settings/retention', label: 'settingsShell.retention', narrower: 'settings-retention' },
  { href: '/settings/roster', label: 'settingsShell.roster', narrower: 'settings-roster' },
  { href: '/settings/people', label: 'settingsShell.people', narrower: 'settings-people' },
];

// The sections this user may enter, as one string: a primitive.
const MAY_ENTER = SETTINGS_SECTIONS.map((section) => (section.narrower ? selectMayEnter(section.narrower) : () => true));
const selectOffered = (snapshot: Parameters<ReturnType<typeof selectMayEnter>>[0]): string =>
  SETTINGS_SECTIONS.filter((_, i) => MAY_ENTER[i]!(snapshot))
    .map((section) => section.href)
    .join(' ');

export function SettingsShell({ children, className }: { children: ReactNode; className?: string }) {
  const t = useT();
  const [location] = useLocation();
  const offered = useSelector(routeGuardActor, selectOffered).split(' ');
  return (
    <Page width="w-full max-w-3xl" data-slot="settings-shell" className={className}>
      <PageTitle>{t('settingsShell.heading')}</PageTitle>
      <nav aria-label={t('settingsShell.sections')} className="border-b">
        <NavTabs
          items={SETTINGS_SECTIONS.filter(({ href }) => offered.includes(href)).map(({ href, label }) => ({ href, label: t(label) }))}
          location={location}
          slot="settings-tab"
        />
      </nav>
      {children}
    </Page>
  );
}
