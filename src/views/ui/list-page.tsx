// A list screen: its frame (the title, what it says under it, its actions) and the body every list screen shows
// around its rows (folders, templates, recipient lists and their trash, the
// news wall and its trash, the pickers, the data tables): the first load's skeleton, its failure with
// Reintentar, the empty state, the rows, a warning over rows that could not be brought up to date, the total
// and "Cargar más". Each screen gives its own rows and texts; the markup of each part is the screen's as well
// where screens differ, so every screen renders as it did.
import type * as React from 'react';
import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import {
  selectCanLoadMore,
  selectIsAppending,
  selectIsStale,
  selectPlaceholder,
  selectTotal,
  type ListPlaceholder,
  type ListSnapshot,
} from '../../machines/list/list';
import { cn } from '../lib/utils';
import { Button } from './button';
import { Page, PageTitle } from './page';
import { useSelectors } from '../lib/selectors';

/** What a list body shows: a placeholder in place of the rows, the rows, or nothing yet. */
export type ListPhase = ListPlaceholder | 'none';

// The list pattern's actor, whatever its rows (these selectors read only what every list has).
type AnyList = AnyActorRef;
const as =
  <R,>(select: (s: ListSnapshot<unknown, unknown>) => R) =>
  (s: unknown) =>
    select(s as ListSnapshot<unknown, unknown>);

const placeholderPhase = as(selectPlaceholder);
/** The list's own states: nothing while a query waits for a first page, the empty text even over a failed refresh. */
const statePhase = as((s): ListPhase => {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('empty')) return 'empty';
  return s.context.items.length > 0 ? 'rows' : 'none';
});
const isStale = as(selectIsStale);
const canMore = as(selectCanLoadMore);
const isAppending = as(selectIsAppending);
const totalOf = as(selectTotal);

/**
 * The phase of a hosted list (list/list.ts). `placeholder` (the default) reads a failed refresh of an empty list
 * as a failure and a query typed before the first page as still loading; `states` follows the list's states.
 */
export function useListPhase(list: AnyList, by: 'placeholder' | 'states' = 'placeholder'): ListPhase {
  return useSelector(list, by === 'states' ? statePhase : placeholderPhase);
}

/**
 * The phase of a screen's data (a table, a chart, a form): no list actor of its own. A failed reload keeps
 * the data shown (`stale`), unless `hidesData`: then the failure stands in for it.
 */
export const dataPhase = (data: unknown, failed: boolean, hidesData = false): ListPhase =>
  failed && (hidesData || !data) ? 'failed' : data ? 'rows' : 'loading';

export interface ListBodyProps {
  phase: ListPhase;
  /** Placeholder rows while the first page loads. */
  skeleton: React.ReactNode;
  /** The first load failed: what happened and Reintentar. Also shown with the rows while `stale`. */
  failure: React.ReactNode;
  /** Nothing to list (or nothing that matches). */
  empty?: React.ReactNode;
  /** The rows could not be brought up to date: `failure` stays with them, above (`staleAt="start"`) or below. */
  stale?: boolean;
  staleAt?: 'start' | 'end';
  /** The rows. */
  children: React.ReactNode;
}

/** The rows or what stands in for them; no element of its own, so each screen's markup stays its own. */
export function ListBody({ phase, skeleton, failure, empty = null, stale = false, staleAt = 'end', children }: ListBodyProps) {
  if (phase !== 'rows') {
    if (phase === 'loading') return skeleton;
    if (phase === 'failed') return failure;
    return phase === 'empty' ? empty : null;
  }
  return (
    <>
      {stale && staleAt === 'start' ? failure : null}
      {children}
      {stale && staleAt === 'end' ? failure : null}
    </>
  );
}

/**
 * Nothing to list, said in place of the rows (a status); `large` where the rows would be large cards or a long
 * list; `live={false}` keeps it a plain paragraph where a screen does not announce it.
 */
