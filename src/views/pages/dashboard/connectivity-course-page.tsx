// /connectivity/course/:id: one course's figures, its students with their guardians (status,
// phone, e-mail, what to fix) and its call list, a panel of its own: a failing list does not blank the
// course, nor the other way round. A course that is not the school's is the not-found state.
import { Link } from 'wouter';
import {
  courseConnectivityMachine,
  selectCallListActor,
  selectCallListCrashed,
  selectCourse,
  selectCourseFailed,
  selectNotFound,
  type CourseConnectivityActor,
} from '../../../machines/dashboard/course-connectivity';
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { dataPhase, ListBody } from '../../ui/list-page';
import { CallListSection } from './connectivity/call-list-section';
import { ConnectivityFigures, formatPercent } from './connectivity/figures';
import { CourseStudents } from './connectivity/students';
import { DashboardShell } from './shell';
import { useSelectors } from '../../lib/selectors';
import { ChildSection } from '../../ui/child-section';

export function ConnectivityCoursePage({ id }: { id: number }) {
  const actor = usePageActor(courseConnectivityMachine, { input: { courseId: id } });
  return (
    <DashboardShell title="pages.connectivityCourse">
      <section aria-labelledby="course-title" className="flex min-w-0 flex-col gap-6">
        <BackLink />
        {actor ? <CourseScreen actor={actor} id={id} /> : <Skeleton />}
      </section>
    </DashboardShell>
  );
}

function BackLink() {
  const t = useT();
  return (
    <Link
      href="/dashboard/connectivity"
      className="w-fit rounded-sm text-sm text-primary underline-offset-4 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      ← {t('course.back')}
    </Link>
  );
}

function Skeleton() {
  const t = useT();
  return <ListSkeleton label={t('course.loading')} rows={3} rowClassName="h-32" />;
}

function CourseScreen({ actor, id }: { actor: CourseConnectivityActor; id: number }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { course, failed, notFound, callList, callListCrashed } = useSelectors(actor, {
    course: selectCourse,
    failed: selectCourseFailed,
    notFound: selectNotFound,
    callList: selectCallListActor,
    callListCrashed: selectCallListCrashed,
  });
  if (notFound) {
    return (
      <div role="alert" data-slot="course-not-found" className="flex flex-col gap-2 rounded-lg border bg-card p-6">
        <h2 id="course-title" className="text-xl font-semibold">
          {t('course.notFound')}
        </h2>
        <p>{t('course.notFoundBody')}</p>
      </div>
    );
  }
  return (
    <>
      <ListBody
        phase={dataPhase(course, failed, true)}
        skeleton={<Skeleton />}
        failure={
          <ListFailure
            message={t('course.loadFailed')}
            retryLabel={t('connectivity.retry')}
            onRetry={() => actor.send({ type: 'course.retry' })}
          />
        }
      >
        {course && (
          <header>
            <h2 id="course-title" className="text-xl font-semibold">
              {course.course.name} · {course.course.level.name}
            </h2>
            <p className="text-sm text-muted-foreground">
              {t('course.summary', {
                students: t('course.studentCount', { count: course.summary.students }),
                guardians: t('course.guardianCount', { count: course.summary.guardians }),
                coverage: formatPercent(course.summary.coverage.share, locale),
              })}
            </p>
          </header>
        )}
        {course && <ConnectivityFigures row={course.summary} title={course.course.name} locale={locale} />}
      </ListBody>
      <ChildSection
        child={callList}
        crashed={callListCrashed}
        crashedText={t('callList.crashed')}
        retryLabel={t('callList.retry')}
        onRestart={() => actor.send({ type: 'course.restartCallList' })}
      >
        {(child) => <CallListSection actor={child} courseId={id} />}
      </ChildSection>
      {course && !failed ? <CourseStudents course={course} locale={locale} timezone={timezone} /> : null}
    </>
  );
}
