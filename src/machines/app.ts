// The root actor. It owns the app-lifetime actors (systemIds `session`, `token`, `sidebar`, `loadingBar`,
// `locale`, `routeGuard`, `folderCounts`, `undo`) and is the only place that knows how they talk to each other.
//
// How events flow (the decision the design card asked for): children never address each other and
// never `sendParent`; they only `emit`. A `bridge` callback actor listens to every child's emitted
// events (and to session snapshots) and sends them back to this root, whose transitions below forward
// them with `sendTo`. The UI effects (`navigate`, `toast`, `focus`) of every child arrive wrapped in
// `app.relay` and are re-emitted by the root, so the app edge subscribes in one place:
//   appActor.on('navigate', …); appActor.on('toast', …); appActor.on('focus', …)
// Children stay testable alone (their emitted events are their whole interface), and the wiring is
// visible as ordinary transitions of this machine.
//
// Pages: each screen's actor (folder, message, compose, reception…) is a child of this root too, opened
// and closed by the view's `usePageActor` with `page.open` / `page.close`, so it lives in the app's system
// (the Stately inspector and the offline actor panel show it). A `relayEffects` child watches each page
// and hands its effects back here: UI effects go to the edge, `counts.changed` to `folderCounts`.
//
// Navigations the user asks for (a link, the browser's Back) arrive as `navigation.request` from the edge.
// An open page may hold them (compose with unsaved changes): the root asks whether one would
// (`snapshot.can(page.leave)`) and hands it the request, and that page lets it through later by emitting
// `navigate`, or drops it. Otherwise the root emits `navigate` at once. `selectHoldsNavigation` answers the
// same question for the edge's synchronous cases (the popstate it must undo, the tab closing).
import {
  assertEvent,
  assign,
  createActor,
  emit,
  enqueueActions,
  fromCallback,
  sendTo,
  setup,
  type ActorOptions,
  type ActorRefFrom,
  type AnyActorLogic,
  type AnyActorRef,
  type EventObject,
  type InputFrom,
  type SnapshotFrom,
  type Subscription,
} from 'xstate';
import { setActivityListener, setRequestGate, setUnauthorizedHandler } from '../services/http';
import { loadingBarMachine } from './loading-bar';
import { folderCountsMachine } from './folder-counts';
import { localeMachine } from './locale';
import { routeGuardMachine } from './route-guard';
import type { RouteRule, SessionSummary } from './route-rules';
import { selectSessionStatus, sessionMachine, type SessionSnapshot, type TokenSetEvent } from './session';
import type { ResetReason } from './session-rules';
import { sidebarMachine } from './sidebar';
import { selectCanRequest, tokenMachine } from './token';
import { isEffect, relayEffects, type Effect, type LeaveRequest, type PageLeaveEvent, type RelayedEffect, type ToastCommand, type UiEvent } from './effects';
import { undoMachine, type MessagesRestoredEvent } from './undo';
import type { Locale } from '../../shared/contract';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type TokenActor = ActorRefFrom<typeof tokenMachine>;
export type SidebarActor = ActorRefFrom<typeof sidebarMachine>;
export type LoadingBarActor = ActorRefFrom<typeof loadingBarMachine>;
export type LocaleActor = ActorRefFrom<typeof localeMachine>;
export type RouteGuardActor = ActorRefFrom<typeof routeGuardMachine>;
export type FolderCountsActor = ActorRefFrom<typeof folderCountsMachine>;
export type UndoActor = ActorRefFrom<typeof undoMachine>;

/** What the route guard needs to know about the session; roles and device only while signed in. */
export function sessionSummaryOf(snapshot: SessionSnapshot): SessionSummary {
  const status = selectSessionStatus(snapshot);
  const user = status === 'loggedIn' ? snapshot.context.user : null;
  return { status, roles: user ? user.roles.map((role) => role.codigo) : [], device: user?.device ?? null };
}

const summaryKey = (summary: SessionSummary) => `${summary.status}|${summary.roles.join(',')}|${summary.device ?? ''}`;

/** The signed-in user's institution locale (null when signed out): without a choice of theirs, the UI's. */
export const institutionLocaleOf = (snapshot: SessionSnapshot): Locale | null =>
  selectSessionStatus(snapshot) === 'loggedIn' ? (snapshot.context.user?.institution.locale ?? null) : null;

/**
 * A page actor to open: its logic and input, under an id unique among the root's children. Events carry
 * it by reference; `toJSON` keeps inspectors from serialising the whole machine definition.
 */
