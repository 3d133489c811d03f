// SMS / WhatsApp through Twilio Programmable Messaging (operators: docs/providers/twilio.md).
//
//   POST {apiUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json
//   Authorization: Basic base64(AccountSid:AuthToken)
//   Content-Type: application/x-www-form-urlencoded
//   To=+56987654321 | whatsapp:+56987654321, From=… | MessagingServiceSid=MG…,
//   Body=… | ContentSid=HX…&ContentVariables={"1":school,"2":title,"3":link} (WhatsApp with a template,
//   outside the family's 24-hour window),
//   StatusCallback={HERMES_PUBLIC_URL}/api/webhooks/twilio/{channel}/status?key=hermes-12-0
//
//   201 { "sid": "SM…", "status": "queued" | "accepted", … }   taken; callbacks follow
//   4xx { "code": 21211, "message": "…", "more_info": "…", "status": 400 }
//
// Answers as SendResult: 201 with a sid → sent (the callbacks say delivered / read later); an error code →
// errors.ts; 401/20003 → transient provider_auth, as the own API; 429 and 5xx → transient, the engine's
// backoff (which starts longer than any Retry-After Twilio sends). Twilio does not dedupe, so a round it
// already took is not sent again (rounds.ts).
//
// WhatsApp takes free text only inside the 24 hours after the family's last message; outside, only an
// approved template. With a template configured, `windowOpenUntil` chooses: inside, free text (title and
// text, as without a template); outside, the template. A free text Twilio refuses because the window closed
// meanwhile (63016) goes again at once as the template, as Meta's adapter does with 131047.
import { postForAnswer } from '../post-answer';
import type { TwilioSettings } from '../../config';
import { normalizePhone } from '../../recipients/phone';
import { parseDeliveryKey, type ChannelAdapter, type SendResult } from '../channel';
import type { WindowLookup } from '../meta/send';
import { templateParameters } from '../whatsapp-template';
import { errorOfAnswer } from './errors';
import type { Round } from './rounds';

