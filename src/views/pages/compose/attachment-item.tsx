import { useSelector } from '@xstate/react';
import {
  selectErrorKey,
  selectName,
  selectPercent,
  selectSize,
  selectStatus,
  type AttachmentActorRef,
} from '../../../machines/compose/attachment';
import { formatBytes } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { Button } from '../../ui/button';
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
  const name = useSelector(attachment, selectName);
  const size = useSelector(attachment, selectSize);
  const status = useSelector(attachment, selectStatus);
  const percent = useSelector(attachment, selectPercent);
  const errorKey = useSelector(attachment, selectErrorKey);
  const errorId = `${attachment.id}-error`;
  return (
    <li data-slot="attachment" data-status={status} className="flex flex-col gap-1.5 rounded-md border px-3 py-2" aria-describedby={errorKey ? errorId : undefined}>
      <div className="flex items-center gap-3 text-sm">
        <span className="min-w-0 flex-1 truncate font-medium">{name}</span>
        <span className="shrink-0 text-muted-foreground">{formatBytes(size)}</span>
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
