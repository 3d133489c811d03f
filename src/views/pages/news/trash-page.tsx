// /mural/trash (managers): deleted posts, newest deleted first, with who deleted each and when;
// restore, or delete forever after a question (ConfirmPanel over AlertPanel: Escape answers no). Paged
// with "Cargar más". The machine is news/trash.ts.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { NewsPost } from '../../../../shared/news-contract';
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
import { formatDateTime } from '../../lib/format';
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { ItemCard, ItemConfirm, ItemHead, TrashActions } from '../../ui/item-card';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { ListBody, ListEmpty, ListEnd, ListTotal, useListPhase } from '../../ui/list-page';
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
  const { target, asking, busy, canRestore, canPurge } = useSelectors(actor, {
    target: selectNewsTrashTarget,
    asking: selectNewsTrashConfirming,
    busy: selectNewsTrashBusy,
    canRestore: (s) => s.can({ type: 'trash.restore', id: post.id }),
    canPurge: (s) => s.can({ type: 'trash.purge', id: post.id }),
  });
  const confirming = asking && target === post.id;
  const when = post.deleted_at ? formatDateTime(post.deleted_at, locale, timezone) : '';
  const titleId = `news-trash-title-${post.id}`;
  return (
    <ItemCard data-slot="news-trash-row" aria-labelledby={titleId} aria-busy={(busy && target === post.id) || undefined}>
      <ItemHead
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
        actions={
          <TrashActions
            name={post.title}
            restoreLabel={t('newsAdmin.trash.restore')}
            purgeLabel={t('newsAdmin.trash.purge')}
            purgeId={newsPurgeButtonId(post.id)}
            canRestore={canRestore && !busy}
            canPurge={canPurge && !busy}
            unavailable="aria-disabled"
            onRestore={() => actor.send({ type: 'trash.restore', id: post.id })}
            onPurge={() => actor.send({ type: 'trash.purge', id: post.id })}
          />
        }
      />
      {confirming && (
        <ItemConfirm
          title={t('newsAdmin.trash.purgeQuestion', { title: post.title })}
          description={t('newsAdmin.trash.purgeHint')}
          confirmLabel={t('newsAdmin.trash.purge')}
          cancelLabel={t('newsAdmin.trash.cancel')}
          onConfirm={() => actor.send({ type: 'trash.confirm' })}
          onCancel={() => actor.send({ type: 'trash.cancel' })}
        />
      )}
    </ItemCard>
  );
}
