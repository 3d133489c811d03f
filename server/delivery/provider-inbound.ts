// What families write, as a gateway of the own provider API brings it (docs/provider-api.md, "Incoming
// messages"): checked and turned into Hermes's InboundMessage (server/inbound/contract.ts). The route only
// checks the signature and answers (server/routes/provider-webhook.ts).
//
//   POST /api/webhooks/provider/{sms|whatsapp}/incoming   X-Hermes-Signature: sha256=<hex>
//   { "id": "…", "from": "+56987654321", "body": "…", "at"?: ISO 8601,
//     "media"?: [{ "url": "https://…", "content_type": "image/jpeg", "filename"?: "…" }] }   or an array of them
//
// The gateway's message is refused (422) only for what it got wrong itself: a missing id, a number that is
// not one, a malformed date or file. What the family wrote is never refused: invisible control characters
// are dropped from the text, as the database cannot keep some of them.
import { isStorableDate } from '../db/time';
import type { InboundMedia, InboundMessage } from '../inbound/contract';
import { normalizeAnyPhone } from '../recipients/phone';
import { isPublicHttpUrl, readMediaBody } from './media-download';

/** Where the gateway's files are fetched with its token: its own API's origin only. */
export interface GatewayCredentials {
  /** The channel's provider URL (SMS_PROVIDER_URL / WHATSAPP_PROVIDER_URL); null with the simulator. */
  url: string | null;
  token: string;
}

/** Most messages in one request, and files in one message (Twilio's and WhatsApp's own limit is 10). */
const MAX_MESSAGES = 100;
const MAX_MEDIA = 10;
/** An id longer than this is not an id; the text is cut at ten concatenated SMS' worth twice over. */
const MAX_ID = 200;
const MAX_BODY = 8000;

/** What the database cannot keep (NUL) and invisible controls; tab and line breaks stay. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what is dropped.
const UNKEPT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: an id with them is not one the database can keep.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]|\p{Cs}/u;

export type GatewayParse = { ok: true; messages: InboundMessage[] } | { ok: false; errors: Record<string, string[]> };

type Field = 'body' | 'id' | 'from' | 'at' | 'media';

export function gatewayInboundOf(
  channel: 'sms' | 'whatsapp',
  parsed: unknown,
  credentials: GatewayCredentials | null,
  fetchFn: (request: Request) => Promise<Response> = (request) => fetch(request),
  now: () => Date = () => new Date(),
): GatewayParse {
  const items = Array.isArray(parsed) ? parsed : [parsed];
  if (items.length === 0 || items.length > MAX_MESSAGES) {
    return refuse('body', `Envíe entre 1 y ${MAX_MESSAGES} mensajes por solicitud.`);
  }
  const messages: InboundMessage[] = [];
  for (const [index, item] of items.entries()) {
    // In a list, the error names the message by its position, so the gateway can find it.
    const where = Array.isArray(parsed) ? `Mensaje ${index + 1}: ` : '';
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return refuse('body', `${where}cada mensaje debe ser un objeto JSON.`);
    }
    const { id, from, body, at, media } = item as Record<string, unknown>;
    if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_ID || CONTROL.test(id)) {
      return refuse('id', `${where}falta el identificador del mensaje (id, hasta ${MAX_ID} caracteres).`);
    }
    const phone = typeof from === 'string' ? normalizeAnyPhone(from.replace(/^whatsapp:/i, '')) : null;
    if (!phone?.ok) return refuse('from', `${where}el número de quien escribe (from) no es un celular válido en formato E.164.`);
    if (typeof body !== 'string' || body.length > MAX_BODY) {
      return refuse('body', `${where}el texto (body) debe ser un texto de hasta ${MAX_BODY} caracteres.`);
    }
    let receivedAt = now();
    if (at !== undefined && at !== null) {
      const when = typeof at === 'string' ? new Date(at) : new Date(Number.NaN);
      if (!isStorableDate(when)) return refuse('at', `${where}la fecha (at) debe estar en formato ISO 8601.`);
      // A gateway's clock ahead of ours must not open WhatsApp's window into the future.
      if (when.getTime() < receivedAt.getTime()) receivedAt = when;
    }
    const files = mediaOf(media, credentials, fetchFn);
    if (!files) {
      return refuse('media', `${where}los archivos (media) deben ser una lista de hasta ${MAX_MEDIA} con url http(s) y content_type.`);
    }
    if (body.trim() === '' && files.length === 0) return refuse('body', `${where}el mensaje no trae texto ni archivos.`);
    messages.push({
      channel,
      from: phone.e164,
      provider: 'gateway',
      providerId: id,
      body: body.replace(UNKEPT, ''),
      receivedAt,
      media: files,
    });
  }
  return { ok: true, messages };
}

const refuse = (field: Field, message: string): GatewayParse => ({ ok: false, errors: { [field]: [message] } });

function mediaOf(
  media: unknown,
  credentials: GatewayCredentials | null,
  fetchFn: (request: Request) => Promise<Response>,
): InboundMedia[] | null {
  if (media === undefined || media === null) return [];
  if (!Array.isArray(media) || media.length > MAX_MEDIA) return null;
  const files: InboundMedia[] = [];
  for (const file of media) {
    if (typeof file !== 'object' || file === null) return null;
    const { url, content_type: contentType, filename } = file as Record<string, unknown>;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !URL.canParse(url)) return null;
    if (typeof contentType !== 'string' || contentType.trim() === '' || contentType.length > 200) return null;
    if (filename !== undefined && filename !== null && (typeof filename !== 'string' || filename.length > 255)) return null;
    files.push({
      contentType,
      filename: typeof filename === 'string' && filename.trim() !== '' ? filename : null,
      download: (signal) => download(url, credentials, fetchFn, signal),
    });
  }
  return files;
}

async function download(
  url: string,
  credentials: GatewayCredentials | null,
  fetchFn: (request: Request) => Promise<Response>,
  signal?: AbortSignal,
): Promise<Buffer> {
  // The provider token goes only to the gateway's own API (the address Hermes sends through); a file kept
  // elsewhere (a storage link signed for the occasion) is fetched as it is, without our credential. A
  // redirect to another origin loses the Authorization header in fetch itself.
  const ours = credentials?.url ? new URL(url).origin === new URL(credentials.url).origin : false;
  if (ours && credentials) {
    const response = await fetchFn(
      new Request(url, { headers: { Authorization: `Bearer ${credentials.token}` }, ...(signal ? { signal } : {}) }),
    );
    if (!response.ok) throw new Error(`Proveedor: el archivo del mensaje respondió ${response.status}`);
    return readMediaBody(response);
  }
  // Elsewhere, only a public address, and each redirect checked again: the gateway's message must not make
  // Hermes fetch from its own machine or network (a cloud's metadata address, an internal service).
  let next = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!isPublicHttpUrl(next)) throw new Error('Proveedor: el archivo del mensaje no está en una dirección pública');
    const response = await fetchFn(new Request(next, { redirect: 'manual', ...(signal ? { signal } : {}) }));
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) {
      if (!response.ok) throw new Error(`Proveedor: el archivo del mensaje respondió ${response.status}`);
      return readMediaBody(response);
    }
    await response.body?.cancel();
    next = new URL(location, next).href;
  }
  throw new Error('Proveedor: el archivo del mensaje redirige demasiadas veces');
}

/** Redirects followed to a gateway's file kept elsewhere. */
const MAX_REDIRECTS = 3;
