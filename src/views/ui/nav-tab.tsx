import { useEffect, useRef, type RefObject } from 'react';
import type * as React from 'react';
import { Link } from 'wouter';
import { cn } from '../lib/utils';

/** A section tab that is a real link (the settings and data shells): the current one has aria-current="page". */
function NavTab({
  href,
  current,
  className,
  slot,
  children,
}: {
  href: string;
  current: boolean;
  className?: string;
  slot: string;
  children: React.ReactNode;
}) {
  return (
    <Link
      href={href}
      aria-current={current ? 'page' : undefined}
      data-slot={slot}
      className={cn(
        'inline-flex min-h-11 items-center border-b-2 border-transparent px-3 text-sm font-medium text-muted-foreground outline-none',
        'hover:text-foreground focus-visible:rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/40',
        'aria-[current=page]:border-primary aria-[current=page]:text-foreground',
        className,
      )}
    >
      {children}
    </Link>
  );
}

/** A path is a tab's page, or under it. */
export const isUnder = (location: string, href: string): boolean => location === href || location.startsWith(`${href}/`);

/** A row of NavTabs (labels already in the user's language), the one for `location` current. */
export function NavTabs({
  items,
  location,
  slot,
  className,
  itemClassName,
  isCurrent = isUnder,
  ...props
}: React.ComponentProps<'ul'> & {
  items: readonly { href: string; label: string }[];
  location: string;
  slot: string;
  itemClassName?: string;
  /** Which tab `location` is (by default the one it is under). */
  isCurrent?: (location: string, href: string) => boolean;
}) {
  return (
    <ul className={cn('-mb-px flex flex-wrap gap-x-1', className)} {...props}>
      {items.map(({ href, label }) => (
        <li key={href} className={itemClassName}>
          <NavTab href={href} current={isCurrent(location, href)} slot={slot} className={itemClassName}>
            {label}
          </NavTab>
        </li>
      ))}
    </ul>
  );
}

/**
 * On a phone a tab row is wider than the screen and scrolls inside itself: the current tab is scrolled into
 * the row's view (the row only, never the page) whenever `location` changes, so a page does not open with
 * its own tab hidden off to the side. A focused tab the browser scrolls in by itself.
 */
function useCurrentTabInView(row: RefObject<HTMLElement | null>, location: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `location` is the trigger: it moves `aria-current` in the DOM this effect reads.
  useEffect(() => {
    const nav = row.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current=page]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    nav.scrollLeft = Math.max(0, current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2);
  }, [row, location]);
}

/**
 * A shell's section tabs as a `nav` row that scrolls sideways inside itself on a phone (the data dashboards,
 * the news wall), with the current tab kept in view as `location` changes.
 */
export function ScrollingNavTabs({
  label,
  items,
  location,
  isCurrent,
  slot,
  className,
  ...props
}: Omit<React.ComponentProps<'nav'>, 'ref'> & {
  label: string;
  items: readonly { href: string; label: string }[];
  location: string;
  isCurrent?: (location: string, href: string) => boolean;
  slot: string;
}) {
  const row = useRef<HTMLElement>(null);
  useCurrentTabInView(row, location);
  return (
    <nav ref={row} aria-label={label} className={cn('relative min-w-0 overflow-x-auto border-b', className)} {...props}>
      <NavTabs
        items={items}
        location={location}
        isCurrent={isCurrent}
        slot={slot}
        className="mb-0 w-max flex-nowrap"
        itemClassName="shrink-0 whitespace-nowrap"
      />
    </nav>
  );
}
