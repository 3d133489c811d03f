// API contract for mail folders and messages, shared by the SPA and `server/`. Plain types only.
import type { ChannelCode, CountType, Folder, MessageKind, PersonKind } from './codes';
import type { DeliveryProgress } from './reception-contract';

/*
 * Message kinds (codes.ts `MESSAGE_KINDS`) as seen by one user. Lifecycle rules (server answers 409 `message.illegal_transition` otherwise):
 * - draft → scheduled (schedule), draft → sent (send), scheduled → draft (cancel schedule)
 * - any of draft/scheduled/sent/received → deleted (delete: moves to trash, remembers where from)
 * - deleted → its previous kind (restore); deleted → gone (purge, only from trash)
 * - received: unread → read (mark read; idempotent)
 */

export interface Person {
  id: number;
  name: string;
  kind: PersonKind;
}

export interface AttachmentSummary {
  id: number;
  name: string;
  size: number;
  content_type: string;
  /** Relative API path to download it. */
  url: string;
}

/** One row of a folder list: `GET /messages?folder=&q=&cursor=&limit=` → Paged<MessageSummary>. */
export interface MessageSummary {
  id: number;
  folder: Folder;
  kind: MessageKind;
  title: string;
  /** First ~140 characters of the content, plain text. */
  snippet: string;
  /** Sender for inbox; recipients summary (e.g. "3° Básico A y 2 más") for the others. */
  counterpart: string;
  channels: ChannelCode[];
  has_attachments: boolean;
  /** Only meaningful for `received`. */
  unread: boolean;
  /** ISO 8601 UTC: sent_at for sent/received, scheduled_at for scheduled, updated_at for drafts; in the trash, the date it had before. */
  date: string;
  /** Where a trashed message returns on restore. */
  deleted_from: Folder | null;
  /** Sent folder rows: how its deliveries stand; null elsewhere. */
  progress: DeliveryProgress | null;
}

/** `GET /messages/:id` → `{ data: MessageDetail }`. */
export interface MessageDetail extends MessageSummary {
  content: string;
  sender: Person;
  recipients_summary: { total: number; label: string; groups: { kind: string; name: string; count: number }[] };
  attachments: AttachmentSummary[];
  allow_replies: boolean;
  copy_to_sender: boolean;
  /** Scheduled messages: ISO UTC plus the institution time zone to show it in. */
  scheduled_at: string | null;
  timezone: string;
  /** Sent messages of the author: deliveries per state (per-recipient detail: reception-contract.ts). */
  reception: DeliveryProgress | null;
  /** Inbox: the message this one replies to, if any. */
  reply_to_id: number | null;
  read_at: string | null;
  /**
   * Its conversation: the messages it answers (up the `reply_to_id` links) and the answers below it, those
   * the user has in their inbox or sent folder, oldest first, this one left out (at most `THREAD_LIMIT`).
   */
  thread: ThreadMessage[];
  /**
   * Below a message of no one family's (one to a course, to several people): each family's own thread, the
   * guardian's answers and the user's answers to that guardian (server/messages/family-threads.ts), the
   * family whose thread moved last first; empty otherwise. Its messages are in `thread` too.
   */
  conversations: GuardianConversation[];
  /**
   * A message the user may answer (message-rules.ts `canReply`): the channels on which its sender has an
   * address, in contract order (a reply starts on them); empty otherwise.
   */
  reply_channels: ChannelCode[];
  /** A guardian sender's enrolled children (whose guardian wrote); empty for anyone else. */
  sender_of: GuardianOf[];
  /** A family's SMS or WhatsApp (server/inbound/): the channel and the number it came from; null otherwise. */
  arrived_by: ArrivedBy | null;
}

/** How a family's message reached Hermes: by SMS or WhatsApp, from this number. */
export interface ArrivedBy {
  channel: 'sms' | 'whatsapp';
  /** As people read it: «+56 9 8765 4321». */
  phone: string;
  /** Whether the number is one of the school's guardians' (else nobody can be answered in Hermes). */
  known: boolean;
}

/** One child of a guardian, as the school registered them: "Óscar Núñez Núñez", "3° Básico A", "Madre". */
export interface GuardianOf {
  student: string;
  course: string;
  relationship: string;
}

/** One message of a conversation, whole, with a link that opens it. */
export interface ThreadMessage {
  id: number;
  /** Where the user has it: `inbox` (received) or `sent` (their own). */
  folder: Folder;
  title: string;
  /** The whole text, as the message itself shows it. */
  content: string;
  sender: Person;
  /** As MessageDetail `sender_of`. */
  sender_of: GuardianOf[];
  /** ISO 8601 UTC, when it was sent. */
  date: string;
}

/** One family's thread under a message: the guardian, whose guardian they are, and the messages, oldest first. */
export interface GuardianConversation {
  guardian: Person;
  guardian_of: GuardianOf[];
  messages: ThreadMessage[];
  /** The guardian's latest message the user received (compose `?reply=` to it answers them); null when none. */
  answer_to: number | null;
}

/** The most messages a conversation lists (a message to a whole course may have many answers). */
export const THREAD_LIMIT = 100;

/** Laravel-style paged body with cursor pagination. */
export interface Paged<T> {
  data: T[];
  meta: { per_page: number; next_cursor: string | null; prev_cursor: string | null; total: number };
  links: { next: string | null; prev: string | null };
}

/** `GET /messages/info` → `{ data: FolderCount[] }` (SPEC §3: type sent|received|scheduled|draft). */
export interface FolderCount {
  type: CountType;
  unreads: number;
  total: number;
}

/**
 * Calls (all under the API base, all scoped to the user; another user's id → 404 `not_found`):
 * - GET    /messages?folder=inbox&q=&cursor=&limit=50   list, newest first
 * - GET    /messages/info                               counters
 * - GET    /messages/:id                                one message
 * - POST   /messages/:id/read                           mark read → { data: MessageSummary }
 * - POST   /messages/delete   { ids: number[] }         to trash → { data: { moved: number } }
 * - POST   /messages/restore  { ids: number[] }         from trash → { data: { restored: number } }
 * - POST   /messages/purge    { ids: number[] }         forever, only trashed ids → { data: { purged: number } }
 * - POST   /messages/:id/cancel-schedule                scheduled → draft
 * - POST   /attachments        multipart `file`        upload → 201 { data: AttachmentSummary } (compose)
 * - GET    /attachments/:id                             download
 * - DELETE /attachments/:id                             → 204, an attachment of an unsent message (compose)
 * Illegal transition → 409 `{ code: 'message.illegal_transition', message }` (Spanish message).
 */
export const MESSAGES_API = {
  list: '/messages',
  info: '/messages/info',
  one: (id: number) => `/messages/${id}`,
  read: (id: number) => `/messages/${id}/read`,
  delete: '/messages/delete',
  restore: '/messages/restore',
  purge: '/messages/purge',
  cancelSchedule: (id: number) => `/messages/${id}/cancel-schedule`,
  attachments: '/attachments',
  attachment: (id: number) => `/attachments/${id}`,
} as const;
