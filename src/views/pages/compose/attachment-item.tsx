import {
  selectErrorKey,
  selectName,
  selectPercent,
  selectSize,
  selectStatus,
  type AttachmentActorRef,
} from '../../../machines/compose/attachment';
import { formatBytes } from '../../lib/format';
import type * as React from 'react';
import { useLocale, useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { cn } from '../../lib/utils';
import { Button, buttonVariants } from '../../ui/button';
import { Progress } from '../../ui/progress';

/** One file of the message: name, size, upload progress, its own error, delete or retry. */
export function AttachmentItem({
  attachment,
  onRemove,
  onRetry,
}: {
  attachment: AttachmentActorRef;
  onRemove: () => void;
  onRetry: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const { name, size, status, percent, errorKey } = useSelectors(attachment, {
    name: selectName,
    size: selectSize,
    status: selectStatus,
    percent: selectPercent,
    errorKey: selectErrorKey,
  });
  const errorId = `${attachment.id}-error`;
  return (
    <li
      data-slot="attachment"
      data-status={status}
      className="flex flex-col gap-1.5 rounded-md border px-3 py-2"
      aria-describedby={errorKey ? errorId : undefined}
    >
      <div className="flex items-center gap-3 text-sm">
        <span className="min-w-0 flex-1 truncate font-medium">{name}</span>
        <span className="shrink-0 text-muted-foreground">{formatBytes(size, locale)}</span>
        {status === 'failed' && (
          <Button size="sm" variant="outline" aria-label={t('compose.attachments.retryNamed', { name })} onClick={onRetry}>
            {t('compose.attachments.retry')}
          </Button>
        )}
        <Button
          size="sm"
          variant="ghost"
          aria-label={t('compose.attachments.remove', { name })}
          disabled={status === 'deleting' || status === 'uploading'}
          onClick={onRemove}
        >
          <svg aria-hidden viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M18 6 6 18M6 6l12 12" />
          </svg>
        </Button>
      </div>
      {status === 'uploading' && <Progress value={percent} aria-label={t('compose.attachments.uploading', { name })} />}
      {status === 'deleting' && <span className="text-xs text-muted-foreground">{t('compose.attachments.deleting')}</span>}
      {errorKey && (
        <p id={errorId} role="alert" className="text-xs text-destructive">
          {t(errorKey)}
        </p>
      )}
    </li>
  );
}

/**
 * "Elegir archivos": a button-looking label over a hidden file input (the keyboard reaches the input, the ring
 * shows on the label). The files chosen are handed on; the input is cleared, so choosing the same file again
 * (after removing it) is a change too.
 */
export function ChooseFiles({
  id,
  fit = false,
  onFiles,
  children,
  ...props
}: Omit<React.ComponentProps<'input'>, 'type' | 'multiple' | 'className' | 'onChange'> & {
  id: string;
  fit?: boolean;
  onFiles: (files: File[]) => void;
}) {
  return (
    <label
      htmlFor={id}
      className={cn(
        buttonVariants({ variant: 'outline', size: 'sm' }),
        fit && 'w-fit',
        'cursor-pointer has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40',
      )}
    >
      {children}
      <input
        id={id}
        type="file"
        multiple
        className="sr-only"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = '';
          if (files.length > 0) onFiles(files);
        }}
        {...props}
      />
    </label>
  );
}
