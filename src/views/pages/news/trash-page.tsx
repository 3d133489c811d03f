// /mural/trash (managers): deleted posts, newest deleted first, with who deleted each and when;
// restore, or delete forever after a question (ConfirmPanel over AlertPanel: Escape answers no). Paged
// with "Cargar más". The machine is news/trash.ts.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { NewsPost } from '../../../../shared/news-contract';
import { selectLocale } from '../../../machines/app/locale';
import { selectCanLoadMore, selectHasFailed, selectIsAppending, selectIsEmpty, selectIsLoading, selectIsStale, selectTotal } from '../../../machines/list/list';
import {
  newsPurgeButtonId,
  newsTrashMachine,
  selectNewsTrashBusy,
  selectNewsTrashConfirming,
  selectNewsTrashCrashed,
  selectNewsTrashItems,
  selectNewsTrashList,
  selectNewsTrashTarget,
  type NewsTrashListActor,
} from '../../../machines/news/trash';
import { selectTimezone } from '../../../machines/session/selectors';
import { localeActor, sessionActor } from '../../actors';
import { formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { NewsShell } from './shell';

type TrashActor = ActorRefFrom<typeof newsTrashMachine>;

export function NewsTrashPage() {
  const actor = usePageActor(newsTrashMachine, { input: undefined });
  const t = useT();
  return (
    <NewsShell manage title="pages.newsTrash" intro={t('newsAdmin.trash.intro')}>
      {actor ? <TrashScreen actor={actor} /> : <ListSkeleton label={t('newsAdmin.trash.loading')} rows={4} />}
    </NewsShell>
  );
}

function TrashScreen({ actor }: { actor: TrashActor }) {
  const t = useT();
  const list = useSelector(actor, selectNewsTrashList);
  const crashed = useSelector(actor, selectNewsTrashCrashed);
  const items = useSelector(actor, selectNewsTrashItems);
  if (crashed || !list)
    return <ListFailure message={t('newsAdmin.trash.loadFailed')} retryLabel={t('newsAdmin.trash.retry')} onRetry={() => actor.send({ type: 'trash.retry' })} />;
  return (
    <>
      <TrashTotal list={list} />
      <TrashStart list={list} />
      {items.length > 0 && (
        <ul className="flex flex-col gap-2">
          {items.map((post) => (
            <TrashRow key={post.id} actor={actor} post={post} />
          ))}
        </ul>
      )}
      <TrashEnd list={list} />
    </>
  );
}

function TrashTotal({ list }: { list: NewsTrashListActor }) {
  const t = useT();
  const total = useSelector(list, selectTotal);
  if (total === null || total === 0) return null;
  return <p className="text-sm text-muted-foreground">{t('newsAdmin.trash.total', { count: total })}</p>;
}

/** Before the rows: the skeleton, the failure, or the empty state. */
function TrashStart({ list }: { list: NewsTrashListActor }) {
  const t = useT();
  const loading = useSelector(list, selectIsLoading);
  const failed = useSelector(list, selectHasFailed);
  const empty = useSelector(list, selectIsEmpty);
  if (loading) return <ListSkeleton label={t('newsAdmin.trash.loading')} rows={4} />;
  if (failed)
    return <ListFailure message={t('newsAdmin.trash.loadFailed')} retryLabel={t('newsAdmin.trash.retry')} onRetry={() => list.send({ type: 'list.reload' })} />;
  if (empty)
    return (
      <p role="status" data-slot="trash-empty" className="rounded-lg border border-dashed bg-card p-6 text-center text-muted-foreground">
        {t('newsAdmin.trash.empty')}
      </p>
    );
  return null;
}

/** After the rows: a stale warning with Reintentar, and "Cargar más". */
function TrashEnd({ list }: { list: NewsTrashListActor }) {
  const t = useT();
  const stale = useSelector(list, selectIsStale);
  const more = useSelector(list, selectCanLoadMore);
  const appending = useSelector(list, selectIsAppending);
  return (
    <div className="flex flex-col items-center gap-2">
      {stale && (
        <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          {t('newsAdmin.trash.stale')}
          <Button size="sm" variant="outline" onClick={() => list.send({ type: 'list.reload' })}>
            {t('newsAdmin.trash.retry')}
          </Button>
        </p>
      )}
      {(more || appending) && (
        <Button variant="outline" aria-disabled={appending || undefined} aria-busy={appending || undefined} onClick={() => list.send({ type: 'list.more' })}>
          {t('newsAdmin.trash.loadMore')}
        </Button>
      )}
    </div>
  );
}

function TrashRow({ actor, post }: { actor: TrashActor; post: NewsPost }) {
  const t = useT();
  const locale = useSelector(localeActor, selectLocale);
  const timezone = useSelector(sessionActor, selectTimezone);
  const target = useSelector(actor, selectNewsTrashTarget);
  const asking = useSelector(actor, selectNewsTrashConfirming);
  const busy = useSelector(actor, selectNewsTrashBusy);
  const canRestore = useSelector(actor, (s) => s.can({ type: 'trash.restore', id: post.id }));
  const canPurge = useSelector(actor, (s) => s.can({ type: 'trash.purge', id: post.id }));
  const confirming = asking && target === post.id;
  const when = post.deleted_at ? formatDateTime(post.deleted_at, locale, timezone) : '';
  const titleId = `news-trash-title-${post.id}`;
  return (
    <li data-slot="news-trash-row" aria-labelledby={titleId} aria-busy={(busy && target === post.id) || undefined} className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 flex-col">
          <span id={titleId} className="font-medium break-words">
            {post.title}
          </span>
          <span className="text-sm text-muted-foreground">
            {post.category?.name ?? t('newsAdmin.trash.noCategory')} ·{' '}
            {post.deleted_by ? t('newsAdmin.trash.deletedBy', { name: post.deleted_by.name, date: when }) : t('newsAdmin.trash.deletedAt', { date: when })}
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline"
            aria-disabled={!canRestore || busy || undefined}
            aria-label={`${t('newsAdmin.trash.restore')}: ${post.title}`}
            onClick={() => actor.send({ type: 'trash.restore', id: post.id })}
          >
            {t('newsAdmin.trash.restore')}
          </Button>
          <Button
            id={newsPurgeButtonId(post.id)}
            size="sm"
            variant="destructive"
            aria-disabled={!canPurge || busy || undefined}
            aria-label={`${t('newsAdmin.trash.purge')}: ${post.title}`}
            onClick={() => actor.send({ type: 'trash.purge', id: post.id })}
          >
            {t('newsAdmin.trash.purge')}
          </Button>
        </div>
      </div>
      {confirming && (
        <ConfirmPanel
          title={t('newsAdmin.trash.purgeQuestion', { title: post.title })}
          description={t('newsAdmin.trash.purgeHint')}
          confirmLabel={t('newsAdmin.trash.purge')}
          cancelLabel={t('newsAdmin.trash.cancel')}
          destructive
          className="border-destructive/40 bg-destructive/5"
          onConfirm={() => actor.send({ type: 'trash.confirm' })}
          onCancel={() => actor.send({ type: 'trash.cancel' })}
        />
      )}
    </li>
  );
}
