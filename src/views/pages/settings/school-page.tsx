// /settings/school: the school's name, country, time zone, locale, home link and support chat, and its logo.
// The machine (settings/school.ts) loads, checks nothing the server does not (but a logo file's type and
// size before it travels), saves, toasts and keeps what is typed.
import type * as React from 'react';
import { COUNTRIES, COUNTRY_TIMEZONES, isCountry, SCHOOL_LOCALES } from '../../../../shared/school-rules';
import {
  LOGO_CHOOSER_ID,
  type LogoProblem,
  type SchoolField,
  schoolFieldId,
  selectChatAvailable,
  selectChatEnabled,
  selectFailed,
  selectFieldError,
  selectHasChanges,
  selectLoadFailed,
  selectLoading,
  selectLogoErrorText,
  selectLogoProblem,
  selectLogo,
  selectRemovingLogo,
  selectSaving,
  selectUploadingLogo,
  selectValue,
  type SettingsSchoolActor,
  settingsSchoolMachine,
} from '../../../machines/settings/school';
import { logoHref } from '../../../services/settings/school';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button, buttonVariants } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { FieldError } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { InputField, OptionsField } from '../../ui/input-field';
import { Label } from '../../ui/label';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { Spinner } from '../../ui/spinner';
import { Switch } from '../../ui/switch';
import { cn } from '../../lib/utils';
import { SettingsShell } from './shell';

export function SettingsSchoolPage() {
  const actor = usePageActor(settingsSchoolMachine, { input: undefined });
  const t = useT();
  return <SettingsShell>{actor ? <SchoolScreen actor={actor} /> : <ListSkeleton label={t('school.loading')} rows={4} />}</SettingsShell>;
}

function SchoolScreen({ actor }: { actor: SettingsSchoolActor }) {
  const t = useT();
  const { loading, loadFailed } = useSelectors(actor, { loading: selectLoading, loadFailed: selectLoadFailed });
  if (loading) return <ListSkeleton label={t('school.loading')} rows={4} />;
  if (loadFailed)
    return (
      <ListFailure message={t('school.loadFailed')} retryLabel={t('school.retry')} onRetry={() => actor.send({ type: 'school.retry' })} />
    );
  return (
    <Card>
      <CardContent className="flex flex-col gap-5">
        <p className="text-sm text-muted-foreground">{t('school.intro')}</p>
        <SchoolForm actor={actor} />
        <LogoSection actor={actor} />
      </CardContent>
    </Card>
  );
}

const LOGO_PROBLEM_KEY = {
  tooLarge: 'school.logo.problems.tooLarge',
  svg: 'school.logo.problems.svg',
  type: 'school.logo.problems.type',
  failed: 'school.logo.problems.failed',
} as const satisfies Record<LogoProblem, string>;