export interface PageSpec {
  id: string;
  logic: AnyActorLogic;
  input: unknown;
  toJSON(): { id: string; logic: string };
}

export function pageSpec<TLogic extends AnyActorLogic>(id: string, logic: TLogic, input: InputFrom<TLogic>): PageSpec {
  return { id, logic, input, toJSON: () => ({ id, logic: (logic as { id?: string }).id ?? 'actor' }) };
}

const relayIdOf = (pageId: string) => `${pageId}:effects`;

export type AppEvent =
  | TokenSetEvent
  | { type: 'token.clear' }
  | { type: 'session.reset'; reason: ResetReason }
  | { type: 'session.remember'; path: string | null }
  /** From the HTTP 401 hook. */
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
  /** A toast's button ("Deshacer"): for `undo`. */
  | ToastCommand
  /** `undo` put messages back: the open pages hear it. */
  | MessagesRestoredEvent;

const CHILD_IDS = ['session', 'token', 'sidebar', 'loadingBar', 'locale', 'routeGuard', 'folderCounts', 'undo'] as const;

type ChildSnapshots = Record<string, { getSnapshot(): { can?(event: PageLeaveEvent): boolean } } | undefined>;

/** The open page that would hold a navigation now (its machine takes `page.leave`), or null. */
function pageHolding(pages: readonly string[], children: ChildSnapshots, request: LeaveRequest): string | null {
  const event: PageLeaveEvent = { type: 'page.leave', ...request };
  return pages.find((id) => children[id]?.getSnapshot().can?.(event) === true) ?? null;
}

/** Where an effect goes: UI effects to the edge (wrapped in `app.relay`), the rest to this root as is. */
export function appEventOf(effect: Effect): AppEvent {
  return effect.type === 'counts.changed' ? effect : { type: 'app.relay', event: effect };
}

/**
 * Listens to the children and reports to the root. Started before them (first in `invoke`), so no
 * emitted event is missed; the session status is read from snapshots, which cannot be missed either.
 */
export const bridge = fromCallback<EventObject, void, AppEvent>(({ system, sendBack }) => {
  const subscriptions: Subscription[] = [];
  for (const id of CHILD_IDS) {
    const child = system.get(id) as AnyActorRef | undefined;
    if (!child) continue;
    subscriptions.push(
      child.on('*', (emitted: EventObject) => sendBack(isEffect(emitted) ? appEventOf(emitted) : (emitted as AppEvent))),
    );
  }
  const session = system.get('session') as SessionActor | undefined;
  if (session) {
    let lastKey = summaryKey(sessionSummaryOf(session.getSnapshot()));
    let lastLocale = institutionLocaleOf(session.getSnapshot());
    subscriptions.push(
      session.subscribe((snapshot) => {
        const locale = institutionLocaleOf(snapshot);
        if (locale !== lastLocale) {
          lastLocale = locale;
          sendBack({ type: 'locale.institution', locale });
        }
        const summary = sessionSummaryOf(snapshot);
        const key = summaryKey(summary);
        if (key === lastKey) return;
        lastKey = key;
        sendBack({ type: 'session.updated', ...summary });
      }),
    );
  }
  return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
});

