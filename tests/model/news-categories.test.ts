// /mural/categories (news/categories.ts): load (and Reintentar); create from the inline form with the shared
// name rule before asking (empty, taken — case and accents folded) and the server's 422 after, the name kept
// on any failure; rename in place (unchanged closes, invalid stays, Escape cancels, the typed name kept on
// failure); move one place at once, the whole order PUT, put back with a toast when refused, focus kept on
// the row's button; delete only an empty category after the question; one with posts says how many, from
// its count before asking or the server's 409.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { NEWS_TEXTS, type NewsCategory } from '../../shared/news-contract';
import { NEWS_MESSAGES } from '../../shared/news-rules';
import { newsCategoriesMachine, type NewsCategoriesContext } from '../../src/machines/news/categories';
import { canMove, moved, nameErrorOf } from '../../src/machines/news/categories-rules';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { CATEGORIES, newsCategory } from '../fixtures/news-admin';

const ctx = (s: AnyMachineSnapshot) => s.context as NewsCategoriesContext;
const IO = ['fetchNewsCategories', 'createNewsCategory', 'renameNewsCategory', 'reorderNewsCategories', 'deleteNewsCategory'];
const running = (env: StepEnv, id: string | null) => {
  for (const other of IO) expect(env.fakes.isRunning(other), other).toBe(other === id);
};
const ids = (categories: NewsCategory[]) => categories.map((category) => category.id);
const CREATED = newsCategory({ id: 4, name: 'Talleres', position: 4 });
const RENAMED = newsCategory({ id: 2, name: 'Reuniones de curso', position: 2 });
/** The server's order after moving Actividades down (what it answers to the PUT). */
const SERVER_ORDER = moved(CATEGORIES, 1, 'down');
const IN_USE_409 = failure(409, 'news.category_in_use', NEWS_TEXTS.categoryInUse(2));
const TAKEN_422 = failure(422, 'validation.failed', 'Los datos no son válidos.', { name: [NEWS_MESSAGES.categoryTaken] });

/** Case and accents do not make a name another (decision 0090). */
const folded = (name: string) => name.trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
/** The shared name rule in short: a name, at most 60 characters, no other category's once folded. */
const nameOk = (categories: NewsCategory[], name: string, self?: number) =>
  name.trim() !== '' && [...name.trim()].length <= 60 && !categories.some((c) => c.id !== self && folded(c.name) === folded(name));
/** Subir/Bajar: one place, never past an end; only a category on screen. */
const movable = (categories: NewsCategory[], id: number, direction: 'up' | 'down') => {
  const index = ids(categories).indexOf(id);
  return index >= 0 && (direction === 'up' ? index > 0 : index < categories.length - 1);
};

/** Where focus goes after a move: the same button of the row, or the other one at an end (written anew here). */
function moveFocusOf(to: NewsCategoriesContext): string {
  const { id, direction } = to.moving as { id: number; direction: 'up' | 'down' };
  const index = ids(to.categories).indexOf(id);
  const stays = direction === 'up' ? index > 0 : index < to.categories.length - 1;
  return `news-category-${stays ? direction : direction === 'up' ? 'down' : 'up'}-${id}`;
}

const focus = (target: string) => ({ type: 'focus', target });
const toast = (kind: string, key: string) => ({ type: 'toast', kind, key });

