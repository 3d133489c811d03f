// What the two paged screens (lists, trash) show around their rows: the skeleton of the first load, its
// failure with Reintentar, the empty and no-match states, a stale warning and "Cargar más".
import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import {
  selectCanLoadMore,
  selectHasFailed,
  selectIsAppending,
  selectIsEmpty,
  selectIsLoading,
  selectIsStale,
  selectTotal,
  type ListSnapshot,
} from '../../../machines/list';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';
import { Button } from '../../ui/button';

// The list pattern's actor, whatever its rows (the selectors read only what every list has).
type AnyList = AnyActorRef;
const as = <R,>(select: (s: ListSnapshot<unknown, unknown>) => R) => (s: unknown) => select(s as ListSnapshot<unknown, unknown>);
const isLoading = as(selectIsLoading);
const hasFailed = as(selectHasFailed);
const isEmpty = as(selectIsEmpty);
const isStale = as(selectIsStale);
const canMore = as(selectCanLoadMore);
const isAppending = as(selectIsAppending);
const totalOf = as(selectTotal);

export function ListTotal({ list }: { list: AnyList }) {
  const t = useT();
  const total = useSelector(list, totalOf);
  if (total === null) return null;
  return <p className="text-sm text-muted-foreground">{t('recipientLists.total', { count: total })}</p>;
}

/** Before any row: the skeleton, the failure, or the empty state; null once rows are there. */
export function ListStart({ list, empty, q }: { list: AnyList; empty: MessageKey; q: string }) {
  const t = useT();
  const loading = useSelector(list, isLoading);
  const failed = useSelector(list, hasFailed);
  const none = useSelector(list, isEmpty);
  if (loading) return <RowsSkeleton label={t('recipientLists.loading')} />;
  if (failed)
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border bg-card p-6">
        <p>{t('recipientLists.loadFailed')}</p>
        <Button onClick={() => list.send({ type: 'list.reload' })}>{t('recipientLists.retry')}</Button>
      </div>
    );
  if (none)
    return (
      <p role="status" className="rounded-lg border border-dashed bg-card p-6 text-center text-muted-foreground">
        {q.trim() ? t('recipientLists.noMatch', { q: q.trim() }) : t(empty)}
      </p>
    );
  return null;
}

/** After the rows: "puede que no estén al día" with Reintentar, and "Cargar más". */
export function ListEnd({ list }: { list: AnyList }) {
  const t = useT();
  const stale = useSelector(list, isStale);
  const more = useSelector(list, canMore);
  const appending = useSelector(list, isAppending);
  return (
    <div className="flex flex-col items-center gap-2">
      {stale && (
        <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          {t('recipientLists.staleRows')}
          <Button size="sm" variant="outline" onClick={() => list.send({ type: 'list.reload' })}>
            {t('recipientLists.retry')}
          </Button>
        </p>
      )}
      {(more || appending) && (
        <Button variant="outline" disabled={appending} aria-busy={appending || undefined} onClick={() => list.send({ type: 'list.more' })}>
          {t('recipientLists.loadMore')}
        </Button>
      )}
    </div>
  );
}

export function RowsSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-label={label} className="flex flex-col gap-2">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className={cn('h-16 animate-pulse rounded-lg bg-muted')} />
      ))}
    </div>
  );
}
