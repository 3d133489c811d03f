// The data dashboards' shell (issue 16; SPEC §2 /dashboard children connectivity and users, and the
// rankings): the heading "Datos", the two dashboards as tabs and the rankings as links, the current one
// marked with aria-current. Plain links like the settings shell (settings/shell.tsx): Tab reaches them, the
// browser's own link behaviour holds, and on a 390 px phone they wrap rather than scroll sideways. Each data
// page renders its content inside it; its texts are the 'dashboard' namespace, loaded with those pages.
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { NavTabs } from '../../ui/nav-tab';

export const DASHBOARD_SECTIONS: readonly { href: string; label: MessageKey }[] = [
  { href: '/dashboard/connectivity', label: 'dashboardShell.connectivity' },
  { href: '/dashboard/users', label: 'dashboardShell.users' },
];

export const RANKING_LINKS: readonly { href: string; label: MessageKey }[] = [
  { href: '/ranking/courses', label: 'dashboardShell.rankingCourses' },
  { href: '/ranking/users', label: 'dashboardShell.rankingUsers' },
];

export function DashboardShell({ children, className }: { children: ReactNode; className?: string }) {
  const t = useT();
  const [location] = useLocation();
  return (
    <section aria-labelledby="page-title" data-slot="dashboard-shell" className={cn('mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4', className)}>
      <h1 id="page-title" className="text-2xl font-bold print:hidden">
        {t('dashboardShell.heading')}
      </h1>
      <nav aria-label={t('dashboardShell.sections')} className="flex flex-wrap items-end justify-between gap-x-4 border-b print:hidden">
        <NavTabs items={DASHBOARD_SECTIONS.map(({ href, label }) => ({ href, label: t(label) }))} location={location} slot="dashboard-tab" />
        <NavTabs aria-label={t('dashboardShell.rankings')} items={RANKING_LINKS.map(({ href, label }) => ({ href, label: t(label) }))} location={location} slot="dashboard-ranking-link" />
      </nav>
      {children}
    </section>
  );
}
