// Twilio's error codes as Hermes reads them: whether trying again can help, and the short code the
// reception screen names in Spanish (src/i18n/reception/*.json `errorCode`). The same code arrives either
// in the answer to our POST (mostly 21xxx: refused before sending) or later in a status callback's
// `ErrorCode` (30xxx carriers, 63xxx WhatsApp). Codes from Twilio's error reference
// (https://www.twilio.com/docs/api/errors/<code>); an unknown one falls back on the HTTP status or the
// callback's status.

interface TwilioError {
  /** Hermes's short error code (shared/reception-contract.ts). */
  error: string;
  /** Whether a retry of the same message may work (only read for answers to our POST). */
  kind: 'permanent' | 'transient';
}

const permanent = (error: string): TwilioError => ({ error, kind: 'permanent' });
const transient = (error: string): TwilioError => ({ error, kind: 'transient' });

export const TWILIO_ERRORS: Readonly<Record<number, TwilioError>> = {
  // The number itself.
  21211: permanent('invalid_number'), // Invalid 'To' Phone Number
  30005: permanent('unknown_handset'), // Unknown destination handset: the carrier does not know it
  21614: permanent('not_mobile'), // 'To' number is not a valid mobile number
  21635: permanent('not_mobile'), // 'To' number cannot be a landline
  30006: permanent('not_mobile'), // Landline or unreachable carrier
  30003: permanent('handset_unreachable'), // Unreachable destination handset: off, no signal
  30008: permanent('undelivered'), // Unknown error from the carrier
  // The family or their carrier said no.
  21610: permanent('unsubscribed'), // Attempt to send to unsubscribed recipient (they texted STOP)
  30004: permanent('blocked'), // Message blocked (by the recipient or their carrier)
  63014: permanent('blocked'), // WhatsApp: blocked by the user
  30007: permanent('filtered'), // Message filtered: the carrier took it for spam
  // WhatsApp.
  63016: permanent('whatsapp_window'), // Free text outside the 24-hour window: needs an approved template
  63003: permanent('not_on_whatsapp'), // Channel could not find the To address
  63024: permanent('not_on_whatsapp'), // Invalid message recipient
  // Our side: credentials, sender, or limits. The operator fixes these; the engine's backoff gives them time
  // (and the device colours do not blame the family for them: server/reception/status.ts).
  20003: transient('provider_auth'), // Authenticate: wrong Account SID or auth token
  30002: transient('provider_auth'), // Account suspended
  21606: transient('provider_config'), // The From number is not an SMS-capable number of this account
  21659: transient('provider_config'), // The From is not a Twilio number
  21212: transient('provider_config'), // Invalid From number
  63007: transient('provider_config'), // WhatsApp: no sender with this From
  21703: transient('provider_config'), // Messaging Service has no senders
  20429: transient('unreachable'), // Too Many Requests
  14107: transient('unreachable'), // SMS rate limit exceeded
  63018: transient('unreachable'), // WhatsApp rate limit exceeded
  30001: transient('unreachable'), // Queue overflow
};

/** What an answer to our POST means when it carries no code we know: by its HTTP status. */
export function errorOfAnswer(status: number, code: unknown): TwilioError {
  const known = typeof code === 'number' ? TWILIO_ERRORS[code] : undefined;
  if (known) return known;
  if (status === 401 || status === 403 || status === 404) return transient('provider_auth');
  if (status === 408 || status === 429 || status >= 500) return transient('unreachable');
  return permanent('rejected');
}

/** The error recorded for a status callback's `ErrorCode`, or `fallback` when there is none or it is not ours. */
export function errorOfCallback(code: string | null, fallback: string): string {
  const known = code && /^\d+$/.test(code) ? TWILIO_ERRORS[Number(code)] : undefined;
  return known?.error ?? fallback;
}
