// Where a lazy screen that could not be loaded (lazy-screen.ts: offline with nothing kept, or a second
// failure) ends up, instead of blanking the whole app: in the screen's place, «Sin conexión…» or «No
// pudimos abrir esta pantalla», and «Reintentar», which renders the screen again (its chunk asked for
// again); coming back online retries by itself. The header and the other screens stay usable.
import { Component, type ReactNode, useEffect } from 'react';
import { Button } from '../ui/button';
import { useFamilyT } from './family-context';

interface BoundaryProps {
  children: ReactNode;
  /** For a part of a screen (the notices' offer): on failure, nothing. */
  quiet?: boolean;
}

export class ScreenBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  private readonly retry = () => this.setState({ failed: false });

  override render() {
    if (!this.state.failed) return this.props.children;
    return this.props.quiet ? null : <ScreenFailed onRetry={this.retry} />;
  }
}

function ScreenFailed({ onRetry }: { onRetry: () => void }) {
  const t = useFamilyT();
  const offline = !navigator.onLine;
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
      <p>{offline ? t('family.screen.offline') : t('family.screen.error')}</p>
      <Button variant="outline" className="mt-3" onClick={onRetry}>
        {t('family.screen.retry')}
      </Button>
    </div>
  );
}
