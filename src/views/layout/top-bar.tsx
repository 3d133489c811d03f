import { selectInstitutionName, selectIsLoggingOut, selectUserName } from '../../machines/session/selectors';
import { sessionActor, sidebarActor } from '../actors';
import { useT } from '../lib/i18n';
import { useSelectors } from '../lib/selectors';
import { Button } from '../ui/button';
import { ChangePasswordEntry } from '../pages/passwords/change-password-entry';
import { LocaleSelect } from './locale-select';

export function TopBar() {
  const t = useT();
  const { name, institution, loggingOut } = useSelectors(sessionActor, {
    name: selectUserName,
    institution: selectInstitutionName,
    loggingOut: selectIsLoggingOut,
  });
  return (
    // On a 390 px phone everything fits on one line (WCAG 1.4.10): tighter gaps, the logout an icon with its name.
    <header
      data-slot="top-bar"
      className="print:hidden sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-card/95 px-3 backdrop-blur sm:gap-3 sm:px-4"
    >
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
      <span className="shrink-0 text-lg font-bold text-primary">{t('app.name')}</span>
      {institution && <span className="hidden min-w-0 truncate text-sm text-muted-foreground sm:inline">{institution}</span>}
      <div data-slot="header-controls" className="ml-auto flex min-w-0 items-center gap-2 sm:gap-3">
        <LocaleSelect className="w-full min-w-0 sm:w-auto" />
        {name && <span className="hidden shrink-0 text-sm font-medium md:inline">{name}</span>}
        <ChangePasswordEntry />
        <Button
          variant="outline"
          size="sm"
          className="px-2 sm:px-3"
          title={t('session.logout')}
          disabled={loggingOut}
          onClick={() => sessionActor.send({ type: 'session.logout' })}
        >
          <svg
            aria-hidden
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
            className="sm:hidden"
          >
            <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
          </svg>
          <span className="sr-only sm:not-sr-only">{t('session.logout')}</span>
        </Button>
      </div>
    </header>
  );
}
