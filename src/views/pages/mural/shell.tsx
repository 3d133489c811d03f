// The mural's small shell: the page's one h1 and, for managers, the tabs Mural (/mural/news, the wall as
// readers see it), Publicaciones (/mural, the desk), Categorías and Papelera (another screen's routes).
import type * as React from 'react';
import { useLocation } from 'wouter';
import { useT } from '../../lib/i18n';
import { NavTab } from '../../ui/nav-tab';

const TABS = [
  { href: '/mural/news', label: 'mural.tabs.wall' },
  { href: '/mural', label: 'mural.tabs.desk' },
  { href: '/mural/categories', label: 'mural.tabs.categories' },
  { href: '/mural/trash', label: 'mural.tabs.trash' },
] as const;

/** A tab is current on its own path only (/mural would otherwise hold every other tab). */
const isCurrent = (location: string, href: string) => location === href || location === `${href}/`;

export function MuralShell({ title, intro, manage, actions, children }: { title: string; intro?: string; manage: boolean; actions?: React.ReactNode; children: React.ReactNode }) {
  const t = useT();
  const [location] = useLocation();
  return (
    <section aria-labelledby="page-title" className="mx-auto flex w-full max-w-3xl flex-col gap-4" data-slot="mural-shell">
      <header className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="min-w-0">
            <h1 id="page-title" className="text-2xl font-bold">
              {title}
            </h1>
            {intro && <p className="text-sm text-muted-foreground">{intro}</p>}
          </div>
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </div>
        {manage && (
          <nav aria-label={t('mural.tabs.label')} className="overflow-x-auto border-b">
            <ul className="-mb-px flex gap-x-1 whitespace-nowrap">
              {TABS.map((tab) => (
                <li key={tab.href}>
                  <NavTab href={tab.href} current={isCurrent(location, tab.href)} slot="mural-tab">
                    {t(tab.label)}
                  </NavTab>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      {children}
    </section>
  );
}
