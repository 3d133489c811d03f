// The app-lifetime actors, created once at module level (StrictMode mounts components twice; actors
// must not be). Started by main.tsx after the edge has subscribed to their effects.
import type { InspectionEvent, Observer } from 'xstate';
import { appActorsOf, createAppActor } from '../machines/app/app';
import { recordInspection } from './dev/inspection-store';
import { ROUTE_RULES } from './route-table';

// `?inspect` in a dev build attaches the Stately inspector, which needs internet: opt-in only.
const stately =
  import.meta.env.DEV && new URLSearchParams(location.search).has('inspect')
    ? (await import('@statelyai/inspect')).createBrowserInspector().inspect
    : null;

function inspect(event: InspectionEvent) {
  recordInspection(event);
  if (stately && 'next' in stately) (stately as Observer<InspectionEvent>).next?.(event);
}

export const appActor = createAppActor({ input: { routes: ROUTE_RULES }, ...(import.meta.env.DEV ? { inspect } : {}) });

export const {
  session: sessionActor,
  sidebar: sidebarActor,
  loadingBar: loadingBarActor,
  locale: localeActor,
  routeGuard: routeGuardActor,
  folderCounts: folderCountsActor,
} = appActorsOf(appActor);
