// /recipient-lists/trash: deleted lists with who deleted them and when; restore, or delete forever after a
// question. The machine is recipient-lists/trash.ts.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { TrashedRecipientList } from '../../../../shared/recipient-lists-contract';
import { selectLocale } from '../../../machines/app/locale';
import {
  recipientListsTrashMachine,
  selectIsConfirmingPurge,
  selectTrashBusy,
  selectTrashCrashed,
  selectTrashItems,
  selectTrashList,
  selectTrashQuery,
  selectTrashTarget,
  trashPurgeButtonId,
} from '../../../machines/recipient-lists/trash';
import { selectTimezone } from '../../../machines/session/selectors';
import { localeActor, sessionActor } from '../../actors';
import { formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { Input } from '../../ui/input';
import { ListEnd, ListStart, ListTotal } from './list-states';
import { ListFailure, ListSkeleton } from '../../ui/list-state';

type TrashActor = ActorRefFrom<typeof recipientListsTrashMachine>;

export function RecipientListsTrashPage() {
  const actor = usePageActor(recipientListsTrashMachine, { input: undefined });
  const t = useT();
  return actor ? <TrashScreen actor={actor} /> : <ListSkeleton label={t('recipientLists.loading')} rows={4} />;
}

function TrashScreen({ actor }: { actor: TrashActor }) {
  const t = useT();
  const list = useSelector(actor, selectTrashList);
  const crashed = useSelector(actor, selectTrashCrashed);
  const q = useSelector(actor, selectTrashQuery);
  const items = useSelector(actor, selectTrashItems);
  return (
    <section aria-labelledby="page-title" className="mx-auto flex max-w-5xl flex-col gap-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="page-title" className="text-2xl font-bold">
            {t('recipientLists.trashHeading')}
          </h1>
          {list && <ListTotal list={list} />}
        </div>
        <Button asChild variant="ghost" size="sm">
          <Link href="/recipient-lists">{t('recipientLists.backToLists')}</Link>
        </Button>
      </header>
      <Input
        type="search"
        className="w-full sm:w-80"
        aria-label={t('recipientLists.searchTrash')}
        placeholder={t('recipientLists.searchTrash')}
        value={q}
        onChange={(e) => actor.send({ type: 'trash.search', q: e.currentTarget.value })}
      />
      {crashed || !list ? (
        <ListFailure message={t('recipientLists.loadFailed')} retryLabel={t('recipientLists.retry')} onRetry={() => actor.send({ type: 'trash.retry' })} />
      ) : (
        <>
          <ListStart list={list} empty="recipientLists.trashEmpty" q={q} />
          {items.length > 0 && (
            <ul className="flex flex-col gap-2">
              {items.map((item) => (
                <TrashRow key={item.id} actor={actor} item={item} />
              ))}
            </ul>
          )}
          <ListEnd list={list} />
        </>
      )}
    </section>
  );
}

function TrashRow({ actor, item }: { actor: TrashActor; item: TrashedRecipientList }) {
  const t = useT();
  const locale = useSelector(localeActor, selectLocale);
  const timezone = useSelector(sessionActor, selectTimezone);
  const target = useSelector(actor, selectTrashTarget);
  const confirming = useSelector(actor, selectIsConfirmingPurge) && target === item.id;
  const busy = useSelector(actor, selectTrashBusy);
  const canRestore = useSelector(actor, (s) => s.can({ type: 'trash.restore', id: item.id }));
  const canPurge = useSelector(actor, (s) => s.can({ type: 'trash.purge', id: item.id }));
  return (
    <li data-slot="trash-row" className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 flex-col">
          <span className="truncate font-medium">{item.name}</span>
          <span className="text-sm text-muted-foreground">
            {t('recipientLists.members', { count: item.users_count })} ·{' '}
            {t('recipientLists.deletedBy', { name: item.deleted_by_name, date: formatDateTime(item.deleted_at, locale, timezone) })}
          </span>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" disabled={!canRestore || busy} aria-label={`${t('recipientLists.restore')}: ${item.name}`} onClick={() => actor.send({ type: 'trash.restore', id: item.id })}>
            {t('recipientLists.restore')}
          </Button>
          <Button
            id={trashPurgeButtonId(item.id)}
            size="sm"
            variant="destructive"
            disabled={!canPurge || busy}
            aria-label={`${t('recipientLists.purge')}: ${item.name}`}
            onClick={() => actor.send({ type: 'trash.purge', id: item.id })}
          >
            {t('recipientLists.purge')}
          </Button>
        </div>
      </div>
      {confirming && (
        <ConfirmPanel
          title={t('recipientLists.purgeQuestion', { name: item.name })}
          description={t('recipientLists.purgeHint')}
          confirmLabel={t('recipientLists.purge')}
          cancelLabel={t('recipientLists.cancel')}
          destructive
          className="border-destructive/40 bg-destructive/5"
          onConfirm={() => actor.send({ type: 'trash.confirm' })}
          onCancel={() => actor.send({ type: 'trash.cancel' })}
        />
      )}
    </li>
  );
}
