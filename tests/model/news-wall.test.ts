// /mural/news and /mural (news/wall.ts) around their hosted list: search, category filter, clear, more and
// retry told to the list with the wall's query (`all` on the desk); the categories of the filter loaded
// beside it (a failure hides the filter until Reintentar); on the desk, one action at a time on a post the
// list shows and whose status allows it (Despublicar a published or scheduled post, Publicar de nuevo an
// unpublished one, Eliminar any editable one; nothing for a reader or a post not editable), busy while it
// runs, the answer replacing or removing the row, a toast saying what happened ("Deshacer" on Eliminar) or
// that it failed; "Deshacer" (`news.restore`) restores and brings page 1 again. The search and the category
// live in the address (`?q=…&category=…`, replaced, other parameters such as `newsfeed` kept): the wall opens
// with what its address says, writes each choice back, and follows an address changed by the browser.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { describe, expect, it } from 'vitest';
import { wallAddress, wallAddressOf } from '../../src/machines/news/wall-rules';
import {
  newsWallMachine,
  type WallInput,
  selectActingOn,
  selectCategories,
  selectWallItems,
  type NewsWallSnapshot,
} from '../../src/machines/news/wall';
import type { NewsPost } from '../../shared/news-contract';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { listExecutors, listStandIn, showing, toldList } from './list-stand-in';
import { DESK_POSTS, WALL_CATEGORIES, wallPost } from '../fixtures/news-wall';

const ws = (snapshot: AnyMachineSnapshot) => snapshot as unknown as NewsWallSnapshot;
const NONE = showing('none', []);
/** A published and an unpublished post of the desk, and one a reader sees (not editable). */
const READ_ONLY = wallPost({ id: 5, title: 'Circular', editable: false });
const ROWS = showing('1,2,3,4,5', [DESK_POSTS.published, DESK_POSTS.unpublished, DESK_POSTS.scheduled, DESK_POSTS.ended, READ_ONLY]);
const ANSWERS: Record<string, NewsPost> = {
  unpublishPost: { ...DESK_POSTS.published, status: 'unpublished' },
  publishPost: { ...DESK_POSTS.unpublished, status: 'published' },
  trashPost: {
    ...DESK_POSTS.published,
    status: 'deleted',
    deleted_at: '2026-03-02T12:05:00.000Z',
    deleted_by: { id: 10, name: 'Ana Directora' },
  },
  restorePost: { ...DESK_POSTS.published },
};
const FAILED_KEYS: Record<string, string> = {
  unpublishPost: 'news.toast.unpublishFailed',
  publishPost: 'news.toast.publishFailed',
  trashPost: 'news.toast.trashFailed',
  restorePost: 'news.toast.restoreFailed',
};
const ACTION_OF: Record<string, string> = {
  'news.unpublish': 'unpublishPost',
  'news.publish': 'publishPost',
  'news.delete': 'trashPost',
  'news.restore': 'restorePost',
};
const STATE_OF: Record<string, string> = {
  unpublishPost: 'unpublishing',
  publishPost: 'publishing',
  trashPost: 'trashing',
  restorePost: 'restoring',
};

const queryOf = (s: AnyMachineSnapshot) => ({ category: s.context.category, q: s.context.q, all: s.context.manage });

/** The input of the path running now (set when its actor is made). */
let running: WallInput = { manage: true, path: '/mural', search: '' };

/** What `?q=…&category=…` says, written out for the addresses the traversal uses. */
const ADDRESSES: Record<string, { q: string; category: number | null }> = {
  '': { q: '', category: null },
  '?q=acto&category=2': { q: 'acto', category: 2 },
  '?category=abc&q=': { q: '', category: null },
  '?newsfeed=1&q=acto&category=7': { q: 'acto', category: 7 },
};

/** The address a choice writes: the page's path, the other parameters it came with, then q and category. */
function addressOf(q: string, category: number | null): string {
  const kept = running.search.includes('newsfeed=1') ? ['newsfeed=1'] : [];
  const parts = [...kept, ...(q ? [`q=${encodeURIComponent(q)}`] : []), ...(category !== null ? [`category=${category}`] : [])];
  return `${running.path}${parts.length ? `?${parts.join('&')}` : ''}`;
}

