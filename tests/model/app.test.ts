// The app root with its page registry (app/pages.ts) and the bridge its children report through (app/bridge.ts).
import { assign, createActor, emit, fromCallback, setup, type AnyActorRef, type AnyMachineSnapshot, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { appActorsOf, appMachine, selectIsAppFailed, type AppActor, type CreateAppActorOptions } from '../../src/machines/app/app';
import { pageSpec, selectHoldsNavigation } from '../../src/machines/app/pages';
import type { Effect, LeaveRequest, PageLeaveEvent } from '../../src/machines/app/effects';
import { folderCountsMachine } from '../../src/machines/messages/folder-counts';
import { localeMachine } from '../../src/machines/app/locale';
import { tokenMachine } from '../../src/machines/session/token';
import { undoMachine } from '../../src/machines/messages/undo';
import { defineModelTests, send, type Fakes, type StepEnv } from './harness';
import { fakedSessionMachine, TIMES } from './fixtures';

const CHILDREN = ['session', 'token', 'sidebar', 'loadingBar', 'locale', 'routeGuard', 'folderCounts', 'undo'] as const;
const CRASHABLE = ['bridge', ...CHILDREN] as const;

const NAVIGATE = { type: 'navigate', to: '/inbox', replace: true };
const TOAST = { type: 'toast', kind: 'warning', key: 'session.expired' };
const UPDATED = { type: 'session.updated', status: 'loggedOut', roles: [], device: null };

/**
 * A screen's actor as `usePageActor` opens it; `page.act` makes it emit a toast. One that `holds` takes
 * `page.leave` (like compose with unsaved changes) and keeps the request; the others never take it.
 */
const pageLogic = setup({
  types: {
    input: {} as { id: number; holds?: boolean },
    context: {} as { holds: boolean; asked: LeaveRequest | null; heard: AnyEventObject[] },
    events: {} as
      | { type: 'page.act' }
      | PageLeaveEvent
      | { type: 'messages.restored'; ids: number[] }
      | { type: 'news.restore'; id: number },
    emitted: {} as Effect,
  },
}).createMachine({
  id: 'testPage',
  context: ({ input }) => ({ holds: input.holds === true, asked: null, heard: [] }),
  on: {
    'page.act': { actions: emit({ type: 'toast', kind: 'success', key: 'messages.deleted' }) },
    'page.leave': {
      guard: ({ context }) => context.holds,
      actions: assign({ asked: ({ event }) => ({ to: event.to, ...(event.back ? { back: true } : {}) }) }),
    },
    'messages.restored': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) },
    'news.restore': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) },
  },
});
const PAGE_ID = 'testPage-1';
const OPEN = { type: 'page.open', page: pageSpec(PAGE_ID, pageLogic, { id: 7 }) };
const CLOSE = { type: 'page.close', id: PAGE_ID };
/** Compose with unsaved changes, say: it holds navigations. */
const HOLDING_ID = 'testPage-2';
const OPEN_HOLDING = { type: 'page.open', page: pageSpec(HOLDING_ID, pageLogic, { id: 8, holds: true }) };
const CLOSE_HOLDING = { type: 'page.close', id: HOLDING_ID };
const LINK = { type: 'navigation.request', to: '/draft' };
const BACK = { type: 'navigation.request', to: '/inbox', back: true };
const RESTORED = { type: 'messages.restored', ids: [31] };
/** "Deshacer" of a news post sent to the trash: for the open pages (the wall's desk restores it). */
const NEWS_RESTORE = { type: 'news.restore', id: 12 };
const PAGE_TOAST = { type: 'toast', kind: 'success', key: 'messages.deleted' };

/** Where the root must forward each event it receives from the bridge (or the 401 hook). */
const ROUTING: Record<string, string> = {
  'token.set': 'token',
  'token.clear': 'token',
  'session.reset': 'session',
  'session.remember': 'session',
  'session.unauthorized': 'session',
  'session.updated': 'routeGuard',
  'route.changed': 'sidebar',
  'undo.restore': 'undo',
  'locale.institution': 'locale',
};

