// /mural/categories (managers): the school's categories by position with their post counts.
// Create with the inline form (the shared name rule as the manager types it, then the server's 422);
// rename in place (Enter saves, Escape cancels, what was typed stays on a failure); "Subir"/"Bajar" move
// one place at once (optimistic) and PUT the whole order, putting it back with a toast when refused;
// delete only an empty category after a question; one with posts says why not (NEWS_TEXTS.categoryInUse),
// from its count before asking, or from the server's 409. Pure rules: news/categories-rules.ts.
import { assertEvent, assign, emit, setup, type SnapshotFrom } from 'xstate';
import { NEWS_TEXTS, type NewsCategory } from '../../../shared/news-contract';
import {
  createNewsCategory,
  deleteNewsCategory,
  fetchNewsCategories,
  renameNewsCategory,
  reorderNewsCategories,
} from '../../services/news/admin';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { Effect } from '../app/effects';
import { canMove, inUseText, moved, nameErrorOf, nameFailure, type MoveDirection } from './categories-rules';

export interface NewsCategoriesContext {
  categories: NewsCategory[];
  /** The order before an optimistic move, while the server has not agreed. */
  previous: NewsCategory[] | null;
  /** The category last moved (where focus stays). */
  moving: { id: number; direction: MoveDirection } | null;
  /** The new category's name as typed, and its error. */
  draft: string;
  draftError: string | null;
  /** The category renamed in place: its name as typed, and its error. */
  editing: { id: number; name: string } | null;
  editError: string | null;
  /** The category asked about / being deleted. */
  target: number | null;
  /** Why a category cannot be deleted (its id and the text). */
  inUse: { id: number; text: string } | null;
}

export type NewsCategoriesEvent =
  | { type: 'categories.retry' }
  | { type: 'categories.draft'; name: string }
  | { type: 'categories.create' }
  | { type: 'categories.edit'; id: number }
  | { type: 'categories.editName'; name: string }
  | { type: 'categories.save' }
  | { type: 'categories.cancelEdit' }
  | { type: 'categories.move'; id: number; direction: MoveDirection }
  | { type: 'categories.delete'; id: number }
  | { type: 'categories.confirm' }
  | { type: 'categories.cancel' }
  | { type: 'categories.dismiss' };

/** Element ids the machine moves focus to. */
export const CATEGORY_DRAFT_ID = 'news-category-new';
export const categoryRenameId = (id: number) => `news-category-rename-${id}`;
export const categoryNameInputId = (id: number) => `news-category-name-${id}`;
export const categoryMoveId = (id: number, direction: MoveDirection) => `news-category-${direction}-${id}`;
export const categoryDeleteId = (id: number) => `news-category-delete-${id}`;

const idOf = (event: NewsCategoriesEvent): number => {
  assertEvent(event, ['categories.edit', 'categories.move', 'categories.delete']);
  return event.id;
};
const find = (context: NewsCategoriesContext, id: number | null) => context.categories.find((category) => category.id === id);

/** After a move the row's same button keeps the focus, or the other one at the top or the bottom. */
function moveFocus(context: NewsCategoriesContext): string {
  const { id, direction } = context.moving ?? { id: 0, direction: 'up' as const };
  const other: MoveDirection = direction === 'up' ? 'down' : 'up';
  return categoryMoveId(id, canMove(context.categories, id, direction) ? direction : other);
}

