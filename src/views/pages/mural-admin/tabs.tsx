// The managers' tabs of the mural (issue 17): the desk (/mural), categories, trash, and the wall and its
// printable week as readers see them. Real links; the current one has aria-current="page".
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { NavTab } from '../../ui/nav-tab';

const TABS: readonly { href: string; label: MessageKey }[] = [
  { href: '/mural', label: 'muralAdmin.tabs.desk' },
  { href: '/mural/categories', label: 'muralAdmin.tabs.categories' },
  { href: '/mural/trash', label: 'muralAdmin.tabs.trash' },
  { href: '/mural/news', label: 'muralAdmin.tabs.wall' },
  { href: '/mural/news/week', label: 'muralAdmin.tabs.week' },
];

export function MuralAdminShell({ heading, intro, children, className }: { heading: string; intro?: string; children: ReactNode; className?: string }) {
  const t = useT();
  const [location] = useLocation();
  return (
    <section aria-labelledby="page-title" data-slot="mural-admin" className={cn('mx-auto flex w-full max-w-4xl min-w-0 flex-col gap-4', className)}>
      <nav aria-label={t('muralAdmin.tabs.label')} className="-mx-1 overflow-x-auto border-b print:hidden">
        <ul className="-mb-px flex gap-x-1">
          {TABS.map(({ href, label }) => (
            <li key={href} className="shrink-0">
              <NavTab href={href} current={location === href} slot="mural-tab">
                {t(label)}
              </NavTab>
            </li>
          ))}
        </ul>
      </nav>
      <header className="flex flex-col gap-1">
        <h1 id="page-title" className="text-2xl font-bold">
          {heading}
        </h1>
        {intro && <p className="text-sm text-muted-foreground">{intro}</p>}
      </header>
      {children}
    </section>
  );
}
