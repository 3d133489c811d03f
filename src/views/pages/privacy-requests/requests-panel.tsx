// A person's requests on their privacy page: «Bloquear envíos» (who asked, then confirm; then the date and
// «Quitar bloqueo») and «Eliminar sus datos» (a dialog with what goes, the word to type, the server's
// answer), and the link to their entries in the audit log. What is offered is what the machine can do now.
import { useId } from 'react';
import { Link } from 'wouter';
import { BLOCK_REQUESTERS, ERASURE_CONFIRMATION, type ErasureCounts } from '../../../../shared/privacy-requests-contract';
import type { PrivacyKind } from '../../../../shared/privacy-contract';
import {
  selectBlockedAt,
  selectBlockRequester,
  selectCanBlock,
  selectCanConfirmBlock,
  selectCanConfirmErasure,
  selectCanErase,
  selectCanLift,
  selectChoosingRequester,
  selectChosenRequester,
  selectConfirmation,
  selectErasedAt,
  selectErasing,
  selectErasureOpen,
  selectFailed,
  selectFailureText,
  selectImpediment,
  selectPreview,
  selectRequestsBusy,
  type PrivacyRequestsActor,
} from '../../../machines/privacy-requests/requests';
import { useLocaleZone, useT } from '../../lib/i18n';
import { formatDay } from '../../lib/format';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { InputField } from '../../ui/input-field';
import { Radio } from '../../ui/radio';

const COUNT_KEYS: readonly (keyof ErasureCounts)[] = [
  'mensajes_escritos',
  'adjuntos',
  'mensajes_recibidos',
  'entregas',
  'sesiones',
  'historial_contacto',
  'mensajes_entrantes',
  'listas',
];

/** `/audit` filtered to the person's entries. */
const auditHref = (kind: PrivacyKind, id: number): string =>
  `/audit?${new URLSearchParams({ subject_kind: kind, subject_id: String(id) })}`;

export function RequestsPanel({ actor, kind, id }: { actor: PrivacyRequestsActor; kind: PrivacyKind; id: number }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-3" data-slot="privacy-request-actions">
      <Status actor={actor} />
      <Actions actor={actor} />
      <BlockForm actor={actor} />
      <Failure actor={actor} />
      <Link
        className="self-start text-sm text-primary underline underline-offset-4"
        href={auditHref(kind, id)}
        data-slot="privacy-audit-link"
      >
        {t('privacyRequests.audit')}
      </Link>
      <ErasureDialog actor={actor} />
    </div>
  );
}

function Status({ actor }: { actor: PrivacyRequestsActor }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { blockedAt, requester, erasedAt } = useSelectors(actor, {
    blockedAt: selectBlockedAt,
    requester: selectBlockRequester,
    erasedAt: selectErasedAt,
  });
  if (erasedAt)
    return (
      <p className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm" data-slot="privacy-erased">
        {t('privacyRequests.erased', { date: formatDay(erasedAt, locale, timezone) })}
      </p>
    );
  if (!blockedAt || !requester) return null;
  return (
    <p className="rounded-md border bg-muted/40 p-3 text-sm" data-slot="privacy-blocked">
      {t('privacyRequests.blocked', { date: formatDay(blockedAt, locale, timezone), who: t(`privacyRequests.requesterBy.${requester}`) })}
    </p>
  );
}

function Actions({ actor }: { actor: PrivacyRequestsActor }) {
  const t = useT();
  const { canBlock, canLift, canErase, busy } = useSelectors(actor, {
    canBlock: selectCanBlock,
    canLift: selectCanLift,
    canErase: selectCanErase,
    busy: selectRequestsBusy,
  });
  if (!canBlock && !canLift && !canErase && !busy) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {canBlock && (
        <Button type="button" variant="outline" size="sm" onClick={() => actor.send({ type: 'block.start' })}>
          {t('privacyRequests.block')}
        </Button>
      )}
      {canLift && (
        <Button type="button" variant="outline" size="sm" onClick={() => actor.send({ type: 'block.lift' })}>
          {t('privacyRequests.lift')}
        </Button>
      )}
      {canErase && (
        <Button type="button" variant="destructive" size="sm" onClick={() => actor.send({ type: 'erasure.start' })}>
          {t('privacyRequests.erase')}
        </Button>
      )}
      {busy && (
        <span role="status" className="self-center text-sm text-muted-foreground">
          {t('privacyRequests.working')}
        </span>
      )}
    </div>
  );
}

