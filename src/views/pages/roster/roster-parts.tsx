// Pieces the steps of the roster screen share: a step's heading, a refused call's message with its retry,
// the upload's progress (the bytes sent, then the lines the server has read) and the server's own progress.
import { useSelector } from '@xstate/react';
import {
  ROSTER_STEP_ID,
  selectFileName,
  selectPercent,
  selectProblem,
  selectWorkDone,
  selectWorkPhase,
  selectWorkTotal,
  type RosterActor,
  type RosterProblem,
} from '../../../machines/roster/roster';
import { formatCount } from '../../lib/format';
import { useLocale, useT, type Translate } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
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

/** 0–100 of `done` out of `total`. */
const percentOf = (done: number, total: number) => (total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0);

/** The bytes of the file sent; once the server tells them, the lines it has read of the file's. */
export function UploadProgress({ actor }: { actor: RosterActor }) {
  const t = useT();
  const locale = useLocale();
  const { percent, name, phase, done, total } = useSelectors(actor, {
    percent: selectPercent,
    name: selectFileName,
    phase: selectWorkPhase,
    done: selectWorkDone,
    total: selectWorkTotal,
  });
  const reading = phase === 'reading';
  let text = t('roster.file.reading', { name: name ?? '' });
  if (reading) text = t('roster.file.readRows', { count: total, done: formatCount(done, locale), total: formatCount(total, locale) });
  else if (percent < 100) text = t('roster.file.sending', { name: name ?? '', percent });
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-2" data-slot="roster-progress">
      <p className="text-sm">{text}</p>
      <Progress value={reading ? percentOf(done, total) : percent} aria-label={t('roster.file.progress')} />
    </div>
  );
}

/** Apply under way: the rows the server has written once it tells them, a bar that waits until then. */
export function ApplyProgress({ actor }: { actor: RosterActor }) {
  const t = useT();
  const locale = useLocale();
  const { phase, done, total } = useSelectors(actor, { phase: selectWorkPhase, done: selectWorkDone, total: selectWorkTotal });
  const writing = phase === 'writing';
  return (
    <div role="status" className="flex flex-col gap-2" data-slot="roster-apply-progress">
      <p className="text-sm">
        {writing
          ? t('roster.preview.writtenRows', { count: total, done: formatCount(done, locale), total: formatCount(total, locale) })
          : t('roster.preview.applying')}
      </p>
      <Progress
        aria-label={t('roster.preview.applying')}
        value={writing ? percentOf(done, total) : null}
        className={writing ? undefined : 'animate-pulse'}
      />
    </div>
  );
}
