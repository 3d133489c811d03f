// /dashboard/users: the staff's activity in a period (messages sent, people reached, read rate,
// active days; sortable), filtered by cargo, with the school's activity percentage and SPEC §9's note, and
// the activity summary (a child actor: its failure leaves the table standing). The period, the cargo and
// the order live in the address: the page opens with what it says and follows Back / Forward.
import {
  selectActiveStaff,
  selectActivity,
  selectActivityPercent,
  selectCanNext,
  selectCanPrevious,
  selectFailed,
  selectPeriodKey,
  selectPeriodKind,
  selectPositionId,
  selectPositions,
  selectStaffOnRegister,
  selectSummaryActor,
  selectSummaryCrashed,
  staffActivityMachine,
  type StaffActivityActor,
} from '../../../machines/dashboard/staff-activity';
import { useLocale, useT } from '../../lib/i18n';
import { usePageActor, wholeQuery } from '../../lib/page-actor';
import { Card, CardContent } from '../../ui/card';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { dataPhase, ListBody } from '../../ui/list-page';
import { NativeSelect } from '../../ui/native-select';
import { formatDecimal } from './activity/format';
import { PeriodPicker } from './activity/period-picker';
import { StaffTable } from './activity/staff-table';
import { SummarySection } from './activity/summary-section';
import { useSchoolClock } from './school-clock';
import { DashboardShell } from './shell';
import { useSelectors } from '../../lib/selectors';
import { ChildSection } from '../../ui/child-section';

export function DashboardUsersPage() {
  const t = useT();
  const clock = useSchoolClock();
  const actor = usePageActor(staffActivityMachine, {
    input: { clock },
    address: { read: wholeQuery, event: 'activity.address' },
  });
  return (
    <DashboardShell title="pages.dashboardUsers" className="max-w-5xl">
      <div className="flex min-w-0 flex-col gap-6" data-slot="dashboard-users">
        <p className="text-sm text-muted-foreground">{t('activity.intro')}</p>
        {actor ? <ActivityScreen actor={actor} /> : <ListSkeleton label={t('activity.loading')} rows={3} rowClassName="h-24" />}
      </div>
    </DashboardShell>
  );
}

function ActivityScreen({ actor }: { actor: StaffActivityActor }) {
  const t = useT();
  const locale = useLocale();
  const { activity, failed, summary, summaryCrashed } = useSelectors(actor, {
    activity: selectActivity,
    failed: selectFailed,
    summary: selectSummaryActor,
    summaryCrashed: selectSummaryCrashed,
  });
  const retry = () => actor.send({ type: 'activity.retry' });
  return (
    <>
      <Filters actor={actor} locale={locale} />
      <ListBody
        phase={dataPhase(activity, failed)}
        skeleton={<ListSkeleton label={t('activity.loading')} rows={4} rowClassName="h-12" />}
        failure={
          <ListFailure
            message={t(activity ? 'activity.staleFailed' : 'activity.loadFailed')}
            retryLabel={t('activity.retry')}
            onRetry={retry}
          />
        }
        stale={failed}
        staleAt="start"
      >
        <ActivityPercent actor={actor} locale={locale} />
        <StaffTable actor={actor} locale={locale} />
      </ListBody>
      <ChildSection
        child={summary}
        crashed={summaryCrashed}
        crashedText={t('activity.summary.crashed')}
        retryLabel={t('activity.retry')}
        onRestart={() => actor.send({ type: 'activity.restartSummary' })}
      >
        {(child) => <SummarySection actor={child} locale={locale} />}
      </ChildSection>
    </>
  );
}

function Filters({ actor, locale }: { actor: StaffActivityActor; locale: string }) {
  const t = useT();
  const { kind, periodKey, canPrevious, canNext, positionId, positions } = useSelectors(actor, {
    kind: selectPeriodKind,
    periodKey: selectPeriodKey,
    canPrevious: selectCanPrevious,
    canNext: selectCanNext,
    positionId: selectPositionId,
    positions: selectPositions,
  });
  return (
    <div role="group" aria-label={t('activity.filters')} className="flex flex-wrap items-center gap-3" data-slot="activity-filters">
      <PeriodPicker
        id="activity-period"
        kind={kind}
        periodKey={periodKey}
        canPrevious={canPrevious}
        canNext={canNext}
        locale={locale}
        onKind={(value) => actor.send({ type: 'activity.periodKind', kind: value })}
        onShift={(step) => actor.send({ type: 'activity.shift', step })}
      />
      <NativeSelect
        id="activity-position"
        aria-label={t('activity.position')}
        value={positionId === null ? '' : String(positionId)}
        onChange={(event) =>
          actor.send({ type: 'activity.position', positionId: event.target.value === '' ? null : Number(event.target.value) })
        }
        className="max-w-full"
      >
        <option value="">{t('activity.allPositions')}</option>
        {(positions ?? []).map((position) => (
          <option key={position.id} value={position.id}>
            {position.name}
          </option>
        ))}
        {/* A cargo the address names before the list has come. */}
        {positionId !== null && !(positions ?? []).some((p) => p.id === positionId) ? (
          <option value={positionId}>{t('activity.position')}</option>
        ) : null}
      </NativeSelect>
    </div>
  );
}

/** The school's activity percentage and SPEC §9's explanation of why it can pass 100 %. */
function ActivityPercent({ actor, locale }: { actor: StaffActivityActor; locale: string }) {
  const t = useT();
  const { percent, active, register } = useSelectors(actor, {
    percent: (s) => selectActivityPercent(s) ?? 0,
    active: selectActiveStaff,
    register: selectStaffOnRegister,
  });
  return (
    <Card className="min-w-0" data-slot="activity-percent">
      <CardContent className="flex flex-col gap-1">
        <h2 className="text-base font-semibold">{t('activity.percent.title')}</h2>
        <p className="text-3xl font-bold tabular-nums" data-slot="activity-percent-figure">
          {t('activity.percent.figure', { percent: formatDecimal(percent, locale) })}
        </p>
        <p className="text-sm">{t('activity.percent.detail', { count: register, active })}</p>
        <p className="text-sm text-muted-foreground" data-slot="activity-percent-note">
          {t('activity.percent.note')}
        </p>
      </CardContent>
    </Card>
  );
}
