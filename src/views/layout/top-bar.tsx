import { useSelector } from '@xstate/react';
import { selectInstitutionName, selectIsLoggingOut, selectUserName } from '../../machines/session';
import { sessionActor, sidebarActor } from '../actors';
import { useT } from '../lib/i18n';
import { Button } from '../ui/button';
import { LocaleSelect } from './locale-select';

export function TopBar() {
  const t = useT();
  const name = useSelector(sessionActor, selectUserName);
  const institution = useSelector(sessionActor, selectInstitutionName);
  const loggingOut = useSelector(sessionActor, selectIsLoggingOut);
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b bg-card/95 px-4 backdrop-blur">
      <Button
        variant="ghost"
        size="sm"
        className="lg:hidden"
        aria-label={t('nav.open')}
        onClick={() => sidebarActor.send({ type: 'sidebar.open' })}
      >
        <svg aria-hidden viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </Button>
      <span className="text-lg font-bold text-primary">{t('app.name')}</span>
      {institution && <span className="hidden truncate text-sm text-muted-foreground sm:inline">{institution}</span>}
      <div className="ml-auto flex items-center gap-3">
        <LocaleSelect className="max-w-32 sm:max-w-none" />
        {name && <span className="hidden text-sm font-medium md:inline">{name}</span>}
        <Button variant="outline" size="sm" disabled={loggingOut} onClick={() => sessionActor.send({ type: 'session.logout' })}>
          {t('session.logout')}
        </Button>
      </div>
    </header>
  );
}
