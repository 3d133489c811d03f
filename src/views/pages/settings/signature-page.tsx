// /settings/message-signature (SPEC §3 "Signature", §5, §8): the signature in use, its text and
// switch, a live preview of how an SMS and an e-mail end with it and what it costs, and Guardar. The
// machine (settings/signature.ts) checks, saves, toasts and asks before leaving with unsaved changes.
import {
  selectActive,
  selectConfirmingLeave,
  selectError,
  selectFailed,
  selectHasChanges,
  selectLoadFailed,
  selectLoading,
  selectMissing,
  selectPreviewEmail,
  selectPreviewSms,
  selectSavedActive,
  selectSavedText,
  selectSaving,
  selectSmsCost,
  selectSmsLimit,
  selectText,
  selectTextLength,
  settingsSignatureMachine,
  SIGNATURE_FIELD_ID,
  SIGNATURE_KEEP_EDITING_ID,
  type SettingsSignatureActor,
  type SettingsSignatureSnapshot,
} from '../../../machines/settings/signature';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { Field, FieldDescription, FieldError, FieldLabel } from '../../ui/field';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { Switch } from '../../ui/switch';
import { MachineForm } from '../../ui/form';
import { SettingsShell } from './shell';
import { useSelectors } from '../../lib/selectors';

const ACTIVE_ID = 'signature-active';
const canSave = (s: SettingsSignatureSnapshot) => s.can({ type: 'signature.save' });
const canReset = (s: SettingsSignatureSnapshot) => s.can({ type: 'signature.reset' });
const canChange = (s: SettingsSignatureSnapshot) => s.can({ type: 'signature.change', value: '' });

export function SettingsSignaturePage() {
  const actor = usePageActor(settingsSignatureMachine, { input: undefined });
  const t = useT();
  return (
    <SettingsShell>{actor ? <SignatureScreen actor={actor} /> : <ListSkeleton label={t('signature.loading')} rows={3} />}</SettingsShell>
  );
}

function SignatureScreen({ actor }: { actor: SettingsSignatureActor }) {
  const t = useT();
  const { loading, loadFailed, missing } = useSelectors(actor, {
    loading: selectLoading,
    loadFailed: selectLoadFailed,
    missing: selectMissing,
  });
  if (loading) return <ListSkeleton label={t('signature.loading')} rows={3} />;
  if (loadFailed)
    return (
      <ListFailure
        message={t('signature.loadFailed')}
        retryLabel={t('signature.retry')}
        onRetry={() => actor.send({ type: 'signature.retry' })}
      />
    );
  return (
    <Card>
      <CardContent className="flex flex-col gap-5">
        <p className="text-sm text-muted-foreground">{t('signature.intro')}</p>
        {missing ? (
          <p role="status" data-testid="signature-missing" className="rounded-md border border-dashed p-4 text-sm">
            {t('signature.missing')}
          </p>
        ) : (
          <SignatureForm actor={actor} />
        )}
      </CardContent>
    </Card>
  );
}

function SignatureForm({ actor }: { actor: SettingsSignatureActor }) {
  const t = useT();
  const { saving, confirming, saveAllowed, resetAllowed, failed, hasChanges } = useSelectors(actor, {
    saving: selectSaving,
    confirming: selectConfirmingLeave,
    saveAllowed: canSave,
    resetAllowed: canReset,
    failed: selectFailed,
    hasChanges: selectHasChanges,
  });
  return (
    <MachineForm aria-busy={saving} className="flex flex-col gap-5" onSend={() => actor.send({ type: 'signature.save' })}>
      <InUse actor={actor} />
      <TextField actor={actor} />
      <ActiveField actor={actor} />
      <Cost actor={actor} />
      <Preview actor={actor} />
      {failed && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {t('signature.failed')}
        </p>
      )}
      {confirming ? (
        <ConfirmPanel
          title={t('signature.leave.title')}
          description={t('signature.leave.body')}
          confirmLabel={t('signature.leave.discard')}
          cancelLabel={t('signature.leave.stay')}
          destructive
          focus="cancel"
          cancelId={SIGNATURE_KEEP_EDITING_ID}
          onConfirm={() => actor.send({ type: 'signature.discard' })}
          onCancel={() => actor.send({ type: 'signature.stay' })}
        />
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          {/* Never `disabled`: focus stays on it through the save (a disabled button drops it to the page). */}
          <Button type="submit" aria-disabled={!saveAllowed || undefined} className="aria-disabled:opacity-50">
            {saving ? t('signature.saving') : t('signature.save')}
          </Button>
          {resetAllowed && (
            <Button type="button" variant="outline" onClick={() => actor.send({ type: 'signature.reset' })}>
              {t('signature.reset')}
            </Button>
          )}
          {hasChanges && !saving && <span className="text-sm text-muted-foreground">{t('signature.unsaved')}</span>}
        </div>
      )}
    </MachineForm>
  );
}