function emits({ from, to, event }: StepEnv): AnyEventObject[] {
  const f = ctx(from);
  const t = ctx(to);
  const at = (state: string) => from.matches({ ready: state });
  switch (event.type) {
    case 'categories.create':
      return at('idle') && to.matches({ ready: 'idle' }) ? [focus('news-category-new')] : [];
    case 'xstate.done.actor.createNewsCategory':
      return [toast('success', 'newsAdmin.categories.created')];
    case 'xstate.error.actor.createNewsCategory':
      return (event.error as { status: number }).status === 422 ? [focus('news-category-new')] : [toast('error', 'error.request')];
    case 'categories.edit':
      return at('idle') && t.editing ? [focus(`news-category-name-${t.editing.id}`)] : [];
    case 'categories.save':
      return at('editing') && to.matches({ ready: 'idle' }) ? [focus(`news-category-rename-${f.editing?.id}`)] : [];
    case 'categories.cancelEdit':
      return at('editing') ? [focus(`news-category-rename-${f.editing?.id}`)] : [];
    case 'xstate.done.actor.renameNewsCategory':
      return [toast('success', 'newsAdmin.categories.renamed'), focus(`news-category-rename-${f.editing?.id}`)];
    case 'xstate.error.actor.renameNewsCategory':
      return (event.error as { status: number }).status === 422
        ? [focus(`news-category-name-${f.editing?.id}`)]
        : [toast('error', 'error.request'), focus(`news-category-name-${f.editing?.id}`)];
    case 'categories.move':
      return at('idle') && to.matches({ ready: 'reordering' }) ? [focus(moveFocusOf(t))] : [];
    case 'xstate.error.actor.reorderNewsCategories':
      return [toast('error', 'newsAdmin.categories.reorderFailed'), focus(moveFocusOf(t))];
    case 'categories.cancel':
      return at('confirmingDelete') ? [focus(`news-category-delete-${f.target}`)] : [];
    case 'xstate.done.actor.deleteNewsCategory':
      return [toast('success', 'newsAdmin.categories.deleted'), focus('news-category-new')];
    case 'xstate.error.actor.deleteNewsCategory':
      return (event.error as { status: number }).status === 409
        ? [focus(`news-category-delete-${f.target}`)]
        : [toast('error', 'error.request'), focus(`news-category-delete-${f.target}`)];
    default:
      return [];
  }
}

