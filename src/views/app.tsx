import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { selectIsAppFailed } from '../machines/app/app';
import { loadTexts, t } from '../i18n';
import { appActor } from './actors';
import { LoadingBar } from './layout/loading-bar';
import { useLoadedToaster } from './layout/toaster-loader';
import { AppRouter } from './router';

const ErrorPage = lazy(() => import('./pages/app/error-page').then((m) => ({ default: m.ErrorPage })));
const ActorPanel = import.meta.env.DEV
  ? lazy(() => Promise.all([import('./dev/actor-panel'), loadTexts(['layout'])]).then(([m]) => ({ default: m.ActorPanel })))
  : null;

/** Last resort when rendering itself fails (SPEC §8 texts), with a plain link home. */
class FatalBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="mx-auto max-w-xl p-8">
        <h1 className="text-xl font-bold">{t('error.fatal')}</h1>
        <pre className="mt-4 overflow-auto rounded-md bg-muted p-3 text-xs whitespace-pre-wrap">{this.state.error.message}</pre>
        <a className="mt-4 inline-block text-primary underline" href="/">
          {t('error.fatalHome')}
        </a>
      </main>
    );
  }
}

export function App() {
  const failed = useSelector(appActor, selectIsAppFailed);
  const Toaster = useLoadedToaster();
  return (
    <FatalBoundary>
      <LoadingBar />
      {failed ? (
        <Suspense fallback={null}>
          <ErrorPage code={500} message={t('error.tryAgain')} />
        </Suspense>
      ) : (
        <AppRouter />
      )}
      {Toaster && <Toaster />}
      {ActorPanel && (
        <Suspense fallback={null}>
          <ActorPanel />
        </Suspense>
      )}
    </FatalBoundary>
  );
}
