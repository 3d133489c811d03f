// A person's contact fields (people/contact-form.ts), one place for them: the list member editor's dialog, a
// student's or guardian's record and a new guardian show the same fields, labels, hints and field errors
// (under each field, `aria-invalid`, `role="alert"`). The texts are the member editor's (`recipient-lists`).
import { DOCUMENT_TYPES } from '../../../../shared/recipient-lists-contract';
import { prefixesFor, type ContactField, type ContactForm, type PhonePrefix } from '../../../machines/people/contact-form';
import type { FieldErrors } from '../../../machines/recipient-lists/recipient-lists';
import { useT } from '../../lib/i18n';
import { FieldError } from '../../ui/field';
import { Label } from '../../ui/label';
import { NativeSelect } from '../../ui/native-select';
import { FieldText, useErrorText } from '../recipient-lists/form-bits';

export function ContactFields({
  form,
  errors,
  disabled,
  schoolPrefix,
  idOf,
  onChange,
}: {
  form: ContactForm;
  errors: FieldErrors;
  disabled: boolean;
  schoolPrefix: PhonePrefix;
  /** Each field's element id (two forms may share a screen). */
  idOf: (field: ContactField) => string;
  onChange: (field: ContactField, value: string) => void;
}) {
  const t = useT();
  const errorText = useErrorText();
  const phoneError = errorText(errors.phone);
  const documentError = errorText(errors.tipo_documento_id);
  const phoneId = idOf('phone');
  const documentId = idOf('tipo_documento_id');
  /** One of the contact's text fields, by its name in the form. */
  const textField = (
    field: 'nombres' | 'apellido_paterno' | 'apellido_materno' | 'email' | 'dni',
    extra: Partial<React.ComponentProps<typeof FieldText>> = {},
  ) => (
    <FieldText
      id={idOf(field)}
      label={t(`recipientLists.editor.${field}`)}
      value={form[field]}
      error={errors[field]}
      disabled={disabled}
      autoComplete="off"
      onChange={(value) => onChange(field, value)}
      {...extra}
    />
  );
  return (
    <>
      {textField('nombres')}
      {textField('apellido_paterno')}
      {textField('apellido_materno', { hint: t('recipientLists.editor.apellidoMaternoHint') })}
      {textField('email', { type: 'email', inputMode: 'email' })}
      <div data-slot="field" className="flex flex-col gap-1.5">
        <Label htmlFor={phoneId}>{t('recipientLists.editor.phone')}</Label>
        <div className="flex gap-2">
          <NativeSelect
            aria-label={t('recipientLists.editor.prefix')}
            value={form.prefix}
            disabled={disabled}
            onChange={(e) => onChange('prefix', e.currentTarget.value)}
          >
            {prefixesFor(schoolPrefix).map((prefix) => (
              <option key={prefix} value={prefix}>
                {t('recipientLists.editor.prefixOption', {
                  country: t(`recipientLists.editor.prefixCountry.${prefix.slice(1) as '56'}`),
                  prefix,
                })}
              </option>
            ))}
          </NativeSelect>
          <input
            id={phoneId}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            data-slot="input"
            value={form.phone}
            disabled={disabled}
            aria-invalid={phoneError ? true : undefined}
            aria-describedby={[`${phoneId}-hint`, phoneError ? `${phoneId}-error` : ''].filter(Boolean).join(' ')}
            onChange={(e) => onChange('phone', e.currentTarget.value)}
            className="h-9 w-full min-w-0 rounded-md border border-input bg-card px-3 py-1 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/30 aria-invalid:border-destructive md:text-sm"
          />
        </div>
        <p id={`${phoneId}-hint`} className="text-xs text-muted-foreground">
          {t('recipientLists.editor.phoneHint')}
        </p>
        <FieldError id={`${phoneId}-error`}>{phoneError}</FieldError>
      </div>
      <div data-slot="field" className="flex flex-col gap-1.5">
        <Label htmlFor={documentId}>{t('recipientLists.editor.tipo_documento_id')}</Label>
        <NativeSelect
          id={documentId}
          value={form.tipo_documento_id}
          disabled={disabled}
          aria-invalid={documentError ? true : undefined}
          aria-describedby={documentError ? `${documentId}-error` : undefined}
          onChange={(e) => onChange('tipo_documento_id', e.currentTarget.value)}
        >
          <option value="">{t('recipientLists.editor.documentNone')}</option>
          {Object.values(DOCUMENT_TYPES).map((id) => (
            <option key={id} value={String(id)}>
              {t(`recipientLists.editor.document.${id}`)}
            </option>
          ))}
        </NativeSelect>
        <FieldError id={`${documentId}-error`}>{documentError}</FieldError>
      </div>
      {textField('dni', { hint: t('recipientLists.editor.dniHint') })}
    </>
  );
}