/** What the wall must tell its list in this step, from the step alone. */
function expectedTold({ from, to, event }: StepEnv): AnyEventObject[] {
  const shown = from.matches({ posts: 'shown' });
  if (!shown) return [];
  switch (event.type) {
    case 'wall.search':
      return [{ type: 'list.query', query: { ...queryOf(from), q: event.q } }];
    case 'wall.filter':
      return event.category === from.context.category
        ? []
        : [{ type: 'list.query', query: { ...queryOf(from), category: event.category } }];
    case 'wall.clear':
      return from.context.q === '' && from.context.category === null
        ? []
        : [{ type: 'list.query', query: { ...queryOf(from), q: '', category: null } }];
    case 'wall.address': {
      const read = ADDRESSES[event.search as string] as { q: string; category: number | null };
      return read.q === from.context.q && read.category === from.context.category
        ? []
        : [{ type: 'list.query', query: { ...queryOf(from), ...read } }];
    }
    case 'wall.loadMore':
      return [{ type: 'list.more' }];
    case 'wall.retry':
      return [{ type: 'list.reload' }];
    case 'xstate.done.actor.unpublishPost':
    case 'xstate.done.actor.publishPost':
      return [{ type: 'list.update', items: [event.output] }];
    case 'xstate.done.actor.trashPost':
      return [{ type: 'list.remove', keys: [(event.output as NewsPost).id] }];
    case 'xstate.done.actor.restorePost':
      return [{ type: 'list.reload' }];
    default:
      return to ? [] : [];
  }
}

function emits({ event, from }: StepEnv): AnyEventObject[] {
  // A choice goes in the address (replacing the entry); one read from the address writes nothing back.
  const shown = from.matches({ posts: 'shown' });
  if (event.type === 'wall.search' && shown)
    return [{ type: 'navigate', to: addressOf(event.q as string, from.context.category), replace: true }];
  if (event.type === 'wall.filter' && shown && event.category !== from.context.category)
    return [{ type: 'navigate', to: addressOf(from.context.q, event.category as number | null), replace: true }];
  if (event.type === 'wall.clear' && shown && (from.context.q !== '' || from.context.category !== null))
    return [{ type: 'navigate', to: running.path + (running.search.includes('newsfeed=1') ? '?newsfeed=1' : ''), replace: true }];
  const match = /^xstate\.(done|error)\.actor\.(\w+Post)$/.exec(event.type);
  if (!match) return [];
  const [, kind, actor] = match as unknown as [string, 'done' | 'error', string];
  if (kind === 'error') return [{ type: 'toast', kind: 'error', key: FAILED_KEYS[actor] }];
  const post = event.output as NewsPost;
  if (actor === 'unpublishPost') return [{ type: 'toast', kind: 'success', key: 'news.toast.unpublished' }];
  if (actor === 'publishPost') return [{ type: 'toast', kind: 'success', key: 'news.toast.published' }];
  if (actor === 'restorePost') return [{ type: 'toast', kind: 'success', key: 'news.toast.restored' }];
  return [
    {
      type: 'toast',
      kind: 'success',
      key: 'news.toast.trashed',
      params: { title: post.title },
      action: { label: 'toast.undo', event: { type: 'news.restore', id: post.id } },
    },
  ];
}

/**
 * What the desk allows with the rows shown (ROWS), written out rather than computed: Despublicar a published
 * (1) or scheduled (3) post, not an unpublished (2) or ended (4) one; Publicar de nuevo the unpublished and the
 * ended ones; Eliminar
 * an editable post (1), not one the user may not touch (5); "Deshacer" only for a post no longer shown (9).
 */
const ALLOWED_WITH_ROWS = new Set([
  'news.unpublish 1',
  'news.unpublish 3',
  'news.publish 2',
  'news.publish 4',
  'news.delete 1',
  'news.restore 1',
  'news.restore 9',
]);
const ALLOWED_WITHOUT_ROWS = new Set(['news.restore 1', 'news.restore 9']);

/** Whether a post event starts its action with no other running: on the desk only, by the rows shown. */
function starts(context: { manage: boolean; items: NewsPost[] }, event: AnyEventObject): boolean {
  if (!context.manage) return false;
  const shown = context.items.length > 0;
  const key = `${event.type} ${event.id}`;
  if (key === 'news.restore 1') return !shown;
  return (shown ? ALLOWED_WITH_ROWS : ALLOWED_WITHOUT_ROWS).has(key);
}

