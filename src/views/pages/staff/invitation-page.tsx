// /invitation/:token: the invited colleague sets their password (staff/invitation.ts), greeted with the name and
// school the link is for; the rule's Spanish reason shows as they type. A link that no longer works says why
// and what to do. No signed-in layout: they have no account yet.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import {
  INVITATION_CONFIRM_ID,
  INVITATION_PASSWORD_ID,
  invitationMachine,
  selectConfirm,
  selectConfirmMismatch,
  selectInfo,
  selectIsSubmitting,
  selectPassword,
  selectPasswordOk,
  selectPasswordProblemKey,
  selectPasswordProblemText,
  selectPhase,
  selectRefusalKey,
  type InvitationActor,
} from '../../../machines/staff/invitation';
import { useLocale, useT } from '../../lib/i18n';
import { formatDay } from '../../lib/format';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { errorProps, FieldDescription, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import { ListFailure, ListSkeleton } from '../../ui/list-state';

export function InvitationPage({ token }: { token: string }) {
  const actor = usePageActor(invitationMachine, { input: { token } });
  const t = useT();
  return (
    <div className="flex min-h-[calc(100dvh-2rem)] items-center justify-center" data-slot="invitation">
      <div className="flex w-full max-w-md flex-col gap-4">
        <p className="text-center text-2xl font-bold text-primary">{t('app.name')}</p>
        {actor ? <InvitationScreen actor={actor} /> : <ListSkeleton label={t('invitation.loading')} rows={3} />}
      </div>
    </div>
  );
}

function InvitationScreen({ actor }: { actor: InvitationActor }) {
  const t = useT();
  const phase = useSelector(actor, selectPhase);
  if (phase === 'loading') return <ListSkeleton label={t('invitation.loading')} rows={3} />;
  if (phase === 'failed')
    return (
      <ListFailure
        message={t('invitation.loadFailed')}
        retryLabel={t('invitation.retry')}
        onRetry={() => actor.send({ type: 'invitation.retry' })}
      />
    );
  if (phase !== 'form') return <Gone reason={phase} />;
  return <PasswordForm actor={actor} />;
}

/** A link that no longer works: what happened and what to do (a used one: sign in). */
function Gone({ reason }: { reason: 'expired' | 'used' | 'revoked' | 'notFound' }) {
  const t = useT();
  return (
    <Card data-slot="invitation-gone" data-reason={reason}>
      <CardHeader>
        <CardTitle>{t(`invitation.${reason}.title`)}</CardTitle>
        <CardDescription>{t(`invitation.${reason}.body`)}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant={reason === 'used' ? 'default' : 'outline'}>
          <Link href="/login">{t('invitation.toLogin')}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function PasswordForm({ actor }: { actor: InvitationActor }) {
  const t = useT();
  const locale = useLocale();
  const { info, password, confirm, problemText, problemKey, ok, mismatch, refusalKey, submitting } = useSelectors(actor, {
    info: selectInfo,
    password: selectPassword,
    confirm: selectConfirm,
    problemText: selectPasswordProblemText,
    problemKey: selectPasswordProblemKey,
    ok: selectPasswordOk,
    mismatch: selectConfirmMismatch,
    refusalKey: selectRefusalKey,
    submitting: selectIsSubmitting,
  });
  // Purely visual: whether the characters are shown.
  const [reveal, setReveal] = useState(false);
  const passwordError = problemText ?? (problemKey ? t(problemKey) : null);
  const confirmError = mismatch ? t('invitation.mismatch') : null;
  // The browser's own zone: this visitor has no school session yet.
  const expires = info ? formatDay(info.expires_at, locale, Intl.DateTimeFormat().resolvedOptions().timeZone) : '';
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('invitation.title')}</CardTitle>
        {info && (
          <CardDescription className="flex flex-col gap-1">
            <span>{t('invitation.greeting', { name: info.name, school: info.school })}</span>
            <span className="break-all">{t('invitation.account', { email: info.email })}</span>
            <span>{t('invitation.expires', { date: expires })}</span>
          </CardDescription>
        )}
      </CardHeader>
      <CardContent>
        <MachineForm
          className="flex flex-col gap-5"
          aria-busy={submitting || undefined}
          onSend={() => actor.send({ type: 'invitation.submit' })}
        >
          {/* A password manager files the new password under this account. */}
          <input type="email" name="username" autoComplete="username" value={info?.email ?? ''} readOnly hidden />
          <FormField
            label={t('invitation.password')}
            htmlFor={INVITATION_PASSWORD_ID}
            error={passwordError}
            errorId="invitation-password-error"
          >
            <FieldDescription id="invitation-password-hint">{t('invitation.hint')}</FieldDescription>
            <div className="flex gap-2">
              <Input
                id={INVITATION_PASSWORD_ID}
                type={reveal ? 'text' : 'password'}
                autoComplete="new-password"
                value={password}
                {...errorProps(passwordError, 'invitation-password-error', 'invitation-password-hint', ok && 'invitation-password-ok')}
                onChange={(event) => actor.send({ type: 'invitation.password', value: event.currentTarget.value })}
              />
              <Button type="button" variant="outline" size="sm" className="h-9" aria-pressed={reveal} onClick={() => setReveal((v) => !v)}>
                {reveal ? t('invitation.hide') : t('invitation.show')}
              </Button>
            </div>
            {ok && (
              <p id="invitation-password-ok" role="status" className="text-sm text-muted-foreground">
                {t('invitation.ok')}
              </p>
            )}
          </FormField>
          <FormField
            label={t('invitation.confirm')}
            htmlFor={INVITATION_CONFIRM_ID}
            error={confirmError}
            errorId="invitation-confirm-error"
          >
            <Input
              id={INVITATION_CONFIRM_ID}
              type={reveal ? 'text' : 'password'}
              autoComplete="new-password"
              value={confirm}
              {...errorProps(confirmError, 'invitation-confirm-error')}
              onChange={(event) => actor.send({ type: 'invitation.confirm', value: event.currentTarget.value })}
            />
          </FormField>
          {refusalKey && (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
              {t(refusalKey)}
            </p>
          )}
          <Button type="submit" aria-disabled={submitting || undefined} aria-busy={submitting || undefined}>
            {submitting ? t('invitation.submitting') : t('invitation.submit')}
          </Button>
        </MachineForm>
      </CardContent>
    </Card>
  );
}
