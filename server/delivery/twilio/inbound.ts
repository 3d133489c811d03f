// Twilio's incoming-message webhook as Hermes's InboundMessage (server/inbound/contract.ts): who wrote,
// what, and the media Twilio keeps for us, fetched with the account's credentials when the handler wants it.
import type { TwilioSettings } from '../../config';
import type { InboundMedia, InboundMessage } from '../../inbound/contract';
import { readMediaBody } from '../media-download';
import { basicAuth } from './adapter';

/**
 * What the database cannot keep (NUL) and invisible controls, as the API's text guard refuses them
 * (server/http/text-guard.ts); a family's message is not refused for them, they are dropped. (Form decoding
 * already turns malformed UTF-8 into U+FFFD, so no lone surrogate gets this far.)
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what is dropped.
const UNKEPT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

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
  return {
    channel,
    from,
    provider: 'twilio',
    providerId: sid,
    body: (params.get('Body') ?? '').replace(UNKEPT, ''),
    receivedAt: new Date(),
    media,
  };
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
  return readMediaBody(response);
}