/** Whether a post event starts its action here. */
function expectedStart(s: AnyMachineSnapshot, event: AnyEventObject): boolean {
  if (!s.matches({ action: 'idle' })) return false;
  return starts(s.context as { manage: boolean; items: NewsPost[] }, event);
}

const POST_EVENTS = [
  { type: 'news.unpublish', id: 1 },
  { type: 'news.unpublish', id: 3 },
  { type: 'news.unpublish', id: 2 },
  { type: 'news.publish', id: 2 },
  { type: 'news.publish', id: 1 },
  { type: 'news.publish', id: 4 },
  { type: 'news.unpublish', id: 4 },
  { type: 'news.delete', id: 1 },
  { type: 'news.delete', id: 5 },
  { type: 'news.restore', id: 1 },
  { type: 'news.restore', id: 9 },
];

const traversalEvents = [
  { type: 'wall.search', q: 'reunión' },
  { type: 'wall.filter', category: 2 },
  { type: 'wall.filter', category: null },
  { type: 'wall.clear' },
  { type: 'wall.address', search: '?q=acto&category=2' },
  { type: 'wall.address', search: '?category=abc&q=' },
  { type: 'wall.loadMore' },
  { type: 'wall.retry' },
  ...POST_EVENTS,
];

const internal = [
  NONE,
  ROWS,
  { type: 'xstate.done.actor.fetchNewsCategories', output: WALL_CATEGORIES },
  { type: 'xstate.error.actor.fetchNewsCategories', error: failure(500, 'server.error') },
  ...Object.entries(ANSWERS).map(([actor, output]) => ({ type: `xstate.done.actor.${actor}`, output })),
  ...Object.keys(ANSWERS).map((actor) => ({ type: `xstate.error.actor.${actor}`, error: failure(404, 'not_found', 'No encontrado') })),
  { type: 'xstate.error.actor.list', error: new Error('list: a bug') },
];

/** The posts on screen after these events, by the test's account: the list's last rows, none since a crash. */
const shownIds = (history: readonly AnyEventObject[]): number[] =>
  history.reduce<number[]>((ids, event) => {
    if (event.type === 'xstate.snapshot.list') return (event.snapshot as AnyMachineSnapshot).context.items.map((post: NewsPost) => post.id);
    return event.type === 'xstate.error.actor.list' ? [] : ids;
  }, []);

const actionState = (key: string) => (s: AnyMachineSnapshot, env: StepEnv) => {
  const actor = Object.entries(STATE_OF).find(([, state]) => state === key)?.[0] as string;
  expect(s.hasTag('busy')).toBe(true);
  expect(env.fakes.inputOf(actor)).toEqual({ id: s.context.target });
  expect(selectActingOn(ws(s))).toBe(s.context.target);
  // One action at a time: no other post's action is offered meanwhile.
  for (const event of POST_EVENTS) expect(s.can(event), `${event.type} ${event.id} while busy`).toBe(false);
  if (ACTION_OF[env.event.type] && env.from.matches({ action: 'idle' })) expect(s.context.target).toBe(env.event.id);
};

