// /settings/people/:kind/:id: one student's or guardian's record (people/person.ts). Top to bottom: who they
// are (kind, course, standing), their contact form (the member editor's fields, contact-fields.tsx), then a
// student's guardians with «Agregar apoderado» and «Quitar», or a guardian's students as links to theirs, and
// a student's standing with «Marcar como retirado» / «Volver a matricular». Each change that cannot be undone
// by editing asks first (person-dialogs.tsx). One column, so a 390 px phone reads it as a desktop does.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { GuardianStudent, PeopleKind, StudentGuardian } from '../../../../shared/people-contract';
import { formatPhone } from '../../../../shared/phone-format';
import { PEOPLE_PATH, personPath } from '../../../machines/people/people-rules';
import { privacyPersonPath } from '../../../machines/privacy/privacy-rules';
import {
  ADD_GUARDIAN_BUTTON_ID,
  GUARDIANS_HEADING_ID,
  guardianRowId,
  personFieldId,
  personMachine,
  selectBusy,
  selectCanAddGuardian,
  selectCanEnrol,
  selectCanWithdraw,
  selectErrors,
  selectForm,
  selectPersonLoadFailed,
  selectPersonLoading,
  selectPersonNotFound,
  selectRecord,
  selectSaveFailed,
  selectSaving,
  selectName,
  selectSchoolPrefix,
  STANDING_BUTTON_ID,
  type PersonActor,
  type PersonSnapshot,
} from '../../../machines/people/person';
import type { PhonePrefix } from '../../../machines/people/contact-form';
import type { SessionSnapshot } from '../../../machines/session/session';
import { sessionActor } from '../../actors';
import { useLocaleZone, useT } from '../../lib/i18n';
import { formatDay } from '../../lib/format';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { MachineForm } from '../../ui/form';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { useErrorText } from '../recipient-lists/form-bits';
import { SettingsShell } from '../settings/shell';
import { ContactFields } from './contact-fields';
import { AddGuardianDialog, PersonQuestion } from './person-dialogs';

const selectPrefix = (s: SessionSnapshot): PhonePrefix => (s.context.user?.domain === 'mx' ? '+52' : '+56');

export function SettingsPersonPage({ kind, id }: { kind: PeopleKind; id: number }) {
  const t = useT();
  const defaultPrefix = useSelector(sessionActor, selectPrefix);
  const actor = usePageActor(personMachine, { input: { kind, id, defaultPrefix } });
  return (
    <SettingsShell className="max-w-3xl">
      <Link href={PEOPLE_PATH} className="text-sm underline underline-offset-4" data-slot="people-back">
        {t('people.backToList')}
      </Link>
      {actor ? <PersonScreen actor={actor} /> : <ListSkeleton label={t('people.record.loading')} rows={3} />}
    </SettingsShell>
  );
}

function PersonScreen({ actor }: { actor: PersonActor }) {
  const t = useT();
  const { loading, loadFailed, notFound, record } = useSelectors(actor, {
    loading: selectPersonLoading,
    loadFailed: selectPersonLoadFailed,
    notFound: selectPersonNotFound,
    record: selectRecord,
  });
  if (notFound)
    return (
      <p role="alert" className="rounded-lg border p-4">
        {t('people.record.notFound')}
      </p>
    );
  if (loadFailed)
    return (
      <ListFailure
        message={t('people.record.loadFailed')}
        retryLabel={t('people.retry')}
        onRetry={() => actor.send({ type: 'person.retry' })}
      />
    );
  if (loading || record === null) return <ListSkeleton label={t('people.record.loading')} rows={3} />;
  return (
    <article aria-labelledby="person-heading" className="flex min-w-0 flex-col gap-6" data-slot="person">
      <Heading actor={actor} />
      <ContactSection actor={actor} />
      {record.kind === 'estudiante' ? <GuardiansSection actor={actor} /> : <StudentsSection students={record.students} />}
      {record.kind === 'estudiante' && <StandingSection actor={actor} />}
      <AddGuardianDialog actor={actor} />
      <PersonQuestion actor={actor} />
    </article>
  );
}

