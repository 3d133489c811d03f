// Reads a `messages` webhook of the Cloud API, as Meta posts it:
//
//   { object: "whatsapp_business_account", entry: [{ id, changes: [{ field: "messages", value: {
//       messaging_product: "whatsapp", metadata: { display_phone_number, phone_number_id },
//       statuses: [{ id: "wamid.…", status: sent|delivered|read|failed, timestamp: "<unix s>", recipient_id,
//                    biz_opaque_callback_data?, errors?: [{ code, title, message, error_data: { details } }] }],
//       contacts: [{ profile: { name }, wa_id }],
//       messages: [{ from: "56987654321", id: "wamid.…", timestamp, type: text|image|document|audio|…,
//                    text?: { body }, image?: { id, mime_type, sha256, caption? }, document?: { …, filename? } }]
//   } }] }] }
//
// Whatever else it carries (another number's changes, message types Hermes does not take, fields added
// later) is skipped, not refused: Meta would only post it again.
import type { InboundMessage } from '../../inbound/contract';
import type { GraphFetch, GraphSettings } from './graph';
import { metaMedia } from './media';

export interface MetaStatus {
  wamid: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: Date;
  /** The delivery key we sent as biz_opaque_callback_data, when Meta echoes it. */
  callbackData: string | null;
  /** The first error's code of a failed status. */
  errorCode: number | null;
}

export interface MetaWebhook {
  statuses: MetaStatus[];
  inbound: InboundMessage[];
}

const STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);
/** Message types with a media object Hermes keeps (a sticker or a video are kept as files too). */
const MEDIA_TYPES = ['image', 'document', 'audio', 'video', 'sticker'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
/**
 * Text as the database can keep it (decision 0008): C0 controls but tab, LF and CR, DEL, the C1 controls
 * and lone surrogates dropped. The webhook is exempt from the /api text guard, which would refuse the post.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what is dropped.
const UNKEEPABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\p{Cs}/gu;
const text = (value: unknown): string | null => (typeof value === 'string' ? value.replace(UNKEEPABLE, '') : null);

/** Meta's `timestamp`: Unix seconds as a string. A missing or absurd one is "now". */
function timeOf(value: unknown, now: Date): Date {
  const seconds = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
  const at = new Date(seconds * 1000);
  return Number.isFinite(seconds) && at.getUTCFullYear() >= 2000 && at.getTime() <= now.getTime() + 86_400_000 ? at : now;
}

export function parseMetaWebhook(
  payload: unknown,
  options: { phoneNumberId: string; graph: GraphSettings; fetch?: GraphFetch; now?: Date },
): MetaWebhook {
  const now = options.now ?? new Date();
  const result: MetaWebhook = { statuses: [], inbound: [] };
  if (!isObject(payload) || payload.object !== 'whatsapp_business_account') return result;
  for (const entry of objects(payload.entry)) {
    for (const change of objects(entry.changes)) {
      const value = change.value;
      if (change.field !== 'messages' || !isObject(value)) continue;
      // One Meta app may serve several numbers: only ours is Hermes'.
      const metadata = isObject(value.metadata) ? value.metadata : {};
      if (metadata.phone_number_id !== undefined && String(metadata.phone_number_id) !== options.phoneNumberId) continue;
      for (const status of objects(value.statuses)) {
        const wamid = text(status.id);
        const kind = text(status.status);
        if (!wamid || !kind || !STATUSES.has(kind)) continue;
        const code = objects(status.errors)[0]?.code;
        result.statuses.push({
          wamid,
          status: kind as MetaStatus['status'],
          at: timeOf(status.timestamp, now),
          callbackData: text(status.biz_opaque_callback_data),
          errorCode: typeof code === 'number' && Number.isInteger(code) ? code : null,
        });
      }
      for (const message of objects(value.messages)) {
        const inbound = inboundOf(message, options, now);
        if (inbound) result.inbound.push(inbound);
      }
    }
  }
  return result;
}

function inboundOf(message: Json, options: { graph: GraphSettings; fetch?: GraphFetch }, now: Date): InboundMessage | null {
  const from = text(message.from);
  const id = text(message.id);
  if (!from || !/^\d{6,15}$/.test(from) || !id) return null;
  const type = text(message.type);
  let body: string | null = null;
  const media: InboundMessage['media'] = [];
  if (type === 'text' && isObject(message.text)) body = text(message.text.body);
  // A tapped quick-reply button or list row: its label is what the family said.
  else if (type === 'button' && isObject(message.button)) body = text(message.button.text);
  else if (type === 'interactive' && isObject(message.interactive)) {
    const reply = message.interactive.button_reply ?? message.interactive.list_reply;
    body = isObject(reply) ? text(reply.title) : null;
  } else if (MEDIA_TYPES.some((t) => t === type) && isObject(message[type as string])) {
    const object = message[type as string] as Json;
    const mediaId = text(object.id);
    if (!mediaId) return null;
    body = text(object.caption) ?? '';
    media.push(
      metaMedia(
        options.graph,
        { id: mediaId, contentType: text(object.mime_type) ?? 'application/octet-stream', filename: text(object.filename) },
        options.fetch,
      ),
    );
  }
  // Reactions, locations, contacts, system notices, unsupported types: nothing a reply can hold.
  if (body === null) return null;
  return {
    channel: 'whatsapp',
    from: `+${from}`,
    provider: 'meta',
    providerId: id,
    body,
    receivedAt: timeOf(message.timestamp, now),
    media,
  };
}