/** The logo of e-mails and printed pages: its preview, a file to upload or replace it, and remove. */
function LogoSection({ actor }: { actor: SettingsSchoolActor }) {
  const t = useT();
  const { logo, uploading, removing, errorText, problem } = useSelectors(actor, {
    logo: selectLogo,
    uploading: selectUploadingLogo,
    removing: selectRemovingLogo,
    errorText: selectLogoErrorText,
    problem: selectLogoProblem,
  });
  const busy = uploading || removing;
  const error = errorText ?? (problem ? t(LOGO_PROBLEM_KEY[problem]) : null);
  return (
    <section aria-labelledby="school-logo-title" aria-busy={busy} data-slot="school-logo" className="flex flex-col gap-3 border-t pt-5">
      <h2 id="school-logo-title" className="text-base font-semibold">
        {t('school.logo.title')}
      </h2>
      <p id="school-logo-hint" className="text-sm text-muted-foreground">
        {t('school.logo.hint')}
      </p>
      {logo ? (
        <figure className="flex flex-col gap-1">
          <div className="flex w-fit max-w-full items-center rounded-md border bg-white p-3">
            <img
              src={logoHref(logo.url)}
              alt={t('school.logo.preview')}
              data-slot="school-logo-preview"
              className="max-h-20 max-w-full object-contain"
            />
          </div>
          <figcaption className="text-xs text-muted-foreground">
            {t('school.logo.size', { width: logo.width, height: logo.height, kb: Math.max(1, Math.round(logo.size / 1024)) })}
          </figcaption>
        </figure>
      ) : (
        <p className="text-sm">{t('school.logo.none')}</p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        {/* A label styled as a button: the file input inside keeps the keyboard and the screen reader's name. */}
        <label
          htmlFor={LOGO_CHOOSER_ID}
          className={cn(
            buttonVariants({ variant: 'outline' }),
            'cursor-pointer has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40',
            busy && 'pointer-events-none opacity-50',
          )}
        >
          {t(logo ? 'school.logo.replace' : 'school.logo.upload')}
          <input
            id={LOGO_CHOOSER_ID}
            type="file"
            accept="image/png,image/jpeg"
            className="sr-only"
            aria-describedby={error ? 'school-logo-hint school-logo-error' : 'school-logo-hint'}
            aria-invalid={error ? true : undefined}
            // Never `disabled`: focus stays on it through the upload; the machine ignores a file chosen meanwhile.
            aria-disabled={busy || undefined}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              // The same file may be chosen again after it was refused.
              event.currentTarget.value = '';
              if (file) actor.send({ type: 'logo.upload', file });
            }}
          />
        </label>
        {logo && (
          <Button
            type="button"
            variant="outline"
            aria-disabled={busy || undefined}
            className="aria-disabled:opacity-50"
            onClick={() => actor.send({ type: 'logo.remove' })}
          >
            {t('school.logo.remove')}
          </Button>
        )}
        {uploading && <Spinner label={t('school.logo.uploading')} />}
        {removing && <Spinner label={t('school.logo.removing')} />}
      </div>
      {error && (
        <p id="school-logo-error" role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </section>
  );
}

function SchoolForm({ actor }: { actor: SettingsSchoolActor }) {
  const t = useT();
  const { saving, failed, hasChanges } = useSelectors(actor, { saving: selectSaving, failed: selectFailed, hasChanges: selectHasChanges });
  return (
    <MachineForm aria-busy={saving} className="flex flex-col gap-5" onSend={() => actor.send({ type: 'school.save' })}>
      <TextField actor={actor} field="name" label={t('school.name')} autoComplete="organization" />
      <SelectField
        actor={actor}
        field="country"
        label={t('school.country')}
        options={COUNTRIES.map((c) => ({ value: c, label: t(`school.countries.${c}`) }))}
      />
      <TimezoneField actor={actor} />
      <SelectField
        actor={actor}
        field="locale"
        label={t('school.locale')}
        options={SCHOOL_LOCALES.map((l) => ({ value: l, label: t(`school.locales.${l}`) }))}
      />
      <TextField actor={actor} field="home_url" label={t('school.homeUrl')} hint={t('school.homeUrlHint')} type="url" inputMode="url" />
      <ChatField actor={actor} />
      {failed && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {t('school.failed')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        {/* Never `disabled`: focus stays on it through the save (a disabled button drops it to the page). */}
        <Button type="submit" aria-disabled={!hasChanges || saving || undefined} className="aria-disabled:opacity-50">
          {saving ? t('school.saving') : t('school.save')}
        </Button>
        {hasChanges && !saving && (
          <>
            <Button type="button" variant="outline" onClick={() => actor.send({ type: 'school.reset' })}>
              {t('school.reset')}
            </Button>
            <span className="text-sm text-muted-foreground">{t('school.unsaved')}</span>
          </>
        )}
      </div>
    </MachineForm>
  );
}

interface FieldProps {
  actor: SettingsSchoolActor;
  field: SchoolField;
  label: string;
  hint?: string;
}

function useField(actor: SettingsSchoolActor, field: SchoolField) {
  return useSelectors(actor, { value: (s) => selectValue(s, field), error: (s) => selectFieldError(s, field) });
}

function TextField({
  actor,
  field,
  ...props
}: FieldProps & Omit<React.ComponentProps<typeof InputField>, 'id' | 'value' | 'error' | 'onValueChange'>) {
  const { value, error } = useField(actor, field);
  const id = schoolFieldId(field);
  return (
    <InputField
      id={id}
      value={value}
      error={{ text: error, id: `${id}-error` }}
      {...props}
      onValueChange={(value) => actor.send({ type: 'school.change', field, value })}
    />
  );
}

function SelectField({ actor, field, ...props }: FieldProps & { hint?: string; options: { value: string; label: string }[] }) {
  const { value, error } = useField(actor, field);
  const id = schoolFieldId(field);
  return (
    <OptionsField
      id={id}
      value={value}
      error={{ text: error, id: `${id}-error` }}
      {...props}
      onValueChange={(value) => actor.send({ type: 'school.change', field, value })}
    />
  );
}

function TimezoneField({ actor }: { actor: SettingsSchoolActor }) {
  const t = useT();
  const { country } = useSelectors(actor, { country: (s) => selectValue(s, 'country') });
  const zones = isCountry(country) ? COUNTRY_TIMEZONES[country] : [];
  return (
    <SelectField
      actor={actor}
      field="timezone"
      label={t('school.timezone')}
      hint={t('school.timezoneHint')}
      options={zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }))}
    />
  );
}

function ChatField({ actor }: { actor: SettingsSchoolActor }) {
  const t = useT();
  const { enabled, available, error } = useSelectors(actor, {
    enabled: selectChatEnabled,
    available: selectChatAvailable,
    error: (s) => selectFieldError(s, 'chat_enabled'),
  });
  const id = schoolFieldId('chat_enabled');
  return (
    <div className="flex items-start gap-3">
      <Switch
        id={id}
        checked={enabled}
        disabled={!available}
        aria-describedby={`${id}-state`}
        onCheckedChange={(checked) => actor.send({ type: 'school.chat', enabled: checked })}
      />
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{t('school.chat')}</Label>
        <p id={`${id}-state`} className="text-sm text-muted-foreground">
          {t(!available ? 'school.chatUnavailable' : enabled ? 'school.chatOn' : 'school.chatOff')}
        </p>
        <FieldError>{error}</FieldError>
      </div>
    </div>
  );
}