export interface AppInput {
  /** Clock for the token actor (tests); Date.now otherwise. */
  now?: () => number;
  /** The access rules of the route table (views/routes.tsx), for the route guard. */
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

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
    emitted: {} as UiEvent,
  },
  actors: {
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
    /** Every open page hears it; those that do not care ignore it. */
    toPages: enqueueActions(({ context, enqueue, event }) => {
      for (const id of context.pages) enqueue.sendTo(id, event);
    }),
    /** To the page that holds it, or straight on to the edge. */
    requestNavigation: enqueueActions(({ context, enqueue, event, self }) => {
      assertEvent(event, 'navigation.request');
      const { type: _, ...request } = event;
      // A pure `transition()` (model planning) has an inert `self` with no children: nothing holds there.
      const children = ((self.getSnapshot() as { children?: ChildSnapshots } | undefined)?.children ?? {}) as ChildSnapshots;
      const holder = pageHolding(context.pages, children, request);
      if (holder) enqueue.sendTo(holder, { type: 'page.leave', ...request });
      else enqueue.emit({ type: 'navigate', ...request });
    }),
    /** The page, then its relay: the relay starts after the page is in this root's snapshot. */
    openPage: enqueueActions(({ context, enqueue, event, self }) => {
      assertEvent(event, 'page.open');
      const { id, logic, input } = event.page;
      enqueue.spawnChild(logic, { id, input } as never);
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
        { id: 'bridge', src: 'bridge', onError: crashed('bridge') },
        {
          id: 'session',
          systemId: 'session',
          src: 'session',
          onError: crashed('session'),
        },
        {
          id: 'token',
          systemId: 'token',
          src: 'token',
          input: ({ context }) => ({ now: context.now }),
          onError: crashed('token'),
        },
        {
          id: 'sidebar',
          systemId: 'sidebar',
          src: 'sidebar',
          onError: crashed('sidebar'),
        },
        {
          id: 'loadingBar',
          systemId: 'loadingBar',
          src: 'loadingBar',
          onError: crashed('loadingBar'),
        },
        {
          id: 'locale',
          systemId: 'locale',
          src: 'locale',
          input: {},
          onError: crashed('locale'),
        },
        {
          id: 'routeGuard',
          systemId: 'routeGuard',
          src: 'routeGuard',
          input: ({ context }) => ({ routes: context.routes }),
          onError: crashed('routeGuard'),
        },
        {
          id: 'folderCounts',
          systemId: 'folderCounts',
          src: 'folderCounts',
          input: {},
          onError: crashed('folderCounts'),
        },
        {
          id: 'undo',
          systemId: 'undo',
          src: 'undo',
          onError: crashed('undo'),
        },
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

/** Typed access to the app-lifetime actors (they exist as soon as the root is created). */
export function appActorsOf(app: AppActor) {
  const get = <T>(id: (typeof CHILD_IDS)[number]): T => {
    const actor = app.system.get(id);
    if (!actor) throw new Error(`app: no actor with systemId ${id}`);
    return actor as T;
  };
  return {
    session: get<SessionActor>('session'),
    token: get<TokenActor>('token'),
    sidebar: get<SidebarActor>('sidebar'),
    loadingBar: get<LoadingBarActor>('loadingBar'),
    locale: get<LocaleActor>('locale'),
    routeGuard: get<RouteGuardActor>('routeGuard'),
    folderCounts: get<FolderCountsActor>('folderCounts'),
    undo: get<UndoActor>('undo'),
  };
}

/**
 * Registers the HTTP hooks (services cannot import machines): the token gate, the 401 handler and the
 * loading-bar activity. Returns a function that unregisters all three.
 */
export function connectServices(app: AppActor): () => void {
  const { token, loadingBar } = appActorsOf(app);
  const unregister = [
    setRequestGate(() => {
      const allowed = selectCanRequest(token.getSnapshot());
      // Let the token actor tell the user and reset the session (once; it ignores repeats).
      if (!allowed) token.send({ type: 'token.check' });
      return allowed;
    }),
    setUnauthorizedHandler(() => app.send({ type: 'session.unauthorized' })),
    setActivityListener({
      start: () => loadingBar.send({ type: 'loading.start' }),
      finish: () => loadingBar.send({ type: 'loading.finish' }),
      fail: () => loadingBar.send({ type: 'loading.fail' }),
    }),
  ];
  return () => unregister.forEach((off) => off());
}

export const selectIsAppFailed = (snapshot: AppSnapshot): boolean => snapshot.matches('failed');

/**
 * Whether an open page would hold a navigation now (compose with unsaved changes, or asking): the edge
 * undoes a browser Back it cannot stop before asking, and asks the browser to confirm closing the tab.
 */
export const selectHoldsNavigation = (snapshot: AppSnapshot): boolean =>
  pageHolding(snapshot.context.pages, snapshot.children as ChildSnapshots, { to: '' }) !== null;

/**
 * Opens a page actor as a child of `app` and returns it (started). Call from the view's layout effect
 * (`usePageActor`), never during render: opening spawns.
 */
export function openPage<TLogic extends AnyActorLogic>(app: AppActor, id: string, logic: TLogic, input: InputFrom<TLogic>): ActorRefFrom<TLogic> {
  app.send({ type: 'page.open', page: pageSpec(id, logic, input) });
  const actor = app.getSnapshot().children[id] as ActorRefFrom<TLogic> | undefined;
  if (!actor) throw new Error(`app: page ${id} did not open`);
  return actor;
}

/** Stops a page actor opened with `openPage` (and its relay). */
export function closePage(app: AppActor, id: string): void {
  app.send({ type: 'page.close', id });
}
