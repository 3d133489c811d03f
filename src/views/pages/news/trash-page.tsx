// /mural/trash (managers): deleted posts, newest deleted first, with who deleted each and when;
// restore, or delete forever after a question (ConfirmPanel over AlertPanel: Escape answers no). Paged
// with "Cargar más". The machine is news/trash.ts.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { NewsPost } from '../../../../shared/news-contract';
import {
  newsPurgeButtonId,
  newsTrashMachine,
  selectNewsTrashCrashed,
  selectNewsTrashItems,
  selectNewsTrashList,
  type NewsTrashListActor,
} from '../../../machines/news/trash';
import { formatDateTime } from '../../lib/format';
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { ListBody, ListEmpty, ListEnd, ListTotal, useListPhase } from '../../ui/list-page';
import { TrashItem } from '../../ui/trash-item';
import { NewsShell } from './shell';
import { useSelectors } from '../../lib/selectors';

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
  const { list, crashed } = useSelectors(actor, { list: selectNewsTrashList, crashed: selectNewsTrashCrashed });
  if (crashed || !list)
    return (
      <ListFailure
        message={t('newsAdmin.trash.loadFailed')}
        retryLabel={t('newsAdmin.trash.retry')}
        onRetry={() => actor.send({ type: 'trash.retry' })}
      />
    );
  return (
    <>
      <ListTotal list={list} hideZero text={(count) => t('newsAdmin.trash.total', { count })} />
      <TrashBody actor={actor} list={list} />
      <ListEnd
        list={list}
        busy="aria-disabled"
        staleText={t('newsAdmin.trash.stale')}
        retryLabel={t('newsAdmin.trash.retry')}
        moreLabel={t('newsAdmin.trash.loadMore')}
      />
    </>
  );
}

/** The skeleton, the failure, the empty state, or the rows. */
function TrashBody({ actor, list }: { actor: TrashActor; list: NewsTrashListActor }) {
  const t = useT();
  const phase = useListPhase(list, 'states');
  const items = useSelector(actor, selectNewsTrashItems);
  return (
    <ListBody
      phase={phase}
      skeleton={<ListSkeleton label={t('newsAdmin.trash.loading')} rows={4} />}
      failure={
        <ListFailure
          message={t('newsAdmin.trash.loadFailed')}
          retryLabel={t('newsAdmin.trash.retry')}
          onRetry={() => list.send({ type: 'list.reload' })}
        />
      }
      empty={<ListEmpty data-slot="trash-empty">{t('newsAdmin.trash.empty')}</ListEmpty>}
    >
      <ul className="flex flex-col gap-2">
        {items.map((post) => (
          <TrashRow key={post.id} actor={actor} post={post} />
        ))}
      </ul>
    </ListBody>
  );
}

function TrashRow({ actor, post }: { actor: TrashActor; post: NewsPost }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const when = post.deleted_at ? formatDateTime(post.deleted_at, locale, timezone) : '';
  const titleId = `news-trash-title-${post.id}`;
  return (
    <TrashItem
      trash={actor}
      itemId={post.id}
      label={post.title}
      data-slot="news-trash-row"
      aria-labelledby={titleId}
      marksBusy
      gap="gap-2"
      name={
        <span id={titleId} className="font-medium break-words">
          {post.title}
        </span>
      }
      detail={
        <>
          {post.category?.name ?? t('newsAdmin.trash.noCategory')} ·{' '}
          {post.deleted_by
            ? t('newsAdmin.trash.deletedBy', { name: post.deleted_by.name, date: when })
            : t('newsAdmin.trash.deletedAt', { date: when })}
        </>
      }
      purgeId={newsPurgeButtonId(post.id)}
      unavailable="aria-disabled"
      texts={{
        restore: t('newsAdmin.trash.restore'),
        purge: t('newsAdmin.trash.purge'),
        question: t('newsAdmin.trash.purgeQuestion', { title: post.title }),
        hint: t('newsAdmin.trash.purgeHint'),
        cancel: t('newsAdmin.trash.cancel'),
      }}
    />
  );
}