export interface TwilioAdapterOptions {
  channel: 'sms' | 'whatsapp';
  settings: TwilioSettings;
  /** This server as Twilio reaches it (HERMES_PUBLIC_URL): the status callbacks go there. */
  publicUrl: string;
  /** The sid of a round Twilio already took (rounds.ts `sidOfRound`); omitted: every attempt POSTs. */
  sidOfRound?: (round: Round) => Promise<string | null>;
  /** Until when the family's WhatsApp window is open (server/inbound/window.ts); omitted: closed, the template goes. */
  windowOpenUntil?: WindowLookup;
  now?: () => Date;
  fetch?: (request: Request) => Promise<Response>;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Where Twilio reports one round's statuses: our key in the URL identifies it whatever sid Twilio gave. */
const statusCallbackUrl = (publicUrl: string, channel: 'sms' | 'whatsapp', key: string) =>
  `${publicUrl}/api/webhooks/twilio/${channel}/status?key=${encodeURIComponent(key)}`;

export const basicAuth = (settings: Pick<TwilioSettings, 'accountSid' | 'authToken'>) =>
  `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;

export function createTwilioAdapter(options: TwilioAdapterOptions): ChannelAdapter {
  const { channel, settings } = options;
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  const endpoint = `${settings.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const address = (e164: string) => (channel === 'whatsapp' ? `whatsapp:${e164}` : e164);
  const windowOpenUntil = options.windowOpenUntil ?? (async () => null);
  const now = options.now ?? (() => new Date());

  return {
    async send(message, signal) {
      // Normalised in the database already; checked again so a bad row fails here, before a paid call.
      const phone = normalizePhone(message.address, 'CL');
      if (!phone.ok) return permanent(phone.reason === 'not_mobile' ? 'not_mobile' : 'invalid_number');

      const round = parseDeliveryKey(message.key);
      if (round && options.sidOfRound) {
        // A failed look-up sends: a possible duplicate rather than a message held back.
        const sid = await options.sidOfRound({ deliveryId: round.deliveryId, generation: round.generation }).catch(() => null);
        if (sid) return { ok: true, status: 'sent', providerRef: sid };
      }

      const form = (content: { template: string } | null) => {
        const fields = addressed(phone.e164);
        if (content) {
          // The school's template names the school and the title and links to where the recipient reads it,
          // as Meta's adapter sends it.
          const [school, title, link] = templateParameters(options.publicUrl, message);
          fields.set('ContentSid', content.template);
          fields.set('ContentVariables', JSON.stringify({ 1: school, 2: title, 3: link }));
        } else {
          // WhatsApp shows the title as its first line; an SMS carries only the text (the one segment counted).
          fields.set('Body', channel === 'whatsapp' ? `${message.title}\n${message.text}` : message.text);
        }
        fields.set('StatusCallback', statusCallbackUrl(options.publicUrl, channel, message.key));
        return fields;
      };

      const template = channel === 'whatsapp' ? settings.whatsapp?.contentSid : null;
      if (!template) return resultOf(await post(form(null), signal));
      if (await isWindowOpen(phone.e164)) {
        const sent = await post(form(null), signal);
        // The window closed between the lookup and Twilio: the template instead, in the same attempt.
        if (!(sent && answerCode(sent.answer) === WINDOW_CLOSED)) return resultOf(sent);
      }
      return resultOf(await post(form({ template }), signal));
    },

    // The text alone as free text (on WhatsApp the family just wrote, so its window is open), and no
    // StatusCallback: nothing about a notice is reported back (server/delivery/notice.ts).
    async notify(notice, signal) {
      const phone = normalizePhone(notice.address, 'CL');
      if (!phone.ok) return permanent(phone.reason === 'not_mobile' ? 'not_mobile' : 'invalid_number');
      const fields = addressed(phone.e164);
      fields.set('Body', notice.text);
      return resultOf(await post(fields, signal));
    },
  };

  /** To, and From or MessagingServiceSid: the fields every message starts with. */
  function addressed(e164: string): URLSearchParams {
    const fields = new URLSearchParams();
    fields.set('To', address(e164));
    const sender = channel === 'whatsapp' ? settings.whatsapp : settings.sms;
    if (sender && 'messagingServiceSid' in sender) fields.set('MessagingServiceSid', sender.messagingServiceSid);
    else if (sender) fields.set('From', address(sender.from));
    return fields;
  }

  async function isWindowOpen(phone: string): Promise<boolean> {
    // A window that cannot be read is as good as closed: the template reaches the family either way.
    const until = await windowOpenUntil(phone).catch(() => null);
    return until !== null && until.getTime() > now().getTime();
  }

  // No answer is null: Twilio may have taken it all the same; its first callback records the sid, and the
  // retry then finds it instead of sending twice.
  function post(form: URLSearchParams, signal?: AbortSignal) {
    return postForAnswer(
      doFetch,
      endpoint,
      { headers: { Authorization: basicAuth(settings), 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() },
      timeoutMs,
      signal,
    );
  }
}

/** Twilio's error for free text outside the 24-hour window (errors.ts). */
const WINDOW_CLOSED = 63016;

const answerCode = (answer: unknown): unknown =>
  typeof answer === 'object' && answer !== null ? (answer as { code?: unknown }).code : undefined;

function resultOf(sent: { status: number; answer: unknown } | null): SendResult {
  if (!sent) return transient('unreachable');
  const { status, answer } = sent;
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as { sid?: unknown; code?: unknown };
  if (status >= 200 && status < 300) {
    return typeof body.sid === 'string' && body.sid !== '' ? { ok: true, status: 'sent', providerRef: body.sid } : transient('unreachable');
  }
  const { kind, error } = errorOfAnswer(status, body.code);
  return { ok: false, kind, error };
}

const permanent = (error: string): SendResult => ({ ok: false, kind: 'permanent', error });
const transient = (error: string): SendResult => ({ ok: false, kind: 'transient', error });