defineModelTests({
  name: 'news-categories',
  machine: newsCategoriesMachine,
  // The header and decision 0090: one thing at a time once loaded. Create and rename ask only with a name
  // the rule accepts (a rename left as it was just closes); a move shows at once and saves; only an empty
  // category is asked about (one in use says why, in place); every call ends back at the list, but a
  // refused or failed rename goes back to the field, with what was typed.
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchNewsCategories': 'ready.idle', 'xstate.error.actor.fetchNewsCategories': 'failed' },
      failed: { 'categories.retry': 'loading' },
      'ready.idle': {
        'categories.create': ({ context, stay }) => (nameOk(context.categories, context.draft) ? 'ready.creating' : stay),
        'categories.edit': ({ event, context, stay }) => (ids(context.categories).includes(event.id) ? 'ready.editing' : stay),
        'categories.move': ({ event, context, stay }) =>
          movable(context.categories, event.id, event.direction) ? 'ready.reordering' : stay,
        'categories.delete': ({ event, context, stay }) =>
          context.categories.find((category) => category.id === event.id)?.post_count === 0 ? 'ready.confirmingDelete' : stay,
      },
      'ready.creating': { 'xstate.done.actor.createNewsCategory': 'ready.idle', 'xstate.error.actor.createNewsCategory': 'ready.idle' },
      'ready.editing': {
        'categories.save': ({ context, stay }) => {
          const { id, name } = context.editing as { id: number; name: string };
          if (name.trim() === context.categories.find((category) => category.id === id)?.name) return 'ready.idle';
          return nameOk(context.categories, name, id) ? 'ready.renaming' : stay;
        },
        'categories.cancelEdit': 'ready.idle',
      },
      'ready.renaming': { 'xstate.done.actor.renameNewsCategory': 'ready.idle', 'xstate.error.actor.renameNewsCategory': 'ready.editing' },
      'ready.reordering': {
        'xstate.done.actor.reorderNewsCategories': 'ready.idle',
        'xstate.error.actor.reorderNewsCategories': 'ready.idle',
      },
      'ready.confirmingDelete': { 'categories.confirm': 'ready.deleting', 'categories.cancel': 'ready.idle' },
      'ready.deleting': { 'xstate.done.actor.deleteNewsCategory': 'ready.idle', 'xstate.error.actor.deleteNewsCategory': 'ready.idle' },
    },
  },
  traversal: {
    events: [
      { type: 'categories.retry' },
      { type: 'categories.draft', name: 'Talleres' },
      { type: 'categories.draft', name: '  ACTÍVIDADES ' },
      { type: 'categories.create' },
      { type: 'categories.edit', id: 2 },
      { type: 'categories.edit', id: 99 },
      { type: 'categories.editName', name: 'Reuniones de curso' },
      { type: 'categories.editName', name: 'deportes' },
      { type: 'categories.save' },
      { type: 'categories.cancelEdit' },
      { type: 'categories.move', id: 1, direction: 'up' },
      { type: 'categories.move', id: 1, direction: 'down' },
      { type: 'categories.delete', id: 1 },
      { type: 'categories.delete', id: 2 },
      { type: 'categories.delete', id: 99 },
      { type: 'categories.confirm' },
      { type: 'categories.cancel' },
      { type: 'categories.dismiss' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchNewsCategories', output: CATEGORIES },
      { type: 'xstate.error.actor.fetchNewsCategories', error: failure(500, 'server.error') },
      { type: 'xstate.done.actor.createNewsCategory', output: CREATED },
      { type: 'xstate.error.actor.createNewsCategory', error: TAKEN_422 },
      { type: 'xstate.error.actor.createNewsCategory', error: failure(0, 'network', 'Failed to fetch') },
      { type: 'xstate.done.actor.renameNewsCategory', output: RENAMED },
      { type: 'xstate.error.actor.renameNewsCategory', error: TAKEN_422 },
      { type: 'xstate.error.actor.renameNewsCategory', error: failure(500, 'server.error') },
      { type: 'xstate.done.actor.reorderNewsCategories', output: SERVER_ORDER },
      { type: 'xstate.error.actor.reorderNewsCategories', error: failure(500, 'server.error') },
      { type: 'xstate.done.actor.deleteNewsCategory', output: undefined },
      { type: 'xstate.error.actor.deleteNewsCategory', error: IN_USE_409 },
      { type: 'xstate.error.actor.deleteNewsCategory', error: failure(500, 'server.error') },
    ],
    // Bounded: typing, moving and dismissing are offered where they matter (ready.idle, the first order,
    // a notice shown); every state's acceptance of typing is checked in \`ready\` below.
    filterEvents: (s, event) => {
      const c = ctx(s);
      if (event.type === 'categories.draft') return s.matches({ ready: 'idle' }) && c.categories.length === 3;
      if (event.type === 'categories.move') return ids(c.categories).join(',') === '1,2,3';
      if (event.type === 'categories.dismiss') return c.inUse !== null;
      if (event.type === 'categories.edit' || event.type === 'categories.delete')
        return c.categories.length === 3 || !s.matches({ ready: 'idle' });
      return true;
    },
    // Coarse identity: whether the order moved, not every permutation; names only where they change.
    serializeState: (s) => {
      const c = ctx(s);
      return JSON.stringify([s.value, c.draft, c.editing?.name ?? null, c.target, c.inUse !== null, c.categories.length]);
    },
    limit: 20_000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: {
          fetchNewsCategories: fakes.promise(),
          createNewsCategory: fakes.promise(),
          renameNewsCategory: fakes.promise(),
          reorderNewsCategories: fakes.promise(),
          deleteNewsCategory: fakes.promise(),
        },
      }),
      { inspect },
    ),
  states: {
    loading: (s, env) => {
      running(env, 'fetchNewsCategories');
      expect(s.hasTag('busy')).toBe(true);
      // Each entry loads once (Reintentar loads again); an ignored event lets the call run.
      const entered = env.event.type === 'xstate.init' || !env.from.matches('loading');
      expect(env.started, 'requests started').toEqual(entered ? ['fetchNewsCategories'] : []);
    },
    failed: (s, env) => {
      running(env, null);
      expect(s.can({ type: 'categories.retry' })).toBe(true);
      expect(s.can({ type: 'categories.create' })).toBe(false);
    },
    ready: (s) => {
      const c = ctx(s);
      // Typing the new name is never refused, whatever else is going on.
      expect(s.can({ type: 'categories.draft', name: 'x' })).toBe(true);
      if (c.draftError !== null) expect(Object.values(NEWS_MESSAGES)).toContain(c.draftError);
      if (c.inUse) expect(c.inUse.text).toMatch(/^La categoría tiene \d+ publicaci/);
    },
    'ready.idle': (s, env) => {
      running(env, null);
      const c = ctx(s);
      expect(s.hasTag('busy')).toBe(false);
      expect([c.editing, c.target, c.previous]).toEqual([null, null, null]);
      for (const category of c.categories) {
        expect(s.can({ type: 'categories.move', id: category.id, direction: 'up' })).toBe(canMove(c.categories, category.id, 'up'));
        expect(s.can({ type: 'categories.move', id: category.id, direction: 'up' }), 'Subir offered').toBe(
          movable(c.categories, category.id, 'up'),
        );
        expect(s.can({ type: 'categories.move', id: category.id, direction: 'down' }), 'Bajar offered').toBe(
          movable(c.categories, category.id, 'down'),
        );
        expect(s.can({ type: 'categories.edit', id: category.id })).toBe(true);
      }
      expect(s.can({ type: 'categories.delete', id: 99 })).toBe(false);
      expect(s.can({ type: 'categories.edit', id: 99 })).toBe(false);
      // What was typed stays after a failed create; a created one empties the form.
      if (env.event.type === 'xstate.done.actor.createNewsCategory') expect([c.draft, ids(c.categories).at(-1)]).toEqual(['', 4]);
      if (env.event.type === 'xstate.error.actor.createNewsCategory') {
        expect(c.draft).toBe(ctx(env.from).draft);
        const refused = (env.event.error as { status: number }).status === 422;
        expect(c.draftError).toBe(refused ? NEWS_MESSAGES.categoryTaken : null);
      }
      if (env.event.type === 'xstate.done.actor.reorderNewsCategories') expect(c.categories).toEqual(SERVER_ORDER);
      if (env.event.type === 'xstate.error.actor.reorderNewsCategories') expect(c.categories).toEqual(ctx(env.from).previous);
      if (env.event.type === 'xstate.done.actor.deleteNewsCategory') expect(ids(c.categories)).not.toContain(ctx(env.from).target);
      if (env.event.type === 'xstate.error.actor.deleteNewsCategory') {
        expect(ids(c.categories)).toContain(ctx(env.from).target);
        const conflict = (env.event.error as { status: number }).status === 409;
        expect(c.inUse).toEqual(conflict ? { id: ctx(env.from).target, text: NEWS_TEXTS.categoryInUse(2) } : null);
      }
      if (env.event.type === 'categories.delete' && env.event.id === 1)
        expect(c.inUse).toEqual({ id: 1, text: NEWS_TEXTS.categoryInUse(3) });
      if (env.event.type === 'categories.create' && env.from.matches({ ready: 'idle' }))
        expect(c.draftError).toBe(nameErrorOf(c.categories, c.draft));
      // Refused before asking: the name the rule refuses is on the field, with its error.
      if (env.event.type === 'categories.create' && env.from.matches({ ready: 'idle' }))
        expect([nameOk(c.categories, c.draft), c.draftError !== null]).toEqual([false, true]);
      if (env.event.type === 'xstate.done.actor.renameNewsCategory')
        expect(c.categories.find((x) => x.id === 2)?.name).toBe('Reuniones de curso');
    },
    'ready.creating': (s, env) => {
      running(env, 'createNewsCategory');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('createNewsCategory')).toEqual({ name: ctx(s).draft.trim() });
      expect(nameErrorOf(ctx(s).categories, ctx(s).draft)).toBeNull();
      expect(nameOk(ctx(s).categories, ctx(s).draft), 'only a name the rule accepts is sent').toBe(true);
    },
    'ready.editing': (s, env) => {
      running(env, null);
      const c = ctx(s);
      expect(c.editing?.id).toBe(2);
      if (env.event.type === 'categories.edit' && env.from.matches({ ready: 'idle' }))
        expect(c.editing?.name).toBe(ctx(env.from).categories.find((x) => x.id === 2)?.name);
      // A failed rename keeps what was typed.
      if (/renameNewsCategory$/.test(env.event.type)) {
        expect(c.editing).toEqual(ctx(env.from).editing);
        const refused = (env.event.error as { status: number }).status === 422;
        expect(c.editError).toBe(refused ? NEWS_MESSAGES.categoryTaken : null);
      }
      if (env.event.type === 'categories.save') expect(c.editError).toBe(NEWS_MESSAGES.categoryTaken);
      expect(s.can({ type: 'categories.move', id: 1, direction: 'down' })).toBe(false);
    },
    'ready.renaming': (_s, env) => {
      running(env, 'renameNewsCategory');
      expect(env.fakes.inputOf('renameNewsCategory')).toEqual({ id: 2, name: 'Reuniones de curso' });
    },
    'ready.reordering': (s, env) => {
      running(env, 'reorderNewsCategories');
      const c = ctx(s);
      expect(s.hasTag('busy')).toBe(true);
      expect(c.previous).not.toBeNull();
      // Shown at once, positions renumbered, and the whole order sent.
      expect(c.categories.map((category) => category.position)).toEqual(c.categories.map((_, i) => i + 1));
      expect(env.fakes.inputOf('reorderNewsCategories')).toEqual({ ids: ids(c.categories) });
      expect(s.can({ type: 'categories.move', id: 2, direction: 'down' })).toBe(false);
    },
    'ready.confirmingDelete': (s, env) => {
      running(env, null);
      expect(ctx(s).target).toBe(2);
      expect(ctx(s).inUse).toBeNull();
    },
    'ready.deleting': (s, env) => {
      running(env, 'deleteNewsCategory');
      expect(env.fakes.inputOf('deleteNewsCategory')).toEqual({ id: ctx(s).target });
    },
  },
  events: {
    'categories.retry': send,
    'categories.draft': send,
    'categories.create': send,
    'categories.edit': send,
    'categories.editName': send,
    'categories.save': send,
    'categories.cancelEdit': send,
    'categories.move': send,
    'categories.delete': send,
    'categories.confirm': send,
    'categories.cancel': send,
    'categories.dismiss': send,
    'xstate.done.actor.fetchNewsCategories': settle,
    'xstate.error.actor.fetchNewsCategories': settle,
    'xstate.done.actor.createNewsCategory': settle,
    'xstate.error.actor.createNewsCategory': settle,
    'xstate.done.actor.renameNewsCategory': settle,
    'xstate.error.actor.renameNewsCategory': settle,
    'xstate.done.actor.reorderNewsCategories': settle,
    'xstate.error.actor.reorderNewsCategories': settle,
    'xstate.done.actor.deleteNewsCategory': settle,
    'xstate.error.actor.deleteNewsCategory': settle,
  },
  emits,
});