export const newsCategoriesMachine = setup({
  types: {
    context: {} as NewsCategoriesContext,
    events: {} as NewsCategoriesEvent,
    emitted: {} as Effect,
  },
  actors: { fetchNewsCategories, createNewsCategory, renameNewsCategory, reorderNewsCategories, deleteNewsCategory },
  actions: {
    assignCategories: assign((_, categories: NewsCategory[]) => ({ categories })),
    assignDraft: assign(({ event }) => {
      assertEvent(event, 'categories.draft');
      return { draft: event.name, draftError: null };
    }),
    assignDraftError: assign(({ context }) => ({ draftError: nameErrorOf(context.categories, context.draft) })),
    assignDraftFailure: assign((_, failure: ApiFailure) => ({ draftError: nameFailure(failure) })),
    appendCreated: assign(({ context }, created: NewsCategory) => ({
      categories: [...context.categories, created],
      draft: '',
      draftError: null,
    })),
    startEditing: assign(({ context, event }) => {
      const id = idOf(event);
      return { editing: { id, name: find(context, id)?.name ?? '' }, editError: null, inUse: null };
    }),
    assignEditName: assign(({ context, event }) => {
      assertEvent(event, 'categories.editName');
      return { editing: context.editing && { ...context.editing, name: event.name }, editError: null };
    }),
    assignEditError: assign(({ context }) => ({
      editError: context.editing && nameErrorOf(context.categories, context.editing.name, context.editing.id),
    })),
    assignEditFailure: assign((_, failure: ApiFailure) => ({ editError: nameFailure(failure) })),
    replaceRenamed: assign(({ context }, renamed: NewsCategory) => ({
      categories: context.categories.map((category) => (category.id === renamed.id ? renamed : category)),
    })),
    clearEditing: assign({ editing: null, editError: null }),
    focusEditInput: emit(({ context }) => ({ type: 'focus' as const, target: categoryNameInputId(context.editing?.id ?? 0) })),
    focusRename: emit(({ context }) => ({ type: 'focus' as const, target: categoryRenameId(context.editing?.id ?? 0) })),
    focusDraft: emit({ type: 'focus', target: CATEGORY_DRAFT_ID }),
    applyMove: assign(({ context, event }) => {
      assertEvent(event, 'categories.move');
      return {
        previous: context.categories,
        categories: moved(context.categories, event.id, event.direction),
        moving: { id: event.id, direction: event.direction },
        inUse: null,
      };
    }),
    focusMoved: emit(({ context }) => ({ type: 'focus' as const, target: moveFocus(context) })),
    acceptOrder: assign((_, categories: NewsCategory[]) => ({ categories, previous: null })),
    rollbackOrder: assign(({ context }) => ({ categories: context.previous ?? context.categories, previous: null })),
    assignTarget: assign(({ event }) => ({ target: idOf(event), inUse: null })),
    clearTarget: assign({ target: null }),
    assignInUse: assign(({ context, event }) => {
      const id = idOf(event);
      return { inUse: { id, text: NEWS_TEXTS.categoryInUse(find(context, id)?.post_count ?? 0) } };
    }),
    assignInUseFailure: assign(({ context }, failure: ApiFailure) => {
      const id = context.target ?? 0;
      const text = inUseText(failure, find(context, id)?.post_count ?? 0);
      return { inUse: text === null ? null : { id, text } };
    }),
    clearInUse: assign({ inUse: null }),
    removeTarget: assign(({ context }) => ({ categories: context.categories.filter((category) => category.id !== context.target) })),
    focusDelete: emit(({ context }) => ({ type: 'focus' as const, target: categoryDeleteId(context.target ?? 0) })),
    toastCreated: emit({ type: 'toast', kind: 'success', key: 'newsAdmin.categories.created' }),
    toastRenamed: emit({ type: 'toast', kind: 'success', key: 'newsAdmin.categories.renamed' }),
    toastDeleted: emit({ type: 'toast', kind: 'success', key: 'newsAdmin.categories.deleted' }),
    toastReorderFailed: emit({ type: 'toast', kind: 'error', key: 'newsAdmin.categories.reorderFailed' }),
    toastFailed: emit({ type: 'toast', kind: 'error', key: 'error.request' }),
  },
  guards: {
    isDraftInvalid: ({ context }) => nameErrorOf(context.categories, context.draft) !== null,
    isListed: ({ context, event }) => find(context, idOf(event)) !== undefined,
    isInUse: ({ context, event }) => (find(context, idOf(event))?.post_count ?? 0) > 0,
    canMoveIt: ({ context, event }) => {
      assertEvent(event, 'categories.move');
      return canMove(context.categories, event.id, event.direction);
    },
    isNameUnchanged: ({ context }) => context.editing !== null && find(context, context.editing.id)?.name === context.editing.name.trim(),
    isEditInvalid: ({ context }) =>
      context.editing !== null && nameErrorOf(context.categories, context.editing.name, context.editing.id) !== null,
    isNameRefused: (_, failure: ApiFailure) => nameFailure(failure) !== null,
    isInUseFailure: ({ context }, failure: ApiFailure) => inUseText(failure, find(context, context.target)?.post_count ?? 0) !== null,
  },
}).createMachine({
  id: 'newsCategories',
  initial: 'loading',
  context: {
    categories: [],
    previous: null,
    moving: null,
    draft: '',
    draftError: null,
    editing: null,
    editError: null,
    target: null,
    inUse: null,
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchNewsCategories',
        src: 'fetchNewsCategories',
        onDone: { target: 'ready', actions: { type: 'assignCategories', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'categories.retry': { target: 'loading' } },
    },
    ready: {
      // The new category's name is never lost: typing goes on whatever else happens.
      on: {
        'categories.draft': { actions: 'assignDraft' },
        'categories.dismiss': { actions: 'clearInUse' },
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'categories.create': [{ guard: 'isDraftInvalid', actions: ['assignDraftError', 'focusDraft'] }, { target: 'creating' }],
            'categories.edit': { guard: 'isListed', target: 'editing', actions: ['startEditing', 'focusEditInput'] },
            'categories.move': { guard: 'canMoveIt', target: 'reordering', actions: ['applyMove', 'focusMoved'] },
            'categories.delete': [
              { guard: 'isInUse', actions: 'assignInUse' },
              { guard: 'isListed', target: 'confirmingDelete', actions: 'assignTarget' },
            ],
          },
        },
        creating: {
          tags: 'busy',
          invoke: {
            id: 'createNewsCategory',
            src: 'createNewsCategory',
            input: ({ context }) => ({ name: context.draft.trim() }),
            onDone: { target: 'idle', actions: [{ type: 'appendCreated', params: ({ event }) => event.output }, 'toastCreated'] },
            onError: [
              {
                guard: { type: 'isNameRefused', params: ({ event }) => toApiFailure(event.error) },
                target: 'idle',
                actions: [{ type: 'assignDraftFailure', params: ({ event }) => toApiFailure(event.error) }, 'focusDraft'],
              },
              { target: 'idle', actions: 'toastFailed' },
            ],
          },
        },
        editing: {
          on: {
            'categories.editName': { actions: 'assignEditName' },
            'categories.save': [
              { guard: 'isNameUnchanged', target: 'idle', actions: ['focusRename', 'clearEditing'] },
              { guard: 'isEditInvalid', actions: 'assignEditError' },
              { target: 'renaming' },
            ],
            'categories.cancelEdit': { target: 'idle', actions: ['focusRename', 'clearEditing'] },
          },
        },
        renaming: {
          tags: 'busy',
          invoke: {
            id: 'renameNewsCategory',
            src: 'renameNewsCategory',
            input: ({ context }) => ({ id: context.editing?.id ?? 0, name: (context.editing?.name ?? '').trim() }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'replaceRenamed', params: ({ event }) => event.output }, 'toastRenamed', 'focusRename', 'clearEditing'],
            },
            onError: [
              {
                guard: { type: 'isNameRefused', params: ({ event }) => toApiFailure(event.error) },
                target: 'editing',
                actions: [{ type: 'assignEditFailure', params: ({ event }) => toApiFailure(event.error) }, 'focusEditInput'],
              },
              { target: 'editing', actions: ['toastFailed', 'focusEditInput'] },
            ],
          },
        },
        reordering: {
          tags: 'busy',
          invoke: {
            id: 'reorderNewsCategories',
            src: 'reorderNewsCategories',
            input: ({ context }) => ({ ids: context.categories.map((category) => category.id) }),
            onDone: { target: 'idle', actions: { type: 'acceptOrder', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: ['rollbackOrder', 'toastReorderFailed', 'focusMoved'] },
          },
        },
        confirmingDelete: {
          on: {
            'categories.confirm': { target: 'deleting' },
            'categories.cancel': { target: 'idle', actions: ['focusDelete', 'clearTarget'] },
          },
        },
        deleting: {
          tags: 'busy',
          invoke: {
            id: 'deleteNewsCategory',
            src: 'deleteNewsCategory',
            input: ({ context }) => ({ id: context.target ?? 0 }),
            onDone: { target: 'idle', actions: ['removeTarget', 'clearTarget', 'toastDeleted', 'focusDraft'] },
            onError: [
              {
                guard: { type: 'isInUseFailure', params: ({ event }) => toApiFailure(event.error) },
                target: 'idle',
                actions: [{ type: 'assignInUseFailure', params: ({ event }) => toApiFailure(event.error) }, 'focusDelete', 'clearTarget'],
              },
              { target: 'idle', actions: ['toastFailed', 'focusDelete', 'clearTarget'] },
            ],
          },
        },
      },
    },
  },
});

