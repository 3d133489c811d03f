// Twilio's webhooks (server/delivery/twilio/, docs/providers/twilio.md): status callbacks of the messages we
// sent and messages families send us, per channel:
//   POST /api/webhooks/twilio/{sms|whatsapp}/status?key=hermes-12-0
//   POST /api/webhooks/twilio/{sms|whatsapp}/incoming
// Only the channels Twilio serves (TwilioSettings.sms / .whatsapp) answer; the other is a 404.
// Authenticated by X-Twilio-Signature (over HERMES_PUBLIC_URL + path + query and the form), so CSRF does not
// apply; a missing or wrong signature is a 401 and nothing is written. Unknown sids are acknowledged and
// ignored: an error would only make Twilio try again something we will never apply.
import { Hono, type Context } from 'hono';
import type { TwilioSettings } from '../config';
import type { Db } from '../db/client';
import { inboundOf } from '../delivery/twilio/inbound';
import { isTwilioSigned, TWILIO_SIGNATURE_HEADER } from '../delivery/twilio/signature';
import { applyTwilioCallback } from '../delivery/twilio/status';
import type { AppEnv } from '../http/env';
import { apiError, invalid, notFound } from '../http/errors';
import { INBOUND_BUSY_RETRY_AFTER, InboundBusy, type InboundHandler } from '../inbound/contract';
import type { Logger } from '../log';

export interface TwilioWebhookOptions {
  settings: TwilioSettings;
  /** This server as Twilio calls it (HERMES_PUBLIC_URL): what the signatures are computed over. */
  publicUrl: string;
  /** Takes a family's message once it is authenticated and parsed (the inbound domain). */
  onInbound: InboundHandler;
  logger?: Logger;
  /** Fetches inbound media (tests: a local fake's). */
  fetch?: (request: Request) => Promise<Response>;
}

const BAD_SIGNATURE = 'La firma de Twilio no es válida.';

/** An empty TwiML answer: Twilio sends nothing back on its own; replies are Hermes's to make. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

export function twilioWebhookRoutes(db: Db, options: TwilioWebhookOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  /** The form of a request Twilio signed, or null. */
  async function signedForm(c: Context<AppEnv>): Promise<URLSearchParams | null> {
    const form = new URLSearchParams(await c.req.text());
    const url = `${options.publicUrl}${c.req.path}${new URL(c.req.url).search}`;
    return isTwilioSigned(options.settings.authToken, c.req.header(TWILIO_SIGNATURE_HEADER), url, form) ? form : null;
  }

  /**
   * The channel in the path, when Twilio serves it here: with WhatsApp through Meta (or a gateway), a post
   * signed with the Twilio token that serves SMS must not bring WhatsApp statuses or messages (404).
   */
  const channelOf = (c: Context<AppEnv>) => {
    const channel = c.req.param('channel');
    return (channel === 'sms' || channel === 'whatsapp') && options.settings[channel] ? channel : null;
  };

  app.post('/:channel/status', async (c) => {
    const channel = channelOf(c);
    if (!channel) return notFound(c);
    const form = await signedForm(c);
    if (!form) return apiError(c, 401, 'auth.unauthenticated', BAD_SIGNATURE);
    const sid = form.get('MessageSid') ?? form.get('SmsSid') ?? '';
    const status = form.get('MessageStatus') ?? form.get('SmsStatus') ?? '';
    if (status === '') return invalid(c, { MessageStatus: ['Falta MessageStatus.'] });
    const applied = await applyTwilioCallback(
      db,
      { channel, key: c.req.query('key') ?? null, sid, status, errorCode: form.get('ErrorCode') },
      options.logger,
    );
    return c.json({ data: { applied: applied ? 1 : 0 } });
  });

  app.post('/:channel/incoming', async (c) => {
    const channel = channelOf(c);
    if (!channel) return notFound(c);
    const form = await signedForm(c);
    if (!form) return apiError(c, 401, 'auth.unauthenticated', BAD_SIGNATURE);
    const message = inboundOf(channel, form, options.settings, options.fetch);
    if (!message) return invalid(c, { From: ['Falta From o MessageSid.'] });
    try {
      await options.onInbound(message);
    } catch (err) {
      // Still being handled by the request Twilio sent first (the handler waited for it a while): not
      // taken as handled, shown in Twilio's debugger, and repeated by Twilio when its retry policy says so.
      if (err instanceof InboundBusy) {
        return c.body(EMPTY_TWIML, 503, { 'Content-Type': 'text/xml; charset=utf-8', 'Retry-After': INBOUND_BUSY_RETRY_AFTER });
      }
      // Not recorded: a 500 shows in Twilio's debugger, and the family's message is not taken as handled.
      options.logger?.error(`Twilio: no se pudo registrar el mensaje entrante ${message.providerId}`, err);
      return c.body(EMPTY_TWIML, 500, { 'Content-Type': 'text/xml; charset=utf-8' });
    }
    return c.body(EMPTY_TWIML, 200, { 'Content-Type': 'text/xml; charset=utf-8' });
  });

  return app;
}
