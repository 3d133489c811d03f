// /forgot-password: the address, then the same answer for any address (decision 0167). The machine
// (passwords/forgot.ts) checks and sends; the page shows its snapshot.
import { Link } from 'wouter';
import {
  FORGOT_EMAIL_ID,
  forgotPasswordMachine,
  selectEmail,
  selectEmailProblem,
  selectForgotFailure,
  selectIsSending,
  selectIsSent,
  type ForgotPasswordActor,
} from '../../../machines/passwords/forgot';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { errorProps, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import { FailureBanner, PasswordCard } from './parts';

export function ForgotPasswordPage() {
  const actor = usePageActor(forgotPasswordMachine, { input: undefined });
  const t = useT();
  return (
    <PasswordCard title={t('passwords.forgot.title')} description={t('passwords.forgot.subtitle')}>
      {actor && <ForgotForm actor={actor} />}
    </PasswordCard>
  );
}

function ForgotForm({ actor }: { actor: ForgotPasswordActor }) {
  const t = useT();
  const { email, problem, failure, sending, sent } = useSelectors(actor, {
    email: selectEmail,
    problem: selectEmailProblem,
    failure: selectForgotFailure,
    sending: selectIsSending,
    sent: selectIsSent,
  });
  const back = (
    <Link href="/login" className="text-center text-sm text-primary underline-offset-4 hover:underline">
      {t('passwords.forgot.backToLogin')}
    </Link>
  );
  if (sent) {
    return (
      <>
        <div role="status" data-slot="forgot-sent" className="flex flex-col gap-2">
          <h2 className="font-semibold">{t('passwords.forgot.sentTitle')}</h2>
          <p className="text-sm">{t('passwords.forgot.sent', { email: email.trim() })}</p>
          <p className="text-sm text-muted-foreground">{t('passwords.forgot.sentHint')}</p>
        </div>
        <Button type="button" variant="outline" onClick={() => actor.send({ type: 'forgot.again' })}>
          {t('passwords.forgot.again')}
        </Button>
        {back}
      </>
    );
  }
  const error = problem && t(`passwords.forgot.errors.${problem}`);
  return (
    <>
      <MachineForm onSend={() => actor.send({ type: 'forgot.submit' })} className="flex flex-col gap-5" aria-busy={sending}>
        <FailureBanner failure={failure} />
        <FormField label={t('passwords.forgot.email')} htmlFor={FORGOT_EMAIL_ID} error={error} errorId="forgot-email-error">
          <Input
            id={FORGOT_EMAIL_ID}
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
            value={email}
            disabled={sending}
            {...errorProps(error, 'forgot-email-error')}
            onChange={(e) => actor.send({ type: 'forgot.change', email: e.target.value })}
          />
        </FormField>
        <Button type="submit" disabled={sending}>
          {sending ? t('passwords.forgot.submitting') : t('passwords.forgot.submit')}
        </Button>
      </MachineForm>
      {back}
    </>
  );
}
