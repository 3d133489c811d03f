// What Meta's Graph error codes mean for a delivery: retried (our side: credentials, the account, the
// template, throughput, Meta being down) or given up (this number, this message). The same code may come
// back at once, in the answer to the send, or later, in a `failed` status of the webhook (Meta's "WhatsApp
// error codes" page); both read this table. Meta says to branch on `code`, never on the HTTP status or the
// message text.
//
// Hermes' short codes (shared/reception-contract.ts, named in Spanish in src/i18n/reception/*.json):
// - provider_auth, provider_account, provider_template, unreachable: our side; retried with the engine's
//   backoff, and never counted against the guardian's phone (server/reception/status.ts, device_misses).
// - whatsapp_undeliverable, whatsapp_window, invalid_number, rejected: this message to this number.

/** Where a failed status leaves the delivery's reception, besides its code. */
type Reception = 'not_received' | 'error';

export interface GraphErrorMeaning {
  kind: 'transient' | 'permanent';
  error: string;
  /** For a `failed` status of the webhook: the family's phone did not get it, or it went wrong. */
  reception: Reception;
}

const ourSide = (error: string): GraphErrorMeaning => ({ kind: 'transient', error, reception: 'error' });
const theirs = (error: string, reception: Reception = 'error'): GraphErrorMeaning => ({ kind: 'permanent', error, reception });

const BY_CODE = new Map<number, GraphErrorMeaning>([
  // Authorization: the token expired, was revoked or lacks the WhatsApp permissions.
  [0, ourSide('provider_auth')],
  [3, ourSide('provider_auth')],
  [10, ourSide('provider_auth')],
  [190, ourSide('provider_auth')],
  // The business account or its number: locked, unpaid, restricted, not registered.
  [368, ourSide('provider_account')],
  [130497, ourSide('provider_account')],
  [131031, ourSide('provider_account')],
  [131042, ourSide('provider_account')],
  [133010, ourSide('provider_account')],
  // Throughput: the app's calls, the number's messages, one pair's messages, the spam limit.
  [4, ourSide('unreachable')],
  [80007, ourSide('unreachable')],
  [130429, ourSide('unreachable')],
  [131048, ourSide('unreachable')],
  [131056, ourSide('unreachable')],
  // Meta down or something it could not say.
  [1, ourSide('unreachable')],
  [2, ourSide('unreachable')],
  [131000, ourSide('unreachable')],
  [131016, ourSide('unreachable')],
  // The number: not on WhatsApp, blocked us, old client, terms not accepted; Meta chose not to deliver.
  [131026, theirs('whatsapp_undeliverable', 'not_received')],
  [131049, theirs('whatsapp_undeliverable', 'not_received')],
  [131050, theirs('whatsapp_undeliverable', 'not_received')],
  [131021, theirs('invalid_number')],
  // Free text after the 24-hour window closed: only the template may go (a new round sends it).
  [131047, theirs('whatsapp_window', 'not_received')],
  // This message: a parameter Meta refuses, a type it does not take.
  [100, theirs('rejected')],
  [131008, theirs('rejected')],
  [131009, theirs('rejected')],
  [131051, theirs('rejected')],
]);

/**
 * The meaning of a Graph error code. Template errors (132000–132069: missing, paused, disabled, wrong
 * parameters or language) are the operator's to fix in WhatsApp Manager or META_WHATSAPP_TEMPLATE, for every
 * message alike: retried, like a wrong token. The other 200–299 are permissions. Anything unknown: a 5xx,
 * 429 or 408 is Meta's trouble, a 401/403 our credentials, any other answer (or a webhook's) this message's.
 */
export function graphErrorMeaning(code: number | null, httpStatus: number | null = null): GraphErrorMeaning {
  if (code !== null) {
    const known = BY_CODE.get(code);
    if (known) return known;
    if (code >= 132000 && code < 133000) return ourSide('provider_template');
    if (code >= 200 && code <= 299) return ourSide('provider_auth');
  }
  // Without an HTTP status (a failed status of the webhook), an unknown code is this message's.
  if (httpStatus === null) return theirs('rejected');
  if (httpStatus === 401 || httpStatus === 403) return ourSide('provider_auth');
  if (httpStatus === 408 || httpStatus === 429 || httpStatus >= 500) return ourSide('unreachable');
  return theirs('rejected');
}
