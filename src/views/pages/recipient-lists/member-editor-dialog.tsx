// "Editar datos de contacto": the SPEC §3 "user to edit" fields of a list member, over the member editor
// actor (recipient-lists/member-editor.ts). The server's Spanish error shows under each refused field; nothing typed is
// lost; the note says the change reaches every list and future message. Someone who may not change the record
// (only the school's leadership may) reads it, with whom to ask and a way to write to them.
import type { ActorRefFrom } from 'xstate';
import { formatPhone } from '../../../../shared/phone-format';
import {
  type memberEditorMachine,
  memberFieldId,
  selectEditorCanRequest,
  selectEditorErrors,
  selectEditorNote,
  selectEditorRequested,
  selectEditorRequesting,
  selectEditorFailed,
  selectEditorForm,
  selectEditorLoadFailed,
  selectEditorLoading,
  selectEditorName,
  selectEditorReadOnly,
  selectEditorSaving,
  selectEditorSchoolPrefix,
} from '../../../machines/recipient-lists/member-editor';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { FieldError } from '../../ui/field';
import { Label } from '../../ui/label';
import { Textarea } from '../../ui/textarea';
import { Spinner } from '../../ui/spinner';
import { MachineForm } from '../../ui/form';
import { useErrorText } from './form-bits';
import { ContactFields } from '../people/contact-fields';
import { useSelectors } from '../../lib/selectors';

type EditorActor = ActorRefFrom<typeof memberEditorMachine>;

export function MemberEditorDialog({ editor }: { editor: EditorActor }) {
  const t = useT();
  const { loading, loadFailed, readOnly } = useSelectors(editor, {
    loading: selectEditorLoading,
    loadFailed: selectEditorLoadFailed,
    readOnly: selectEditorReadOnly,
  });
  return (
    <Dialog open onOpenChange={(open) => !open && editor.send({ type: 'editor.cancel' })}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{t(readOnly ? 'recipientLists.editor.readTitle' : 'recipientLists.editor.title')}</DialogTitle>
          <DialogDescription>{t(readOnly ? 'recipientLists.editor.readOnly' : 'recipientLists.editor.note')}</DialogDescription>
        </DialogHeader>
        {loading ? (
          <Spinner label={t('recipientLists.editor.loading')} />
        ) : loadFailed ? (
          <div role="alert" className="flex flex-col items-start gap-3">
            <p>{t('recipientLists.editor.loadFailed')}</p>
            <div className="flex gap-2">
              <Button onClick={() => editor.send({ type: 'editor.retry' })}>{t('recipientLists.retry')}</Button>
              <Button variant="outline" onClick={() => editor.send({ type: 'editor.cancel' })}>
                {t('recipientLists.editor.cancel')}
              </Button>
            </div>
          </div>
        ) : readOnly ? (
          <ReadOnlyRecord editor={editor} />
        ) : (
          <EditorForm editor={editor} />
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The record as someone who may not change it reads it, and «Solicitar corrección»: what is wrong, sent to
 * the leadership as a message; then that it was sent.
 */
function ReadOnlyRecord({ editor }: { editor: EditorActor }) {
  const t = useT();
  const { form, name, note, canRequest, requesting, requested, failed, errors } = useSelectors(editor, {
    form: selectEditorForm,
    name: selectEditorName,
    note: selectEditorNote,
    canRequest: selectEditorCanRequest,
    requesting: selectEditorRequesting,
    requested: selectEditorRequested,
    failed: selectEditorFailed,
    errors: selectEditorErrors,
  });
  const errorText = useErrorText();
  const none = <span className="text-muted-foreground">—</span>;
  const phone = form.phone === '' ? '' : formatPhone(`${form.prefix}${form.phone}`);
  const rows: [string, string][] = [
    [t('recipientLists.editor.nombres'), form.nombres],
    [t('recipientLists.editor.apellido_paterno'), form.apellido_paterno],
    [t('recipientLists.editor.apellido_materno'), form.apellido_materno],
    [t('recipientLists.editor.email'), form.email],
    [t('recipientLists.editor.phone'), phone],
    [t('recipientLists.editor.dni'), form.dni],
  ];
  const noteError = errorText(errors.form);
  const close = (
    <Button type="button" variant="outline" onClick={() => editor.send({ type: 'editor.cancel' })}>
      {t('recipientLists.editor.close')}
    </Button>
  );
  return (
    <div data-slot="contact-record" className="flex flex-col gap-3">
      <p className="font-medium">{name}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-all">{value === '' ? none : value}</dd>
          </div>
        ))}
      </dl>
      {requested ? (
        <>
          <p role="status" className="text-sm">
            {t('recipientLists.editor.requested')}
          </p>
          <DialogFooter>{close}</DialogFooter>
        </>
      ) : (
        <MachineForm className="flex flex-col gap-3" onSend={() => editor.send({ type: 'editor.request' })}>
          <p className="text-sm">{t('recipientLists.editor.requestHint')}</p>
          <div data-slot="field" className="flex flex-col gap-1.5">
            <Label htmlFor={memberFieldId('form')}>{t('recipientLists.editor.requestNote')}</Label>
            <Textarea
              id={memberFieldId('form')}
              value={note}
              rows={3}
              disabled={requesting}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? `${memberFieldId('form')}-error` : undefined}
              onChange={(e) => editor.send({ type: 'editor.note', value: e.currentTarget.value })}
            />
            <FieldError id={`${memberFieldId('form')}-error`}>{noteError}</FieldError>
          </div>
          {failed && (
            <p role="alert" className="text-sm text-destructive">
              {t('recipientLists.editor.requestFailed')}
            </p>
          )}
          <DialogFooter>
            {close}
            <Button type="submit" disabled={!canRequest} aria-busy={requesting || undefined}>
              {t(requesting ? 'recipientLists.editor.requesting' : 'recipientLists.editor.request')}
            </Button>
          </DialogFooter>
        </MachineForm>
      )}
    </div>
  );
}

function EditorForm({ editor }: { editor: EditorActor }) {
  const t = useT();
  const { form, errors, saving, failed, name, schoolPrefix } = useSelectors(editor, {
    schoolPrefix: selectEditorSchoolPrefix,
    form: selectEditorForm,
    errors: selectEditorErrors,
    saving: selectEditorSaving,
    failed: selectEditorFailed,
    name: selectEditorName,
  });
  const errorText = useErrorText();
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <MachineForm aria-label={name} className="flex flex-col gap-3" onSend={() => editor.send({ type: 'editor.save' })}>
      <p className="font-medium">{name}</p>
      <ContactFields
        form={form}
        errors={errors}
        disabled={saving}
        schoolPrefix={schoolPrefix}
        idOf={memberFieldId}
        onChange={(field, value) => editor.send({ type: 'editor.change', field, value })}
      />
      {(failed || errors.form) && (
        <p role="alert" className="text-sm text-destructive">
          {errors.form ? errorText(errors.form) : t('recipientLists.editor.failed')}
        </p>
      )}
      {hasErrors && !errors.form && <p className="text-sm text-destructive">{t('recipientLists.editor.review')}</p>}
      <DialogFooter>
        <Button type="button" variant="outline" disabled={saving} onClick={() => editor.send({ type: 'editor.cancel' })}>
          {t('recipientLists.editor.cancel')}
        </Button>
        <Button type="submit" disabled={saving} aria-busy={saving || undefined}>
          {t(saving ? 'recipientLists.editor.saving' : 'recipientLists.editor.save')}
        </Button>
      </DialogFooter>
    </MachineForm>
  );
}
