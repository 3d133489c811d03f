// How a sent message's delivery progress reads, on the message view and the reception status view.
import { settledOf } from '../../services/delivery-progress';
import type { DeliveryProgress } from '../../services/reception-contract';

type Translate = (key: string, params?: Record<string, string | number>) => string;

/** "Enviando… 3 de 10", "Enviado" or "Enviado con fallos". */
export function progressText(t: Translate, progress: DeliveryProgress): string {
  if (progress.state === 'sending') return t('reception.progressSending', { done: settledOf(progress), total: progress.total });
  return t(progress.state === 'sent' ? 'reception.progressSent' : 'reception.progressPartial');
}
