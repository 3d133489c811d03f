// The root actor. It owns the app-lifetime actors (systemIds `session`, `token`, `sidebar`, `loadingBar`,
// `locale`, `routeGuard`, `folderCounts`, `undo`) and is the only place that knows how they talk to each other.
//
// How events flow (the decision the design card asked for): children never address each other and
// never `sendParent`; they only `emit`. A `bridge` callback actor (app/bridge.ts) listens to every child's
// emitted events (and to session snapshots) and sends them back to this root, whose transitions below
// forward them with `sendTo`. The UI effects (`navigate`, `toast`, `focus`) of every child arrive wrapped
// in `app.relay` and are re-emitted by the root, so the app edge subscribes in one place:
//   appActor.on('navigate', …); appActor.on('toast', …); appActor.on('focus', …)
// Children stay testable alone (their emitted events are their whole interface), and the wiring is
// visible as ordinary transitions of this machine.
//
// The HTTP client (services/http/client.ts) is the root's child `http`, created with what it asks of the
// session and tells it (`httpSessionOf`): service actors anywhere in the app's system find it there.
//
// Pages (app/pages.ts): each screen's actor (folder, message, compose, reception…) is a child of this root
// too, opened and closed by the view's `usePageActor` with `page.open` / `page.close`, so it lives in the
// app's system (the Stately inspector and the offline actor panel show it). A `relayEffects` child watches
// each page and hands its effects back here: UI effects go to the edge, `counts.changed` to `folderCounts`.
//
// Navigations the user asks for (a link, the browser's Back) arrive as `navigation.request` from the edge.
// An open page may hold them (compose with unsaved changes): the root asks whether one would
// (`snapshot.can(page.leave)`) and hands it the request (closing the phone's menu, whose modal drawer would
// cover the page's question), and that page lets it through later by emitting
// `navigate`, or drops it. Otherwise the root emits `navigate` at once. `selectHoldsNavigation` answers the
// same question for the edge's synchronous cases (the popstate it must undo, the tab closing).
import {
  assertEvent,
  assign,
  createActor,
  emit,
  enqueueActions,
  sendTo,
  setup,
  type ActorOptions,
  type ActorRefFrom,
  type AnyActorRef,
  type SnapshotFrom,
} from 'xstate';
import { HTTP_SYSTEM_ID, httpClientLogic, type ActorLookup, type HttpSession } from '../../services/http/client';
import { appEventOf, bridge, type ChildId } from './bridge';
import { pageHolding, relayIdOf, type PageSpec } from './pages';
import { loadingBarMachine } from './loading-bar';
import { folderCountsMachine } from '../messages/folder-counts';
import { localeMachine } from './locale';
import { routeGuardMachine } from './route-guard';
import type { RouteRule, SessionSummary } from './route-rules';
import { sessionMachine, type TokenSetEvent } from '../session/session';
import type { ResetReason } from '../session/rules';
import { sidebarMachine } from './sidebar';
import { selectCanRequest, selectRefreshOutcome, tokenMachine, type TokenSnapshot } from '../session/token';
import { relayEffects, type LeaveRequest, type RelayedEffect, type ToastCommand, type UiEvent } from './effects';
import { undoMachine, type MessagesRestoredEvent } from '../messages/undo';
import type { Locale } from '../../../shared/contract';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type TokenActor = ActorRefFrom<typeof tokenMachine>;
type SidebarActor = ActorRefFrom<typeof sidebarMachine>;
type LoadingBarActor = ActorRefFrom<typeof loadingBarMachine>;
export type LocaleActor = ActorRefFrom<typeof localeMachine>;
export type RouteGuardActor = ActorRefFrom<typeof routeGuardMachine>;
type FolderCountsActor = ActorRefFrom<typeof folderCountsMachine>;
export type UndoActor = ActorRefFrom<typeof undoMachine>;

