// A record's dialogs (people/person.ts): «Agregar apoderado» (the contact fields, then the role and the
// relationship; a refusal keeps everything typed, each error under its field) and the question before
// removing a guardian, withdrawing a student or enrolling them again, which says what it means.
import { useRef } from 'react';
import type { GuardianForm, PersonActor, PersonProblem } from '../../../machines/people/person';
import {
  guardianFieldId,
  selectBusy,
  selectGuardianErrors,
  selectGuardianFailed,
  selectGuardianForm,
  selectIsAdding,
  selectIsSendingGuardian,
  selectName,
  selectProblem,
  selectQuestion,
  selectQuestionGuardianName,
  selectSchoolPrefix,
} from '../../../machines/people/person';
import { useT, type Translate } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  focusOnOpen,
  keepFocusOnClose,
  QuestionDialog,
} from '../../ui/dialog';
import { FieldError } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Label } from '../../ui/label';
import { NativeSelect } from '../../ui/native-select';
import { FieldText, useErrorText } from '../recipient-lists/form-bits';
import { ContactFields } from './contact-fields';

export function AddGuardianDialog({ actor }: { actor: PersonActor }) {
  const t = useT();
  const errorText = useErrorText();
  const { open, sending, form, errors, failed, schoolPrefix } = useSelectors(actor, {
    open: selectIsAdding,
    sending: selectIsSendingGuardian,
    form: selectGuardianForm,
    errors: selectGuardianErrors,
    failed: selectGuardianFailed,
    schoolPrefix: selectSchoolPrefix,
  });
  const cancel = () => !sending && actor.send({ type: 'guardian.cancel' });
  const change = (field: keyof GuardianForm, value: string) => actor.send({ type: 'guardian.change', field, value });
  const roleError = errorText(errors.rol_adulto_id);
  const roleId = guardianFieldId('rol_adulto_id');
  return (
    <Dialog open={open} onOpenChange={(next) => !next && cancel()}>
      <DialogContent
        onCloseAutoFocus={keepFocusOnClose}
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
        data-slot="add-guardian"
      >
        <MachineForm className="flex flex-col gap-3" onSend={() => actor.send({ type: 'guardian.save' })} aria-busy={sending || undefined}>
          <DialogHeader>
            <DialogTitle>{t('people.addGuardian.title')}</DialogTitle>
            <DialogDescription>{t('people.addGuardian.description')}</DialogDescription>
          </DialogHeader>
          <div data-slot="field" className="flex flex-col gap-1.5">
            <Label htmlFor={roleId}>{t('people.addGuardian.role')}</Label>
            <NativeSelect
              id={roleId}
              value={form.rol_adulto_id}
              disabled={sending}
              aria-invalid={roleError ? true : undefined}
              aria-describedby={roleError ? `${roleId}-error` : undefined}
              onChange={(e) => change('rol_adulto_id', e.currentTarget.value)}
            >
              <option value="1">{t('people.guardians.role.1')}</option>
              <option value="2">{t('people.guardians.role.2')}</option>
            </NativeSelect>
            <FieldError id={`${roleId}-error`}>{roleError}</FieldError>
          </div>
          <FieldText
            id={guardianFieldId('relationship')}
            label={t('people.addGuardian.relationship')}
            hint={t('people.addGuardian.relationshipHint')}
            value={form.relationship}
            error={errors.relationship}
            disabled={sending}
            autoComplete="off"
            onChange={(value) => change('relationship', value)}
          />
          <ContactFields
            form={form}
            errors={errors}
            disabled={sending}
            schoolPrefix={schoolPrefix}
            idOf={guardianFieldId}
            onChange={change}
          />
          {(failed || errors.form) && (
            <p id={guardianFieldId('form')} tabIndex={-1} role="alert" className="text-sm text-destructive">
              {errors.form ? errorText(errors.form) : t('people.addGuardian.failed')}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={sending} onClick={cancel}>
              {t('people.addGuardian.cancel')}
            </Button>
            <Button type="submit" aria-disabled={sending || undefined} aria-busy={sending || undefined}>
              {t(sending ? 'people.addGuardian.saving' : 'people.addGuardian.save')}
            </Button>
          </DialogFooter>
        </MachineForm>
      </DialogContent>
    </Dialog>
  );
}

const problemText = (problem: PersonProblem, t: Translate) => ('text' in problem ? problem.text : t(problem.key));

const QUESTION_TEXTS = {
  remove: { title: 'people.confirm.removeTitle', body: 'people.confirm.removeBody', answer: 'people.confirm.remove' },
  withdraw: { title: 'people.confirm.withdrawTitle', body: 'people.confirm.withdrawBody', answer: 'people.confirm.withdraw' },
  enrol: { title: 'people.confirm.enrolTitle', body: 'people.confirm.enrolBody', answer: 'people.confirm.enrol' },
} as const;

export function PersonQuestion({ actor }: { actor: PersonActor }) {
  const t = useT();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const { question, name, guardianName, problem, busy } = useSelectors(actor, {
    question: selectQuestion,
    name: selectName,
    guardianName: selectQuestionGuardianName,
    problem: selectProblem,
    busy: selectBusy,
  });
  const texts = QUESTION_TEXTS[question ?? 'withdraw'];
  const cancel = () => !busy && actor.send({ type: 'person.cancel' });
  return (
    <QuestionDialog
      open={question !== null}
      onDismiss={cancel}
      onOpenAutoFocus={focusOnOpen(cancelRef)}
      onCloseAutoFocus={keepFocusOnClose}
      title={t(texts.title, { name: question === 'remove' ? guardianName : name })}
      description={
        <>
          {t(texts.body)}
          {problem && (
            <span role="alert" className="mt-2 block text-destructive">
              {problemText(problem, t)}
            </span>
          )}
        </>
      }
      data-slot="person-question"
    >
      <Button ref={cancelRef} type="button" variant="outline" disabled={busy} onClick={cancel}>
        {t('people.confirm.cancel')}
      </Button>
      <Button
        type="button"
        variant={question === 'enrol' ? 'default' : 'destructive'}
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
        onClick={() => !busy && actor.send({ type: 'person.confirm' })}
      >
        {t(busy ? 'people.confirm.working' : texts.answer)}
      </Button>
    </QuestionDialog>
  );
}
