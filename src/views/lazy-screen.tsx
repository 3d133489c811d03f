// What every screen of the table is made of, for the first screens (routes.tsx) and the others
// (other-screens.tsx) alike: a lazy chunk loaded with its texts, the route's `:id`, and the 404 page.
import { lazy, useState, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { loadTexts, type Namespace } from '../i18n';

export type RouteParams = Record<string, string | undefined>;

/**
 * A screen's chunk and its texts, loaded together; the route shows the shell's splash meanwhile. `preload`
 * starts that load ahead of the visit (once: the visit then uses the same download). A screen whose load
 * has already finished when it mounts is rendered at once: through `lazy` it would suspend once anyway,
 * show the splash, and React then holds the screen back until 300 ms after the splash appeared.
 */
export function screen<P extends object>(load: () => Promise<ComponentType<P>>, texts: readonly Namespace[] = []) {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  let loaded: ComponentType<P> | null = null;
  const state = new ScreenLoad();
  const start = () => {
    if (!loading) {
      state.started();
      loading = Promise.all([load(), loadTexts(texts)]).then(
        ([component]) => {
          loaded = component;
          state.settled();
          return { default: component };
        },
        (error: unknown) => {
          state.settled();
          throw error;
        },
      );
    }
    return loading;
  };
  // A preload that failed (offline a moment) is forgotten, so the visit tries again.
  const preload = () => void start().catch(() => (loading = null));
  const shown: ShownScreen<P> = { loaded: () => loaded, Lazy: lazy(start) };
  // Made once per screen, at module level, like `lazy` itself: the same component on every render.
  const view = (props: P) => <Shown screen={shown} props={props} />;
  return Object.assign(view, { preload, load: state });
}

/** Whether a screen's load is under way, for React (useSyncExternalStore). */
class ScreenLoad {
  #underWay = false;
  readonly #listeners = new Set<() => void>();
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
  readonly isUnderWay = (): boolean => this.#underWay;
  /** Not announced: a load starts from a preload or from rendering the screen itself. */
  started(): void {
    this.#underWay = true;
  }
  settled(): void {
    this.#underWay = false;
    for (const listener of this.#listeners) listener();
  }
}

/**
 * Whether `screen`'s load is under way (preloaded, not yet arrived). A route that shows its own splash
 * meanwhile then renders the screen at once, instead of a Suspense fallback that React keeps on screen for
 * at least 300 ms before revealing what it waited for.
 */
export function useIsScreenLoading(screen: { load: ScreenLoad }): boolean {
  return useSyncExternalStore(screen.load.subscribe, screen.load.isUnderWay, screen.load.isUnderWay);
}

interface ShownScreen<P extends object> {
  /** The screen's component once its load has finished. */
  loaded: () => ComponentType<P> | null;
  Lazy: ComponentType<P>;
}

function Shown<P extends object>({ screen, props }: { screen: ShownScreen<P>; props: P }) {
  // Chosen once per mounted screen: switching from `lazy` to the component would mount it again.
  const [Loaded] = useState(screen.loaded);
  return Loaded ? <Loaded {...props} /> : <screen.Lazy {...props} />;
}

const ErrorPage = screen(() => import('./pages/app/error-page').then((m) => m.ErrorPage));

/** A path id: digits only (anything else is the 404 page, like an id that is not the user's). */
export const idOf = (params: RouteParams): number | null => (params.id && /^\d{1,12}$/.test(params.id) ? Number(params.id) : null);

/** The 404 page: unknown paths, and known ones with a malformed id. */
export const NotFound = () => <ErrorPage code={404} />;

/** A screen of one record (`/…/:id`, a new visit per id): a malformed id is the 404 page; without one, `bare`. */
export function byId(Screen: ComponentType<{ id: number }>, bare?: () => ReactNode) {
  return (params: RouteParams) => {
    if (bare && !params.id) return bare();
    const id = idOf(params);
    return id === null ? <NotFound /> : <Screen key={id} id={id} />;
  };
}
