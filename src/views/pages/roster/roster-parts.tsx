// Pieces the steps of the roster screen share: a step's heading, a refused call's message with its retry,
// and the upload's progress.
import { useSelector } from '@xstate/react';
import { ROSTER_STEP_ID, selectProblem, type RosterActor, type RosterProblem } from '../../../machines/roster/roster';
import { useT, type Translate } from '../../lib/i18n';
import { LoadFailure } from '../../ui/list-state';
import { Progress } from '../../ui/progress';

export function StepHeading({ children }: { children: React.ReactNode }) {
  return (
    <h3 id={ROSTER_STEP_ID} tabIndex={-1} className="text-lg font-semibold outline-none">
      {children}
    </h3>
  );
}

export const problemText = (problem: RosterProblem, t: Translate): string => ('text' in problem ? problem.text : t(problem.key));

/** A failed call said in place, with what can be done about it (children). */
export function Problem({ actor, children }: { actor: RosterActor; children?: React.ReactNode }) {
  const t = useT();
  const problem = useSelector(actor, selectProblem);
  if (!problem) return null;
  return (
    <LoadFailure message={problemText(problem, t)} data-slot="roster-problem" className="p-4">
      {children}
    </LoadFailure>
  );
}

// --- step 1 ---------------------------------------------------------------------------------------------

export function UploadProgress({ percent, name }: { percent: number; name: string }) {
  const t = useT();
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-2" data-slot="roster-progress">
      <p className="text-sm">{percent < 100 ? t('roster.file.sending', { name, percent }) : t('roster.file.reading', { name })}</p>
      <Progress value={percent} aria-label={t('roster.file.progress')} />
    </div>
  );
}
