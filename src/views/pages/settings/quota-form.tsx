// The form of the limit, the emergency reserve and the low-quota alert. What is typed stays until a save
// succeeds; the machine puts each field's error (its own check or the server's 422) under it and moves
// focus to the first. While saving the fields are read-only, not disabled, so focus stays where it was.
import {
  selectCanSave,
  selectDraftValue,
  selectFieldError,
  selectSaving,
  selectSettings,
  type SettingsQuotaActor,
} from '../../../machines/settings/quota';
import { QUOTA_FIELD_IDS, type QuotaField, type QuotaFieldError } from '../../../machines/settings/quota-rules';
import { formatNumber } from '../../charts/scale';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader } from '../../ui/card';
import { errorProps, FieldDescription, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import type { MessageKey } from '../../../i18n';
import { useSelectors } from '../../lib/selectors';

const FIELDS: { field: QuotaField; label: MessageKey; hint: MessageKey; suffix?: string }[] = [
  { field: 'sms_monthly_limit', label: 'quota.form.limit', hint: 'quota.form.limitHint' },
  { field: 'reserve_percent', label: 'quota.form.reserve', hint: 'quota.form.reserveHint', suffix: '%' },
  { field: 'alert_percent', label: 'quota.form.alert', hint: 'quota.form.alertHint', suffix: '%' },
];

const VALUE_SELECTORS = Object.fromEntries(FIELDS.map(({ field }) => [field, selectDraftValue(field)])) as Record<
  QuotaField,
  ReturnType<typeof selectDraftValue>
>;
const ERROR_SELECTORS = Object.fromEntries(FIELDS.map(({ field }) => [field, selectFieldError(field)])) as Record<
  QuotaField,
  ReturnType<typeof selectFieldError>
>;
const selectUsed = (s: Parameters<typeof selectSettings>[0]) => selectSettings(s)?.sms.used ?? 0;

/** Numbers in an error's figures are written in the locale ("1.234"). */
function errorText(t: ReturnType<typeof useT>, error: QuotaFieldError | undefined, locale: string): string | undefined {
  if (!error) return undefined;
  const params = Object.fromEntries(
    Object.entries(error.params ?? {}).map(([key, value]) => [key, typeof value === 'number' ? formatNumber(value, locale) : value]),
  );
  return t(error.key, params);
}

export function QuotaForm({ actor, locale }: { actor: SettingsQuotaActor; locale: string }) {
  const t = useT();
  const { saving, canSave, used } = useSelectors(actor, { saving: selectSaving, canSave: selectCanSave, used: selectUsed });
  return (
    <Card className="min-w-0">
      <CardHeader>
        <h3 className="text-lg leading-tight font-semibold">{t('quota.form.title')}</h3>
      </CardHeader>
      <CardContent>
        <MachineForm
          onSend={() => actor.send({ type: 'quota.save' })}
          aria-busy={saving}
          className="flex flex-col gap-4"
          data-slot="quota-form"
        >
          {FIELDS.map((spec) => (
            <QuotaInput
              key={spec.field}
              actor={actor}
              locale={locale}
              readOnly={saving}
              {...spec}
              hintParams={{ used: formatNumber(used, locale) }}
            />
          ))}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={saving || !canSave}>
              {saving ? t('quota.form.saving') : t('quota.form.save')}
            </Button>
            {!saving && !canSave ? <span className="text-sm text-muted-foreground">{t('quota.form.unchanged')}</span> : null}
          </div>
        </MachineForm>
      </CardContent>
    </Card>
  );
}

function QuotaInput({
  actor,
  locale,
  field,
  label,
  hint,
  suffix,
  readOnly,
  hintParams,
}: {
  actor: SettingsQuotaActor;
  locale: string;
  field: QuotaField;
  label: MessageKey;
  hint: MessageKey;
  suffix?: string;
  readOnly: boolean;
  hintParams: Record<string, string>;
}) {
  const t = useT();
  const { value, error } = useSelectors(actor, { value: VALUE_SELECTORS[field], error: ERROR_SELECTORS[field] });
  const id = QUOTA_FIELD_IDS[field];
  const text = errorText(t, error, locale);
  return (
    <FormField label={t(label)} htmlFor={id} error={text} errorId={`${id}-error`}>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          name={field}
          inputMode="numeric"
          autoComplete="off"
          value={value}
          readOnly={readOnly}
          {...errorProps(text, `${id}-error`, `${id}-hint`)}
          onChange={(event) => actor.send({ type: 'quota.change', field, value: event.target.value })}
          className="max-w-48"
        />
        {suffix ? <span aria-hidden="true">{suffix}</span> : null}
      </div>
      <FieldDescription id={`${id}-hint`}>{t(hint, hintParams)}</FieldDescription>
    </FormField>
  );
}
