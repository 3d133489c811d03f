// The root's page registry and the navigations its pages may hold (app/app.ts's header tells the flow): what
// a page is, which open page holds a navigation, and the calls the views make (`openPage`, `closePage`,
// `selectHoldsNavigation`). The root's actions that open, close and ask them are app/app.ts's.
import type { ActorRefFrom, AnyActorLogic, AnyActorRef, InputFrom } from 'xstate';
import type { AppActor, AppSnapshot } from './app';
import type { LeaveRequest, PageLeaveEvent } from './effects';

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
  const name = 'id' in logic && typeof logic.id === 'string' ? logic.id : 'actor';
  return { id, logic, input, toJSON: () => ({ id, logic: name }) };
}

/** A page's relay (its effects to the root). */
export const relayIdOf = (pageId: string) => `${pageId}:effects`;

/** The open page that would hold a navigation now (its machine takes `page.leave`), or null. */
export function pageHolding(
  pages: readonly string[],
  children: Readonly<Record<string, AnyActorRef | undefined>>,
  request: LeaveRequest,
): string | null {
  const event: PageLeaveEvent = { type: 'page.leave', ...request };
  // Pages are machines or not (a callback page has no `can`): only a machine that takes the event holds it.
  return pages.find((id) => children[id]?.getSnapshot().can?.(event) === true) ?? null;
}

/**
 * Whether an open page would hold a navigation now (compose with unsaved changes, or asking): the edge
 * undoes a browser Back it cannot stop before asking, and asks the browser to confirm closing the tab.
 */
export const selectHoldsNavigation = (snapshot: AppSnapshot): boolean =>
  pageHolding(snapshot.context.pages, snapshot.children, { to: '' }) !== null;

/**
 * Opens a page actor as a child of `app` and returns it (started). Call from the view's layout effect
 * (`usePageActor`), never during render: opening spawns.
 */
export function openPage<TLogic extends AnyActorLogic>(
  app: AppActor,
  id: string,
  logic: TLogic,
  input: InputFrom<TLogic>,
): ActorRefFrom<TLogic> {
  app.send({ type: 'page.open', page: pageSpec(id, logic, input) });
  // The child spawned from `logic` just now; the root's children are not typed by what a page opened.
  const actor = app.getSnapshot().children[id] as ActorRefFrom<TLogic> | undefined;
  if (!actor) throw new Error(`app: page ${id} did not open`);
  return actor;
}

/** Stops a page actor opened with `openPage` (and its relay). */
export function closePage(app: AppActor, id: string): void {
  app.send({ type: 'page.close', id });
}
