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
 * A shell's section tabs as a `nav` row (the data dashboards, the news wall). On a phone the row wraps onto
 * a second line rather than scrolling sideways: a tab off to the side ("Ranking de funcionarios") was out of
 * sight with nothing saying it was there.
 */
export function SectionNavTabs({
  label,
  items,
  location,
  isCurrent,
  slot,
  className,
  ...props
}: React.ComponentProps<'nav'> & {
  label: string;
  items: readonly { href: string; label: string }[];
  location: string;
  isCurrent?: (location: string, href: string) => boolean;
  slot: string;
}) {
  return (
    <nav aria-label={label} className={cn('min-w-0 border-b', className)} {...props}>
      <NavTabs items={items} location={location} isCurrent={isCurrent} slot={slot} className="mb-0" itemClassName="whitespace-nowrap" />
    </nav>
  );
}
