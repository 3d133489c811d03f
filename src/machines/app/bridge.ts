// How the app-lifetime children talk to the root (app/app.ts's header tells the flow): they only `emit`, and
// the `bridge` callback actor listens to every one of them (and to session snapshots) and sends what it
// hears back to the root, which forwards it with `sendTo`. Effects go the way `appEventOf` says.
import { fromCallback, type EventObject, type Subscription } from 'xstate';
import type { Locale } from '../../../shared/contract';
import type { AppEvent, LocaleActor, RouteGuardActor, SessionActor, TokenActor, UndoActor } from './app';
import { isEffect, type Effect } from './effects';
import type { SessionSummary } from './route-rules';
import type { SessionSnapshot } from '../session/session';
import { selectSessionStatus } from '../session/selectors';

/** The systemIds of the app-lifetime actors, children of the root. */
export type ChildId = 'session' | 'token' | 'sidebar' | 'loadingBar' | 'locale' | 'routeGuard' | 'folderCounts' | 'undo';

/** What the route guard needs to know about the session; roles and device only while signed in. */
function sessionSummaryOf(snapshot: SessionSnapshot): SessionSummary {
  const status = selectSessionStatus(snapshot);
  const user = status === 'loggedIn' ? snapshot.context.user : null;
  return { status, roles: user ? user.roles.map((role) => role.codigo) : [], device: user?.device ?? null };
}

const summaryKey = (summary: SessionSummary) => `${summary.status}|${summary.roles.join(',')}|${summary.device ?? ''}`;

/** The signed-in user's institution locale (null when signed out): without a choice of theirs, the UI's. */
const institutionLocaleOf = (snapshot: SessionSnapshot): Locale | null =>
  selectSessionStatus(snapshot) === 'loggedIn' ? (snapshot.context.user?.institution.locale ?? null) : null;

/** Where an effect goes: UI effects to the edge (wrapped in `app.relay`), the rest to this root as is. */
export function appEventOf(effect: Effect): AppEvent {
  return effect.type === 'counts.changed' ? effect : { type: 'app.relay', event: effect };
}

/**
 * Listens to the children and reports to the root. Started before them (first in `invoke`), so no
 * emitted event is missed; the session status is read from snapshots, which cannot be missed either.
 */
export const bridge = fromCallback<EventObject, void, AppEvent>(({ system, sendBack }) => {
  // Every child's emitted events are effects or events of the root (its `emitted` type says which, checked here).
  const forward = (emitted: Effect | AppEvent) => sendBack(isEffect(emitted) ? appEventOf(emitted) : emitted);
  const session: SessionActor | undefined = system.get('session');
  const token: TokenActor | undefined = system.get('token');
  const locale: LocaleActor | undefined = system.get('locale');
  const routeGuard: RouteGuardActor | undefined = system.get('routeGuard');
  const undo: UndoActor | undefined = system.get('undo');
  // The sidebar, the loading bar and the folder counters emit nothing.
  const subscriptions: Subscription[] = [
    session?.on('*', forward),
    token?.on('*', forward),
    locale?.on('*', forward),
    routeGuard?.on('*', forward),
    undo?.on('*', forward),
  ].flatMap((subscription) => (subscription ? [subscription] : []));
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
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe();
  };
});
