import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { Route, Switch, useLocation, useSearch } from 'wouter';
import { ROUTES, type RouteName } from '../config/routes';
import { selectIsRouteAllowed } from '../machines/route-guard';
import { selectIsLoggedIn } from '../machines/session';
import { routeGuardActor, sessionActor } from './actors';
import { useT } from './lib/i18n';
import type { Folder } from '../../shared/codes';

// Screens load on demand so the first download is only the shell and its machines (bench budget).
const AppLayout = lazy(() => import('./layout/app-layout').then((m) => ({ default: m.AppLayout })));
const ComingSoon = lazy(() => import('./pages/coming-soon').then((m) => ({ default: m.ComingSoon })));
const ErrorPage = lazy(() => import('./pages/error-page').then((m) => ({ default: m.ErrorPage })));
const FolderPage = lazy(() => import('./pages/folder-page').then((m) => ({ default: m.FolderPage })));
const MessagePage = lazy(() => import('./pages/message-page').then((m) => ({ default: m.MessagePage })));
const ReceptionPage = lazy(() => import('./pages/reception-page').then((m) => ({ default: m.ReceptionPage })));
const ComposePage = lazy(() => import('./pages/compose-page').then((m) => ({ default: m.ComposePage })));
const LoginPage = lazy(() => import('./pages/login-page').then((m) => ({ default: m.LoginPage })));

/** Title key per screen; screens of later issues show an honest "próximamente" panel until built. */
const TITLES: Record<Exclude<RouteName, 'login' | 'index'>, string> = {
  new: 'pages.new',
  inbox: 'pages.inbox',
  'inbox-message': 'pages.message',
  sent: 'pages.sent',
  'sent-message': 'pages.message',
  'sent-reception': 'reception.title',
  scheduled: 'pages.scheduled',
  'scheduled-message': 'pages.message',
  draft: 'pages.draft',
  'draft-message': 'pages.message',
  trash: 'folders.trash',
  'trash-message': 'pages.message',
  templates: 'pages.templates',
  'recipient-lists': 'pages.recipientLists',
  'recipient-lists-trash': 'pages.recipientListsTrash',
  'recipient-list': 'pages.recipientList',
  dashboard: 'pages.dashboard',
  'dashboard-connectivity': 'pages.dashboardConnectivity',
  'dashboard-users': 'pages.dashboardUsers',
  'connectivity-course': 'pages.connectivityCourse',
  'ranking-courses': 'pages.rankingCourses',
  'ranking-users': 'pages.rankingUsers',
  mural: 'pages.mural',
  'mural-categories': 'pages.muralCategories',
  'mural-news': 'pages.muralNews',
  'mural-trash': 'pages.muralTrash',
  'mural-news-compose': 'pages.muralCompose',
  settings: 'pages.settings',
  'settings-message-quota': 'pages.settingsQuota',
  'settings-message-signature': 'pages.settingsSignature',
};

/** `/<folder>/message/:id`: the reading view; without an id, the folder itself. */
const MESSAGE_ROUTES: Partial<Record<RouteName, Folder>> = {
  'inbox-message': 'inbox',
  'sent-message': 'sent',
  'scheduled-message': 'scheduled',
  'draft-message': 'draft',
  'trash-message': 'trash',
};

function screenFor(name: RouteName): ReactNode {
  if (name === 'login') return <LoginPage />;
  if (name === 'index') return null; // the guard redirects to /inbox
  if (name === 'new') return <ComposePage />;
  if (name === 'inbox' || name === 'sent' || name === 'scheduled' || name === 'draft' || name === 'trash') {
    return <FolderPage folder={name} />;
  }
  return <ComingSoon titleKey={TITLES[name]} />;
}


/** Tells the route guard about every location change; the guard decides, the view only renders. */
function useRouteSync() {
  const [path] = useLocation();
  const search = useSearch();
  useEffect(() => {
    routeGuardActor.send({ type: 'route.change', path, search: search ? `?${search}` : '' });
  }, [path, search]);
}

function Splash() {
  const t = useT();
  return (
    <div className="flex min-h-dvh items-center justify-center">
      {/* Plain markup: the splash is in the first download, the ui/ primitives are not. */}
      <span role="status" className="inline-flex items-center gap-2 text-sm text-muted-foreground">
        <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />
        {t('session.checking')}
      </span>
    </div>
  );
}

export function AppRouter() {
  useRouteSync();
  const allowed = useSelector(routeGuardActor, selectIsRouteAllowed);
  const loggedIn = useSelector(sessionActor, selectIsLoggedIn);
  if (!allowed) return <Splash />;
  return (
    <Suspense fallback={<Splash />}>
      <Screens loggedIn={loggedIn} />
    </Suspense>
  );
}

function Screens({ loggedIn }: { loggedIn: boolean }) {

  const routes = (location?: string) => (
    <Switch location={location}>
      {ROUTES.filter((r) => r.name !== 'login').map((r) => {
        const folder = MESSAGE_ROUTES[r.name];
        if (r.name === 'sent-reception') {
          return (
            <Route key={r.name} path={r.path}>
              {(params: { id?: string }) =>
                params.id && /^\d+$/.test(params.id) ? <ReceptionPage key={params.id} id={Number(params.id)} /> : <ErrorPage code={404} />
              }
            </Route>
          );
        }
        if (folder) {
          return (
            <Route key={r.name} path={r.path}>
              {(params: { id?: string }) =>
                params.id && /^\d+$/.test(params.id) ? (
                  <MessagePage key={params.id} folder={folder} id={Number(params.id)} />
                ) : (
                  <FolderPage folder={folder} />
                )
              }
            </Route>
          );
        }
        return (
          <Route key={r.name} path={r.path}>
            {screenFor(r.name)}
          </Route>
        );
      })}
      <Route>
        <ErrorPage code={404} />
      </Route>
    </Switch>
  );

  return (
    <Switch>
      <Route path="/login">
        <LoginPage />
      </Route>
      <Route>{loggedIn ? <AppLayout render={routes} /> : <main id="main" className="p-4">{routes()}</main>}</Route>
    </Switch>
  );
}
