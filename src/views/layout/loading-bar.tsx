import { selectIsLoadingBarFailed, selectLoadingBarPhase } from '../../machines/app/loading-bar';
import { loadingBarActor } from '../actors';
import { useSelectors } from '../lib/selectors';

const WIDTH = {
  growing: 'animate-bar-grow',
  stalled: 'w-[90%]',
  finishing: 'w-full transition-[width] duration-200',
} as const;

/** SPEC §4 progress bar; the machine owns the timing, this only maps its phase to a width. */
export function LoadingBar() {
  const { phase, failed } = useSelectors(loadingBarActor, { phase: selectLoadingBarPhase, failed: selectIsLoadingBarFailed });
  if (phase === 'idle' || phase === 'waiting') return null;
  return (
    <div
      aria-hidden
      data-slot="loading-bar"
      data-phase={phase}
      data-failed={failed || undefined}
      className={`fixed top-0 left-0 z-[60] h-0.5 ${failed ? 'bg-destructive' : 'bg-primary'} ${WIDTH[phase]}`}
    />
  );
}
