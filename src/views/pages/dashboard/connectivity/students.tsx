// A course's students with their guardians (SPEC §3 "recipient data shown": student, guardian, phone,
// e-mail): each guardian's device status as a dot and its name (the colour is never alone), and what to
// fix: the red's missing or malformed number, the yellow's last messages that did not reach them, each a
// disclosure with its title, author, date and what failed on each channel. The link to the message's
// reception status is offered only to its author, the one person the server lets open it
// (docs/decisions/0076-missed-messages-on-a-course-page.md); anyone else is told who can.
import { Link } from 'wouter';
import type { CourseConnectivity, CourseGuardian } from '../../../../../shared/dashboard-contract';
import { missedMessages, type MissedMessage } from '../../../../machines/dashboard/course-connectivity';
import { formatDateTime } from '../../../lib/format';
import { DeviceDot } from '../../../lib/device-status';
import { useT } from '../../../lib/i18n';
import { cn } from '../../../lib/utils';
import { formatPhone } from '../../../../../shared/phone-format';
import { optedOutDay } from '../../../../../shared/call-list-text';
import type { Locale } from '../../../../../shared/contract';

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
    <li
      data-guardian={guardian.id}
      data-status={guardian.device_status}
      className="grid min-w-0 gap-x-4 gap-y-1 py-2 text-sm md:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,3fr)]"
    >
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
          <dd className="break-all">
            {guardian.phone ? formatPhone(guardian.phone) : <span className="text-muted-foreground">{t('course.students.noPhone')}</span>}
          </dd>
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
              <li key={hint}>{t(`course.fix.${hint}`, { date: optedOutDay(hint, guardian.opted_out, locale as Locale, timezone) })}</li>
            ))}
          </ul>
        )}
        {guardian.missed.length > 0 ? <MissedMessages guardian={guardian} locale={locale} timezone={timezone} /> : null}
      </div>
    </li>
  );
}

const focusRing = 'rounded-sm focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none';

function MissedMessages({ guardian, locale, timezone }: { guardian: CourseGuardian; locale: string; timezone: string }) {
  const t = useT();
  const titleId = `missed-${guardian.id}`;
  return (
    <div className="mt-1" data-slot="missed">
      <p id={titleId} className="font-medium">
        {t('course.missed.title')}
      </p>
      <ul aria-labelledby={titleId} className="flex flex-col gap-1">
        {missedMessages(guardian.missed).map((message) => (
          <MissedMessageItem key={message.message_id} message={message} locale={locale} timezone={timezone} />
        ))}
      </ul>
    </div>
  );
}

function MissedMessageItem({ message, locale, timezone }: { message: MissedMessage; locale: string; timezone: string }) {
  const t = useT();
  const date = formatDateTime(message.sent_at, locale, timezone);
  return (
    <li data-missed={message.message_id}>
      <details>
        <summary className={cn('cursor-pointer break-words text-primary underline-offset-4 hover:underline', focusRing)}>
          {t('course.missed.summary', { title: message.title, date })}
        </summary>
        <div className="mt-1 flex flex-col gap-1 border-l-2 pl-3">
          <p className="break-words text-muted-foreground">
            {message.author === null
              ? t('course.missed.sentByGone', { date })
              : t('course.missed.sentBy', { author: message.author, date })}
          </p>
          <p className="sr-only">{t('course.missed.failures')}</p>
          <ul data-slot="missed-failures">
            {message.failures.map((failure) => (
              <li key={failure.channel}>
                {t('course.missed.failure', {
                  channel: t(`course.channel.${failure.channel}`),
                  status: t(`course.missed.${failure.status}`),
                })}
              </li>
            ))}
          </ul>
          {message.can_view_reception ? (
            <Link
              href={`/sent/message/${message.message_id}/reception`}
              className={cn('w-fit break-words text-primary underline-offset-4 hover:underline', focusRing)}
            >
              {t('course.missed.open', { title: message.title })}
            </Link>
          ) : (
            <p className="break-words text-muted-foreground">
              {message.author === null ? t('course.missed.authorOnlyGone') : t('course.missed.authorOnly', { author: message.author })}
            </p>
          )}
        </div>
      </details>
    </li>
  );
}
