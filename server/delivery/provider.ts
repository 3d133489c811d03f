// SMS / WhatsApp channel adapter: speaks the small JSON API below to an HTTP provider (or a gateway in
// front of a real one); the built-in simulator (simulator.ts) implements the same API. Full description
// for operators: docs/provider-api.md.
//
//   POST {url}/messages
//   Authorization: Bearer <token>
//   Content-Type: application/json
//   { "channel": "sms" | "whatsapp", "to": "+56987654321", "body": "…", "reference": "hermes-12-0",
//     "callback_url": "https://hermes.example/api/webhooks/provider/sms" }
//   (a notice, server/delivery/notice.ts: `reference` "hermes-notice-<uuid>" and no callback_url)
//
//   202 { "id": "…", "status": "accepted" }   accepted; the outcome arrives later at callback_url
//   200 { "id": "…", "status": "…" }          `reference` seen before: the first message, not sent again
//   422 { "code": "invalid_number" | "not_mobile" | "invalid_request", "message": "…" }
//   401 / 403                                  bad token
//   429 / 5xx                                  try again later
//
// Status reports: POST callback_url with `{ id, reference, status: delivered|undelivered|failed|read, at,
// error? }` (or an array of them), header `X-Hermes-Signature: sha256=<hex HMAC-SHA256 of the raw body>`
// keyed with the shared webhook secret. Handled by server/routes/provider-webhook.ts.
//
// How answers map to SendResult:
// - 2xx with an id → sent (the report says received / read later).
// - 422/400 invalid_number / not_mobile → permanent with that code; any other 4xx → permanent `rejected`:
//   the provider will refuse this message the same way every time.
// - 401/403 → transient `provider_auth`. A wrong or rotated token is an operator mistake that affects every
//   message alike and is fixed in minutes; failing them all permanently would force a manual "retry
//   failed" on every message, while the engine's backoff gives the operator that time and still gives up
//   after its last retry.
// - 408/429/5xx, network errors, timeouts, a 2xx without an id → transient `unreachable`. Re-sending is
//   safe because `reference` (the delivery's idempotency key) makes the provider answer the first message.
import { createHmac } from 'node:crypto';
import type { ChannelAdapter, Outgoing, SendResult } from './channel';
import { normalizePhone } from '../recipients/phone';
import { postForAnswer } from './post-answer';

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

/** Header of the status reports' signature. */
export const SIGNATURE_HEADER = 'X-Hermes-Signature';

/** `sha256=<hex>` of a report's raw body. */
export const signReport = (rawBody: string | Uint8Array, secret: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;

/** Codes the provider answers for numbers it cannot text; also what we answer before calling it. */
const NUMBER_CODES = new Set(['invalid_number', 'not_mobile']);

const DEFAULT_TIMEOUT_MS = 15_000;

/** The text the provider sends: WhatsApp shows the title as its first line, an SMS carries only the text. */
function providerBody(message: Pick<Outgoing, 'channel' | 'title' | 'text'>): string {
  return message.channel === 'whatsapp' ? `${message.title}\n${message.text}` : message.text;
}

export function createProviderAdapter(options: ProviderAdapterOptions): ChannelAdapter {
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  const endpoint = `${options.url.replace(/\/+$/, '')}/messages`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function post(address: string, fields: { body: string; reference: string; callback_url?: string }, signal?: AbortSignal) {
    // The address came normalised from the database; checked again so a bad row fails here, permanently,
    // instead of costing a provider call. A '+' number parses whatever the default country.
    const phone = normalizePhone(address, 'CL');
    if (!phone.ok) return permanent(phone.reason === 'not_mobile' ? 'not_mobile' : 'invalid_number');

    const answered = await postForAnswer(
      doFetch,
      endpoint,
      {
        headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ channel: options.channel, to: phone.e164, ...fields }),
      },
      timeoutMs,
      signal,
    );
    // No answer (network error, timeout, the engine shutting down): worth another try, the reference dedupes.
    return answered ? resultOf(answered.status, answered.answer) : transient('unreachable');
  }

  return {
    send: (message, signal) =>
      post(
        message.address,
        { body: providerBody({ ...message, channel: options.channel }), reference: message.key, callback_url: options.callbackUrl },
        signal,
      ),
    // The text alone, and no callback_url: nothing about a notice is reported back (server/delivery/notice.ts).
    notify: (notice, signal) => post(notice.address, { body: notice.text, reference: notice.key }, signal),
  };
}

function resultOf(status: number, answer: unknown): SendResult {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as { id?: unknown; code?: unknown };
  if (status >= 200 && status < 300) {
    return typeof body.id === 'string' && body.id !== '' ? { ok: true, status: 'sent', providerRef: body.id } : transient('unreachable');
  }
  if (status === 401 || status === 403) return transient('provider_auth');
  if (status === 408 || status === 429 || status >= 500) return transient('unreachable');
  if (typeof body.code === 'string' && NUMBER_CODES.has(body.code)) return permanent(body.code);
  return permanent('rejected');
}

const permanent = (error: string): SendResult => ({ ok: false, kind: 'permanent', error });
const transient = (error: string): SendResult => ({ ok: false, kind: 'transient', error });
