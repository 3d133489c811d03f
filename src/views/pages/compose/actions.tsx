import {
  selectCanSchedule,
  selectCanSend,
  selectFailureMessage,
  selectHasError,
  selectHasFailed,
  selectHasSchedule,
  selectIsBusy,
  selectIsConfirming,
  selectIsEstimating,
  selectIsSavingDraft,
  selectIsScheduling,
  selectIsSending,
  selectIsSubmitting,
} from '../../../machines/compose/selectors';
import { SUBMIT_BUTTON_ID } from '../../../machines/compose/rules';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { Button } from '../../ui/button';
import type { ComposeActor } from './field';

/** The main button's texts: «Enviar» / «Enviando…», «Programar» / «Programando…». */
const SUBMIT = {
  send: { idle: 'compose.actions.send', running: 'compose.actions.sending' },
  schedule: { idle: 'compose.actions.schedule', running: 'compose.actions.scheduling' },
} as const;

/** Save, send or schedule; the failed send's retry; the confirmation once the estimate is shown. */
export function Actions({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const {
    busy,
    saving,
    estimating,
    sending,
    scheduling,
    submitting,
    failed,
    hasSchedule,
    failure,
    invalid,
    unreachable,
    canSend,
    canSchedule,
    confirming,
  } = useSelectors(compose, {
    busy: selectIsBusy,
    saving: selectIsSavingDraft,
    estimating: selectIsEstimating,
    sending: selectIsSending,
    scheduling: selectIsScheduling,
    submitting: selectIsSubmitting,
    failed: selectHasFailed,
    hasSchedule: selectHasSchedule,
    failure: selectFailureMessage,
    invalid: (s) => selectHasError(s, 'quota'),
    // Not offered when the estimate found nobody the chosen channels reach (its reason is said above).
    unreachable: (s) => selectHasError(s, 'reach'),
    canSend: selectCanSend,
    canSchedule: selectCanSchedule,
    confirming: selectIsConfirming,
  });
  const action = hasSchedule ? 'schedule' : 'send';
  if (confirming) return <ConfirmSend compose={compose} scheduled={hasSchedule} />;
  return (
    <div className="flex flex-col gap-3 border-t pt-4">
      {failed && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm"
        >
          <div className="flex flex-1 flex-col">
            <span className="font-medium text-destructive">{t('error.send')}</span>
            {failure && <span className="text-muted-foreground">{failure}</span>}
            <span className="text-muted-foreground">{t('compose.failedHint')}</span>
          </div>
          <Button type="button" size="sm" onClick={() => compose.send({ type: 'compose.retry' })}>
            {t('compose.actions.retry')}
          </Button>
        </div>
      )}
      <div role="group" aria-label={t('compose.actions.label')} aria-busy={busy} className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" disabled={busy} onClick={() => compose.send({ type: 'compose.save' })}>
          {saving && <ButtonSpinner />}
          {t(saving ? 'compose.actions.saving' : 'compose.actions.save')}
        </Button>
        {/* «Programar» once a date is typed, «Enviar» otherwise: one button, its event and texts by that. */}
        <Button
          id={SUBMIT_BUTTON_ID}
          type="button"
          disabled={busy || !(hasSchedule ? canSchedule : canSend)}
          aria-invalid={invalid || unreachable || undefined}
          aria-describedby={unreachable ? 'compose-reach-error' : undefined}
          onClick={() => compose.send({ type: `compose.${action}` })}
        >
          {submitting && <ButtonSpinner />}
          {t((hasSchedule ? scheduling : sending) ? SUBMIT[action].running : estimating ? 'compose.actions.checking' : SUBMIT[action].idle)}
        </Button>
      </div>
    </div>
  );
}

/** The cost is on screen (EstimateSummary above): nothing leaves until the author confirms it. */
function ConfirmSend({ compose, scheduled }: { compose: ComposeActor; scheduled: boolean }) {
  const t = useT();
  return (
    <ConfirmPanel
      title={t(scheduled ? 'compose.confirm.scheduleTitle' : 'compose.confirm.sendTitle')}
      describedBy="compose-estimate"
      confirmLabel={t(scheduled ? 'compose.confirm.schedule' : 'compose.confirm.send')}
      cancelLabel={t('compose.confirm.back')}
      className="gap-3 border-primary/40 bg-accent/40 p-4"
      onConfirm={() => compose.send({ type: 'compose.confirm' })}
      onCancel={() => compose.send({ type: 'compose.cancel' })}
    />
  );
}

function ButtonSpinner() {
  return <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}
