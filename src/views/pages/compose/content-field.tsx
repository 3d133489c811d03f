import { FIELD_IDS } from '../../../machines/compose/rules';
import {
  selectContent,
  selectHasChannel,
  selectIsLocked,
  selectSignatureActive,
  selectSmsFields,
  selectSmsLimit,
  selectSmsOk,
  selectSmsUnits,
  selectSmsUnsupported,
} from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { cn } from '../../lib/utils';
import { errorProps, FormField } from '../../ui/field';
import { MergeFieldArea, MergePreview } from '../templates/merge-field-area';
import { useFieldError, type ComposeActor } from './field';

/** The text, with the live SMS counter while SMS is among the channels. */
export function ContentField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { content, locked, sms } = useSelectors(compose, {
    content: selectContent,
    locked: selectIsLocked,
    sms: (s) => selectHasChannel(s, 'sms'),
  });
  const error = useFieldError(compose, 'content');
  return (
    <FormField label={t('compose.field.content')} htmlFor={FIELD_IDS.content} error={error.text} errorId={error.id}>
      <MergeFieldArea
        id={FIELD_IDS.content}
        value={content}
        readOnly={locked}
        rows={8}
        placeholder={t('compose.field.contentPlaceholder')}
        {...errorProps(error.text, error.id, sms && 'compose-sms-counter')}
        onValueChange={(value) => compose.send({ type: 'compose.change', field: 'content', value })}
      />
      <MergePreview text={content} />
      {sms && <SmsCounter compose={compose} />}
    </FormField>
  );
}

function SmsCounter({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { units, limit, ok, unsupported, signature, fields } = useSelectors(compose, {
    units: selectSmsUnits,
    limit: selectSmsLimit,
    ok: selectSmsOk,
    unsupported: selectSmsUnsupported,
    signature: selectSignatureActive,
    // The same array while its content is unchanged (compose/selectors.ts caches it).
    fields: selectSmsFields,
  });
  return (
    <div className="flex flex-col gap-1 text-xs text-muted-foreground">
      <p
        id="compose-sms-counter"
        data-slot="sms-counter"
        aria-live="polite"
        className={cn('font-medium tabular-nums', !ok && 'text-destructive')}
      >
        {t('compose.sms.counter', { units, limit })}
      </p>
      {fields.map((f) => (
        <p key={f.field} data-slot="sms-merge-field">
          {t('compose.sms.mergeField', { field: `{${f.field}}`, value: f.value, count: f.units })}
        </p>
      ))}
      <p>{t('compose.sms.accents')}</p>
      {signature && <p>{t('compose.sms.signatureDiscount')}</p>}
      {unsupported && <p className="text-destructive">{t('compose.sms.unsupported', { chars: unsupported })}</p>}
    </div>
  );
}