export function ListEmpty({
  large = false,
  live = true,
  className,
  ...props
}: React.ComponentProps<'p'> & { large?: boolean; live?: boolean }) {
  return (
    <p
      role={live ? 'status' : undefined}
      className={cn(`rounded-lg border border-dashed bg-card ${large ? 'p-10' : 'p-6'} text-center text-muted-foreground`, className)}
      {...props}
    />
  );
}

/** How many there are ("12 listas"), once the list knows; `hideZero` for screens whose empty state says it. */
export function ListTotal({
  list,
  text,
  hideZero = false,
  className,
  ...props
}: Omit<React.ComponentProps<'p'>, 'children'> & { list: AnyList; text: (count: number) => string; hideZero?: boolean }) {
  const total = useSelector(list, totalOf);
  if (total === null || (hideZero && total === 0)) return null;
  return (
    <p className={cn('text-sm text-muted-foreground', className)} {...props}>
      {text(total)}
    </p>
  );
}

/** Something on the screen could not be brought up to date: what, and Reintentar. */
export function RetryNote({ text, retryLabel, onRetry }: { text: React.ReactNode; retryLabel: React.ReactNode; onRetry: () => void }) {
  return (
    <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
      {text}
      <Button size="sm" variant="outline" onClick={onRetry}>
        {retryLabel}
      </Button>
    </p>
  );
}

export interface ListEndProps {
  list: AnyList;
  /** Over stale rows; Reintentar asks the list again unless `onRetry` says otherwise. */
  staleText: React.ReactNode;
  retryLabel: React.ReactNode;
  moreLabel: React.ReactNode;
  onRetry?: () => void;
  onMore?: () => void;
  /** While the next page comes, the button stays focusable (`aria-disabled`) or is `disabled`. */
  busy?: 'disabled' | 'aria-disabled';
  moreClassName?: string;
  /** Before the warning (the wall's total). */
  children?: React.ReactNode;
}

/** After the rows: the stale warning with Reintentar, and "Cargar más" while there is more. */
export function ListEnd({
  list,
  staleText,
  retryLabel,
  moreLabel,
  onRetry,
  onMore,
  busy = 'disabled',
  moreClassName,
  children,
}: ListEndProps) {
  const { stale, more, appending } = useSelectors(list, { stale: isStale, more: canMore, appending: isAppending });
  const waiting = busy === 'disabled' ? { disabled: appending } : { 'aria-disabled': appending || undefined };
  return (
    <div className="flex flex-col items-center gap-2">
      {children}
      {stale && <RetryNote text={staleText} retryLabel={retryLabel} onRetry={onRetry ?? (() => list.send({ type: 'list.reload' }))} />}
      {(more || appending) && (
        <Button
          variant="outline"
          className={moreClassName}
          {...waiting}
          aria-busy={appending || undefined}
          onClick={onMore ?? (() => list.send({ type: 'list.more' }))}
        >
          {moreLabel}
        </Button>
      )}
    </div>
  );
}

export interface ListPageProps extends Omit<React.ComponentProps<'section'>, 'title'> {
  title: React.ReactNode;
  /** Under the title: what the screen is, how many there are. */
  below?: React.ReactNode;
  /** Beside the title: the screen's search or buttons. */
  actions?: React.ReactNode;
  /** Where the title and the actions meet when they share a line. */
  align?: 'end' | 'start';
  titleClassName?: string;
}

/** The frame of a list screen: its `h1` (the page's title, `#page-title`) with what goes under and beside it. */
export function ListPage({ title, below, actions, align = 'end', titleClassName, className, children, ...props }: ListPageProps) {
  return (
    <Page width="max-w-5xl" className={className} {...props}>
      <header className={`flex flex-wrap ${align === 'end' ? 'items-end' : 'items-start'} justify-between gap-3`}>
        <div className={titleClassName}>
          <PageTitle>{title}</PageTitle>
          {below}
        </div>
        {actions}
      </header>
      {children}
    </Page>
  );
}
