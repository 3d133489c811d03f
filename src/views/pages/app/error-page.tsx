import type { ActorRefFrom } from 'xstate';
import { navigate } from 'wouter/use-browser-location';
import { countdownMachine, selectIsCounting, selectRemaining } from '../../../machines/app/countdown';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { useSelectors } from '../../lib/selectors';

const HOME = '/inbox/';
const REDIRECT_SECONDS = 10;

/** SPEC §2 error page: exact texts; 404 offers Regresar and redirects to /inbox/ after a visible countdown. */
export function ErrorPage({ code, message }: { code: number; message?: string }) {
  const t = useT();
  const notFound = code === 404;
  return (
    <section aria-labelledby="error-title" className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center">
      <p className="text-sm font-semibold tracking-wide text-primary">{t('error.title', { code: String(code) })}</p>
      <h1 id="error-title" className="text-3xl font-bold">
        {notFound ? t('error.notFoundTitle') : t('error.serverTitle')}
      </h1>
      <p className="text-muted-foreground">{notFound ? t('error.notFoundBody') : (message ?? t('error.request'))}</p>
      <div className="mt-2 flex gap-3">
        {notFound && (
          <Button variant="outline" onClick={() => history.back()}>
            {t('error.back')}
          </Button>
        )}
        <Button onClick={() => navigate(HOME)}>{t('error.home')}</Button>
      </div>
      {notFound && <RedirectNotice />}
    </section>
  );
}

function RedirectNotice() {
  const actor = usePageActor(countdownMachine, { input: { seconds: REDIRECT_SECONDS, to: HOME } });
  return actor ? <Countdown actor={actor} /> : null;
}

function Countdown({ actor }: { actor: ActorRefFrom<typeof countdownMachine> }) {
  const t = useT();
  const { remaining, counting } = useSelectors(actor, { remaining: selectRemaining, counting: selectIsCounting });
  if (!counting) return null;
  return (
    <p className="text-sm text-muted-foreground" aria-live="polite">
      {t('error.redirecting', { seconds: remaining })}{' '}
      <Button variant="link" size="sm" className="h-auto p-0" onClick={() => actor.send({ type: 'countdown.cancel' })}>
        {t('error.stay')}
      </Button>
    </p>
  );
}
