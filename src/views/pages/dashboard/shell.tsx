// The data dashboards' shell (issue 16; SPEC §2 /dashboard children connectivity and users, and the
// rankings): the page's title as the one h1 (the route's `pages.*` title, so the tab title and the heading
// say the same), then the four data screens as tabs — Conectividad, Usuarios, Ranking de cursos, Ranking de
// funcionarios — the current one marked with aria-current. Plain links like the settings shell
// (settings/shell.tsx): Tab reaches them and the browser's own link behaviour holds. On a 390 px phone the
// row scrolls sideways inside itself (the current tab scrolled into view, a focused one by the browser)
// rather than wrapping into a second row. Each data page renders its content inside it, its panels as h2;
// the shell's texts are the `dashboard` namespace, loaded with those pages.
import { useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { NavTabs, useCurrentTabInView } from '../../ui/nav-tab';

export const DASHBOARD_SECTIONS: readonly { href: string; label: MessageKey }[] = [
  { href: '/dashboard/connectivity', label: 'dashboardShell.connectivity' },
  { href: '/dashboard/users', label: 'dashboardShell.users' },
  { href: '/ranking/courses', label: 'dashboardShell.rankingCourses' },
  { href: '/ranking/users', label: 'dashboardShell.rankingUsers' },
];

/** The course pages belong to the Conectividad tab. */
const sectionPath = (location: string): string => (location.startsWith('/connectivity/') ? '/dashboard/connectivity' : location);

export function DashboardShell({ title, children, className }: { title: Extract<MessageKey, `pages.${string}`>; children: ReactNode; className?: string }) {
  const t = useT();
  const [location] = useLocation();
  const tabs = useRef<HTMLElement>(null);
  // On a phone /ranking/users does not open with its own tab hidden off to the right.
  useCurrentTabInView(tabs, location);
  return (
    <section aria-labelledby="page-title" data-slot="dashboard-shell" className={cn('mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4', className)}>
      <h1 id="page-title" className="text-2xl font-bold print:hidden">
        {t(title)}
      </h1>
      <nav ref={tabs} aria-label={t('dashboardShell.sections')} className="relative min-w-0 overflow-x-auto border-b print:hidden" data-slot="dashboard-tabs">
        <NavTabs
          items={DASHBOARD_SECTIONS.map(({ href, label }) => ({ href, label: t(label) }))}
          location={sectionPath(location)}
          slot="dashboard-tab"
          className="mb-0 w-max flex-nowrap"
          itemClassName="shrink-0 whitespace-nowrap"
        />
      </nav>
      {children}
    </section>
  );
}
