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
import { NavTab } from '../../ui/nav-tab';

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
  const isCurrent = (href: string) => location === href || location.startsWith(`${href}/`);
  return (
    <section aria-labelledby="page-title" data-slot="dashboard-shell" className={cn('mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4', className)}>
      <h1 id="page-title" className="text-2xl font-bold print:hidden">
        {t('dashboardShell.heading')}
      </h1>
      <nav aria-label={t('dashboardShell.sections')} className="flex flex-wrap items-end justify-between gap-x-4 border-b print:hidden">
        <ul className="-mb-px flex flex-wrap gap-x-1">
          {DASHBOARD_SECTIONS.map(({ href, label }) => (
            <li key={href}>
              <NavTab href={href} current={isCurrent(href)} slot="dashboard-tab">
                {t(label)}
              </NavTab>
            </li>
          ))}
        </ul>
        <ul aria-label={t('dashboardShell.rankings')} className="-mb-px flex flex-wrap gap-x-1">
          {RANKING_LINKS.map(({ href, label }) => (
            <li key={href}>
              <NavTab href={href} current={isCurrent(href)} slot="dashboard-ranking-link">
                {t(label)}
              </NavTab>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </section>
  );
}
