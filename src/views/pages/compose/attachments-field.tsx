import { useState, type DragEvent } from 'react';
import { FIELD_IDS } from '../../../machines/compose/rules';
import { selectAttachmentList, selectIsLocked, selectIsSmsOffered } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { cn } from '../../lib/utils';
import { errorProps, FieldDescription, FieldError } from '../../ui/field';
import { ChooseFiles } from './attachment-item';
import { AttachmentList } from './attachment-list';
import { useFieldError, type ComposeActor } from './field';

/** Drop zone and file chooser; the files go to compose, which admits them by the rules. */
export function AttachmentsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { list, locked, smsOffered } = useSelectors(compose, {
    list: selectAttachmentList,
    locked: selectIsLocked,
    smsOffered: selectIsSmsOffered,
  });
  const error = useFieldError(compose, 'attachments');
  // Purely visual: highlights the drop zone while a file is dragged over it.
  const [over, setOver] = useState(false);

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setOver(false);
    // While the message is being sent, compose ignores it.
    const files = Array.from(e.dataTransfer.files);
    if (files.length > 0) compose.send({ type: 'attachment.add', files });
  }

  return (
    <div role="group" aria-labelledby="compose-attachments-label" className="flex flex-col gap-2">
      <span id="compose-attachments-label" className="text-sm font-medium">
        {t('compose.attachments.label')}
      </span>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping files is the pointer's shortcut; the button inside is the way by keyboard. */}
      <div
        data-slot="drop-zone"
        data-over={over || undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-md border border-dashed px-4 py-4 text-sm text-muted-foreground',
          over && 'border-primary bg-accent',
          error.text && 'border-destructive',
        )}
      >
        <span>{t('compose.attachments.drop')}</span>
        <ChooseFiles
          id={FIELD_IDS.attachments}
          disabled={locked}
          {...errorProps(error.text, error.id, 'compose-attachments-limits')}
          onFiles={(files) => compose.send({ type: 'attachment.add', files })}
        >
          {t('compose.attachments.choose')}
        </ChooseFiles>
      </div>
      <FieldDescription id="compose-attachments-limits">
        {t('compose.attachments.limits')}
        {/* The one-file limit is SMS's: told only where SMS can be chosen. */}
        {smsOffered && ` ${t('compose.attachments.smsLimit')}`}
      </FieldDescription>
      {list && (
        <AttachmentList
          list={list}
          label={t('compose.attachments.list')}
          onRemove={(key) => compose.send({ type: 'attachment.remove', key })}
          onRetry={(key) => compose.send({ type: 'attachment.retry', key })}
        />
      )}
      <FieldError id={error.id}>{error.text}</FieldError>
    </div>
  );
}