defineModelTests({
  name: 'news-wall',
  machine: newsWallMachine,
  // The header and decisions 0087, 0093: three regions apart. The posts are shown until the list crashes,
  // then Reintentar opens it again; the filter's categories load once, Reintentar after a failure; on the
  // desk one action at a time on a post the rule allows, done or not back to idle. Search, filter, clear,
  // address and more change the query, never a state.
  oracle: {
    initial: { posts: 'shown', categories: 'loading', action: 'idle' },
    targets: {
      'posts.shown': { 'xstate.error.actor.list': 'posts.crashed' },
      'posts.crashed': { 'wall.retry': 'posts.shown' },
      'categories.loading': {
        'xstate.done.actor.fetchNewsCategories': 'categories.loaded',
        'xstate.error.actor.fetchNewsCategories': 'categories.failed',
      },
      'categories.failed': { 'wall.retry': 'categories.loading' },
      'action.idle': {
        'news.unpublish': ({ event, context, stay }) => (starts(context, event) ? 'action.unpublishing' : stay),
        'news.publish': ({ event, context, stay }) => (starts(context, event) ? 'action.publishing' : stay),
        'news.delete': ({ event, context, stay }) => (starts(context, event) ? 'action.trashing' : stay),
        'news.restore': ({ event, context, stay }) => (starts(context, event) ? 'action.restoring' : stay),
      },
      'action.unpublishing': { 'xstate.done.actor.unpublishPost': 'action.idle', 'xstate.error.actor.unpublishPost': 'action.idle' },
      'action.publishing': { 'xstate.done.actor.publishPost': 'action.idle', 'xstate.error.actor.publishPost': 'action.idle' },
      'action.trashing': { 'xstate.done.actor.trashPost': 'action.idle', 'xstate.error.actor.trashPost': 'action.idle' },
      'action.restoring': { 'xstate.done.actor.restorePost': 'action.idle', 'xstate.error.actor.restorePost': 'action.idle' },
    },
  },
  traversal: {
    input: { manage: true, path: '/mural', search: '' },
    events: traversalEvents,
    internal,
    // Bounded: the three regions are independent, so each kind of event is tried where it tells
    // something new — the query's events with no action running and the categories settled, the actions
    // on the plain wall, the categories' answers before any row, rows and crashes of the list whatever runs.
    filterEvents: (s, event) => {
      const idle = s.matches({ action: 'idle' });
      const settled = !s.matches({ categories: 'loading' });
      const plain = s.context.q === '' && s.context.category === null;
      if (/^wall\.(search|filter|clear|loadMore|address)$/.test(event.type)) return idle && settled;
      if (event.type.startsWith('news.')) return plain && settled;
      if (event.type.endsWith('fetchNewsCategories')) return idle && plain && s.context.items.length === 0;
      if (event.type === 'xstate.snapshot.list') return idle || plain;
      return true;
    },
    serializeState: (s) =>
      JSON.stringify([s.value, s.context.q, s.context.category, s.context.items.length, s.context.categories.length, s.context.target]),
    limit: 50_000,
  },
  variants: [
    { name: 'desk', traversal: { input: { manage: true, path: '/mural', search: '' } } },
    // A reader: the same wall, no actions ever start.
    {
      name: 'reader',
      traversal: { input: { manage: false, path: '/mural/news', search: '' }, stopWhen: (s) => s.matches({ posts: 'crashed' }) },
    },
    // A link (or a reload) with a search and a category, and a non-manager let in by ?newsfeed: the wall
    // opens on them, and its choices keep `newsfeed` in the address.
    {
      name: 'address',
      traversal: {
        input: { manage: false, path: '/mural', search: '?newsfeed=1&q=acto&category=7' },
        stopWhen: (s) => s.matches({ posts: 'crashed' }),
      },
    },
  ],
  createActor: ({ fakes, path, inspect, machine }) => {
    running = path.input as WallInput;
    return createActor(
      machine.provide({
        actors: {
          list: listStandIn as never,
          fetchNewsCategories: fakes.promise(),
          unpublishPost: fakes.promise(),
          publishPost: fakes.promise(),
          trashPost: fakes.promise(),
          restorePost: fakes.promise(),
        },
      }),
      { input: path.input as WallInput, inspect },
    );
  },
  states: {
    posts: () => {},
    'posts.shown': (s, env) => {
      expect(toldList(env)).toEqual(expectedTold(env));
      const list = s.children.list as { getSnapshot: () => AnyMachineSnapshot } | undefined;
      expect(list, 'hosted list').toBeDefined();
      expect(selectWallItems(ws(s))).toBe(list?.getSnapshot().context.items);
      expect(
        selectWallItems(ws(s)).map((post) => post.id),
        'posts on screen',
      ).toEqual(shownIds(env.history));
      // A list (re)opened starts on the wall's query: the desk's with every status.
      if (env.event.type === 'xstate.init' || env.from.matches({ posts: 'crashed' }))
        expect(list?.getSnapshot().context.input).toEqual({ query: queryOf(s) });
      // It opens with what its address says.
      if (env.event.type === 'xstate.init') {
        const read = ADDRESSES[running.search] as { q: string; category: number | null };
        expect({ q: s.context.q, category: s.context.category }).toEqual(read);
      }
    },
    'posts.crashed': (s, env) => {
      expect(s.children.list).toBeUndefined();
      expect(selectWallItems(ws(s))).toEqual([]);
      expect(s.can({ type: 'wall.retry' })).toBe(true);
      expect(toldList(env)).toEqual([]);
    },
    categories: () => {},
    'categories.loading': (_s, env) => {
      expect(env.fakes.isRunning('fetchNewsCategories')).toBe(true);
      // Asked once per entry (Reintentar asks again); other steps let the call run.
      const entered = env.event.type === 'xstate.init' || !env.from.matches({ categories: 'loading' });
      expect(
        env.started.filter((id) => id === 'fetchNewsCategories'),
        'categories asked',
      ).toEqual(entered ? ['fetchNewsCategories'] : []);
    },
    'categories.loaded': (s) => {
      expect(selectCategories(ws(s))).toEqual(WALL_CATEGORIES);
    },
    'categories.failed': (s, env) => {
      expect(env.fakes.isRunning('fetchNewsCategories')).toBe(false);
      expect(selectCategories(ws(s))).toEqual([]);
    },
    action: () => {},
    'action.idle': (s, env) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.target).toBeNull();
      expect(selectActingOn(ws(s))).toBeNull();
      for (const name of Object.keys(ANSWERS)) expect(env.fakes.isRunning(name), name).toBe(false);
      // What is offered is the rule: status and `editable` on the desk; nothing for a reader.
      for (const event of POST_EVENTS) expect(s.can(event), `${event.type} ${event.id}`).toBe(expectedStart(s, event));
      if (!s.context.manage) for (const event of POST_EVENTS) expect(s.can(event)).toBe(false);
    },
    'action.unpublishing': actionState('unpublishing'),
    'action.publishing': actionState('publishing'),
    'action.trashing': actionState('trashing'),
    'action.restoring': actionState('restoring'),
  },
  events: {
    'wall.search': send,
    'wall.filter': send,
    'wall.clear': send,
    'wall.loadMore': send,
    'wall.retry': send,
    'wall.address': send,
    'news.unpublish': send,
    'news.publish': send,
    'news.delete': send,
    'news.restore': send,
    ...listExecutors,
    'xstate.done.actor.fetchNewsCategories': settle,
    'xstate.error.actor.fetchNewsCategories': settle,
    'xstate.done.actor.unpublishPost': settle,
    'xstate.error.actor.unpublishPost': settle,
    'xstate.done.actor.publishPost': settle,
    'xstate.error.actor.publishPost': settle,
    'xstate.done.actor.trashPost': settle,
    'xstate.error.actor.trashPost': settle,
    'xstate.done.actor.restorePost': settle,
    'xstate.error.actor.restorePost': settle,
  },
  emits,
});

