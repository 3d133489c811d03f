// A course's students with their guardians (SPEC §3 "recipient data shown": student, guardian, phone,
// e-mail): each guardian's device status as a dot and its name (the colour is never alone), and what to
// fix: the red's missing or malformed number, the yellow's last messages that did not reach them, with a
// link to each message's reception status.
import { Link } from 'wouter';
import type { CourseConnectivity, CourseGuardian } from '../../../../shared/dashboard-contract';
import { formatDateTime } from '../../lib/format';
import { DeviceDot } from '../../lib/device-status';
import { useT } from '../../lib/i18n';

export function CourseStudents({ course, locale, timezone }: { course: CourseConnectivity; locale: string; timezone: string }) {
  const t = useT();
  return (
    <section aria-labelledby="course-students-title" className="flex min-w-0 flex-col gap-3">
      <h3 id="course-students-title" className="text-lg font-semibold">
        {t('course.students.title')}
      </h3>
      {course.students.length === 0 ? <p className="text-sm text-muted-foreground">{t('course.students.empty')}</p> : null}
      <ul className="flex flex-col gap-3">
        {course.students.map((student) => (
          <li key={student.id} data-student={student.id} className="rounded-lg border bg-card p-3 md:p-4">
            <h4 className="font-semibold">{student.name}</h4>
            {student.guardians.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('course.students.noGuardians')}</p>
            ) : (
              <ul className="mt-2 flex flex-col divide-y">
                {student.guardians.map((guardian) => (
                  <GuardianRow key={guardian.id} guardian={guardian} locale={locale} timezone={timezone} />
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function GuardianRow({ guardian, locale, timezone }: { guardian: CourseGuardian; locale: string; timezone: string }) {
  const t = useT();
  return (
    <li data-guardian={guardian.id} data-status={guardian.device_status} className="grid min-w-0 gap-x-4 gap-y-1 py-2 text-sm md:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,3fr)]">
      <div className="min-w-0">
        <p className="font-medium">
          {guardian.name} <span className="font-normal text-muted-foreground">({t(`course.role.${guardian.role}`)})</span>
        </p>
        <p className="flex items-center gap-1.5">
          <DeviceDot status={guardian.device_status} />
          <span data-slot="status-text">{t(`device.status.${guardian.device_status}`)}</span>
        </p>
      </div>
      <dl className="min-w-0">
        <div className="flex gap-1">
          <dt className="sr-only">{t('course.students.phone')}</dt>
          <dd className="break-all">{guardian.phone ?? <span className="text-muted-foreground">{t('course.students.noPhone')}</span>}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="sr-only">{t('course.students.email')}</dt>
          <dd className="break-all">{guardian.email ?? <span className="text-muted-foreground">{t('course.students.noEmail')}</span>}</dd>
        </div>
      </dl>
      <div className="min-w-0" data-slot="fix">
        <p className="sr-only">{t('course.students.fix')}</p>
        {guardian.fix.length === 0 ? (
          <p className="text-muted-foreground">{t('course.students.nothingToFix')}</p>
        ) : (
          <ul className="list-inside list-disc">
            {guardian.fix.map((hint) => (
              <li key={hint}>{t(`course.fix.${hint}`)}</li>
            ))}
          </ul>
        )}
        {guardian.missed.length > 0 ? (
          <div className="mt-1">
            <p className="font-medium">{t('course.missed.title')}</p>
            <ul className="flex flex-col gap-0.5">
              {guardian.missed.map((missed) => (
                <li key={`${missed.message_id}-${missed.channel}`}>
                  <Link href={`/sent/message/${missed.message_id}/reception`} className="text-primary underline-offset-4 hover:underline">
                    {t('course.missed.item', {
                      title: missed.title,
                      date: formatDateTime(missed.sent_at, locale, timezone),
                      channel: t(`course.channel.${missed.channel}`),
                      status: t(`course.missed.${missed.status}`),
                    })}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </li>
  );
}
