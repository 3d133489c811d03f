// The WhatsApp channel through Meta's Cloud API (docs/providers/meta-whatsapp.md).
//
//   POST {graph}/{version}/{phone-number-id}/messages   Authorization: Bearer <token>
//   { messaging_product: "whatsapp", recipient_type: "individual", to, type: "template" | "text", …,
//     biz_opaque_callback_data: <delivery key> }
//   200 { messaging_product, contacts: [{ input, wa_id }], messages: [{ id: "wamid.…" }] }
//   4xx/5xx { error: { code, message, error_data: { details } } }
//
// A business may write freely only inside the 24-hour window that opens when the family writes to it;
// outside it, only an approved template. So each message goes as the configured template (the school, the
// title, a link to read it) unless `windowOpenUntil` says the window is open, when it goes as free text
// (title and text, as the own provider API sends them). A text Meta refuses because the window closed
// meanwhile (131047) is sent again at once as the template.
//
// Meta keeps no idempotency key: a crash between its answer and the engine's record sends the message twice
// (the engine re-sends with the same key). The key rides as biz_opaque_callback_data, so a status that
// arrives before the record still finds its delivery (server/delivery/meta/statuses.ts).
import { postForAnswer } from '../post-answer';
import type { MetaWhatsappConfig } from '../../config';
import { normalizePhone } from '../../recipients/phone';
import type { ChannelAdapter, Outgoing, SendResult } from '../channel';
import { templateParameters } from '../whatsapp-template';
import { graphErrorMeaning } from './errors';
import { bearer, type GraphFetch, graphErrorCode, graphUrl } from './graph';

/**
 * Until when the family's phone (E.164) has an open customer-service window with the school's number: its
 * last message to us plus 24 hours; null when it never wrote or that has passed.
 */
export type WindowLookup = (phone: string) => Promise<Date | null>;

/** Without a record of the families' messages, the window is closed: the template always goes. */
const CLOSED: WindowLookup = async () => null;

export interface MetaAdapterOptions {
  config: Pick<MetaWhatsappConfig, 'graphUrl' | 'graphVersion' | 'token' | 'phoneNumberId' | 'template' | 'templateLang'>;
  /** This server as families reach it (HERMES_PUBLIC_URL): the template's link. */
  publicUrl: string;
  windowOpenUntil?: WindowLookup;
  fetch?: GraphFetch;
  timeoutMs?: number;
  now?: () => Date;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Meta's limit for a text message's body. */
const TEXT_MAX = 4096;

function templateBody(options: Pick<MetaAdapterOptions, 'config' | 'publicUrl'>, message: Outgoing, to: string) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: options.config.template,
      language: { code: options.config.templateLang },
      components: [
        {
          type: 'body',
          parameters: templateParameters(options.publicUrl, message).map((text) => ({ type: 'text', text })),
        },
      ],
    },
    biz_opaque_callback_data: message.key,
  };
}

function textBody(message: Outgoing, to: string) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'text',
    text: { body: `${message.title}\n${message.text}`.slice(0, TEXT_MAX), preview_url: false },
    biz_opaque_callback_data: message.key,
  };
}

export function createMetaWhatsappAdapter(options: MetaAdapterOptions): ChannelAdapter {
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  const endpoint = graphUrl(options.config, `${options.config.phoneNumberId}/messages`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const windowOpenUntil = options.windowOpenUntil ?? CLOSED;
  const now = options.now ?? (() => new Date());

  const post = (body: object, signal?: AbortSignal) =>
    postForAnswer(
      doFetch,
      endpoint,
      { headers: { ...bearer(options.config), 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      timeoutMs,
      signal,
    );

  return {
    async send(message, signal) {
      // Normalised in the database; checked again so a bad row fails here, without a call to Meta.
      const phone = normalizePhone(message.address, 'CL');
      if (!phone.ok) return permanent(phone.reason === 'not_mobile' ? 'not_mobile' : 'invalid_number');
      const to = phone.e164.slice(1);

      // A window that cannot be read is as good as closed: the template reaches the family either way.
      const until = await windowOpenUntil(phone.e164).catch(() => null);
      const open = until !== null && until.getTime() > now().getTime();

      if (open) {
        const sent = await post(textBody(message, to), signal);
        const result = resultOf(sent);
        // The window closed between the lookup and Meta: the template instead, in the same attempt.
        if (!(sent && graphErrorCode(sent.answer) === 131047)) return result;
      }
      return resultOf(await post(templateBody(options, message, to), signal));
    },

    // Free text, never the template: the family just wrote, so its window is open. No callback data: Meta
    // reports the notice's statuses all the same, and a wamid no delivery has changes nothing
    // (server/delivery/notice.ts).
    async notify(notice, signal) {
      const phone = normalizePhone(notice.address, 'CL');
      if (!phone.ok) return permanent(phone.reason === 'not_mobile' ? 'not_mobile' : 'invalid_number');
      return resultOf(
        await post(
          {
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            to: phone.e164.slice(1),
            type: 'text',
            text: { body: notice.text.slice(0, TEXT_MAX), preview_url: false },
          },
          signal,
        ),
      );
    },
  };
}

function resultOf(sent: { status: number; answer: unknown } | null): SendResult {
  if (!sent) return transient('unreachable');
  const { status, answer } = sent;
  if (status >= 200 && status < 300) {
    const messages = typeof answer === 'object' && answer !== null ? (answer as { messages?: unknown }).messages : undefined;
    const id = Array.isArray(messages) ? (messages[0] as { id?: unknown } | undefined)?.id : undefined;
    // Without the wamid the outcome is unknown; another try is the only way to learn it.
    return typeof id === 'string' && id !== '' ? { ok: true, status: 'sent', providerRef: id } : transient('unreachable');
  }
  const meaning = graphErrorMeaning(graphErrorCode(answer), status);
  return { ok: false, kind: meaning.kind, error: meaning.error };
}

const permanent = (error: string): SendResult => ({ ok: false, kind: 'permanent', error });
const transient = (error: string): SendResult => ({ ok: false, kind: 'transient', error });
