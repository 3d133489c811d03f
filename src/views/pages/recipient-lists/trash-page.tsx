// /recipient-lists/trash: deleted lists with who deleted them and when; restore, or delete forever after a
// question. The machine is recipient-lists/trash.ts.
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { TrashedRecipientList } from '../../../../shared/recipient-lists-contract';
import {
  recipientListsTrashMachine,
  selectTrashCrashed,
  selectTrashItems,
  selectTrashList,
  selectTrashQuery,
  trashPurgeButtonId,
} from '../../../machines/recipient-lists/trash';
import { formatDateTime } from '../../lib/format';
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { TrashItem } from '../../ui/trash-item';
import { ListSkeleton } from '../../ui/list-state';
import { PagedListsPage } from './form-bits';
import { useSelectors } from '../../lib/selectors';

type TrashActor = ActorRefFrom<typeof recipientListsTrashMachine>;

export function RecipientListsTrashPage() {
  const actor = usePageActor(recipientListsTrashMachine, { input: undefined });
  const t = useT();
  return actor ? <TrashScreen actor={actor} /> : <ListSkeleton label={t('recipientLists.loading')} rows={4} />;
}

function TrashScreen({ actor }: { actor: TrashActor }) {
  const t = useT();
  const { list, crashed, q, items } = useSelectors(actor, {
    list: selectTrashList,
    crashed: selectTrashCrashed,
    q: selectTrashQuery,
    items: selectTrashItems,
  });
  return (
    <PagedListsPage
      title={t('recipientLists.trashHeading')}
      actions={
        <Button asChild variant="ghost" size="sm">
          <Link href="/recipient-lists">{t('recipientLists.backToLists')}</Link>
        </Button>
      }
      searchLabel={t('recipientLists.searchTrash')}
      q={q}
      onSearch={(text) => actor.send({ type: 'trash.search', q: text })}
      list={crashed ? null : list}
      onRestart={() => actor.send({ type: 'trash.retry' })}
      empty={t('recipientLists.trashEmpty')}
    >
      <ul className="flex flex-col gap-2">
        {items.map((item) => (
          <TrashRow key={item.id} actor={actor} item={item} />
        ))}
      </ul>
    </PagedListsPage>
  );
}

function TrashRow({ actor, item }: { actor: TrashActor; item: TrashedRecipientList }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  return (
    <TrashItem
      trash={actor}
      itemId={item.id}
      label={item.name}
      data-slot="trash-row"
      name={<span className="truncate font-medium">{item.name}</span>}
      detail={
        <>
          {t('recipientLists.members', { count: item.users_count })} ·{' '}
          {t('recipientLists.deletedBy', { name: item.deleted_by_name, date: formatDateTime(item.deleted_at, locale, timezone) })}
        </>
      }
      purgeId={trashPurgeButtonId(item.id)}
      texts={{
        restore: t('recipientLists.restore'),
        purge: t('recipientLists.purge'),
        question: t('recipientLists.purgeQuestion', { name: item.name }),
        hint: t('recipientLists.purgeHint'),
        cancel: t('recipientLists.cancel'),
      }}
    />
  );
}