export type AppEvent =
  | TokenSetEvent
  | { type: 'token.clear' }
  | { type: 'session.reset'; reason: ResetReason }
  | { type: 'session.remember'; path: string | null }
  /** From the HTTP client: a 401 that a refresh did not cure. */
  | { type: 'session.unauthorized' }
  | ({ type: 'session.updated' } & SessionSummary)
  /** The signed-in user's institution locale changed (null: signed out); for `locale`. */
  | { type: 'locale.institution'; locale: Locale | null }
  | { type: 'route.changed'; path: string }
  /** A child's UI effect, to be re-emitted for the app edge. */
  | { type: 'app.relay'; event: UiEvent }
  /** Folder counters may have changed: `folderCounts` reloads them. */
  | { type: 'counts.changed' }
  | { type: 'page.open'; page: PageSpec }
  | { type: 'page.close'; id: string }
  /** An effect a page emitted, from its relay. */
  | RelayedEffect
  /** The user asks to go somewhere (a link, Back): an open page may hold it (see the header). */
  | ({ type: 'navigation.request' } & LeaveRequest)
  /** A toast's button ("Deshacer"): messages for `undo`, a news post for the open pages. */
  | ToastCommand
  /** `undo` put messages back: the open pages hear it. */
  | MessagesRestoredEvent;

export interface AppInput {
  /** Clock for the token actor (tests); Date.now otherwise. */
  now?: () => number;
  /** The access rules of the route table (views/route-table.ts), for the route guard. */
  routes?: readonly RouteRule[];
}

export interface AppContext {
  now: () => number;
  routes: readonly RouteRule[];
  /** Which child crashed, when the root is `failed`. */
  failedActor: string | null;
  /** Ids of the page actors open now (each with its relay). */
  pages: string[];
}

/** Any child that crashes (a bug, not a business failure) takes the root to `failed`, naming itself. */
const crashed = (id: string) => ({ target: 'failed', actions: { type: 'assignFailure', params: { id } } }) as const;

/** An app-lifetime child: its invoke id, systemId and actor name are one. */
const lifetime = <const Id extends ChildId>(id: Id) => ({ id, systemId: id, src: id, onError: crashed(id) }) as const;

/** What `httpSessionOf` needs of the root: its events and its system. */
interface AppRoot {
  send: (event: AppEvent) => void;
  system: ActorLookup;
}

/**
 * What the app's HTTP client asks of the session and tells it, answered by the app-lifetime actors: the
 * token actor says whether a request may leave (and, when it may not, hears `token.check`, so it tells the
 * user and resets the session once; it ignores repeats); a 401 asks it to refresh (`token.refresh`: one
 * refresh, the running one if the timer started it) and waits for how that ends; a 401 that stands ends the
 * session; and every request that is not silent drives the loading bar.
 */
