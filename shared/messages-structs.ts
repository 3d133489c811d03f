// Runtime checks of the mail folder and message bodies (messages-contract.ts). `type()` so fields the
// server adds later do not break older clients; `Describe` keeps each struct in step with the contract.
// Kept apart from structs.ts so the first download carries only what the session and the app-lifetime
// machines read (bench (a)).
import { assign, array, boolean, enums, nullable, number, string, type, type Describe } from 'superstruct';
import { CHANNEL_CODES, FOLDERS, MESSAGE_KINDS, PERSON_KINDS } from './codes';
import type { MessageDetail, MessageSummary } from './messages-contract';
import type { DeliveryProgress } from './reception-contract';

/** A sent message's deliveries by state (reception-contract.ts): on sent folder rows and message details. */
export const DeliveryProgressStruct: Describe<DeliveryProgress> = type({
  total: number(),
  queued: number(),
  sent: number(),
  received: number(),
  read: number(),
  not_received: number(),
  error: number(),
  failed: number(),
  state: enums(['sending', 'sent', 'partially_failed'] as const),
  retryable: number(),
  no_address: number(),
  unreached: number(),
});

const FolderStruct = enums(FOLDERS);
const ChannelCodeStruct = enums(CHANNEL_CODES);
const PersonStruct = type({ id: number(), name: string(), kind: enums(PERSON_KINDS) });

const MessageSummaryStruct: Describe<MessageSummary> = type({
  id: number(),
  folder: FolderStruct,
  kind: enums(MESSAGE_KINDS),
  title: string(),
  snippet: string(),
  counterpart: string(),
  channels: array(ChannelCodeStruct),
  has_attachments: boolean(),
  unread: boolean(),
  date: string(),
  deleted_from: nullable(FolderStruct),
  progress: nullable(DeliveryProgressStruct),
});

const GuardianOfStruct = type({ student: string(), course: string(), relationship: string() });
const ThreadMessageStruct = type({
  id: number(),
  folder: FolderStruct,
  title: string(),
  content: string(),
  sender: PersonStruct,
  sender_of: array(GuardianOfStruct),
  date: string(),
});

// A detail is a summary plus its own fields.
const MessageDetailStruct: Describe<MessageDetail> = assign(
  MessageSummaryStruct,
  type({
    content: string(),
    sender: PersonStruct,
    recipients_summary: type({
      total: number(),
      label: string(),
      groups: array(type({ kind: string(), name: string(), count: number() })),
    }),
    attachments: array(type({ id: number(), name: string(), size: number(), content_type: string(), url: string() })),
    allow_replies: boolean(),
    copy_to_sender: boolean(),
    scheduled_at: nullable(string()),
    timezone: string(),
    reception: nullable(DeliveryProgressStruct),
    reply_to_id: nullable(number()),
    read_at: nullable(string()),
    thread: array(ThreadMessageStruct),
    conversations: array(
      type({
        guardian: PersonStruct,
        guardian_of: array(GuardianOfStruct),
        messages: array(ThreadMessageStruct),
        answer_to: nullable(number()),
      }),
    ),
    reply_channels: array(ChannelCodeStruct),
    sender_of: array(GuardianOfStruct),
    arrived_by: nullable(type({ channel: enums(['sms', 'whatsapp'] as const), phone: string(), known: boolean() })),
  }),
);

/** `GET /messages` (cursor-paged). */
export const MessagePageBodyStruct = type({
  data: array(MessageSummaryStruct),
  meta: type({ per_page: number(), next_cursor: nullable(string()), prev_cursor: nullable(string()), total: number() }),
  links: type({ next: nullable(string()), prev: nullable(string()) }),
});

export const MessageDetailBodyStruct = type({ data: MessageDetailStruct });
export const MessageSummaryBodyStruct = type({ data: MessageSummaryStruct });

export const MovedBodyStruct = type({ data: type({ moved: number() }) });
export const PurgedBodyStruct = type({ data: type({ purged: number() }) });
