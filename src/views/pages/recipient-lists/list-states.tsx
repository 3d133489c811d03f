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
} from '../../../machines/list/list';
import type { MessageKey } from '../../../i18n';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { ListFailure, ListSkeleton } from '../../ui/list-state';

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
  if (loading) return <ListSkeleton label={t('recipientLists.loading')} rows={4} />;
  if (failed)
    return <ListFailure message={t('recipientLists.loadFailed')} retryLabel={t('recipientLists.retry')} onRetry={() => list.send({ type: 'list.reload' })} />;
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
