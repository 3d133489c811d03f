import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { Route, Router, Switch, useLocation, useSearch, type AroundNavHandler } from 'wouter';
import { selectIsRouteAllowed, selectIsNotFound, selectRouteName } from '../machines/app/route-guard';
import { selectIsLoggedIn } from '../machines/session/selectors';
import { appActor, routeGuardActor, sessionActor } from './actors';
import { loadTexts } from '../i18n';
import { useT } from './lib/i18n';
import { NotFound } from './lazy-screen';
import { preloadLanding, ROUTES, routeNamed, useIsLoginLoading } from './routes';
import { useSelectors } from './lib/selectors';
import { markFirstScreenShown } from './first-screen';

// The layout is its own chunk, loaded with its texts: the first download is only the shell and its machines
// (bench budget).
const loadLayout = () => Promise.all([import('./layout/app-layout'), loadTexts(['layout'])]).then(([m]) => ({ default: m.AppLayout }));
const AppLayout = lazy(loadLayout);

/** Runs `run` once the next frame has been painted (an effect of a render runs before its paint). */
function useAfterNextFrame(run: () => void) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(run, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [run]);
}

/**
 * Once the login form is shown, the layout and the landing screen load while the user types: on a phone's
 * network their chunks would otherwise start only after "Ingresar" is answered. A failed download is
 * loaded again on the visit. Asked for after the form's first frame: adding their ~20 preload links takes
 * a phone's CPU over 100 ms.
 */
function preloadAfterLogin() {
  loadLayout().catch(() => undefined);
  preloadLanding();
}

function PreloadAfterLogin() {
  useAfterNextFrame(preloadAfterLogin);
  return null;
}

/** Mounted with the first screen past the splash: after its first frame, the app shell's worker may install. */
function FirstScreenShown() {
  useAfterNextFrame(markFirstScreenShown);
  return null;
}

/** Tells the route guard about every location change; the guard decides, the view only renders. */
function useRouteSync() {
  const [path] = useLocation();
  const search = useSearch();
  useEffect(() => {
    routeGuardActor.send({ type: 'route.change', path, search: search ? `?${search}` : '' });
  }, [path, search]);
}

/** The tab names the screen the guard let through ("Enviados · Hermes"), in the current locale. */
function useDocumentTitle() {
  const t = useT();
  const { name, notFound } = useSelectors(routeGuardActor, { name: selectRouteName, notFound: selectIsNotFound });
  const route = routeNamed(name);
  const title = notFound ? t('error.notFoundTitle') : route ? t(route.title) : null;
  useEffect(() => {
    document.title = title ? `${title} · ${t('app.name')}` : t('app.name');
  }, [title, t]);
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

/**
 * Every link and in-app navigation asks the app first: an open page may hold it (compose with unsaved
 * changes asks before leaving). The app performs it through the edge once it may go.
 */
const askTheApp: AroundNavHandler = (_navigate, to, options) => {
  appActor.send({ type: 'navigation.request', to, ...(options?.replace ? { replace: true } : {}) });
};

export function AppRouter() {
  return (
    <Router aroundNav={askTheApp}>
      <Routing />
    </Router>
  );
}

function Routing() {
  useRouteSync();
  useDocumentTitle();
  const allowed = useSelector(routeGuardActor, selectIsRouteAllowed);
  const loggedIn = useSelector(sessionActor, selectIsLoggedIn);
  if (!allowed) return <Splash />;
  return (
    <Suspense fallback={<Splash />}>
      <Screens loggedIn={loggedIn} />
    </Suspense>
  );
}

/** Every route of the table but login (which has no layout), then the 404. */
function screens(location?: string): ReactNode {
  return (
    <Switch location={location}>
      {ROUTES.filter((route) => route.name !== 'login').map((route) => (
        <Route key={route.name} path={route.path}>
          {(params: Record<string, string | undefined>) => route.screen(params)}
        </Route>
      ))}
      <Route>
        <NotFound />
      </Route>
    </Switch>
  );
}

function Screens({ loggedIn }: { loggedIn: boolean }) {
  const login = routeNamed('login');
  // The splash, not Suspense's fallback, until the form's chunk has arrived: then it shows at once, where
  // React would keep a fallback at least 300 ms before revealing the form.
  const loginLoading = useIsLoginLoading();
  return (
    <Switch>
      <Route path="/login">
        {loginLoading ? (
          <Splash />
        ) : (
          <>
            {login?.screen({})}
            {!loggedIn && <PreloadAfterLogin />}
            <FirstScreenShown />
          </>
        )}
      </Route>
      <Route>
        {loggedIn ? (
          <AppLayout render={screens} />
        ) : (
          <main id="main" className="p-4">
            {screens()}
          </main>
        )}
        <FirstScreenShown />
      </Route>
    </Switch>
  );
}
