// How a sent message's delivery progress reads, on the message view and the reception status view.
import { settledOf } from '../../../shared/delivery-progress';
import type { DeliveryProgress } from '../../../shared/reception-contract';
import { useT, type Translate } from './i18n';
import { cn } from './utils';

/** "Enviando… 3 de 10 entregas", "Enviado" or "Enviado con fallos". */
function progressText(t: Translate, progress: DeliveryProgress): string {
  if (progress.state === 'sending') return t('reception.progressSending', { done: settledOf(progress), count: progress.total });
  return t(progress.state === 'sent' ? 'reception.progressSent' : 'reception.progressPartial');
}

/**
 * The progress line, shown with its counts, and a hidden live region that announces only the change of
 * state (sending, sent, sent with failures): the counts change every poll and would be read out each time.
 */
export function ProgressText({
  progress,
  className,
  ...data
}: {
  progress: DeliveryProgress;
  className?: string;
  'data-delivery'?: string;
}) {
  const t = useT();
  return (
    <>
      <p
        data-slot="progress-text"
        {...data}
        aria-hidden={progress.state !== 'sending' || undefined}
        className={cn('text-sm', progress.state === 'partially_failed' && 'text-destructive', className)}
      >
        {progressText(t, progress)}
      </p>
      <p aria-live="polite" className="sr-only">
        {progress.state === 'sending' ? t('reception.progressState') : progressText(t, progress)}
      </p>
    </>
  );
}
