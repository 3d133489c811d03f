// The data dashboards' shell (SPEC §2 /dashboard children connectivity and users, and the
// rankings): the page's title as the one h1 (the route's `pages.*` title, so the tab title and the heading
// say the same), then the four data screens as tabs — Conectividad, Usuarios, Ranking de cursos, Ranking de
// funcionarios — the current one marked with aria-current. Plain links like the settings shell
// (settings/shell.tsx): Tab reaches them and the browser's own link behaviour holds. On a 390 px phone the
// row scrolls sideways inside itself (the current tab scrolled into view, a focused one by the browser)
// rather than wrapping into a second row. Each data page renders its content inside it, its panels as h2;
// the shell's texts are the `dashboard` namespace, loaded with those pages.
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { isUnder, SectionNavTabs } from '../../ui/nav-tab';
import { Page, PageTitle } from '../../ui/page';

const DASHBOARD_SECTIONS: readonly { href: string; label: MessageKey }[] = [
  { href: '/dashboard/connectivity', label: 'dashboardShell.connectivity' },
  { href: '/dashboard/users', label: 'dashboardShell.users' },
  { href: '/ranking/courses', label: 'dashboardShell.rankingCourses' },
  { href: '/ranking/users', label: 'dashboardShell.rankingUsers' },
];

/** The course pages belong to the Conectividad tab. */
const sectionPath = (location: string): string => (location.startsWith('/connectivity/') ? '/dashboard/connectivity' : location);

export function DashboardShell({
  title,
  children,
  className,
}: {
  title: Extract<MessageKey, `pages.${string}`>;
  children: ReactNode;
  className?: string;
}) {
  const t = useT();
  const [location] = useLocation();
  return (
    <Page width="w-full max-w-6xl min-w-0" data-slot="dashboard-shell" className={className}>
      <PageTitle className="print:hidden">{t(title)}</PageTitle>
      {/* On a phone the tabs wrap: every section is in sight. */}
      <SectionNavTabs
        label={t('dashboardShell.sections')}
        items={DASHBOARD_SECTIONS.map(({ href, label }) => ({ href, label: t(label) }))}
        location={location}
        isCurrent={(at, href) => isUnder(sectionPath(at), href)}
        slot="dashboard-tab"
        className="print:hidden"
        data-slot="dashboard-tabs"
      />
      {children}
    </Page>
  );
}