describe('news-categories rules', () => {
  it('folds case and accents when a name is taken, and ignores the category itself', () => {
    expect(nameErrorOf(CATEGORIES, ' actívidades')).toBe(NEWS_MESSAGES.categoryTaken);
    expect(nameErrorOf(CATEGORIES, 'ACTIVIDADES', 1)).toBeNull();
    expect(nameErrorOf(CATEGORIES, '   ')).toBe(NEWS_MESSAGES.categoryRequired);
    expect(nameErrorOf(CATEGORIES, 'x'.repeat(61))).toBe(NEWS_MESSAGES.categoryLong);
  });
  it('moves one place and renumbers, never past an end', () => {
    expect(ids(moved(CATEGORIES, 3, 'up'))).toEqual([1, 3, 2]);
    expect(moved(CATEGORIES, 3, 'up').map((c) => c.position)).toEqual([1, 2, 3]);
    expect(ids(moved(CATEGORIES, 1, 'up'))).toEqual([1, 2, 3]);
    expect([
      canMove(CATEGORIES, 1, 'up'),
      canMove(CATEGORIES, 3, 'down'),
      canMove(CATEGORIES, 2, 'down'),
      canMove(CATEGORIES, 9, 'up'),
    ]).toEqual([false, false, true, false]);
  });
});
