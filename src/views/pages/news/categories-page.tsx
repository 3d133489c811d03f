// /mural/categories (managers): the categories in the wall's order with their post counts; the
// inline form creates one; each row renames in place (Enter saves, Escape cancels), moves with Subir/Bajar
// and deletes when empty (asked first), or says why it cannot. The machine is news/categories.ts.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { NewsCategory } from '../../../../shared/news-contract';
import { NEWS_CATEGORY_NAME_MAX } from '../../../../shared/news-contract';
import {
  CATEGORY_DRAFT_ID,
  categoryDeleteId,
  categoryMoveId,
  categoryNameInputId,
  categoryRenameId,
  newsCategoriesMachine,
  selectCategories,
  selectCategoriesBusy,
  selectCategoriesFailed,
  selectCategoriesLoading,
  selectConfirmingDelete,
  selectCreating,
  selectDeleteTarget,
  selectDraft,
  selectDraftError,
  selectEditError,
  selectEditName,
  selectEditingId,
  selectInUseId,
  selectInUseText,
  selectRenaming,
} from '../../../machines/news/categories';
import type { MoveDirection } from '../../../machines/news/categories-rules';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { ItemButton, ItemCard, ItemConfirm, ItemHead } from '../../ui/item-card';
import { FieldError } from '../../ui/field';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { ListBody, ListEmpty } from '../../ui/list-page';
import { MachineForm } from '../../ui/form';
import { NewsShell } from './shell';
import { useSelectors } from '../../lib/selectors';

type CategoriesActor = ActorRefFrom<typeof newsCategoriesMachine>;

export function NewsCategoriesPage() {
  const actor = usePageActor(newsCategoriesMachine, { input: undefined });
  const t = useT();
  return (
    <NewsShell manage title="pages.newsCategories" intro={t('newsAdmin.categories.intro')}>
      {actor ? <CategoriesScreen actor={actor} /> : <ListSkeleton label={t('newsAdmin.categories.loading')} rows={4} />}
    </NewsShell>
  );
}

function CategoriesScreen({ actor }: { actor: CategoriesActor }) {
  const t = useT();
  const { loading, failed, categories } = useSelectors(actor, {
    loading: selectCategoriesLoading,
    failed: selectCategoriesFailed,
    categories: selectCategories,
  });
  return (
    <ListBody
      phase={loading ? 'loading' : failed ? 'failed' : 'rows'}
      skeleton={<ListSkeleton label={t('newsAdmin.categories.loading')} rows={4} />}
      failure={
        <ListFailure
          message={t('newsAdmin.categories.loadFailed')}
          retryLabel={t('newsAdmin.categories.retry')}
          onRetry={() => actor.send({ type: 'categories.retry' })}
        />
      }
    >
      <CreateForm actor={actor} />
      {categories.length === 0 ? (
        <ListEmpty data-slot="categories-empty">{t('newsAdmin.categories.empty')}</ListEmpty>
      ) : (
        <ol aria-label={t('newsAdmin.categories.listLabel')} className="flex flex-col gap-2">
          {categories.map((category, index) => (
            <CategoryRow key={category.id} actor={actor} category={category} index={index} total={categories.length} />
          ))}
        </ol>
      )}
    </ListBody>
  );
}