function BlockForm({ actor }: { actor: PrivacyRequestsActor }) {
  const t = useT();
  const name = useId();
  const { open, chosen, canConfirm, busy } = useSelectors(actor, {
    open: selectChoosingRequester,
    chosen: selectChosenRequester,
    canConfirm: selectCanConfirmBlock,
    busy: selectRequestsBusy,
  });
  if (!open) return null;
  return (
    <form
      className="flex flex-col gap-3 rounded-md border p-3"
      data-slot="privacy-block-form"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'block.confirm' });
      }}
    >
      <p className="text-sm text-muted-foreground">{t('privacyRequests.blockIntro')}</p>
      <fieldset className="flex flex-col gap-1" disabled={busy}>
        <legend className="mb-1 text-sm font-medium">{t('privacyRequests.whoAsked')}</legend>
        {BLOCK_REQUESTERS.map((requester) => (
          <label key={requester} className="flex items-center gap-2 text-sm">
            <Radio
              name={name}
              value={requester}
              checked={chosen === requester}
              onChange={() => actor.send({ type: 'block.choose', requester })}
            />
            {t(`privacyRequests.requester.${requester}`)}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={!canConfirm}>
          {busy ? t('privacyRequests.working') : t('privacyRequests.confirmBlock')}
        </Button>
        <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => actor.send({ type: 'block.cancel' })}>
          {t('privacyRequests.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** A failure outside the erasure dialog (blocking, lifting, reading the preview). */
function Failure({ actor }: { actor: PrivacyRequestsActor }) {
  const t = useT();
  const { failed, text, dialog } = useSelectors(actor, { failed: selectFailed, text: selectFailureText, dialog: selectErasureOpen });
  if (!failed || dialog) return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {text ?? t('privacyRequests.failed')}
    </p>
  );
}

function ErasureDialog({ actor }: { actor: PrivacyRequestsActor }) {
  const t = useT();
  const inputId = useId();
  const { open, preview, impediment, typed, canConfirm, erasing, failed, text } = useSelectors(actor, {
    open: selectErasureOpen,
    preview: selectPreview,
    impediment: selectImpediment,
    typed: selectConfirmation,
    canConfirm: selectCanConfirmErasure,
    erasing: selectErasing,
    failed: selectFailed,
    text: selectFailureText,
  });
  const cancel = () => actor.send({ type: 'erasure.cancel' });
  return (
    <Dialog open={open} onOpenChange={(next) => !next && !erasing && cancel()}>
      <DialogContent role="alertdialog" data-slot="privacy-erasure-dialog" className="overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t('privacyRequests.eraseTitle')}</DialogTitle>
          <DialogDescription>{t('privacyRequests.eraseIntro')}</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'erasure.confirm' });
          }}
        >
          <section aria-labelledby={`${inputId}-what`} className="flex flex-col gap-1">
            <h3 id={`${inputId}-what`} className="text-sm font-medium">
              {t('privacyRequests.willRemove')}
            </h3>
            <ul className="list-disc pl-5 text-sm" data-slot="privacy-erasure-counts">
              <li>{t('privacyRequests.identity')}</li>
              {preview &&
                COUNT_KEYS.filter((key) => preview[key] > 0).map((key) => (
                  <li key={key} data-count={key}>
                    {t(`privacyRequests.counts.${key}`, { count: preview[key] })}
                  </li>
                ))}
            </ul>
          </section>
          {impediment && (
            <p role="alert" data-slot="privacy-erasure-impediment" className="text-sm font-medium text-destructive">
              {impediment}
            </p>
          )}
          <InputField
            id={inputId}
            label={t('privacyRequests.typeWord', { word: ERASURE_CONFIRMATION })}
            value={typed}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            disabled={erasing || impediment !== null}
            error={{ text: failed ? (text ?? t('privacyRequests.failed')) : null, id: `${inputId}-error` }}
            onValueChange={(value) => actor.send({ type: 'erasure.type', text: value })}
          />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={erasing} onClick={cancel}>
              {t('privacyRequests.cancel')}
            </Button>
            <Button type="submit" variant="destructive" disabled={!canConfirm}>
              {erasing ? t('privacyRequests.erasing') : t('privacyRequests.confirmErase')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
