// /reset-password/:token: the link checked, then the new password twice with the rule's reason as it is typed
// (decision 0167). The machine (passwords/reset.ts) checks, saves and, done, goes to /login with a toast.
import { Link } from 'wouter';
import {
  RESET_CONFIRMATION_ID,
  RESET_PASSWORD_ID,
  resetPasswordMachine,
  selectCheckFailed,
  selectConfirmation,
  selectConfirmationWrong,
  selectIsChecking,
  selectIsSaving,
  selectLinkProblem,
  selectOwnerEmail,
  selectPassword,
  selectPasswordMissing,
  selectPasswordReason,
  selectResetFailure,
  type ResetPasswordActor,
} from '../../../machines/passwords/reset';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { MachineForm } from '../../ui/form';
import { ListFailure } from '../../ui/list-state';
import { Spinner } from '../../ui/spinner';
import { FailureBanner, NewPasswordFields, PasswordCard } from './parts';

export function ResetPasswordPage({ token }: { token: string }) {
  const actor = usePageActor(resetPasswordMachine, { input: { token } });
  const t = useT();
  return actor ? <ResetScreen actor={actor} /> : <PasswordCard title={t('passwords.reset.title')}>{null}</PasswordCard>;
}

function ResetScreen({ actor }: { actor: ResetPasswordActor }) {
  const t = useT();
  const { checking, checkFailed, problem, email } = useSelectors(actor, {
    checking: selectIsChecking,
    checkFailed: selectCheckFailed,
    problem: selectLinkProblem,
    email: selectOwnerEmail,
  });
  const links = (
    <div className="flex flex-col items-center gap-2 text-sm">
      <Link href="/forgot-password" className="text-primary underline-offset-4 hover:underline">
        {t('passwords.reset.newLink')}
      </Link>
      <Link href="/login" className="text-primary underline-offset-4 hover:underline">
        {t('passwords.reset.backToLogin')}
      </Link>
    </div>
  );
  if (checking) {
    return (
      <PasswordCard title={t('passwords.reset.title')}>
        <Spinner label={t('passwords.reset.checking')} />
      </PasswordCard>
    );
  }
  if (checkFailed) {
    return (
      <PasswordCard title={t('passwords.reset.title')}>
        <ListFailure
          message={t('passwords.reset.checkFailed')}
          retryLabel={t('passwords.reset.retry')}
          onRetry={() => actor.send({ type: 'reset.retry' })}
        />
      </PasswordCard>
    );
  }
  if (problem) {
    return (
      <PasswordCard title={t('passwords.reset.title')}>
        <p role="alert" data-slot="link-problem" className="text-sm">
          {t(`passwords.reset.problems.${problem}`)}
        </p>
        {links}
      </PasswordCard>
    );
  }
  return (
    <PasswordCard title={t('passwords.reset.title')} description={t('passwords.reset.subtitle', { email })}>
      <ResetForm actor={actor} email={email} />
    </PasswordCard>
  );
}

function ResetForm({ actor, email }: { actor: ResetPasswordActor; email: string }) {
  const t = useT();
  const { password, confirmation, reason, missing, confirmationWrong, saving, failure } = useSelectors(actor, {
    password: selectPassword,
    confirmation: selectConfirmation,
    reason: selectPasswordReason,
    missing: selectPasswordMissing,
    confirmationWrong: selectConfirmationWrong,
    saving: selectIsSaving,
    failure: selectResetFailure,
  });
  return (
    <MachineForm onSend={() => actor.send({ type: 'reset.submit' })} className="flex flex-col gap-5" aria-busy={saving}>
      <FailureBanner failure={failure} />
      {/* For the browser's password manager: whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields
        ids={{ password: RESET_PASSWORD_ID, confirmation: RESET_CONFIRMATION_ID }}
        labels={{ password: t('passwords.reset.password'), confirmation: t('passwords.reset.confirmation') }}
        password={password}
        confirmation={confirmation}
        reason={reason}
        missing={missing}
        confirmationWrong={confirmationWrong}
        disabled={saving}
        onChange={(field, value) => actor.send({ type: 'reset.change', field, value })}
      />
      <Button type="submit" disabled={saving}>
        {saving ? t('passwords.reset.submitting') : t('passwords.reset.submit')}
      </Button>
    </MachineForm>
  );
}