function CreateForm({ actor }: { actor: CategoriesActor }) {
  const t = useT();
  const { draft, error, creating } = useSelectors(actor, { draft: selectDraft, error: selectDraftError, creating: selectCreating });
  const errorId = `${CATEGORY_DRAFT_ID}-error`;
  return (
    <MachineForm
      data-slot="category-create"
      className="flex flex-col gap-2 rounded-lg border bg-card p-4"
      onSend={() => actor.send({ type: 'categories.create' })}
    >
      <Label htmlFor={CATEGORY_DRAFT_ID}>{t('newsAdmin.categories.newLabel')}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={CATEGORY_DRAFT_ID}
          value={draft}
          maxLength={NEWS_CATEGORY_NAME_MAX * 2}
          placeholder={t('newsAdmin.categories.newPlaceholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => actor.send({ type: 'categories.draft', name: event.currentTarget.value })}
        />
        <Button type="submit" className="shrink-0" aria-disabled={creating || undefined} aria-busy={creating || undefined}>
          {creating ? t('newsAdmin.categories.creating') : t('newsAdmin.categories.create')}
        </Button>
      </div>
      <FieldError id={errorId}>{error}</FieldError>
    </MachineForm>
  );
}

function CategoryRow({ actor, category, index, total }: { actor: CategoriesActor; category: NewsCategory; index: number; total: number }) {
  const t = useT();
  const { editing, inUse, inUseText, asking, deleteTarget, busy, canEdit, canDelete } = useSelectors(actor, {
    editing: (s) => selectEditingId(s) === category.id,
    inUse: (s) => selectInUseId(s) === category.id,
    inUseText: selectInUseText,
    asking: selectConfirmingDelete,
    deleteTarget: selectDeleteTarget,
    busy: selectCategoriesBusy,
    canEdit: (s) => s.can({ type: 'categories.edit', id: category.id }),
    canDelete: (s) => s.can({ type: 'categories.delete', id: category.id }),
  });
  const confirming = deleteTarget === category.id && asking;
  const nameId = `news-category-label-${category.id}`;
  return (
    <ItemCard data-slot="category-row" aria-labelledby={nameId}>
      {editing ? (
        <RenameForm actor={actor} category={category} />
      ) : (
        <ItemHead
          gap="gap-3"
          name={
            <span id={nameId} className="truncate font-medium">
              {category.name}
            </span>
          }
          detail={
            <>
              {t('newsAdmin.categories.posts', { count: category.post_count })} ·{' '}
              {t('newsAdmin.categories.position', { position: index + 1, total })}
            </>
          }
          actions={
            <>
              <MoveButton actor={actor} category={category} direction="up" edge={index === 0} />
              <MoveButton actor={actor} category={category} direction="down" edge={index === total - 1} />
              <ItemButton
                id={categoryRenameId(category.id)}
                variant="outline"
                aria-disabled={!canEdit || undefined}
                label={t('newsAdmin.categories.rename')}
                item={category.name}
                onClick={() => actor.send({ type: 'categories.edit', id: category.id })}
              />
              <ItemButton
                id={categoryDeleteId(category.id)}
                variant="destructive"
                aria-disabled={!canDelete || busy || undefined}
                label={t('newsAdmin.categories.delete')}
                item={category.name}
                onClick={() => actor.send({ type: 'categories.delete', id: category.id })}
              />
            </>
          }
        />
      )}
      {inUse && inUseText && (
        <div
          role="alert"
          data-slot="category-in-use"
          className="flex flex-col gap-2 rounded-md border border-warning/60 bg-warning/10 p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <p>{inUseText}</p>
          <Button size="sm" variant="outline" className="shrink-0" onClick={() => actor.send({ type: 'categories.dismiss' })}>
            {t('newsAdmin.categories.dismiss')}
          </Button>
        </div>
      )}
      {confirming && (
        <ItemConfirm
          title={t('newsAdmin.categories.deleteQuestion', { name: category.name })}
          description={t('newsAdmin.categories.deleteHint')}
          confirmLabel={t('newsAdmin.categories.delete')}
          cancelLabel={t('newsAdmin.categories.cancel')}
          onConfirm={() => actor.send({ type: 'categories.confirm' })}
          onCancel={() => actor.send({ type: 'categories.cancel' })}
        />
      )}
    </ItemCard>
  );
}

/**
 * Subir / Bajar. Disabled only at the top or the bottom; while an order is being saved it stays focusable
 * (aria-disabled), so a keyboard user's focus is not thrown out of the list.
 */
function MoveButton({
  actor,
  category,
  direction,
  edge,
}: {
  actor: CategoriesActor;
  category: NewsCategory;
  direction: MoveDirection;
  edge: boolean;
}) {
  const t = useT();
  const can = useSelector(actor, (s) => s.can({ type: 'categories.move', id: category.id, direction }));
  const label = direction === 'up' ? t('newsAdmin.categories.up') : t('newsAdmin.categories.down');
  return (
    <ItemButton
      id={categoryMoveId(category.id, direction)}
      variant="outline"
      disabled={edge}
      aria-disabled={(!edge && !can) || undefined}
      label={label}
      item={category.name}
      onClick={() => actor.send({ type: 'categories.move', id: category.id, direction })}
    >
      {direction === 'up' ? '↑' : '↓'} {label}
    </ItemButton>
  );
}

function RenameForm({ actor, category }: { actor: CategoriesActor; category: NewsCategory }) {
  const t = useT();
  const { name, error, renaming } = useSelectors(actor, { name: selectEditName, error: selectEditError, renaming: selectRenaming });
  const inputId = categoryNameInputId(category.id);
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <MachineForm data-slot="category-rename" className="flex flex-col gap-2" onSend={() => actor.send({ type: 'categories.save' })}>
      <Label htmlFor={inputId}>{t('newsAdmin.categories.nameLabel')}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={inputId}
          value={name}
          maxLength={NEWS_CATEGORY_NAME_MAX * 2}
          readOnly={renaming}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => actor.send({ type: 'categories.editName', name: event.currentTarget.value })}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              actor.send({ type: 'categories.cancelEdit' });
            }
          }}
        />
        <div className="flex shrink-0 gap-2">
          <Button type="submit" size="sm" className="min-h-9" aria-disabled={renaming || undefined} aria-busy={renaming || undefined}>
            {renaming ? t('newsAdmin.categories.saving') : t('newsAdmin.categories.save')}
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            className="min-h-9"
            onClick={() => actor.send({ type: 'categories.cancelEdit' })}
          >
            {t('newsAdmin.categories.cancel')}
          </Button>
        </div>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {t('newsAdmin.categories.editHint')}
      </p>
      <FieldError id={errorId}>{error}</FieldError>
    </MachineForm>
  );
}