const selectKind = (s: PersonSnapshot): PeopleKind => s.context.record?.kind ?? s.context.kind;
const selectCourse = (s: PersonSnapshot): string | null => s.context.record?.course?.name ?? null;
const selectWithdrawnAt = (s: PersonSnapshot): string | null => s.context.record?.withdrawn_at ?? null;
const selectPersonId = (s: PersonSnapshot): number => s.context.id;

function Heading({ actor }: { actor: PersonActor }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { name, kind, course, withdrawnAt, id } = useSelectors(actor, {
    name: selectName,
    kind: selectKind,
    course: selectCourse,
    withdrawnAt: selectWithdrawnAt,
    id: selectPersonId,
  });
  return (
    <header className="flex flex-col gap-2">
      <h2 id="person-heading" className="flex flex-wrap items-center gap-2 text-xl font-semibold">
        <span className="break-words">{name}</span>
        <Badge variant="outline">{t(`people.kindOne.${kind}`)}</Badge>
        {withdrawnAt !== null && <Badge variant="warning">{t('people.withdrawn')}</Badge>}
      </h2>
      <Link
        href={privacyPersonPath(kind, id)}
        className="self-start text-sm text-primary underline-offset-4 hover:underline"
        data-slot="person-view-data"
      >
        {t('people.record.viewData')}
      </Link>
      {kind === 'estudiante' && (
        <p className="text-sm text-muted-foreground">
          {t('people.record.course')}: {course ?? t('people.noCourse')}
          {withdrawnAt !== null && ` · ${t('people.record.withdrawnSince', { date: formatDay(withdrawnAt, locale, timezone) })}`}
        </p>
      )}
    </header>
  );
}

function ContactSection({ actor }: { actor: PersonActor }) {
  const t = useT();
  const errorText = useErrorText();
  const { form, errors, saving, failed, schoolPrefix, name } = useSelectors(actor, {
    form: selectForm,
    errors: selectErrors,
    saving: selectSaving,
    failed: selectSaveFailed,
    schoolPrefix: selectSchoolPrefix,
    name: selectName,
  });
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <section aria-labelledby="person-contact" className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <h3 id="person-contact" className="font-semibold">
        {t('people.record.contact')}
      </h3>
      <p className="text-sm text-muted-foreground">{t('people.record.contactNote')}</p>
      <MachineForm aria-label={name} className="flex flex-col gap-3" onSend={() => actor.send({ type: 'person.save' })}>
        <ContactFields
          form={form}
          errors={errors}
          disabled={saving}
          schoolPrefix={schoolPrefix}
          idOf={personFieldId}
          onChange={(field, value) => actor.send({ type: 'person.change', field, value })}
        />
        {(failed || errors.form) && (
          <p id={personFieldId('form')} tabIndex={-1} role="alert" className="text-sm text-destructive">
            {errors.form ? errorText(errors.form) : t('people.record.failed')}
          </p>
        )}
        {hasErrors && !errors.form && <p className="text-sm text-destructive">{t('people.record.review')}</p>}
        <div>
          <Button type="submit" aria-disabled={saving || undefined} aria-busy={saving || undefined}>
            {t(saving ? 'people.record.saving' : 'people.record.save')}
          </Button>
        </div>
      </MachineForm>
    </section>
  );
}

const selectGuardians = (s: PersonSnapshot): StudentGuardian[] | null => s.context.record?.guardians ?? null;

