// The template editor (a dialog: a new template starts empty, SPEC §3), the question it asks before
// dropping unsaved changes, and the question before deleting.
import { useSelector } from '@xstate/react';

import { KEEP_EDITING_BUTTON_ID, TEMPLATE_FIELD_IDS, type TemplateField } from '../../../machines/templates/rules';
import {
  selectConfirmingDelete,
  selectConfirmingDiscard,
  selectDraftContent,
  selectDraftName,
  selectEditorOpen,
  selectFieldError,
  selectIsNew,
  selectIsSaving,
  selectOriginalName,
  selectTargetName,
  type TemplatesActor,
} from '../../../machines/templates/templates';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { describedBy, FormField } from '../../ui/field';
import { InputField } from '../../ui/input-field';
import { MachineForm } from '../../ui/form';
import { MergeFieldArea, MergePreview } from './merge-field-area';
import { SmsSize } from './sms-size';

const selectNameError = selectFieldError('name');
const selectContentError = selectFieldError('content');

function useFieldError(actor: TemplatesActor, field: TemplateField) {
  const t = useT();
  const error = useSelector(actor, field === 'name' ? selectNameError : selectContentError);
  return { text: error ? t(error.key, error.params) : null, id: `${TEMPLATE_FIELD_IDS[field]}-error` };
}

/**
 * Create or edit an own template. Escape, a click outside and Cancelar close it at once when untouched;
 * with unsaved changes they ask «¿Descartar los cambios?» in place of the editor's buttons (focus on
 * "Seguir editando"; Escape keeps editing, a click outside does nothing while it is asked). A save that
 * fails keeps it open with everything typed and the fields marked.
 */
export function TemplateEditor({ actor }: { actor: TemplatesActor }) {
  const t = useT();
  const { open, saving, isNew, name, content, asking } = useSelectors(actor, {
    open: selectEditorOpen,
    saving: selectIsSaving,
    isNew: selectIsNew,
    name: selectDraftName,
    content: selectDraftContent,
    asking: selectConfirmingDiscard,
  });
  const nameError = useFieldError(actor, 'name');
  const contentError = useFieldError(actor, 'content');
  const close = () => actor.send({ type: 'templates.close' });
  const change = (field: TemplateField, value: string) => actor.send({ type: 'templates.change', field, value });
  const keepEditing = () => actor.send({ type: 'templates.keepEditing' });
  return (
    <Dialog open={open} onOpenChange={(next) => !next && !saving && close()}>
      <DialogContent
        className="max-w-2xl overflow-y-auto"
        aria-busy={saving}
        // Focus returns to the button that opened it (the machine emits it), not Radix's guess.
        onCloseAutoFocus={(e) => e.preventDefault()}
        // While «¿Descartar los cambios?» is asked, Escape answers it ("Seguir editando", once: AlertPanel
        // sees it handled) and a click outside does not close what the question is about.
        onEscapeKeyDown={(e) => {
          if (!asking) return;
          e.preventDefault();
          keepEditing();
        }}
        onInteractOutside={(e) => asking && e.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{t(isNew ? 'templates.editor.createTitle' : 'templates.editor.editTitle')}</DialogTitle>
          <DialogDescription>{t('templates.editor.description')}</DialogDescription>
        </DialogHeader>
        <MachineForm className="flex min-w-0 flex-col gap-4" onSend={() => actor.send({ type: 'templates.save' })}>
          <InputField
            label={t('templates.editor.name')}
            id={TEMPLATE_FIELD_IDS.name}
            error={nameError}
            value={name}
            readOnly={saving}
            autoComplete="off"
            placeholder={t('templates.editor.namePlaceholder', { guardians: t('terms.guardians') })}
            onValueChange={(value) => change('name', value)}
          />
          <FormField
            label={t('templates.editor.content')}
            htmlFor={TEMPLATE_FIELD_IDS.content}
            error={contentError.text}
            errorId={contentError.id}
          >
            <MergeFieldArea
              id={TEMPLATE_FIELD_IDS.content}
              value={content}
              readOnly={saving}
              rows={7}
              placeholder={t('templates.editor.contentPlaceholder')}
              aria-invalid={contentError.text ? true : undefined}
              aria-describedby={describedBy(contentError.text && contentError.id, 'template-sms-size')}
              onValueChange={(value) => change('content', value)}
            />
            <SmsSize id="template-sms-size" content={content} />
            <MergePreview text={content} />
          </FormField>
          {asking ? (
            <DiscardQuestion actor={actor} isNew={isNew} />
          ) : (
            <DialogFooter>
              <Button type="button" variant="outline" disabled={saving} onClick={close}>
                {t('templates.editor.cancel')}
              </Button>
              <Button type="submit" disabled={saving}>
                {t(saving ? 'templates.editor.saving' : 'templates.editor.save')}
              </Button>
            </DialogFooter>
          )}
        </MachineForm>
      </DialogContent>
    </Dialog>
  );
}

/** «¿Descartar los cambios?», in place of the editor's buttons: "Descartar" closes it, "Seguir editando" (first) stays. */
function DiscardQuestion({ actor, isNew }: { actor: TemplatesActor; isNew: boolean }) {
  const t = useT();
  const name = useSelector(actor, selectOriginalName);
  return (
    <ConfirmPanel
      title={t('templates.discardConfirm.title')}
      description={isNew ? t('templates.discardConfirm.bodyNew') : t('templates.discardConfirm.bodyEdit', { name })}
      confirmLabel={t('templates.discardConfirm.discard')}
      cancelLabel={t('templates.discardConfirm.keep')}
      destructive
      focus="cancel"
      cancelId={KEEP_EDITING_BUTTON_ID}
      className="border-destructive/40 bg-destructive/5"
      onConfirm={() => actor.send({ type: 'templates.discard' })}
      onCancel={() => actor.send({ type: 'templates.keepEditing' })}
    />
  );
}

/** «¿Eliminar la plantilla?»: focus starts on Eliminar plantilla; Cancelar or Escape return to the row's button. */
export function DeleteDialog({ actor }: { actor: TemplatesActor }) {
  const t = useT();
  const { open, name } = useSelectors(actor, { open: selectConfirmingDelete, name: selectTargetName });
  return (
    <ConfirmDialog
      open={open}
      title={t('templates.deleteConfirm.title')}
      description={t('templates.deleteConfirm.body', { name })}
      confirmLabel={t('templates.deleteConfirm.confirm')}
      cancelLabel={t('templates.deleteConfirm.cancel')}
      destructive
      onConfirm={() => actor.send({ type: 'templates.confirm' })}
      onCancel={() => actor.send({ type: 'templates.cancel' })}
    />
  );
}
