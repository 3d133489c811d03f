// Twilio's incoming-message webhook as Hermes's InboundMessage (server/inbound/contract.ts): who wrote,
// what, and the media Twilio keeps for us, fetched with the account's credentials when the handler wants it.
import type { TwilioSettings } from '../../config';
import type { InboundMedia, InboundMessage } from '../../inbound/contract';
import { basicAuth } from './adapter';

/** Twilio attaches at most 10 media to a message. */
const MAX_MEDIA = 10;

export function inboundOf(
  channel: 'sms' | 'whatsapp',
  params: URLSearchParams,
  settings: TwilioSettings,
  fetchFn: (request: Request) => Promise<Response> = (request) => fetch(request),
): InboundMessage | null {
  const from = (params.get('From') ?? '').replace(/^whatsapp:/i, '').trim();
  const sid = params.get('MessageSid') ?? params.get('SmsSid') ?? '';
  if (from === '' || sid === '') return null;
  const count = Math.min(Number.parseInt(params.get('NumMedia') ?? '0', 10) || 0, MAX_MEDIA);
  const media: InboundMedia[] = [];
  for (let n = 0; n < count; n++) {
    const url = params.get(`MediaUrl${n}`);
    if (!url) continue;
    media.push({
      contentType: params.get(`MediaContentType${n}`) ?? 'application/octet-stream',
      filename: null,
      download: (signal) => downloadMedia(url, settings, fetchFn, signal),
    });
  }
  return { channel, from, provider: 'twilio', providerId: sid, body: params.get('Body') ?? '', receivedAt: new Date(), media };
}

async function downloadMedia(
  url: string,
  settings: TwilioSettings,
  fetchFn: (request: Request) => Promise<Response>,
  signal?: AbortSignal,
): Promise<Buffer> {
  // Our credentials go only to Twilio's own API; a media URL elsewhere is fetched as it is. (Twilio's media
  // URL answers with a redirect to its storage, which fetch follows without the Authorization header.)
  const ours = new URL(url).origin === new URL(settings.apiUrl).origin;
  const response = await fetchFn(
    new Request(url, { headers: ours ? { Authorization: basicAuth(settings) } : {}, ...(signal ? { signal } : {}) }),
  );
  if (!response.ok) throw new Error(`Twilio: el archivo del mensaje respondió ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
