// /setup, the first start: the setup code, the school and its first administrator, then «Crear y entrar».
// The machine (machines/setup/setup.ts) asks the server, keeps what is typed through any refusal, puts the
// server's texts on their fields and signs the administrator in; this page renders it and sends what happens.
import type * as React from 'react';
import { useState } from 'react';
import { COUNTRIES, COUNTRY_TIMEZONES, isCountry, SCHOOL_LOCALES } from '../../../../shared/school-rules';
import {
  selectCheckFailed,
  selectChecking,
  selectConfigured,
  selectCountry,
  selectFailure,
  selectFieldError,
  selectSubmitting,
  selectValue,
  type SetupActor,
  type SetupField,
  setupFieldId,
  setupMachine,
} from '../../../machines/setup/setup';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { errorProps, FieldDescription, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import { InputField, OptionsField } from '../../ui/input-field';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import type { MessageKey } from '../../../i18n';

const FAILURES = {
  throttled: 'setup.failed.throttled',
  network: 'setup.failed.network',
  server: 'setup.failed.server',
} as const satisfies Record<string, MessageKey>;

export function SetupPage() {
  const actor = usePageActor(setupMachine, { input: undefined });
  const t = useT();
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 py-4">
      <p className="text-center text-2xl font-bold text-primary">{t('app.name')}</p>
      {actor ? <SetupScreen actor={actor} /> : <ListSkeleton label={t('setup.checking')} rows={4} />}
    </div>
  );
}

function SetupScreen({ actor }: { actor: SetupActor }) {
  const t = useT();
  const { checking, checkFailed, configured } = useSelectors(actor, {
    checking: selectChecking,
    checkFailed: selectCheckFailed,
    configured: selectConfigured,
  });
  if (checking) return <ListSkeleton label={t('setup.checking')} rows={4} />;
  if (checkFailed)
    return (
      <ListFailure message={t('setup.checkFailed')} retryLabel={t('setup.retry')} onRetry={() => actor.send({ type: 'setup.retry' })} />
    );
  if (configured)
    return (
      <Card>
        <CardHeader>
          <CardTitle>{t('setup.configured')}</CardTitle>
        </CardHeader>
        <CardContent>
          <a href="/login" className="font-medium text-primary underline underline-offset-4">
            {t('setup.toLogin')}
          </a>
        </CardContent>
      </Card>
    );
  return <SetupForm actor={actor} />;
}

function SetupForm({ actor }: { actor: SetupActor }) {
  const t = useT();
  const { submitting, failure } = useSelectors(actor, { submitting: selectSubmitting, failure: selectFailure });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('setup.title')}</CardTitle>
        <CardDescription>{t('setup.intro')}</CardDescription>
      </CardHeader>
      <CardContent>
        <MachineForm aria-busy={submitting} className="flex flex-col gap-6" onSend={() => actor.send({ type: 'setup.submit' })}>
          <fieldset className="flex flex-col gap-4">
            <legend className="mb-2 text-base font-semibold">{t('setup.codeSection')}</legend>
            <TextField
              actor={actor}
              field="code"
              label={t('setup.code')}
              hint={t('setup.codeHint')}
              autoComplete="off"
              spellCheck={false}
            />
          </fieldset>
          <fieldset className="flex flex-col gap-4">
            <legend className="mb-2 text-base font-semibold">{t('setup.schoolSection')}</legend>
            <TextField actor={actor} field="school.name" label={t('setup.schoolName')} autoComplete="organization" />
            <SelectField
              actor={actor}
              field="school.country"
              label={t('setup.country')}
              options={COUNTRIES.map((c) => ({ value: c, label: t(`setup.countries.${c}`) }))}
            />
            <TimezoneField actor={actor} />
            <SelectField
              actor={actor}
              field="school.locale"
              label={t('setup.locale')}
              options={SCHOOL_LOCALES.map((l) => ({ value: l, label: t(`setup.locales.${l}`) }))}
            />
            <TextField
              actor={actor}
              field="school.homeUrl"
              label={t('setup.homeUrl')}
              hint={t('setup.homeUrlHint')}
              type="url"
              inputMode="url"
              autoComplete="url"
            />
          </fieldset>
          <fieldset className="flex flex-col gap-4">
            <legend className="mb-2 text-base font-semibold">{t('setup.adminSection')}</legend>
            <TextField actor={actor} field="admin.name" label={t('setup.adminName')} autoComplete="name" />
            <TextField
              actor={actor}
              field="admin.email"
              label={t('setup.adminEmail')}
              type="email"
              inputMode="email"
              autoComplete="email"
            />
            <PasswordField actor={actor} />
          </fieldset>
          {failure && (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
              {t(FAILURES[failure])}
            </p>
          )}
          {/* Never `disabled`: focus stays on it through the request (a disabled button drops it to the page). */}
          <Button type="submit" aria-disabled={submitting || undefined} className="aria-disabled:opacity-50">
            {submitting ? t('setup.submitting') : t('setup.submit')}
          </Button>
        </MachineForm>
      </CardContent>
    </Card>
  );
}