/** Stands in for the child a crash path breaks: a machine whose only transition throws. */
const crashable = setup({}).createMachine({
  on: {
    'test.crash': {
      actions: () => {
        throw new Error('child crashed');
      },
    },
  },
});

/** Makes child `id` crash, like a bug in it would. */
function crash(env: StepEnv) {
  const id = /^xstate\.error\.actor\.(.+)$/.exec(env.event.type)?.[1] ?? '';
  const child = (env.actor.getSnapshot() as AnyMachineSnapshot).children[id] as AnyActorRef | undefined;
  expect(child, `child ${id}`).toBeDefined();
  child?.send({ type: 'test.crash' });
}

/** The real children, with their I/O faked; for a crash path, the crashing one is `crashable`. */
function childLogic(fakes: Fakes, crashing: string | null) {
  const crash = <T>(id: string, logic: T): T => (crashing === id ? (crashable as unknown as T) : logic);
  return {
    bridge: crash('bridge', appMachine.implementations.actors.bridge),
    session: crash('session', fakedSessionMachine(fakes)),
    token: crash('token', tokenMachine.provide({ actors: { refreshToken: fakes.promise() } })),
    sidebar: crash('sidebar', appMachine.implementations.actors.sidebar),
    loadingBar: crash('loadingBar', appMachine.implementations.actors.loadingBar),
    locale: crash('locale', localeMachine.provide({ actors: { readLocaleChoice: fakes.promise(), loadLocale: fakes.promise() } })),
    routeGuard: crash('routeGuard', appMachine.implementations.actors.routeGuard),
    undo: crash('undo', undoMachine.provide({ actors: { restoreMessages: fakes.promise() } })),
    folderCounts: crash(
      'folderCounts',
      folderCountsMachine.provide({ actors: { fetchFolderCounts: fakes.promise(), visibilityChanges: fromCallback(() => undefined) } }),
    ),
  } as NonNullable<CreateAppActorOptions['actors']>;
}

function expectForwarded(env: StepEnv) {
  const target = ROUTING[env.event.type];
  if (!target) return;
  const deliveries = env.delivered.filter((delivery) => delivery.to === target);
  expect(deliveries, `${env.event.type} forwarded to ${target}`).toEqual([{ to: target, from: 'app', event: env.event }]);
}

/** The pages are live children of the root exactly while the model says they are open. */
function expectPage(env: StepEnv) {
  for (const id of [PAGE_ID, HOLDING_ID]) {
    const open = (env.to.context as { pages: string[] }).pages.includes(id);
    const page = pageOf(env, id);
    expect(page?.getSnapshot().status === 'active', `page ${id} running`).toBe(open);
    if (open) expect(page?.system).toBe(env.actor.system);
  }
}

const pageOf = (env: StepEnv, id: string) => (env.actor.getSnapshot() as AnyMachineSnapshot).children[id] as AnyActorRef | undefined;

/** The page ids open after these events, in the test's own account (before any crash). */
function openPagesAfter(history: readonly AnyEventObject[]): string[] {
  const open = new Set<string>();
  for (const event of history) {
    if (event.type === 'page.open') open.add((event.page as { id: string }).id);
    if (event.type === 'page.close') open.delete(event.id as string);
  }
  return [...open];
}

/** A page holds navigation while the one that holds is open (whatever else is open). */
const holding = (snapshot: AnyMachineSnapshot) => (snapshot.context as { pages: string[] }).pages.includes(HOLDING_ID);

