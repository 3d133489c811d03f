// /settings/roster (administrators): the school's enrolment file brought in, in three steps (the file, its
// columns when the server asks, the preview), then what was written. The machine is roster/roster.ts; this
// page renders its snapshot and sends its events. The people of the preview are its hosted list.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import { PEOPLE_PATH } from '../../../machines/people/people-rules';
import { rosterMachine, selectResult, selectStep, type RosterActor, type RosterStep } from '../../../machines/roster/roster';
import { selectSchoolCountry } from '../../../machines/session/selectors';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { cn } from '../../lib/utils';
import { Button, buttonVariants } from '../../ui/button';
import { ListSkeleton } from '../../ui/list-state';
import { SettingsShell } from '../settings/shell';
import { FileStep } from './file-step';
import { MappingStep } from './mapping-step';
import { PreviewStep } from './preview-step';
import { StepHeading } from './roster-parts';

export function SettingsRosterPage() {
  const country = useSelector(sessionActor, selectSchoolCountry);
  const actor = usePageActor(rosterMachine, { input: { country } });
  const t = useT();
  return (
    <SettingsShell className="max-w-5xl">
      {actor ? <RosterScreen actor={actor} /> : <ListSkeleton label={t('roster.loading')} rows={3} />}
    </SettingsShell>
  );
}

const STEPS = ['file', 'mapping', 'preview'] as const;

function RosterScreen({ actor }: { actor: RosterActor }) {
  const t = useT();
  const step = useSelector(actor, selectStep);
  return (
    <section aria-labelledby="roster-heading" className="flex min-w-0 flex-col gap-4" data-slot="roster">
      <header className="flex flex-col gap-1">
        <h2 id="roster-heading" className="text-xl font-semibold">
          {t('roster.heading')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('roster.intro')}</p>
      </header>
      <Steps step={step} />
      {step === 'file' && <FileStep actor={actor} />}
      {step === 'mapping' && <MappingStep actor={actor} />}
      {step === 'preview' && <PreviewStep actor={actor} />}
      {step === 'applied' && <AppliedStep actor={actor} />}
      {step === 'stale' && <StaleStep actor={actor} />}
    </section>
  );
}

/** Where the import is: the three steps, the current one marked (`aria-current="step"`). */
function Steps({ step }: { step: RosterStep }) {
  const t = useT();
  const current = step === 'applied' || step === 'stale' ? 'preview' : step;
  return (
    <ol aria-label={t('roster.steps')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-slot="roster-steps">
      {STEPS.map((name) => (
        <li
          key={name}
          aria-current={name === current ? 'step' : undefined}
          className={cn(name === current ? 'font-semibold text-foreground' : 'text-muted-foreground')}
        >
          {t(`roster.step.${name}`)}
        </li>
      ))}
    </ol>
  );
}

/** The heading a step opens with: where the focus goes as it opens. */
function AppliedStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  const result = useSelector(actor, selectResult);
  if (!result) return null;
  const { students, guardians, courses } = result.counts;
  const written = [
    t('roster.applied.studentsNew', { count: students.new }),
    t('roster.applied.studentsChanged', { count: students.changed }),
    t('roster.applied.studentsWithdrawn', { count: students.withdrawn }),
    t('roster.applied.guardiansNew', { count: guardians.new }),
    t('roster.applied.guardiansChanged', { count: guardians.changed }),
    t('roster.applied.coursesNew', { count: courses.new }),
  ];
  return (
    <div className="flex flex-col gap-3" data-slot="roster-applied">
      <StepHeading>{t('roster.applied.heading')}</StepHeading>
      <p>{t('roster.applied.intro', { name: result.file_name })}</p>
      <ul className="list-disc pl-6 text-sm">
        {written.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => actor.send({ type: 'roster.restart' })}>
          {t('roster.applied.again')}
        </Button>
        {/* Where a student or guardian the file got wrong is corrected by hand, kept through the next import. */}
        <Link href={PEOPLE_PATH} className={buttonVariants({ variant: 'outline' })} data-slot="roster-people">
          {t('roster.applied.people')}
        </Link>
      </div>
    </div>
  );
}

function StaleStep({ actor }: { actor: RosterActor }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-3" data-slot="roster-stale">
      <StepHeading>{t('roster.stale.heading')}</StepHeading>
      <p role="alert">{t('roster.stale.description')}</p>
      <div>
        <Button type="button" onClick={() => actor.send({ type: 'roster.restart' })}>
          {t('roster.stale.again')}
        </Button>
      </div>
    </div>
  );
}