function GuardiansSection({ actor }: { actor: PersonActor }) {
  const t = useT();
  const { guardians, canAdd, busy } = useSelectors(actor, { guardians: selectGuardians, canAdd: selectCanAddGuardian, busy: selectBusy });
  const list = guardians ?? [];
  return (
    <section aria-labelledby={GUARDIANS_HEADING_ID} className="flex flex-col gap-3" data-slot="person-guardians">
      <h3 id={GUARDIANS_HEADING_ID} tabIndex={-1} className="font-semibold outline-none">
        {t('people.guardians.heading')}
      </h3>
      {list.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('people.guardians.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {list.map((guardian) => (
            <GuardianRow key={guardian.id} actor={actor} guardian={guardian} disabled={busy} />
          ))}
        </ul>
      )}
      <div className="flex flex-col items-start gap-1">
        {canAdd || busy ? (
          <Button id={ADD_GUARDIAN_BUTTON_ID} variant="outline" disabled={!canAdd} onClick={() => actor.send({ type: 'guardian.open' })}>
            {t('people.guardians.add')}
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">{t('people.guardians.full')}</p>
        )}
      </div>
    </section>
  );
}

function GuardianRow({ actor, guardian, disabled }: { actor: PersonActor; guardian: StudentGuardian; disabled: boolean }) {
  const t = useT();
  return (
    <li
      data-slot="person-guardian"
      className="flex flex-col gap-2 rounded-lg border bg-card p-3 sm:flex-row sm:items-start sm:justify-between"
    >
      <div className="flex min-w-0 flex-col gap-0.5">
        <Link href={personPath('apoderado', guardian.id)} className="font-medium break-words underline underline-offset-4">
          {guardian.name}
        </Link>
        <span className="text-sm text-muted-foreground">
          {t(`people.guardians.role.${guardian.rol_adulto_id}`)} · {guardian.relationship}
        </span>
        <span className="text-sm break-all text-muted-foreground">
          {guardian.fono_celular ? formatPhone(guardian.fono_celular) : t('people.guardians.noPhone')} ·{' '}
          {guardian.email ?? t('people.guardians.noEmail')}
        </span>
      </div>
      <Button
        id={guardianRowId(guardian.id)}
        size="sm"
        variant="outline"
        disabled={disabled}
        aria-label={t('people.guardians.removeLabel', { name: guardian.name })}
        onClick={() => actor.send({ type: 'guardian.remove', id: guardian.id })}
      >
        {t('people.guardians.remove')}
      </Button>
    </li>
  );
}

function StudentsSection({ students }: { students: GuardianStudent[] }) {
  const t = useT();
  return (
    <section aria-labelledby="person-students" className="flex flex-col gap-3" data-slot="person-students">
      <h3 id="person-students" className="font-semibold">
        {t('people.students.heading')}
      </h3>
      {students.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('people.students.none')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {students.map((student) => (
            <li key={student.id} className="flex flex-col gap-0.5 rounded-lg border bg-card p-3">
              <span className="flex flex-wrap items-center gap-2">
                <Link href={personPath('estudiante', student.id)} className="font-medium break-words underline underline-offset-4">
                  {student.name}
                </Link>
                {student.withdrawn_at !== null && <Badge variant="warning">{t('people.withdrawn')}</Badge>}
              </span>
              <span className="text-sm text-muted-foreground">
                {student.course} · {t(`people.guardians.role.${student.rol_adulto_id}`)} · {student.relationship}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function StandingSection({ actor }: { actor: PersonActor }) {
  const t = useT();
  const { canWithdraw, canEnrol, withdrawnAt } = useSelectors(actor, {
    canWithdraw: selectCanWithdraw,
    canEnrol: selectCanEnrol,
    withdrawnAt: selectWithdrawnAt,
  });
  const withdrawn = withdrawnAt !== null;
  return (
    <section aria-labelledby="person-standing" className="flex flex-col items-start gap-2" data-slot="person-standing">
      <h3 id="person-standing" className="font-semibold">
        {t('people.standing.heading')}
      </h3>
      <p className="text-sm text-muted-foreground">{withdrawn ? t('people.withdrawn') : t('people.record.enrolled')}</p>
      <Button
        id={STANDING_BUTTON_ID}
        variant={withdrawn ? 'outline' : 'destructive'}
        disabled={withdrawn ? !canEnrol : !canWithdraw}
        onClick={() => actor.send({ type: withdrawn ? 'person.enrol' : 'person.withdraw' })}
      >
        {t(withdrawn ? 'people.standing.enrol' : 'people.standing.withdraw')}
      </Button>
    </section>
  );
}