function expectChildEffect(env: StepEnv) {
  const actors = appActorsOf(env.actor as AppActor);
  switch (env.event.type) {
    case 'token.set':
      expect(actors.token.getSnapshot().value).toBe('valid');
      expect(actors.token.getSnapshot().context.tokenExpiresAt).toBe(TIMES.tokenExpiresAt);
      break;
    case 'token.clear':
      expect(actors.token.getSnapshot().value).toBe('unknown');
      break;
    case 'session.remember':
      expect(actors.session.getSnapshot().context.redirectTo).toBe(env.event.path);
      break;
    case 'session.updated':
      expect(actors.routeGuard.getSnapshot().context.session.status).toBe('loggedOut');
      // The counters follow the session too: logged out, nothing loaded.
      expect(env.delivered.filter((delivery) => delivery.to === 'folderCounts')).toEqual([
        { to: 'folderCounts', from: 'app', event: env.event },
      ]);
      expect(actors.folderCounts.getSnapshot().value).toBe('idle');
      break;
    case 'route.changed':
      expect(actors.sidebar.getSnapshot().value).toBe('closed');
      break;
    case 'locale.institution':
      // The school's locale reaches the locale actor, which applies it unless the user chose one.
      expect(actors.locale.getSnapshot().context.institution).toBe('es-MX');
      break;
    case 'counts.changed':
      // Any actor's SPEC §7 counts event reloads the sidebar counters.
      expect(env.delivered.filter((delivery) => delivery.to === 'folderCounts')).toEqual([
        { to: 'folderCounts', from: 'app', event: { type: 'counts.refresh' } },
      ]);
      break;
    case 'page.open':
    case 'page.close':
    case 'effect.relay':
      expectPage(env);
      break;
    case 'navigation.request': {
      // Handed to the page that holds it, as `page.leave`, and to no other; or nobody is asked.
      const asked = env.delivered.filter((delivery) => delivery.event.type === 'page.leave');
      const { type: _, ...request } = env.event;
      expect(asked).toEqual(holding(env.from) ? [{ to: HOLDING_ID, from: 'app', event: { type: 'page.leave', ...request } }] : []);
      if (holding(env.from)) expect(pageOf(env, HOLDING_ID)?.getSnapshot().context.asked).toEqual(request);
      // A held navigation closes the phone's menu: its modal drawer would cover the page's question.
      const toSidebar = env.delivered.filter((delivery) => delivery.to === 'sidebar');
      expect(toSidebar).toEqual(holding(env.from) ? [{ to: 'sidebar', from: 'app', event: { type: 'sidebar.close' } }] : []);
      expect(selectHoldsNavigation(env.actor.getSnapshot() as never)).toBe(holding(env.to));
      break;
    }
    case 'undo.restore':
      // The undo actor restores those messages.
      expect(actors.undo.getSnapshot().context.ids).toEqual(env.event.ids);
      break;
    case 'messages.restored':
    case 'news.restore': {
      // Every open page hears it (a folder reloads, the wall's desk restores the post); closed ones do not.
      const open = (env.from.context as { pages: string[] }).pages;
      const heard = env.delivered
        .filter((delivery) => delivery.event.type === env.event.type && delivery.from === 'app')
        .map((delivery) => delivery.to);
      expect(heard.sort()).toEqual([...open].sort());
      for (const id of open)
        expect(pageOf(env, id)?.getSnapshot().context.heard.at(-1)).toEqual(env.event.type === 'news.restore' ? NEWS_RESTORE : RESTORED);
      break;
    }
    default:
      break;
  }
}

