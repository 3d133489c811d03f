import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useT } from '../lib/i18n';
import { Spinner } from '../ui/spinner';
import { PageTransition } from './page-transition';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';

export function AppLayout({ render }: { render: (location: string) => ReactNode }) {
  const t = useT();
  const [location] = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-card focus:px-3 focus:py-2"
      >
        {t('app.skipToContent')}
      </a>
      <TopBar />
      <div className="flex flex-1">
        <Sidebar />
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 md:p-8 print:p-0">
          <PageTransition location={location} render={render} pending={<Spinner label={t('app.loading')} />} />
        </main>
      </div>
    </div>
  );
}
