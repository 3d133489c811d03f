// The families' app: signed out, the sign-in forms; signed in, a header (who, which school, «Cerrar
// sesión») over the inbox and one message, and the school's wall (/mural), routed under /familia. The
// message and wall screens are their own chunks, loaded when opened (the first paint is the sign-in form or
// the inbox); the service worker keeps them all for offline use.
import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useSyncExternalStore } from 'react';
import { Link, Redirect, Route, Router, Switch, useParams, useRoute } from 'wouter';
import type { BaseLocationHook, BaseSearchHook } from 'wouter';
import {
  type FamilySessionActor,
  selectGuardianName,
  selectIsBusy,
  selectSchoolName,
  selectScreen,
  selectToken,
} from '../../machines/family/session';
import { Button, buttonVariants } from '../ui/button';
import { SessionContext, useFamilyLocale, useFamilyT, useSession } from './family-context';
import { InboxPage } from './inbox-page';
import { lazyScreen } from './lazy-screen';
import { NotMyPhone } from './not-my-phone';
import { ScreenBoundary } from './screen-boundary';
import { CodeForm, PhoneForm } from './sign-in-page';

const MessagePage = lazyScreen(() => import('./message-page').then((module) => module.MessagePage));
const PushOffer = lazyScreen(() => import('./push-card').then((module) => module.PushOffer));
const WallPage = lazyScreen(() => import('./wall-page').then((module) => module.WallPage));
const WallPostPage = lazyScreen(() => import('./wall-post-page').then((module) => module.WallPostPage));
const NoticesPage = lazyScreen(() => import('./notices-page').then((module) => module.NoticesPage));

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}
const isOnline = (): boolean => navigator.onLine;
const alwaysOnline = (): boolean => true;

/** Where the server serves this app (server/http/static.ts). */
const FAMILY_BASE = '/familia';

export function FamilyApp({
  session,
  hook,
  searchHook,
}: {
  session: FamilySessionActor;
  hook?: BaseLocationHook;
  searchHook?: BaseSearchHook;
}) {
  return (
    <SessionContext.Provider value={session}>
      <Router base={hook ? '' : FAMILY_BASE} hook={hook} searchHook={searchHook}>
        <Shell />
      </Router>
    </SessionContext.Provider>
  );
}

function Shell() {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  const session = useSession();
  const screen = useSelector(session, selectScreen);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-2xl flex-col">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b bg-card px-4 py-3">
        <p className="font-semibold text-primary">{t('family.app.name')}</p>
        {screen === 'signedIn' ? <Account /> : null}
        {screen === 'signedIn' ? <Sections /> : null}
      </header>
      <OfflineBanner />
      <main className="flex-1 px-4 py-4">
        {screen === 'restoring' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
        {screen === 'phone' ? <PhoneForm /> : null}
        {screen === 'code' ? <CodeForm /> : null}
        {screen === 'signedIn' ? <SignedIn /> : null}
      </main>
    </div>
  );
}

/** Without a connection the app says so once, above every screen: what was opened before can be reread. */
function OfflineBanner() {
  const t = useFamilyT();
  const online = useSyncExternalStore(subscribeOnline, isOnline, alwaysOnline);
  if (online) return null;
  return (
    <p role="status" className="border-b bg-muted px-4 py-2 text-sm font-medium">
      {t('family.offline.banner')}
    </p>
  );
}

function Account() {
  const t = useFamilyT();
  const session = useSession();
  const name = useSelector(session, selectGuardianName);
  const school = useSelector(session, selectSchoolName);
  const busy = useSelector(session, selectIsBusy);
  const token = useSelector(session, selectToken);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p className="text-sm text-muted-foreground">{t('family.app.signedInAs', { name, school })}</p>
      <Link href="/avisos" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
        {t('family.devices.nav.notices')}
      </Link>
      <Button variant="outline" size="sm" disabled={busy} onClick={() => session.send({ type: 'session.signOut' })}>
        {busy ? t('family.app.signingOut') : t('family.app.signOut')}
      </Button>
      {token === null ? null : <NotMyPhone token={token} />}
    </div>
  );
}

function SignedIn() {
  const t = useFamilyT();
  const token = useSelector(useSession(), selectToken);
  if (token === null) return null;
  return (
    <>
      <ScreenBoundary quiet>
        <Suspense fallback={null}>
          <PushOffer key={token} token={token} />
        </Suspense>
      </ScreenBoundary>
      <Switch>
        <Route path="/">
          <InboxPage token={token} />
        </Route>
        <Route path="/avisos">
          <ScreenBoundary>
            <Suspense fallback={<Loading />}>
              <NoticesPage token={token} />
            </Suspense>
          </ScreenBoundary>
        </Route>
        <Route path="/mensajes/:id">
          <MessageRoute token={token} />
        </Route>
        {/* The first slice's address of a message, still in links already shared. */}
        <Route path="/mensaje/:id">{(params) => <Redirect to={`/mensajes/${params.id}`} replace />}</Route>
        <Route path="/mural">
          <ScreenBoundary>
            <Suspense fallback={<Loading />}>
              <WallPage token={token} />
            </Suspense>
          </ScreenBoundary>
        </Route>
        <Route path="/mural/:id">
          <WallPostRoute token={token} />
        </Route>
        <Route>
          <p>{t('family.app.notFound')}</p>
        </Route>
      </Switch>
    </>
  );
}

function MessageRoute({ token }: { token: string }) {
  const { id } = useParams<{ id: string }>();
  const t = useFamilyT();
  const messageId = /^[1-9]\d{0,15}$/.test(id ?? '') ? Number(id) : null;
  // A new id is a new screen: its own actor.
  if (messageId === null) return <p>{t('family.app.notFound')}</p>;
  return (
    <ScreenBoundary key={messageId}>
      <Suspense fallback={<Loading />}>
        <MessagePage key={messageId} token={token} id={messageId} />
      </Suspense>
    </ScreenBoundary>
  );
}

function WallPostRoute({ token }: { token: string }) {
  const { id } = useParams<{ id: string }>();
  const t = useFamilyT();
  const postId = /^[1-9]\d{0,15}$/.test(id ?? '') ? Number(id) : null;
  if (postId === null) return <p>{t('family.app.notFound')}</p>;
  return (
    <ScreenBoundary key={postId}>
      <Suspense fallback={<Loading />}>
        <WallPostPage key={postId} token={token} id={postId} />
      </Suspense>
    </ScreenBoundary>
  );
}

/** Messages and the wall: where the guardian is is marked for screen readers too. */
function Sections() {
  const t = useFamilyT();
  const [onWall] = useRoute('/mural/*?');
  const link = 'rounded-md px-3 py-1.5 text-sm font-medium underline-offset-4 hover:underline aria-[current=page]:bg-secondary';
  return (
    <nav aria-label={t('family.wall.navLabel')} className="w-full">
      <ul className="flex gap-1">
        <li>
          <Link href="/" className={link} aria-current={onWall ? undefined : 'page'}>
            {t('family.inbox.title')}
          </Link>
        </li>
        <li>
          <Link href="/mural" className={link} aria-current={onWall ? 'page' : undefined}>
            {t('family.wall.nav')}
          </Link>
        </li>
      </ul>
    </nav>
  );
}

/** While a screen's chunk arrives. */
function Loading() {
  const t = useFamilyT();
  return <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p>;
}