describe("the wall's address (news/wall-rules.ts)", () => {
  it('reads q and category, anything malformed as nothing', () => {
    expect(wallAddressOf('?q=Reuni%C3%B3n+de+apoderados&category=12')).toEqual({ q: 'Reunión de apoderados', category: 12 });
    expect(wallAddressOf('category=0&q=')).toEqual({ q: '', category: null });
    expect(wallAddressOf('?category=-3')).toEqual({ q: '', category: null });
    expect(wallAddressOf('?category=1e3')).toEqual({ q: '', category: null });
    expect(wallAddressOf('')).toEqual({ q: '', category: null });
  });
  it('writes them after the parameters it came with, leaving the defaults out', () => {
    expect(wallAddress('/mural', '', { q: '', category: null })).toBe('/mural');
    expect(wallAddress('/mural/news', '?q=viejo&category=1', { q: 'acto cívico', category: 4 })).toBe(
      '/mural/news?q=acto+c%C3%ADvico&category=4',
    );
    expect(wallAddress('/mural', '?newsfeed=1&q=viejo', { q: '', category: 2 })).toBe('/mural?newsfeed=1&category=2');
    // What is written reads back the same, spaces at the end included (nothing typed is lost on reload).
    expect(wallAddressOf(wallAddress('/mural', '', { q: 'feria ', category: 3 }).slice('/mural'.length))).toEqual({
      q: 'feria ',
      category: 3,
    });
  });
});
