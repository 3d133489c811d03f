// The root's page registry and the navigations its pages may hold (app/app.ts's header tells the flow): the
// actions and the guard app/app.ts names in `setup`, and the calls the views make (`openPage`, `closePage`,
// `selectHoldsNavigation`, re-exported by app/app.ts).
import { assertEvent, enqueueActions, type ActorRefFrom, type AnyActorLogic, type InputFrom } from 'xstate';
import type { AppActor, AppContext, AppEvent, AppSnapshot } from './app';
import { appEventOf } from './bridge';
import type { LeaveRequest, PageLeaveEvent, relayEffects, UiEvent } from './effects';

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

type ChildSnapshots = Record<string, { getSnapshot(): { can?(event: PageLeaveEvent): boolean } } | undefined>;

/** The open page that would hold a navigation now (its machine takes `page.leave`), or null. */
function pageHolding(pages: readonly string[], children: ChildSnapshots, request: LeaveRequest): string | null {
  const event: PageLeaveEvent = { type: 'page.leave', ...request };
  return pages.find((id) => children[id]?.getSnapshot().can?.(event) === true) ?? null;
}

type Ctx = AppContext;
type Ev = AppEvent;
/** The one actor the root spawns by name: each page's relay. */
type Relay = { src: 'relayEffects'; logic: typeof relayEffects; id: string | undefined };

// `enqueueActions` typed for the root (inside `setup` it types it itself).
const queue = (collect: Parameters<typeof enqueueActions<Ctx, Ev, undefined, Ev, Relay, never, never, never, UiEvent>>[0]) =>
  enqueueActions<Ctx, Ev, undefined, Ev, Relay, never, never, never, UiEvent>(collect);

export const pageGuards = {
  isNewPage: ({ context, event }: { context: Ctx; event: Ev }) => {
    assertEvent(event, 'page.open');
    return !context.pages.includes(event.page.id);
  },
};

export const pageActions = {
  /** Every open page hears it; those that do not care ignore it. */
  toPages: queue(({ context, enqueue, event }) => {
    for (const id of context.pages) enqueue.sendTo(id, event);
  }),
  /** To the page that holds it, or straight on to the edge. */
  requestNavigation: queue(({ context, enqueue, event, self }) => {
    assertEvent(event, 'navigation.request');
    const { type: _, ...request } = event;
    // A pure `transition()` (model planning) has an inert `self` with no children: nothing holds there.
    const children = ((self.getSnapshot() as { children?: ChildSnapshots } | undefined)?.children ?? {}) as ChildSnapshots;
    const holder = pageHolding(context.pages, children, request);
    if (holder) {
      // The page will ask (compose's «¿Descartar…?»): on a phone the menu's modal drawer would cover it.
      enqueue.sendTo('sidebar', { type: 'sidebar.close' });
      enqueue.sendTo(holder, { type: 'page.leave', ...request });
    } else enqueue.emit({ type: 'navigate', ...request });
  }),
  /** The page, then its relay: the relay starts after the page is in this root's snapshot. */
  openPage: queue(({ context, enqueue, event, self }) => {
    assertEvent(event, 'page.open');
    const { id, logic, input } = event.page;
    enqueue.spawnChild(logic, { id, input } as never);
    enqueue.spawnChild('relayEffects', { id: relayIdOf(id), input: { parent: self, child: id } });
    enqueue.assign({ pages: [...context.pages, id] });
  }),
  closePage: queue(({ context, enqueue, event }) => {
    assertEvent(event, 'page.close');
    if (!context.pages.includes(event.id)) return;
    enqueue.stopChild(relayIdOf(event.id));
    enqueue.stopChild(event.id);
    enqueue.assign({ pages: context.pages.filter((id) => id !== event.id) });
  }),
  /** Nothing keeps running behind the fatal screen. */
  closePages: queue(({ context, enqueue }) => {
    for (const id of context.pages) {
      enqueue.stopChild(relayIdOf(id));
      enqueue.stopChild(id);
    }
    enqueue.assign({ pages: [] });
  }),
  /** A page's effect takes the same way as an app-lifetime child's. */
  routeEffect: queue(({ enqueue, event }) => {
    assertEvent(event, 'effect.relay');
    enqueue.raise(appEventOf(event.effect));
  }),
};

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
