// What every screen of the table is made of, for the first screens (routes.tsx) and the others
// (other-screens.tsx) alike: a lazy chunk loaded with its texts, the route's `:id`, and the 404 page.
import { lazy, type ComponentType, type ReactNode } from 'react';
import { loadTexts, type Namespace } from '../i18n';

export type RouteParams = Record<string, string | undefined>;

/**
 * A screen's chunk and its texts, loaded together; the route shows the shell's splash meanwhile. `preload`
 * starts that load ahead of the visit (once: the visit then uses the same download).
 */
export function screen<P extends object>(load: () => Promise<ComponentType<P>>, texts: readonly Namespace[] = []) {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => {
    loading ??= Promise.all([load(), loadTexts(texts)]).then(([component]) => ({ default: component }));
    return loading;
  };
  // A preload that failed (offline a moment) is forgotten, so the visit tries again.
  const preload = () => void start().catch(() => (loading = null));
  return Object.assign(lazy(start), { preload });
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
