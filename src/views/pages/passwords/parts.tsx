// What the password screens share: the centred card they sit in (as the login form), the banner of a call
// that did not go through, and the new password with its confirmation.
import { useState, type ReactNode } from 'react';
import type { Failure } from '../../../machines/passwords/rules';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { errorProps, FieldDescription, FormField } from '../../ui/field';
import { Input } from '../../ui/input';

export function PasswordCard({ title, description, children }: { title: ReactNode; description?: ReactNode; children: ReactNode }) {
  const t = useT();
  return (
    <div data-slot="password-screen" className="flex min-h-[80dvh] items-center justify-center">
      <div className="flex w-full max-w-sm flex-col gap-4">
        <p className="text-center text-2xl font-bold text-primary">{t('app.name')}</p>
        <Card>
          <CardHeader>
            <CardTitle>{title}</CardTitle>
            {description && <CardDescription>{description}</CardDescription>}
          </CardHeader>
          <CardContent className="flex flex-col gap-5">{children}</CardContent>
        </Card>
      </div>
    </div>
  );
}

export function FailureBanner({ failure }: { failure: Failure | null }) {
  const t = useT();
  if (!failure) return null;
  return (
    <p
      role="alert"
      data-slot="form-error"
      className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive"
    >
      {t(`passwords.failures.${failure}`)}
    </p>
  );
}

interface NewPasswordFieldsProps {
  ids: { password: string; confirmation: string };
  labels: { password: string; confirmation: string };
  password: string;
  confirmation: string;
  /** The rule's (or the server's) Spanish reason for the password. */
  reason: string | null;
  missing: boolean;
  confirmationWrong: boolean;
  disabled: boolean;
  onChange: (field: 'password' | 'confirmation', value: string) => void;
}

/** The new password and its confirmation, with the rule's hint, its reason as it appears, and a reveal switch. */
export function NewPasswordFields({
  ids,
  labels,
  password,
  confirmation,
  reason,
  missing,
  confirmationWrong,
  disabled,
  onChange,
}: NewPasswordFieldsProps) {
  const t = useT();
  // Purely visual: whether the characters are shown.
  const [reveal, setReveal] = useState(false);
  const hintId = `${ids.password}-hint`;
  const passwordError = reason ?? (missing ? t('passwords.fields.passwordRequired') : null);
  const confirmationError = confirmationWrong ? t('passwords.fields.confirmationWrong') : null;
  const type = reveal ? 'text' : 'password';
  return (
    <>
      <FormField label={labels.password} htmlFor={ids.password} error={passwordError} errorId={`${ids.password}-error`}>
        <Input
          id={ids.password}
          name="new-password"
          type={type}
          autoComplete="new-password"
          value={password}
          disabled={disabled}
          {...errorProps(passwordError, `${ids.password}-error`, hintId)}
          onChange={(e) => onChange('password', e.target.value)}
        />
        <FieldDescription id={hintId}>{t('passwords.reset.hint')}</FieldDescription>
      </FormField>
      <FormField label={labels.confirmation} htmlFor={ids.confirmation} error={confirmationError} errorId={`${ids.confirmation}-error`}>
        <Input
          id={ids.confirmation}
          name="confirm-password"
          type={type}
          autoComplete="new-password"
          value={confirmation}
          disabled={disabled}
          {...errorProps(confirmationError, `${ids.confirmation}-error`)}
          onChange={(e) => onChange('confirmation', e.target.value)}
        />
      </FormField>
      <Button type="button" variant="outline" size="sm" className="self-start" aria-pressed={reveal} onClick={() => setReveal((v) => !v)}>
        {reveal ? t('passwords.fields.hide') : t('passwords.fields.show')}
      </Button>
    </>
  );
}
