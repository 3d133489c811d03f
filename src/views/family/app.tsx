// The families' app: signed out, the sign-in forms; signed in, a header (who, which school, «Cerrar
// sesión») over the inbox and one message, routed under /familia.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { Link, Route, Router, Switch, useParams } from 'wouter';
import type { BaseLocationHook } from 'wouter';
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
import { MessagePage } from './message-page';
import { NoticesPage } from './notices-page';
import { NotMyPhone } from './not-my-phone';
import { CodeForm, PhoneForm } from './sign-in-page';

/** Where the server serves this app (server/http/static.ts). */
const FAMILY_BASE = '/familia';

export function FamilyApp({ session, hook }: { session: FamilySessionActor; hook?: BaseLocationHook }) {
  return (
    <SessionContext.Provider value={session}>
      <Router base={hook ? '' : FAMILY_BASE} hook={hook}>
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
      </header>
      <main className="flex-1 px-4 py-4">
        {screen === 'restoring' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
        {screen === 'phone' ? <PhoneForm /> : null}
        {screen === 'code' ? <CodeForm /> : null}
        {screen === 'signedIn' ? <SignedIn /> : null}
      </main>
    </div>
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
    <Switch>
      <Route path="/">
        <InboxPage token={token} />
      </Route>
      <Route path="/avisos">
        <NoticesPage token={token} />
      </Route>
      <Route path="/mensaje/:id">
        <MessageRoute token={token} />
      </Route>
      <Route>
        <p>{t('family.app.notFound')}</p>
      </Route>
    </Switch>
  );
}

function MessageRoute({ token }: { token: string }) {
  const { id } = useParams<{ id: string }>();
  const t = useFamilyT();
  const messageId = /^[1-9]\d{0,15}$/.test(id ?? '') ? Number(id) : null;
  // A new id is a new screen: its own actor.
  return messageId === null ? <p>{t('family.app.notFound')}</p> : <MessagePage key={messageId} token={token} id={messageId} />;
}