defineModelTests({
  name: 'app',
  machine: appMachine,
  // The header and the decision on one root actor: the root forwards, relays and hosts pages while it runs;
  // a child that crashes (a bug) takes it to the fatal screen, for good. Nothing else moves it.
  oracle: {
    initial: 'running',
    targets: {
      running: Object.fromEntries(CRASHABLE.map((id) => [`xstate.error.actor.${id}`, 'failed'])),
    },
  },
  traversal: {
    events: [
      { type: 'token.set', ...TIMES },
      { type: 'token.clear' },
      { type: 'session.reset', reason: 'refreshFailed' },
      { type: 'session.remember', path: '/sent' },
      { type: 'session.unauthorized' },
      UPDATED,
      { type: 'route.changed', path: '/inbox' },
      { type: 'locale.institution', locale: 'es-MX' },
      { type: 'app.relay', event: NAVIGATE },
      { type: 'app.relay', event: TOAST },
      { type: 'counts.changed' },
      OPEN,
      CLOSE,
      OPEN_HOLDING,
      CLOSE_HOLDING,
      { type: 'effect.relay', effect: PAGE_TOAST },
      LINK,
      BACK,
      { type: 'undo.restore', ids: [31] },
      RESTORED,
      NEWS_RESTORE,
    ],
    internal: CRASHABLE.map((id) => ({ type: `xstate.error.actor.${id}`, error: new Error('child crashed') })),
    input: {},
    limit: 500,
  },
  createActor: ({ fakes, path, inspect, machine }) => {
    const crashing = path.steps.map((step) => /^xstate\.error\.actor\.(.+)$/.exec(step.event.type)?.[1]).find(Boolean) ?? null;
    // What `createAppActor` does, on the spec's machine (so a mutated copy runs under the same spec).
    return createActor(machine.provide({ actors: childLogic(fakes, crashing) }), {
      systemId: 'app',
      input: { now: () => Date.now() },
      inspect,
    });
  },
  states: {
    running: (snapshot, env) => {
      expect(selectIsAppFailed(snapshot as never)).toBe(false);
      // The app-lifetime actors are reachable by systemId, as the views get them.
      const actors = appActorsOf(env.actor as AppActor);
      for (const id of CHILDREN) expect((actors[id] as AnyActorRef).getSnapshot().status).toBe('active');
      expectForwarded(env);
      expectChildEffect(env);
      // The pages open are those the view opened and has not closed yet (an id opens once).
      expect([...snapshot.context.pages].sort(), 'open pages').toEqual(openPagesAfter(env.history).sort());
    },
    failed: (snapshot, env) => {
      expect(selectIsAppFailed(snapshot as never)).toBe(true);
      const crashed = /^xstate\.error\.actor\.(.+)$/.exec(env.event.type)?.[1];
      if (crashed) expect(snapshot.context.failedActor).toBe(crashed);
      // The fatal screen names the first child that crashed; later events change nothing.
      const first = env.history.map((event) => /^xstate\.error\.actor\.(.+)$/.exec(event.type)?.[1]).find(Boolean);
      expect(snapshot.context.failedActor).toBe(first);
      expect(snapshot.context.pages).toEqual([]);
      // Leaving `running` stops every child: nothing keeps running behind the fatal screen.
      for (const child of Object.values((snapshot as AnyMachineSnapshot).children)) {
        expect((child as AnyActorRef).getSnapshot().status).not.toBe('active');
      }
      expect(env.delivered.filter((delivery) => delivery.from === 'app' && ROUTING[delivery.event.type])).toEqual([]);
    },
  },
  events: {
    'token.set': send,
    'token.clear': send,
    'session.reset': send,
    'session.remember': send,
    'session.unauthorized': send,
    'session.updated': send,
    'route.changed': send,
    'locale.institution': send,
    'app.relay': send,
    'counts.changed': send,
    'page.open': send,
    'page.close': send,
    'navigation.request': send,
    'undo.restore': send,
    'messages.restored': send,
    'news.restore': send,
    // The open page emits; its relay hands the effect to the root (closed, it is heard no more).
    'effect.relay': (env) => {
      const page = (env.actor.getSnapshot() as AnyMachineSnapshot).children[PAGE_ID] as AnyActorRef | undefined;
      if (page) page.send({ type: 'page.act' });
      else env.actor.send(env.event);
    },
    ...Object.fromEntries(CRASHABLE.map((id) => [`xstate.error.actor.${id}`, crash])),
  },
  // The root emits only what it relays, unchanged, and only while running; and a navigation no page holds.
  emits: ({ from, event }): AnyEventObject[] => {
    if (!from.matches('running')) return [];
    if (event.type === 'app.relay') return [event.event as AnyEventObject];
    if (event.type === 'navigation.request') {
      const { type: _, ...request } = event;
      return holding(from) ? [] : [{ type: 'navigate', ...request }];
    }
    return event.type === 'effect.relay' ? [event.effect as AnyEventObject] : [];
  },
  // `now` is a function: compare the rest.
  contextOf: (context) => {
    const { failedActor, pages } = context as { failedActor: string | null; pages: string[] };
    return { failedActor, pages };
  },
});
