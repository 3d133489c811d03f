import { useSelector } from '@xstate/react';
import { selectIsLoadingBarFailed, selectLoadingBarPhase } from '../../machines/loading-bar';
import { loadingBarActor } from '../actors';
import { cn } from '../lib/utils';

/** SPEC §4 progress bar; the machine owns the timing, this only maps its phase to a width. */
export function LoadingBar() {
  const phase = useSelector(loadingBarActor, selectLoadingBarPhase);
  const failed = useSelector(loadingBarActor, selectIsLoadingBarFailed);
  if (phase === 'idle' || phase === 'waiting') return null;
  return (
    <div
      aria-hidden
      data-slot="loading-bar"
      data-phase={phase}
      data-failed={failed || undefined}
      className={cn(
        'fixed top-0 left-0 z-[60] h-0.5 bg-primary',
        phase === 'growing' && 'animate-bar-grow',
        phase === 'stalled' && 'w-[90%]',
        phase === 'finishing' && 'w-full transition-[width] duration-200',
        failed && 'bg-destructive',
      )}
    />
  );
}