export function httpSessionOf(root: AppRoot): HttpSession {
  const token = (): TokenActor | undefined => root.system.get('token');
  const loadingBar = (): LoadingBarActor | undefined => root.system.get('loadingBar');
  return {
    mayRequest: () => {
      const actor = token();
      if (!actor) return true;
      const allowed = selectCanRequest(actor.getSnapshot());
      if (!allowed) actor.send({ type: 'token.check' });
      return allowed;
    },
    refresh: () =>
      new Promise<boolean>((resolve) => {
        const actor = token();
        if (!actor) return resolve(false);
        actor.send({ type: 'token.refresh' });
        const settled = (snapshot: TokenSnapshot) => {
          const outcome = selectRefreshOutcome(snapshot);
          if (outcome !== 'pending') resolve(outcome === 'renewed');
          return outcome !== 'pending';
        };
        if (settled(actor.getSnapshot())) return;
        const subscription = actor.subscribe({
          next: (snapshot) => {
            if (settled(snapshot)) subscription.unsubscribe();
          },
          // The app stopped meanwhile: nothing was renewed.
          complete: () => resolve(false),
          error: () => resolve(false),
        });
      }),
    unauthorized: () => root.send({ type: 'session.unauthorized' }),
    activity: {
      start: () => loadingBar()?.send({ type: 'loading.start' }),
      finish: () => loadingBar()?.send({ type: 'loading.finish' }),
      fail: () => loadingBar()?.send({ type: 'loading.fail' }),
    },
  };
}

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
    emitted: {} as UiEvent,
  },
  actors: {
    http: httpClientLogic,
    bridge,
    session: sessionMachine,
    token: tokenMachine,
    sidebar: sidebarMachine,
    loadingBar: loadingBarMachine,
    locale: localeMachine,
    routeGuard: routeGuardMachine,
    folderCounts: folderCountsMachine,
    undo: undoMachine,
    relayEffects,
  },
  guards: {
    isNewPage: ({ context, event }) => {
      assertEvent(event, 'page.open');
      return !context.pages.includes(event.page.id);
    },
  },
  actions: {
    toToken: sendTo('token', ({ event }) => event),
    toSession: sendTo('session', ({ event }) => event),
    toRouteGuard: sendTo('routeGuard', ({ event }) => event),
    toSidebar: sendTo('sidebar', ({ event }) => event),
    toFolderCounts: sendTo('folderCounts', ({ event }) => event),
    toLocale: sendTo('locale', ({ event }) => event),
    relay: emit(({ event }) => {
      if (event.type !== 'app.relay') throw new Error(`relay: unexpected ${event.type}`);
      return event.event;
    }),
    assignFailure: assign((_, params: { id: string }) => ({ failedActor: params.id })),
    refreshCounts: sendTo('folderCounts', { type: 'counts.refresh' }),
    toUndo: sendTo('undo', ({ event }) => event),

    // The pages (app/pages.ts).
    /** Every open page hears it; those that do not care ignore it. */
    toPages: enqueueActions(({ context, enqueue, event }) => {
      for (const id of context.pages) enqueue.sendTo(id, event);
    }),
    /** To the page that holds it, or straight on to the edge. */
    requestNavigation: enqueueActions(({ context, enqueue, event, self }) => {
      assertEvent(event, 'navigation.request');
      const { type: _, ...request } = event;
      // A pure `transition()` (model planning) has an inert `self` with no snapshot: nothing holds there.
      const holder = pageHolding(context.pages, self.getSnapshot()?.children ?? {}, request);
      if (holder) {
        // The page will ask (compose's «¿Descartar…?»): on a phone the menu's modal drawer would cover it.
        enqueue.sendTo('sidebar', { type: 'sidebar.close' });
        enqueue.sendTo(holder, { type: 'page.leave', ...request });
      } else enqueue.emit({ type: 'navigate', ...request });
    }),
    /** The page, then its relay: the relay starts after the page is in this root's snapshot. */
    openPage: enqueueActions(({ context, enqueue, event, self }) => {
      assertEvent(event, 'page.open');
      const { id, logic, input } = event.page;
      // XState types no id for logic spawned as is (not one of this machine's named actors); a page needs
      // its id, by which the root and the views find it. Widened to what the types know, the id stays.
      const options = { id, input };
      const spawnOptions: { input: unknown } = options;
      enqueue.spawnChild(logic, spawnOptions);
      enqueue.spawnChild('relayEffects', { id: relayIdOf(id), input: { parent: self, child: id } });
      enqueue.assign({ pages: [...context.pages, id] });
    }),
    closePage: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'page.close');
      if (!context.pages.includes(event.id)) return;
      enqueue.stopChild(relayIdOf(event.id));
      enqueue.stopChild(event.id);
      enqueue.assign({ pages: context.pages.filter((id) => id !== event.id) });
    }),
    /** Nothing keeps running behind the fatal screen. */
    closePages: enqueueActions(({ context, enqueue }) => {
      for (const id of context.pages) {
        enqueue.stopChild(relayIdOf(id));
        enqueue.stopChild(id);
      }
      enqueue.assign({ pages: [] });
    }),
    /** A page's effect takes the same way as an app-lifetime child's. */
    routeEffect: enqueueActions(({ enqueue, event }) => {
      assertEvent(event, 'effect.relay');
      enqueue.raise(appEventOf(event.effect));
    }),
  },
}).createMachine({
  id: 'app',
  initial: 'running',
  context: ({ input }) => ({ now: input?.now ?? Date.now, routes: input?.routes ?? [], failedActor: null, pages: [] }),
  // A page unmounting after a crash still closes (a no-op then: `failed` closed them all).
  on: { 'page.close': { actions: 'closePage' } },
  states: {
    running: {
      invoke: [
        // The client holds no I/O of its own and takes no events: it cannot crash.
        { id: 'http', systemId: HTTP_SYSTEM_ID, src: 'http', input: ({ self }) => ({ session: httpSessionOf(self) }) },
        { id: 'bridge', src: 'bridge', onError: crashed('bridge') },
        lifetime('session'),
        { ...lifetime('token'), input: ({ context }) => ({ now: context.now }) },
        lifetime('sidebar'),
        lifetime('loadingBar'),
        { ...lifetime('locale'), input: {} },
        { ...lifetime('routeGuard'), input: ({ context }) => ({ routes: context.routes }) },
        { ...lifetime('folderCounts'), input: {} },
        lifetime('undo'),
      ],
      on: {
        'token.set': { actions: 'toToken' },
        'token.clear': { actions: 'toToken' },
        'session.reset': { actions: 'toSession' },
        'session.remember': { actions: 'toSession' },
        'session.unauthorized': { actions: 'toSession' },
        'session.updated': { actions: ['toRouteGuard', 'toFolderCounts'] },
        'locale.institution': { actions: 'toLocale' },
        'route.changed': { actions: 'toSidebar' },
        'app.relay': { actions: 'relay' },
        'counts.changed': { actions: 'refreshCounts' },
        'page.open': { guard: 'isNewPage', actions: 'openPage' },
        'effect.relay': { actions: 'routeEffect' },
        'navigation.request': { actions: 'requestNavigation' },
        'undo.restore': { actions: 'toUndo' },
        'messages.restored': { actions: 'toPages' },
        'news.restore': { actions: 'toPages' },
      },
    },
    // A child crashed (a bug, not a business failure): the view shows the fatal error screen.
    failed: { entry: 'closePages' },
  },
});

