// Meta's WhatsApp webhook (docs/providers/meta-whatsapp.md): the GET Meta sends once to verify the URL, and
// the signed POSTs with statuses of our messages and the families' own messages. Authenticated by the app
// secret's signature instead of a session, so CSRF does not apply (/api/webhooks/).
//
// A valid signed post is answered 200 once what it carries is recorded: Meta retries anything else for
// days. Statuses of deliveries we do not know are acknowledged and ignored. A family's message the handler
// could not record answers 500, so Meta's retry brings it again (the handler recognises a repeat by its id).
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { MetaWhatsappConfig } from '../config';
import type { Db } from '../db/client';
import type { GraphFetch } from '../delivery/meta/graph';
import { parseMetaWebhook } from '../delivery/meta/payload';
import { isValidMetaSignature, META_SIGNATURE_HEADER } from '../delivery/meta/signature';
import { applyMetaStatuses } from '../delivery/meta/statuses';
import { apiError } from '../http/errors';
import type { AppEnv } from '../http/env';
import { INBOUND_BUSY_MESSAGE, INBOUND_BUSY_RETRY_AFTER, InboundBusy, type InboundHandler } from '../inbound/contract';
import type { Logger } from '../log';

const BAD_SIGNATURE = 'La firma del webhook no es válida.';

export interface MetaWebhookOptions {
  config: MetaWhatsappConfig;
  /** Takes each family's message (server/inbound/contract.ts). */
  onInbound: InboundHandler;
  logger?: Logger;
  /** The media downloads' fetch (tests). */
  fetch?: GraphFetch;
}

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export function metaWebhookRoutes(db: Db, options: MetaWebhookOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = options;

  app.get('/', (c) => {
    const mode = c.req.query('hub.mode');
    const token = c.req.query('hub.verify_token') ?? '';
    const challenge = c.req.query('hub.challenge') ?? '';
    if (mode !== 'subscribe' || !sameText(token, config.verifyToken)) {
      return apiError(c, 403, 'auth.forbidden', 'El token de verificación no coincide.');
    }
    return c.text(challenge, 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  });

  app.post('/', async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    if (!isValidMetaSignature(raw, c.req.header(META_SIGNATURE_HEADER), config.appSecret)) {
      return apiError(c, 401, 'auth.unauthenticated', BAD_SIGNATURE);
    }
    let payload: unknown = null;
    try {
      payload = JSON.parse(Buffer.from(raw).toString('utf8'));
    } catch {
      // Signed by Meta but not JSON: posting it again would not make it JSON.
      options.logger?.error('Webhook de Meta: cuerpo firmado que no es JSON; se ignora');
    }
    const parsed = parseMetaWebhook(payload, {
      phoneNumberId: config.phoneNumberId,
      graph: config,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const changed = await applyMetaStatuses(db, parsed.statuses, options.logger);
    // One at a time, in Meta's order: a family's messages keep the order they wrote them in.
    try {
      for (const message of parsed.inbound) await options.onInbound(message);
    } catch (err) {
      // Another request still handles one of them: Meta posts the whole notification again, and what is
      // recorded by then is acknowledged as a repeat.
      if (!(err instanceof InboundBusy)) throw err;
      c.header('Retry-After', INBOUND_BUSY_RETRY_AFTER);
      return apiError(c, 503, 'inbound.busy', INBOUND_BUSY_MESSAGE);
    }
    return c.json({ data: { applied: changed.length, inbound: parsed.inbound.length } });
  });

  return app;
}
