// Sign-in: the phone, «Enviar código», then the six digits. Texts and problems from the session machine.
import { useSelector } from '@xstate/react';
import { type ReactNode, useId } from 'react';
import { Button } from '../ui/button';
import { Field, FieldError, FieldLabel, errorProps } from '../ui/field';
import { Input } from '../ui/input';
import {
  selectCode,
  selectCodeProblem,
  selectFailureKind,
  selectFailureMessage,
  selectIsBusy,
  selectPhone,
  selectPhoneProblem,
} from '../../machines/family/session';
import { type FamilyT, useFamilyT, useSession } from './family-context';

function useFailureText(t: FamilyT): string {
  const session = useSession();
  const kind = useSelector(session, selectFailureKind);
  const message = useSelector(session, selectFailureMessage);
  if (kind === 'server') return message;
  if (kind === 'offline') return t('family.signIn.errors.offline');
  return kind === 'error' ? t('family.signIn.errors.server') : '';
}

/** One step of signing in: its heading, what it asks for, and the form the browser does not check itself. */
function SignInStep({
  title,
  subtitle,
  onSubmit,
  children,
}: {
  title: string;
  subtitle: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="text-sm text-muted-foreground">{subtitle}</p>
      {children}
    </form>
  );
}

/** What the server or the network refused, then the form's button, saying so while it waits. */
function SubmitRow({ failure, busy, label, busyLabel }: { failure: string; busy: boolean; label: string; busyLabel: string }) {
  return (
    <>
      {failure ? (
        <p role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      ) : null}
      <Button type="submit" size="lg" disabled={busy}>
        {busy ? busyLabel : label}
      </Button>
    </>
  );
}

export function PhoneForm() {
  const t = useFamilyT();
  const session = useSession();
  const phone = useSelector(session, selectPhone);
  const problem = useSelector(session, selectPhoneProblem);
  const busy = useSelector(session, selectIsBusy);
  const failure = useFailureText(t);
  const id = useId();
  const error =
    problem === 'required' ? t('family.signIn.errors.phoneRequired') : problem === 'invalid' ? t('family.signIn.errors.phoneInvalid') : '';
  return (
    <SignInStep
      title={t('family.signIn.title')}
      subtitle={t('family.signIn.subtitle')}
      onSubmit={() => session.send({ type: 'code.request' })}
    >
      <Field data-invalid={error ? true : undefined}>
        <FieldLabel htmlFor={`${id}-phone`}>{t('family.signIn.phone')}</FieldLabel>
        <Input
          id={`${id}-phone`}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={phone}
          placeholder={t('family.signIn.phoneHint')}
          onChange={(event) => session.send({ type: 'phone.change', phone: event.target.value })}
          {...errorProps(error, `${id}-phone-error`)}
        />
        <FieldError id={`${id}-phone-error`}>{error}</FieldError>
      </Field>
      <SubmitRow failure={failure} busy={busy} label={t('family.signIn.sendCode')} busyLabel={t('family.signIn.sendingCode')} />
    </SignInStep>
  );
}

export function CodeForm() {
  const t = useFamilyT();
  const session = useSession();
  const phone = useSelector(session, selectPhone);
  const code = useSelector(session, selectCode);
  const problem = useSelector(session, selectCodeProblem);
  const busy = useSelector(session, selectIsBusy);
  const failure = useFailureText(t);
  const id = useId();
  const error =
    problem === 'required'
      ? t('family.signIn.errors.codeRequired')
      : problem === 'incomplete'
        ? t('family.signIn.errors.codeIncomplete')
        : '';
  return (
    <SignInStep
      title={t('family.signIn.codeTitle')}
      subtitle={t('family.signIn.codeSubtitle', { phone })}
      onSubmit={() => session.send({ type: 'code.submit' })}
    >
      <Field data-invalid={error ? true : undefined}>
        <FieldLabel htmlFor={`${id}-code`}>{t('family.signIn.code')}</FieldLabel>
        <Input
          id={`${id}-code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={code}
          onChange={(event) => session.send({ type: 'code.change', code: event.target.value })}
          className="text-lg! tracking-widest"
          {...errorProps(error, `${id}-code-error`)}
        />
        <FieldError id={`${id}-code-error`}>{error}</FieldError>
      </Field>
      <SubmitRow failure={failure} busy={busy} label={t('family.signIn.submit')} busyLabel={t('family.signIn.submitting')} />
      <div className="flex flex-wrap justify-between gap-2">
        <Button type="button" variant="link" disabled={busy} onClick={() => session.send({ type: 'code.resend' })}>
          {t('family.signIn.resend')}
        </Button>
        <Button type="button" variant="link" disabled={busy} onClick={() => session.send({ type: 'phone.edit' })}>
          {t('family.signIn.changePhone')}
        </Button>
      </div>
    </SignInStep>
  );
}
