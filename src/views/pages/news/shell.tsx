// The news wall's one shell, for /mural, /mural/news, /mural/categories and /mural/trash: the page's
// title as the one h1 (the route's `pages.*` title, so the browser tab and the heading say the same) and,
// for a manager of the school (SPEC §6), the tabs in the order a manager reads them — Mural (/mural/news,
// the wall as readers see it), Publicaciones (/mural, the desk), Categorías, Papelera — with "Nueva
// publicación" and the printable week as actions beside the title, not tabs. Readers get the h1 alone
// (/mural/categories and /mural/trash are managers' routes: their pages always pass `manage`).
// The tabs are plain links like the dashboard's (dashboard/shell.tsx): Tab reaches them, the current one
// is aria-current="page", and on a 390 px phone the row scrolls sideways inside itself with the current tab
// in view. Its texts are the `news` namespace, loaded with every screen that uses it.
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { NEWSFEED_ROLES } from '../../../../shared/codes';
import type { MessageKey } from '../../../i18n';
import { selectHasAnyRole } from '../../../machines/session/selectors';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { SectionNavTabs } from '../../ui/nav-tab';
import { Page, PageTitle } from '../../ui/page';

const MURAL_TABS: readonly { href: string; label: MessageKey }[] = [
  { href: '/mural/news', label: 'news.tabs.wall' },
  { href: '/mural', label: 'news.tabs.desk' },
  { href: '/mural/categories', label: 'news.tabs.categories' },
  { href: '/mural/trash', label: 'news.tabs.trash' },
];

/** A tab is current on its own path only (/mural is above every other tab's path). */
const isTab = (location: string, href: string): boolean => location === href || location === `${href}/`;

export const selectIsNewsManager = selectHasAnyRole(NEWSFEED_ROLES);

export function NewsShell({
  title,
  intro,
  manage,
  children,
  className,
}: {
  title: Extract<MessageKey, `pages.${string}`>;
  intro?: string;
  /** A manager of the school (selectIsNewsManager): the tabs and the actions. */
  manage: boolean;
  children: ReactNode;
  className?: string;
}) {
  const t = useT();
  const [location] = useLocation();
  return (
    <Page width="w-full max-w-4xl min-w-0" data-slot="mural-shell" className={className}>
      <header className="flex flex-col gap-3 print:hidden">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div className="min-w-0">
            <PageTitle>{t(title)}</PageTitle>
            {intro && <p className="text-sm text-muted-foreground">{intro}</p>}
          </div>
          {manage && (
            <div className="flex flex-wrap items-center gap-2" data-slot="mural-actions">
              <Button asChild variant="outline">
                <Link href="/mural/news/week">{t('news.week')}</Link>
              </Button>
              <Button asChild>
                <Link href="/mural/news/compose">{t('news.newPost')}</Link>
              </Button>
            </div>
          )}
        </div>
        {manage && (
          <SectionNavTabs
            label={t('news.tabs.label')}
            items={MURAL_TABS.map(({ href, label }) => ({ href, label: t(label) }))}
            location={location}
            isCurrent={isTab}
            slot="mural-tab"
            data-slot="mural-tabs"
          />
        )}
      </header>
      {children}
    </Page>
  );
}
