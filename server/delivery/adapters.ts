// The four channel adapters the engine hands deliveries to, built from the settings: e-mail (SMTP or the
// .eml outbox), SMS and WhatsApp (a provider's HTTP API, by default the built-in simulator), and the app.
import type { ServerConfig } from '../config';
import { withLogo } from '../school-logo/logo-html';
import type { Adapters, ChannelAdapter, Outgoing, SendResult } from './channel';
import { classifyEmailError, createEmailAdapter, deliveryMessageId } from './email';
import { createProviderAdapter } from './provider';
import { createMetaWhatsappAdapter, type WindowLookup } from './meta/send';
import { createTwilioAdapter } from './twilio/adapter';
import { sidOfRound } from './twilio/rounds';
import type { Queryable } from '../db/client';
import type { ProviderSimulator } from './simulator';
import type { PushSender } from '../push/send';

function emailChannel(options: { smtpUrl?: string; outboxDir: string; from: string }): ChannelAdapter {
  const email = createEmailAdapter(options);
  return {
    start: () => email.start(),
    async send(message: Outgoing): Promise<SendResult> {
      // With the school's logo, an HTML alternative shows it above the same text; without, plain text only.
      const logo = message.logo
        ? withLogo({ subject: message.title, text: message.text, school: message.institutionName }, message.logo)
        : null;
      try {
        await email.send({
          to: message.address,
          subject: message.title,
          text: message.text,
          messageId: deliveryMessageId(message.key),
          ...(logo ? { html: logo.html, attachments: [logo.logo, ...message.attachments] } : { attachments: message.attachments }),
        });
        // SMTP gives no later receipt: the receiving server's acceptance is as far as e-mail can tell.
        return { ok: true, status: 'received' };
      } catch (err) {
        const kind = classifyEmailError(err);
        return { ok: false, kind, error: kind === 'permanent' ? 'rejected' : 'unreachable' };
      }
    },
    close: () => email.close(),
  };
}

/**
 * The app channel. Staff (`user:<id>`) already have the message in their Hermes inbox, which is the app:
 * received at once, read when they open it. Guardians get it in the guardian app's inbox: handed over
 * here, received when their app fetches it, read when they open it (server/routes/guardian-app.ts). Their
 * subscribed phones are told with a push (server/push/send.ts); a guardian without one still has it in
 * the inbox, so the delivery is `sent` all the same.
 */
function appChannel(sendPushes: PushSender | null): ChannelAdapter {
  return {
    async send(message) {
      if (/^user:\d+$/.test(message.address)) return { ok: true, status: 'received' };
      if (/^guardian:\d+$/.test(message.address)) {
        if (!message.push || !sendPushes) return { ok: true, status: 'sent' };
        const pushed = await sendPushes({
          deliveryId: message.deliveryId,
          messageId: message.messageId,
          title: message.title,
          school: message.institutionName,
          studentNames: message.push.studentNames,
          emergency: message.push.emergency,
          muted: message.push.muted,
          targets: message.push.subscriptions,
        });
        // No phone took the push and one may later: retried with the engine's backoff, and recorded sent
        // once the retries run out, since the inbox has the message all along.
        return pushed === 'announced'
          ? { ok: true, status: 'sent' }
          : { ok: false, kind: 'transient', error: 'unreachable', ifExhausted: 'sent' };
      }
      return { ok: false, kind: 'permanent', error: 'missing_address' };
    },
  };
}

export interface BuiltAdapters {
  adapters: Adapters;
  /** Before the engine's workers take jobs. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `simulator` serves SMS / WhatsApp when no provider is configured for them; `push` announces guardians'
 * app messages on their phones (null: the app inbox only); `whatsappWindow` tells Meta's and Twilio's
 * adapters whether a family's 24-hour window is open (unset: closed, the template always goes).
 */
export function buildAdapters(
  config: ServerConfig,
  simulator: { instance: ProviderSimulator; token: string } | null,
  push: PushSender | null = null,
  /** Where Twilio's adapter looks up a round Twilio already took, and Meta's and Twilio's the 24-hour window (null: it always sends, the template always goes). */
  db: Queryable | null = null,
  whatsappWindow?: WindowLookup,
): BuiltAdapters {
  const provider = (channel: 'sms' | 'whatsapp', real: { url: string; token: string } | undefined): ChannelAdapter => {
    const twilio = config.twilio;
    if (twilio?.[channel]) {
      return createTwilioAdapter({
        channel,
        settings: twilio,
        publicUrl: config.publicUrl,
        ...(db ? { sidOfRound: (round) => sidOfRound(db, round) } : {}),
        ...(whatsappWindow ? { windowOpenUntil: whatsappWindow } : {}),
      });
    }
    const callbackUrl = `${config.publicUrl}/api/webhooks/provider/${channel}`;
    if (real) return createProviderAdapter({ channel, url: real.url, token: real.token, callbackUrl });
    if (!simulator) throw new Error(`Falta el proveedor de ${channel} y no hay simulador`);
    // Called in-process through the simulator's own router (no network, no /sim/provider prefix).
    return createProviderAdapter({
      channel,
      url: 'http://simulator.internal',
      token: simulator.token,
      callbackUrl,
      fetch: (request) => simulator.instance.fetch(request),
    });
  };
  const email = emailChannel({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom });
  return {
    adapters: {
      'e-mail': email,
      sms: provider('sms', config.smsProvider),
      whatsapp: config.metaWhatsapp
        ? createMetaWhatsappAdapter({
            config: config.metaWhatsapp,
            publicUrl: config.publicUrl,
            ...(whatsappWindow ? { windowOpenUntil: whatsappWindow } : {}),
          })
        : provider('whatsapp', config.whatsappProvider),
      'app-mobile': appChannel(push),
    },
    start: async () => {
      await email.start?.();
    },
    close: async () => {
      await email.close?.();
    },
  };
}