export type AppActor = ReturnType<typeof createAppActor>;
export type AppSnapshot = SnapshotFrom<typeof appMachine>;

export interface CreateAppActorOptions {
  input?: AppInput;
  /** Replacement child logic (tests, demos). Provided at the root so it reaches the children. */
  actors?: Parameters<typeof appMachine.provide>[0]['actors'];
  inspect?: ActorOptions<typeof appMachine>['inspect'];
}

/** Creates the root actor; the app edge subscribes to `navigate`/`toast` and then calls `start()`. */
export function createAppActor(options: CreateAppActorOptions = {}) {
  const logic = options.actors ? appMachine.provide({ actors: options.actors }) : appMachine;
  return createActor(logic, { systemId: 'app', input: options.input ?? {}, inspect: options.inspect });
}

/** The app-lifetime actors, by systemId. */
export interface AppActors {
  session: SessionActor;
  token: TokenActor;
  sidebar: SidebarActor;
  loadingBar: LoadingBarActor;
  locale: LocaleActor;
  routeGuard: RouteGuardActor;
  folderCounts: FolderCountsActor;
  undo: UndoActor;
}

/** Typed access to the app-lifetime actors (they exist as soon as the root is created). */
export function appActorsOf(app: AppActor): AppActors {
  // The system knows its actors by systemId only; each is the child of that name (see the root's invokes).
  const get = (id: ChildId): AnyActorRef => {
    const actor = app.system.get(id);
    if (!actor) throw new Error(`app: no actor with systemId ${id}`);
    return actor;
  };
  return {
    session: get('session'),
    token: get('token'),
    sidebar: get('sidebar'),
    loadingBar: get('loadingBar'),
    locale: get('locale'),
    routeGuard: get('routeGuard'),
    folderCounts: get('folderCounts'),
    undo: get('undo'),
  };
}

export const selectIsAppFailed = (snapshot: AppSnapshot): boolean => snapshot.matches('failed');