/** The signature as the server has it: after a failed save it is still this one. */
function InUse({ actor }: { actor: SettingsSignatureActor }) {
  const t = useT();
  const { text, active } = useSelectors(actor, { text: selectSavedText, active: selectSavedActive });
  return (
    <p className="text-sm">
      <span className="font-medium">{t('signature.current')}: </span>
      <span data-testid="signature-in-use">{t(active ? 'signature.currentActive' : 'signature.currentInactive', { signature: text })}</span>
    </p>
  );
}

function TextField({ actor }: { actor: SettingsSignatureActor }) {
  const t = useT();
  const { text, error, length, editable } = useSelectors(actor, {
    text: selectText,
    error: selectError,
    length: selectTextLength,
    editable: canChange,
  });
  const describedBy = [`${SIGNATURE_FIELD_ID}-hint`, `${SIGNATURE_FIELD_ID}-count`, error ? `${SIGNATURE_FIELD_ID}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <Field data-invalid={error !== null}>
      <FieldLabel htmlFor={SIGNATURE_FIELD_ID}>{t('signature.field')}</FieldLabel>
      <FieldDescription id={`${SIGNATURE_FIELD_ID}-hint`}>{t('signature.fieldHint')}</FieldDescription>
      <div className="flex flex-wrap items-center gap-3">
        <Input
          id={SIGNATURE_FIELD_ID}
          value={text}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          readOnly={!editable}
          aria-invalid={error !== null}
          aria-describedby={describedBy}
          className="w-32 font-mono text-lg"
          onChange={(event) => actor.send({ type: 'signature.change', value: event.target.value })}
        />
        <span id={`${SIGNATURE_FIELD_ID}-count`} className="text-sm text-muted-foreground">
          {t('signature.length', { count: length })}
        </span>
      </div>
      <FieldError id={`${SIGNATURE_FIELD_ID}-error`}>{error}</FieldError>
    </Field>
  );
}

function ActiveField({ actor }: { actor: SettingsSignatureActor }) {
  const t = useT();
  const { active, editable } = useSelectors(actor, { active: selectActive, editable: canChange });
  return (
    <div className="flex items-start gap-3">
      <Switch
        id={ACTIVE_ID}
        checked={active}
        disabled={!editable}
        aria-describedby={`${ACTIVE_ID}-state`}
        onCheckedChange={(checked) => actor.send({ type: 'signature.toggle', active: checked })}
      />
      <div className="flex flex-col gap-1">
        <Label htmlFor={ACTIVE_ID}>{t('signature.active')}</Label>
        <p id={`${ACTIVE_ID}-state`} className="text-sm text-muted-foreground">
          {t(active ? 'signature.activeOn' : 'signature.activeOff')}
        </p>
      </div>
    </div>
  );
}

/** What the signature takes from each SMS, by the rule the counter and the server use. */
function Cost({ actor }: { actor: SettingsSignatureActor }) {
  const t = useT();
  const { active, limit, cost } = useSelectors(actor, { active: selectActive, limit: selectSmsLimit, cost: selectSmsCost });
  return (
    <p data-testid="signature-cost" className="text-sm font-medium">
      {active ? t('signature.cost', { count: cost, limit }) : t('signature.noCost', { limit })}
    </p>
  );
}

function Preview({ actor }: { actor: SettingsSignatureActor }) {
  const t = useT();
  const sample = t('signature.preview.sample');
  const { sms, email, active, error } = useSelectors(actor, {
    sms: (s) => selectPreviewSms(s, sample),
    email: (s) => selectPreviewEmail(s, sample),
    active: selectActive,
    error: selectError,
  });
  return (
    <section aria-labelledby="signature-preview-title" aria-live="polite" className="flex flex-col gap-2">
      <h2 id="signature-preview-title" className="text-sm font-semibold">
        {t('signature.preview.heading')}
      </h2>
      {active && error !== null && <p className="text-sm text-muted-foreground">{t('signature.preview.invalid')}</p>}
      <div className="grid gap-3 sm:grid-cols-2">
        <figure className="flex min-w-0 flex-col gap-1">
          <figcaption className="text-xs font-medium text-muted-foreground">{t('signature.preview.sms')}</figcaption>
          <pre data-testid="signature-preview-sms" className="rounded-md bg-muted p-3 font-sans text-sm break-words whitespace-pre-wrap">
            {sms}
          </pre>
        </figure>
        <figure className="flex min-w-0 flex-col gap-1">
          <figcaption className="text-xs font-medium text-muted-foreground">{t('signature.preview.email')}</figcaption>
          <pre data-testid="signature-preview-email" className="rounded-md border p-3 font-sans text-sm break-words whitespace-pre-wrap">
            {email}
          </pre>
        </figure>
      </div>
    </section>
  );
}