export type NewsCategoriesSnapshot = SnapshotFrom<typeof newsCategoriesMachine>;

export const selectCategories = (s: NewsCategoriesSnapshot): NewsCategory[] => s.context.categories;
export const selectCategoriesLoading = (s: NewsCategoriesSnapshot): boolean => s.matches('loading');
export const selectCategoriesFailed = (s: NewsCategoriesSnapshot): boolean => s.matches('failed');
export const selectCategoriesBusy = (s: NewsCategoriesSnapshot): boolean => s.hasTag('busy');
export const selectCreating = (s: NewsCategoriesSnapshot): boolean => s.matches({ ready: 'creating' });
export const selectDraft = (s: NewsCategoriesSnapshot): string => s.context.draft;
export const selectDraftError = (s: NewsCategoriesSnapshot): string | null => s.context.draftError;
export const selectEditingId = (s: NewsCategoriesSnapshot): number | null => s.context.editing?.id ?? null;
export const selectEditName = (s: NewsCategoriesSnapshot): string => s.context.editing?.name ?? '';
export const selectEditError = (s: NewsCategoriesSnapshot): string | null => s.context.editError;
export const selectRenaming = (s: NewsCategoriesSnapshot): boolean => s.matches({ ready: 'renaming' });
export const selectDeleteTarget = (s: NewsCategoriesSnapshot): number | null => s.context.target;
export const selectConfirmingDelete = (s: NewsCategoriesSnapshot): boolean => s.matches({ ready: 'confirmingDelete' });
export const selectInUseId = (s: NewsCategoriesSnapshot): number | null => s.context.inUse?.id ?? null;
export const selectInUseText = (s: NewsCategoriesSnapshot): string | null => s.context.inUse?.text ?? null;
