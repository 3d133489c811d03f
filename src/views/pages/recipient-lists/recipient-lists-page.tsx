// /recipient-lists: the user's lists and colleagues' shared ones (search, "Cargar más"), and "Nueva lista"
// with the compose recipient picker. The machine is recipient-lists/recipient-lists.ts.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { RecipientListSummary } from '../../../../shared/recipient-lists-contract';
import {
  LIST_CREATE_BUTTON_ID,
  LIST_NAME_FIELD_ID,
  LIST_PICKS_FIELD_ID,
  recipientListsMachine,
  selectErrors,
  selectHasCrashed,
  selectIsCreating,
  selectIsSaving,
  selectListsItems,
  selectListsList,
  selectListsPicker,
  selectListsQuery,
  selectNewName,
  selectNewPicks,
} from '../../../machines/recipient-lists/recipient-lists';
import { LIST_NAME_MAX } from '../../../../shared/recipient-lists-contract';
import { usePageActor } from '../../lib/page-actor';
import { useT } from '../../lib/i18n';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ListSkeleton } from '../../ui/list-state';
import { MachineForm } from '../../ui/form';
import { FieldText, PagedListsPage, PicksField } from './form-bits';
import { useSelectors } from '../../lib/selectors';

type ListsActor = ActorRefFrom<typeof recipientListsMachine>;

export function RecipientListsPage() {
  const actor = usePageActor(recipientListsMachine, { input: {} });
  const t = useT();
  return actor ? <ListsScreen actor={actor} /> : <ListSkeleton label={t('recipientLists.loading')} rows={4} />;
}

function ListsScreen({ actor }: { actor: ListsActor }) {
  const t = useT();
  const { list, crashed, creating, q } = useSelectors(actor, {
    list: selectListsList,
    crashed: selectHasCrashed,
    creating: selectIsCreating,
    q: selectListsQuery,
  });
  return (
    <PagedListsPage
      title={t('recipientLists.heading')}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild variant="ghost" size="sm">
            <Link href="/recipient-lists/trash">{t('recipientLists.trashLink')}</Link>
          </Button>
          {!creating && (
            <Button id={LIST_CREATE_BUTTON_ID} onClick={() => actor.send({ type: 'lists.create' })}>
              {t('recipientLists.create')}
            </Button>
          )}
        </div>
      }
      before={creating && <CreateForm actor={actor} />}
      searchLabel={t('recipientLists.search')}
      q={q}
      onSearch={(text) => actor.send({ type: 'lists.search', q: text })}
      list={crashed ? null : list}
      onRestart={() => actor.send({ type: 'lists.retry' })}
      empty={t('recipientLists.empty')}
    >
      <Rows actor={actor} />
    </PagedListsPage>
  );
}

function Rows({ actor }: { actor: ListsActor }) {
  const items = useSelector(actor, selectListsItems);
  return (
    <ul className="flex flex-col gap-2" data-slot="recipient-lists">
      {items.map((item) => (
        <Row key={item.id} item={item} />
      ))}
    </ul>
  );
}

function Row({ item }: { item: RecipientListSummary }) {
  const t = useT();
  return (
    <li data-slot="recipient-list-row" className="rounded-lg border bg-card">
      <Link
        href={`/recipient-list/${item.id}`}
        className="flex flex-col gap-1 p-4 outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/40 sm:flex-row sm:items-center sm:justify-between"
      >
        <span className="flex min-w-0 flex-col">
          <span className="truncate font-medium">{item.name}</span>
          <span className="text-sm text-muted-foreground">
            {t('recipientLists.members', { count: item.users_count })}
            {!item.is_owner && <> · {t('recipientLists.ownerBy', { name: item.owner_name })}</>}
          </span>
        </span>
        <span className="flex flex-wrap gap-1.5">
          {item.shared && <Badge variant="secondary">{t('recipientLists.sharedBadge')}</Badge>}
          {item.stale_count > 0 && <Badge variant="warning">{t('recipientLists.stale', { count: item.stale_count })}</Badge>}
        </span>
      </Link>
    </li>
  );
}

function CreateForm({ actor }: { actor: ListsActor }) {
  const t = useT();
  const { name, picks, errors, saving, picker } = useSelectors(actor, {
    name: selectNewName,
    picks: selectNewPicks,
    errors: selectErrors,
    saving: selectIsSaving,
    picker: selectListsPicker,
  });
  return (
    <MachineForm
      aria-labelledby="create-title"
      className="flex flex-col gap-4 rounded-lg border bg-card p-4"
      onSend={() => actor.send({ type: 'lists.save' })}
    >
      <h2 id="create-title" className="text-lg font-semibold">
        {t('recipientLists.createTitle')}
      </h2>
      <FieldText
        id={LIST_NAME_FIELD_ID}
        label={t('recipientLists.name')}
        value={name}
        maxLength={LIST_NAME_MAX}
        placeholder={t('recipientLists.namePlaceholder')}
        error={errors.name}
        disabled={saving}
        onChange={(value) => actor.send({ type: 'lists.name', name: value })}
      />
      {picker && (
        <PicksField
          id={LIST_PICKS_FIELD_ID}
          picker={picker}
          picks={picks}
          error={errors.picks}
          disabled={saving}
          onRemove={(pick) => actor.send({ type: 'lists.removePick', pick })}
        />
      )}
      {errors.form && (
        <p role="alert" className="text-sm text-destructive">
          {'text' in errors.form ? errors.form.text : t(errors.form.key)}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving} aria-busy={saving || undefined}>
          {t(saving ? 'recipientLists.saving' : 'recipientLists.save')}
        </Button>
        <Button type="button" variant="outline" disabled={saving} onClick={() => actor.send({ type: 'lists.cancel' })}>
          {t('recipientLists.cancel')}
        </Button>
      </div>
    </MachineForm>
  );
}
