import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { Link, useLocation } from 'wouter';
import { COUNT_TYPES, type CountType } from '../../../shared/codes';
import { selectMayEnter } from '../../machines/app/route-guard';
import { selectHomeUrl } from '../../machines/session/selectors';
import { selectIsSidebarOpen } from '../../machines/app/sidebar';
import { selectTotal, selectUnreads } from '../../machines/messages/folder-counts';
import { folderCountsActor, routeGuardActor, sessionActor, sidebarActor } from '../actors';
import { useT } from '../lib/i18n';
import { useSelectors } from '../lib/selectors';
import { cn } from '../lib/utils';
import { NAV_ROUTES, type NavEntry } from '../route-table';
import { Button, buttonVariants } from '../ui/button';

// Selectors built once (a new function per render would re-subscribe every time).
const COUNT_SELECTORS = Object.fromEntries(COUNT_TYPES.map((k) => [k, { unreads: selectUnreads(k), total: selectTotal(k) }])) as Record<
  CountType,
  { unreads: ReturnType<typeof selectUnreads>; total: ReturnType<typeof selectTotal> }
>;
const MAY_ENTER = new Map(NAV_ROUTES.map((route) => [route.name, selectMayEnter(route.name)]));
const NEVER = () => false;

function Counter({ type }: { type: CountType }) {
  const t = useT();
  const { unreads, total } = useSelectors(folderCountsActor, COUNT_SELECTORS[type]);
  if (!unreads && !total) return null;
  return (
    <span className="ml-auto flex items-center gap-1 text-xs">
      {unreads > 0 && (
        // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the counter's words go into the link's name (name from content); the browser tests read that name and select by this label.
        <span
          className="rounded-full bg-primary px-1.5 font-semibold text-primary-foreground"
          aria-label={t('nav.unread', { count: unreads })}
        >
          {unreads}
        </span>
      )}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the total's words go into the link's name (name from content); the browser tests read that name and select by this label. */}
      <span className="text-muted-foreground" aria-label={t('nav.total', { count: total })}>
        {total}
      </span>
    </span>
  );
}

/** One route's link, offered only to users the route would let in (its roles and device). */
function NavLink({ name, href, nav }: { name: string; href: string; nav: NavEntry }) {
  const t = useT();
  const [location] = useLocation();
  const allowed = useSelector(routeGuardActor, MAY_ENTER.get(name) ?? NEVER);
  if (!allowed) return null;
  const active = location.startsWith(nav.prefix);
  if (nav.primary) {
    return (
      <Link href={href} className={cn(buttonVariants({ size: 'lg' }), 'mb-3 w-full')} aria-current={active ? 'page' : undefined}>
        {t(nav.label)}
      </Link>
    );
  }
  return (
    <Link
      href={href}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-foreground/80 hover:bg-accent hover:text-accent-foreground',
        active && 'bg-accent text-accent-foreground',
      )}
    >
      <span>{t(nav.label)}</span>
      {nav.counts && <Counter type={nav.counts} />}
    </Link>
  );
}

function NavLinks() {
  const t = useT();
  const home = useSelector(sessionActor, selectHomeUrl);
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col gap-1 p-3">
      {NAV_ROUTES.map((route) => (
        <NavLink key={route.name} name={route.name} href={route.nav.href ?? route.path} nav={route.nav} />
      ))}
      {home && (
        <a
          href={home}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent"
        >
          {t('nav.home')} ↗
        </a>
      )}
    </nav>
  );
}

/** Persistent on wide screens; below `lg` a native modal <dialog> (focus trap, Esc, no injected styles). */
export function Sidebar() {
  const t = useT();
  const open = useSelector(sidebarActor, selectIsSidebarOpen);
  const dialog = useRef<HTMLDialogElement>(null);

  // Mirror the machine's state onto the native dialog; the machine stays the source of truth.
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  return (
    <>
      <aside className="hidden w-64 print:hidden shrink-0 border-r bg-card lg:block">
        <div className="sticky top-0">
          <NavLinks />
        </div>
      </aside>
      <dialog
        ref={dialog}
        aria-label={t('nav.label')}
        onClose={() => sidebarActor.send({ type: 'sidebar.close' })}
        className="m-0 h-dvh max-h-none w-72 max-w-[85vw] border-r bg-card p-0 backdrop:bg-black/30 lg:hidden"
      >
        {open && (
          <div className="flex h-full flex-col">
            <div className="flex justify-end p-2">
              <Button variant="ghost" size="sm" onClick={() => sidebarActor.send({ type: 'sidebar.close' })}>
                {t('nav.close')}
              </Button>
            </div>
            <NavLinks />
          </div>
        )}
      </dialog>
    </>
  );
}
