// Webhooks of the SMS / WhatsApp providers that speak the own API (server/delivery/provider.ts,
// docs/provider-api.md): status reports, and families' messages a gateway brings (`/:channel/incoming`,
// parsed by server/delivery/provider-inbound.ts for the inbound domain). Authenticated by the HMAC signature of the raw body instead of a session, so CSRF does not apply.
// Unknown references and reports of an older round are acknowledged and ignored: answering an error would
// only make the provider retry something we will never apply.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Db } from '../db/client';
import { isStorableDate } from '../db/time';
import { parseDeliveryKey } from '../delivery/channel';
import { SIGNATURE_HEADER } from '../delivery/provider';
import { type GatewayCredentials, gatewayInboundOf } from '../delivery/provider-inbound';
import { INBOUND_BUSY_MESSAGE, INBOUND_BUSY_RETRY_AFTER, InboundBusy, type InboundHandler } from '../inbound/contract';
import { applyReports, roundsOf, type DeliveryReport, type ReportStatus } from '../reception/status';
import type { AppEnv } from '../http/env';
import type { Logger } from '../log';
import { apiError, invalid, notFound } from '../http/errors';

/** Provider status → our reception status, and the short error code recorded with failures. */
const STATUSES: Record<string, { status: ReportStatus; error?: string }> = {
  delivered: { status: 'received' },
  read: { status: 'read' },
  undelivered: { status: 'not_received', error: 'undelivered' },
  failed: { status: 'error', error: 'rejected' },
};

/** A report's weight: a batch may carry several for one delivery, and only the furthest one is applied. */
const RANK: Record<ReportStatus, number> = { received: 1, not_received: 1, error: 1, read: 2 };

/** Larger ids are not ours (and would overflow the int column in the query). */
const MAX_ID = 2 ** 31 - 1;

const BAD_SIGNATURE = 'La firma del reporte no es válida.';
const BAD_MESSAGE_SIGNATURE = 'La firma del mensaje no es válida.';

export interface ProviderWebhookOptions {
  secret: string;
  logger?: Logger;
  /** Takes the families' messages gateways bring; without it, `/:channel/incoming` is not found. */
  onInbound?: InboundHandler;
  /** Each channel's provider, whose token fetches the files of its families' messages (null: the simulator). */
  credentials?: Partial<Record<'sms' | 'whatsapp', GatewayCredentials>>;
  /** Tests: the media downloads' fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

export function providerWebhookRoutes(db: Db, options: ProviderWebhookOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/:channel/incoming', async (c) => {
    const channel = c.req.param('channel');
    const onInbound = options.onInbound;
    if ((channel !== 'sms' && channel !== 'whatsapp') || !onInbound) return notFound(c);

    const raw = Buffer.from(await c.req.arrayBuffer());
    if (!validSignature(raw, c.req.header(SIGNATURE_HEADER), options.secret)) {
      return apiError(c, 401, 'auth.unauthenticated', BAD_MESSAGE_SIGNATURE);
    }
    const parsed = gatewayInboundOf(channel, parseJson(raw), options.credentials?.[channel] ?? null, options.fetch);
    if (!parsed.ok) return invalid(c, parsed.errors);
    // One at a time, each recorded before the next: if one fails the answer is a 500 and the gateway sends
    // the request again, when the ones already recorded are recognised by their id and skipped.
    try {
      for (const message of parsed.messages) await onInbound(message);
    } catch (err) {
      // Another request still handles one of them: the gateway sends the request again after Retry-After.
      if (!(err instanceof InboundBusy)) throw err;
      c.header('Retry-After', INBOUND_BUSY_RETRY_AFTER);
      return apiError(c, 503, 'inbound.busy', INBOUND_BUSY_MESSAGE);
    }
    return c.json({ data: { received: parsed.messages.length } });
  });

  app.post('/:channel', async (c) => {
    const channel = c.req.param('channel');
    if (channel !== 'sms' && channel !== 'whatsapp') return notFound(c);

    const raw = Buffer.from(await c.req.arrayBuffer());
    if (!validSignature(raw, c.req.header(SIGNATURE_HEADER), options.secret)) {
      return apiError(c, 401, 'auth.unauthenticated', BAD_SIGNATURE);
    }

    const parsed = parseJson(raw);
    const items = Array.isArray(parsed) ? parsed : [parsed];
    if (items.length === 0 || !items.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))) {
      return invalid(c, { body: ['El reporte debe ser un objeto JSON o una lista de ellos.'] });
    }

    // Statuses we do not track (e.g. a provider's intermediate "sent") are skipped, not refused.
    const wanted: { deliveryId: number; generation: number; report: DeliveryReport }[] = [];
    for (const item of items as Record<string, unknown>[]) {
      const key = typeof item.reference === 'string' ? parseDeliveryKey(item.reference) : null;
      const mapped = typeof item.status === 'string' ? STATUSES[item.status] : undefined;
      if (!key || key.deliveryId > MAX_ID || !mapped) continue;
      const at = typeof item.at === 'string' ? new Date(item.at) : new Date(NaN);
      const report: DeliveryReport = {
        deliveryId: key.deliveryId,
        status: mapped.status,
        // A time the database cannot store (year 0, six-digit years) is as good as none: the report counts now.
        at: isStorableDate(at) ? at : new Date(),
        error: mapped.error ?? null,
        generation: key.generation,
      };
      wanted.push({ ...key, report });
    }
    if (wanted.length === 0) return c.json({ data: { applied: 0 } });

    // Only this channel's deliveries, and only the round the report was sent for: a late report of an
    // earlier round must not mark a retried delivery.
    const round = await roundsOf(db, channel, [...new Set(wanted.map((w) => w.deliveryId))]);
    const furthest = new Map<number, DeliveryReport>();
    for (const { deliveryId, generation, report } of wanted) {
      if (round.get(deliveryId) !== generation) continue;
      const seen = furthest.get(deliveryId);
      if (!seen || RANK[report.status] > RANK[seen.status]) furthest.set(deliveryId, report);
    }
    const reports = [...furthest.values()];

    // Its own transaction, so a deadlock or serialization victim can be run again (applyReports).
    const changed = await applyReports(db, reports, options.logger);
    return c.json({ data: { applied: changed.length } });
  });

  return app;
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}

function validSignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(Buffer.from(match[1]!, 'hex'), expected);
}