interface FieldProps {
  actor: SetupActor;
  field: SetupField;
  label: string;
}

/** The field's value and error, one primitive each. */
function useField(actor: SetupActor, field: SetupField) {
  return useSelectors(actor, {
    value: (s) => selectValue(s, field),
    error: (s) => selectFieldError(s, field),
  });
}

function TextField({
  actor,
  field,
  ...props
}: FieldProps & Omit<React.ComponentProps<typeof InputField>, 'id' | 'value' | 'error' | 'onValueChange'>) {
  const { value, error } = useField(actor, field);
  const id = setupFieldId(field);
  return (
    <InputField
      id={id}
      value={value}
      error={{ text: error, id: `${id}-error` }}
      {...props}
      onValueChange={(value) => actor.send({ type: 'setup.change', field, value })}
    />
  );
}

function SelectField({ actor, field, ...props }: FieldProps & { hint?: string; options: { value: string; label: string }[] }) {
  const { value, error } = useField(actor, field);
  const id = setupFieldId(field);
  return (
    <OptionsField
      id={id}
      value={value}
      error={{ text: error, id: `${id}-error` }}
      {...props}
      onValueChange={(value) => actor.send({ type: 'setup.change', field, value })}
    />
  );
}

/** The country's zones, by their IANA names (what the school's clock is set to). */
function TimezoneField({ actor }: { actor: SetupActor }) {
  const t = useT();
  const { country } = useSelectors(actor, { country: selectCountry });
  const zones = isCountry(country) ? COUNTRY_TIMEZONES[country] : [];
  return (
    <SelectField
      actor={actor}
      field="school.timezone"
      label={t('setup.timezone')}
      hint={t('setup.timezoneHint')}
      options={zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }))}
    />
  );
}

function PasswordField({ actor }: { actor: SetupActor }) {
  const t = useT();
  const field = 'admin.password';
  const { value, error } = useField(actor, field);
  // Purely visual: whether the password characters are shown.
  const [reveal, setReveal] = useState(false);
  const id = setupFieldId(field);
  return (
    <FormField label={t('setup.adminPassword')} htmlFor={id} error={error} errorId={`${id}-error`}>
      <FieldDescription id={`${id}-hint`}>{t('setup.adminPasswordHint')}</FieldDescription>
      <div className="flex gap-2">
        <Input
          id={id}
          type={reveal ? 'text' : 'password'}
          autoComplete="new-password"
          value={value}
          {...errorProps(error, `${id}-error`, `${id}-hint`)}
          onChange={(e) => actor.send({ type: 'setup.change', field, value: e.currentTarget.value })}
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="h-9 shrink-0"
          aria-pressed={reveal}
          onClick={() => setReveal((v) => !v)}
        >
          {reveal ? t('setup.hidePassword') : t('setup.showPassword')}
        </Button>
      </div>
    </FormField>
  );
}
