import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { Link, useLocation } from 'wouter';
import { selectDevice, selectHasAnyRole, selectHomeUrl } from '../../machines/session';
import { selectIsSidebarOpen } from '../../machines/sidebar';
import { selectTotal, selectUnreads } from '../../machines/folder-counts';
import { folderCountsActor, sessionActor, sidebarActor } from '../actors';
import { useT } from '../lib/i18n';
import { cn } from '../lib/utils';
import { Button, buttonVariants } from '../ui/button';
import { ADMIN_ROLES } from '../../../shared/codes';

const selectIsAdmin = selectHasAnyRole(ADMIN_ROLES);

type CountType = 'received' | 'sent' | 'scheduled' | 'draft';

interface NavItem {
  to: string;
  key: string;
  /** Highlight for any path under this prefix. */
  prefix: string;
  /** Folder counters from GET /messages/info. */
  counts?: CountType;
}

// Selectors built once per folder (a new function per render would be fine, but these are shared).
const COUNT_SELECTORS = Object.fromEntries(
  (['received', 'sent', 'scheduled', 'draft'] as const).map((k) => [k, { unreads: selectUnreads(k), total: selectTotal(k) }]),
) as Record<CountType, { unreads: ReturnType<typeof selectUnreads>; total: ReturnType<typeof selectTotal> }>;

function Counter({ type }: { type: CountType }) {
  const t = useT();
  const unreads = useSelector(folderCountsActor, COUNT_SELECTORS[type].unreads);
  const total = useSelector(folderCountsActor, COUNT_SELECTORS[type].total);
  if (!unreads && !total) return null;
  return (
    <span className="ml-auto flex items-center gap-1 text-xs">
      {unreads > 0 && (
        <span className="rounded-full bg-primary px-1.5 font-semibold text-primary-foreground" aria-label={t('folders.unread', { count: unreads })}>
          {unreads}
        </span>
      )}
      <span className="text-muted-foreground" aria-label={t('folders.total', { count: total })}>
        {total}
      </span>
    </span>
  );
}

const MAIL: NavItem[] = [
  { to: '/inbox', key: 'nav.inbox', prefix: '/inbox', counts: 'received' },
  { to: '/sent', key: 'nav.sent', prefix: '/sent', counts: 'sent' },
  { to: '/scheduled', key: 'nav.scheduled', prefix: '/scheduled', counts: 'scheduled' },
  { to: '/draft', key: 'nav.draft', prefix: '/draft', counts: 'draft' },
  { to: '/trash', key: 'nav.trash', prefix: '/trash' },
];

function NavLinks() {
  const t = useT();
  const [location] = useLocation();
  const isAdmin = useSelector(sessionActor, selectIsAdmin);
  const device = useSelector(sessionActor, selectDevice);
  const home = useSelector(sessionActor, selectHomeUrl);

  const items: NavItem[] = [
    ...MAIL,
    { to: '/recipient-lists', key: 'nav.recipientLists', prefix: '/recipient-list' },
    { to: '/templates', key: 'nav.templates', prefix: '/templates' },
    ...(isAdmin ? [{ to: '/dashboard', key: 'nav.dashboard', prefix: '/dashboard' }] : []),
    ...(device === 'latam' ? [{ to: '/mural/news', key: 'nav.mural', prefix: '/mural' }] : []),
    ...(isAdmin ? [{ to: '/settings/message-quota', key: 'nav.settings', prefix: '/settings' }] : []),
  ];

  return (
    <nav aria-label={t('nav.label')} className="flex flex-col gap-1 p-3">
      <Link href="/new" className={cn(buttonVariants({ size: 'lg' }), 'mb-3 w-full')} aria-current={location.startsWith('/new') ? 'page' : undefined}>
        {t('nav.new')}
      </Link>
      {items.map((item) => {
        const active = location.startsWith(item.prefix);
        return (
          <Link
            key={item.to}
            href={item.to}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-foreground/80 hover:bg-accent hover:text-accent-foreground',
              active && 'bg-accent text-accent-foreground',
            )}
          >
            <span>{t(item.key)}</span>
            {item.counts && <Counter type={item.counts} />}
          </Link>
        );
      })}
      {home && (
        <a href={home} target="_blank" rel="noopener noreferrer" className="mt-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent">
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
      <aside className="hidden w-64 shrink-0 border-r bg-card lg:block">
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
