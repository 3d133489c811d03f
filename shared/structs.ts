// Runtime checks for every response body the SPA reads. `type()` (not `object()`) so extra fields the
// server adds later do not break older clients; `Describe` keeps each struct in step with contract.ts.
import {
  assign,
  array,
  boolean,
  enums,
  nullable,
  number,
  optional,
  record,
  string,
  type,
  union,
  type Describe,
  type Struct,
} from 'superstruct';
import { CHANNEL_CODES, COUNT_TYPES, FOLDERS, MESSAGE_KINDS, PERSON_KINDS } from './codes';
import type { SignedInUser, TokenTimes } from './contract';
import type { FolderCount, MessageDetail, MessageSummary } from './messages-contract';
import type { DeliveryProgress } from './reception-contract';

export const SignedInUserStruct: Describe<SignedInUser> = type({
  id: number(),
  email: string(),
  roles: array(type({ codigo: string(), nombre: string() })),
  person: type({ name: string() }),
  institution: type({
    id: number(),
    desc: string(),
    locale: enums(['es-CL', 'es-MX']),
    timezone: string(),
    country: enums(['CL', 'MX']),
  }),
  device: string(),
  options: type({ url: type({ home: string() }) }),
  scope: array(string()),
  domain: enums(['cl', 'mx']),
  zendesk_info: optional(
    type({
      name: string(),
      email: string(),
      organization: string(),
      tags: array(string()),
      isChatEnabled: boolean(),
    }),
  ),
});

export const TokenTimesStruct: Describe<TokenTimes> = type({
  token_expires_at: number(),
  refresh_expires_at: number(),
});

/** `POST /login` and `POST /token/refresh` answer `{ data: TokenTimes }`. */
export const TokenTimesBodyStruct = type({ data: TokenTimesStruct });

/**
 * `GET /institution-policies`. The contract does not pin the shape yet, so both a bare list and the
 * Laravel `{ data: [...] }` envelope are accepted.
 */
export const PoliciesBodyStruct = union([array(string()), type({ data: array(string()) })]);

/**
 * Error bodies (`ApiError` in the contract). `code` is read as any string: a code this client does not
 * know yet must still reach the generic error path instead of failing the check.
 */
export const ApiErrorStruct = type({
  message: string(),
  code: optional(string()),
  errors: optional(record(string(), array(string()))),
});

export const PageMetaStruct = type({
  current_page: optional(number()),
  last_page: optional(number()),
  per_page: optional(number()),
  total: optional(number()),
  next_cursor: optional(nullable(string())),
});

export const PageLinksStruct = type({
  next: optional(nullable(string())),
  prev: optional(nullable(string())),
});

/** Laravel paginated body: `{ data, meta, links }` (SPEC §7, recipient lists). */
export function pageBodyStruct<T>(item: Struct<T>) {
  return type({ data: array(item), meta: PageMetaStruct, links: PageLinksStruct });
}

// --- mail folders and messages (messages-contract.ts) ------------------------------------------------

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
});

const FolderStruct = enums(FOLDERS);
const ChannelCodeStruct = enums(CHANNEL_CODES);
const PersonStruct = type({ id: number(), name: string(), kind: enums(PERSON_KINDS) });

export const MessageSummaryStruct: Describe<MessageSummary> = type({
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

// A detail is a summary plus its own fields.
export const MessageDetailStruct: Describe<MessageDetail> = assign(
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
    thread: array(
      type({ id: number(), folder: FolderStruct, title: string(), snippet: string(), sender: PersonStruct, date: string() }),
    ),
    reply_channels: array(ChannelCodeStruct),
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

export const FolderCountStruct: Describe<FolderCount> = type({
  type: enums(COUNT_TYPES),
  unreads: number(),
  total: number(),
});

/** `GET /messages/info` → `{ data: FolderCount[] }`. */
export const FolderCountsBodyStruct = type({ data: array(FolderCountStruct) });

export const MovedBodyStruct = type({ data: type({ moved: number() }) });
export const RestoredBodyStruct = type({ data: type({ restored: number() }) });
export const PurgedBodyStruct = type({ data: type({ purged: number() }) });
