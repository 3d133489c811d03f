// A notice: one short text to a phone that is no delivery (docs/decisions/0253-a-notice-is-not-a-delivery.md).
// The opt-out confirmation is the one today. It goes through the channel's adapter (`notify`), straight from
// the request that asked for it: no queue, no message, no reception row, no quota; its provider is asked for
// no status report, and `reference` is a key no delivery has, so a report that comes anyway changes nothing.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log';
import type { Adapters } from './channel';

/** A notice's key: never a delivery's (`parseDeliveryKey` answers null). */
const noticeKey = (): string => `hermes-notice-${randomUUID()}`;

export type NoticeSender = (channel: 'sms' | 'whatsapp', phone: string, text: string) => Promise<void>;

/**
 * Sends through `adapters`; throws when the provider refuses or cannot be reached (the caller logs it, a
 * notice is not retried). Without adapters (an app built with no delivery, in tests of other areas) it
 * only says so.
 */
export function noticeSender(adapters: Pick<Adapters, 'sms' | 'whatsapp'> | null, logger?: Logger): NoticeSender {
  return async (channel, phone, text) => {
    if (!adapters) {
      logger?.info(`Aviso por ${channel} no enviado: este proceso no envía mensajes`);
      return;
    }
    const adapter = adapters[channel];
    if (!adapter.notify) throw new Error(`El canal ${channel} no envía avisos`);
    const result = await adapter.notify({ key: noticeKey(), address: phone, text });
    if (!result.ok) throw new Error(`Aviso por ${channel} no enviado: ${result.error}`);
  };
}
