// SCAFFOLD (issue 5, in progress): the SMS / WhatsApp HTTP provider adapter. Replaced by its real body.
import type { ChannelAdapter } from './channel';

export interface ProviderAdapterOptions {
  channel: 'sms' | 'whatsapp';
  /** Base URL of the provider's JSON API. */
  url: string;
  token: string;
  /** Where the provider posts status reports for this channel. */
  callbackUrl: string;
  /** Defaults to the global fetch; the built-in simulator passes its in-process fetch. */
  fetch?: (request: Request) => Promise<Response>;
  timeoutMs?: number;
}

export function createProviderAdapter(_options: ProviderAdapterOptions): ChannelAdapter {
  return { send: async () => ({ ok: false, kind: 'transient', error: 'not_implemented' }) };
}
