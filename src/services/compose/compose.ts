// Compose calls (compose-contract.ts `COMPOSE_API`) as actor logic: setup, the start of a form, recipients,
// drafts, estimate, send and schedule, deleting an upload. The upload itself is services/compose/upload.ts, the
// schedule's clock shared/zoned-time.ts, the browser backup services/compose/backup.ts.
import {
  COMPOSE_API,
  IDEMPOTENCY_HEADER,
  type ComposeDraft,
  type ComposeInput,
  type Estimate,
  type RecipientPick,
  type RecipientGroups,
  type Recipients,
  type SendResult,
} from '../../../shared/compose-contract';
import { QUOTA_API, type Quota } from '../../../shared/quota-contract';
import { QuotaBodyStruct } from '../../../shared/quota-structs';
import { RECIPIENT_LISTS_API, type RecipientList } from '../../../shared/recipient-lists-contract';
import { RecipientListPageStruct, RecipientListStruct } from '../../../shared/recipient-lists-structs';
import { SIGNATURE_API, type Signature } from '../../../shared/signature-contract';
import { SignaturesBodyStruct } from '../../../shared/signature-structs';
import {
  ChannelsBodyStruct,
  ComposeDraftBodyStruct,
  EstimateBodyStruct,
  PermissionBodyStruct,
  RecipientGroupsBodyStruct,
  RecipientsBodyStruct,
  SendResultBodyStruct,
} from '../../../shared/compose-structs';
import { fromCall, parseBody, type HttpClient } from '../http/client';
import { type } from 'superstruct';
import { MESSAGES_API, type MessageDetail } from '../../../shared/messages-contract';
import { MessageDetailBodyStruct } from '../../../shared/messages-structs';
import { CHANNEL_ID, type ChannelCode } from '../../../shared/codes';
import { replyTitle, senderPick } from '../../../shared/message-rules';
import { getLocale, t } from '../../i18n';
import { loadComposeBackup, type ComposeBackup } from './backup';
import { fromNumberedPage, pageNumberOf, type ListFetchInput, type ListPage } from '../list/pages';

// --- setup ------------------------------------------------------------------------------------------

/** Everything compose needs before the form can be used. */
export interface ComposeSetup {
  /** Enabled by the institution AND permitted for this user, in contract order. */
  availableChannels: ChannelCode[];
  /** The active institution signature, or null when there is none or it is inactive. */
  signature: Signature | null;
  quota: Quota;
}

async function loadSetup(http: HttpClient, signal: AbortSignal): Promise<ComposeSetup> {
  const [channels, permission, signatures, quota] = await Promise.all([
    http.request(COMPOSE_API.channels, { signal }).then((body) => parseBody(body, ChannelsBodyStruct, COMPOSE_API.channels).data),
    http.request(COMPOSE_API.permissions, { signal }).then((body) => parseBody(body, PermissionBodyStruct, COMPOSE_API.permissions).data),
    http.request(SIGNATURE_API.signatures, { signal }).then((body) => parseBody(body, SignaturesBodyStruct, SIGNATURE_API.signatures).data),
    http.request(QUOTA_API.quota, { signal }).then((body) => parseBody(body, QuotaBodyStruct, QUOTA_API.quota).data),
  ]);
  const permitted = new Set(permission.institution_channel_permissions.filter((entry) => entry.enabled).map((entry) => entry.channel_id));
  const enabled = new Set(channels.filter((channel) => channel.enabled_by_institution).map((channel) => channel.code));
  const availableChannels = (Object.keys(CHANNEL_ID) as ChannelCode[]).filter(
    (code) => enabled.has(code) && permitted.has(CHANNEL_ID[code]),
  );
  return { availableChannels, signature: signatures.find((entry) => entry.is_active) ?? null, quota };
}

export const fetchComposeSetup = fromCall<ComposeSetup>(({ signal, http }) => loadSetup(http, signal));

export interface ComposeStartInput {
  /** The draft being edited, if any. */
  draftId: number | null;
  /** The message being answered (a new reply), if any. */
  replyToId: number | null;
  backupKey: string;
  /** A new message to this saved list (`/new?list=ID`). */
  listId?: number | null;
}

/** What a reply starts with: "Re: <title>" to the original sender, and what the form needs to quote it. */
export interface ReplyStart {
  title: string;
  /** The sender as a pick; null when the sender cannot be picked. */
  pick: RecipientPick | null;
  /** The channels on which the sender has an address (compose starts on those it may use, message-rules.ts `replyChannels`). */
  channels: ChannelCode[];
  /** The channels the original came by (a guardian's answer in the app: app-mobile); the reply prefers them. */
  receivedBy: ChannelCode[];
  /** "El 12-03-2026 a las 10:15, Ana Pérez escribió:" and the original, every line after "> ". */
  quote: string;
}

export interface ComposeStart {
  setup: ComposeSetup;
  draft: ComposeDraft | null;
  /** What this browser kept of the form (see `loadComposeBackup`). */
  backup: ComposeBackup | null;
  reply: ReplyStart | null;
  /** The saved list a new message starts addressed to ("Usar en mensaje nuevo" on a list). */
  list?: RecipientPick | null;
}

/** How much of the original a reply quotes: enough to know what is answered, and room left to answer. */
const QUOTE_MAX_LENGTH = 2000;

/** The original, quoted: who wrote it and when (on the school's clock), then its lines after "> ". */
function quoteOf(message: MessageDetail): string {
  const at = new Date(message.date);
  const locale = getLocale();
  const date = new Intl.DateTimeFormat(locale, { timeZone: message.timezone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    at,
  );
  // The clock each country reads, as the app shows dates (views/lib/format.ts): 10:15 in Chile, 10:15 a.m. in Mexico.
  const clock: Intl.DateTimeFormatOptions =
    locale === 'es-MX'
      ? { hour: 'numeric', minute: '2-digit', hourCycle: 'h12' }
      : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
  const time = new Intl.DateTimeFormat(locale, { timeZone: message.timezone, ...clock }).format(at);
  const original = message.content.trim();
  const text = original.length > QUOTE_MAX_LENGTH ? `${original.slice(0, QUOTE_MAX_LENGTH).trimEnd()}…` : original;
  const lines = text.split(/\r?\n/).map((line) => (line === '' ? '>' : `> ${line}`));
  return [t('messages.replyQuote', { date, time, name: message.sender.name }), ...lines].join('\n');
}

/** The reply form for `message`: its sender picked as who they are (colleague, guardian, student). */
export function replyStartOf(message: MessageDetail): ReplyStart {
  return {
    title: replyTitle(message.title),
    pick: senderPick(message.sender),
    channels: message.reply_channels,
    receivedBy: message.channels,
    quote: quoteOf(message),
  };
}

/** `GET /recipient-lists/{id}` as far as compose needs it (id and name: the chip). */
const RecipientListBodyStruct = type({ data: RecipientListStruct });

/** Everything compose opens with, in parallel: setup, the draft or the replied message, the local backup. */
export const fetchComposeStart = fromCall<ComposeStart, ComposeStartInput>(async ({ input, signal, http }) => {
  const replyPath = input.draftId === null && input.replyToId !== null ? MESSAGES_API.one(input.replyToId) : null;
  const listPath = input.draftId === null && replyPath === null && input.listId ? RECIPIENT_LISTS_API.list(input.listId) : null;
  const [setup, draft, replied, list] = await Promise.all([
    loadSetup(http, signal),
    input.draftId === null ? Promise.resolve(null) : draftOf(http, input.draftId, signal),
    replyPath === null
      ? Promise.resolve(null)
      : http.request(replyPath, { signal }).then((body) => parseBody(body, MessageDetailBodyStruct, replyPath).data),
    listPath === null
      ? Promise.resolve(null)
      : http.request(listPath, { signal }).then((body) => parseBody(body, RecipientListBodyStruct, listPath).data),
  ]);
  return {
    setup,
    draft,
    backup: loadComposeBackup(input.backupKey),
    reply: replied ? replyStartOf(replied) : null,
    ...(list ? { list: { kind: 'recipient-list' as const, id: list.id, label: list.name } } : {}),
  };
});

// --- recipients -------------------------------------------------------------------------------------

const RECIPIENT_LISTS_PER_PAGE = 50;

export const fetchRecipients = fromCall<Recipients>(async ({ signal, http }) => {
  const body = await http.request(COMPOSE_API.recipients, { signal });
  return parseBody(body, RecipientsBodyStruct, COMPOSE_API.recipients).data;
});

/** The directory's levels and groups alone, a few kB: what the picker shows while the people arrive. */
export const fetchRecipientGroups = fromCall<RecipientGroups>(async ({ signal, http }) => {
  const body = await http.request(COMPOSE_API.recipientCourses, { signal });
  return parseBody(body, RecipientGroupsBodyStruct, COMPOSE_API.recipientCourses).data;
});

/** The user's saved lists, page by page (numbered pages), as a list's `fetchPage` (machines/list/list.ts). */
export const fetchRecipientListPage = fromCall<ListPage<RecipientList>, ListFetchInput<null>>(async ({ input, signal, http }) => {
  const query = { page: pageNumberOf(input.after), per_page: RECIPIENT_LISTS_PER_PAGE };
  const body = await http.request(RECIPIENT_LISTS_API.lists, { query, signal });
  return fromNumberedPage(parseBody(body, RecipientListPageStruct, RECIPIENT_LISTS_API.lists));
});

export interface IdInput {
  id: number;
}

// --- drafts, estimate, send -------------------------------------------------------------------------

const draftOf = async (http: HttpClient, id: number, signal: AbortSignal): Promise<ComposeDraft> => {
  const path = COMPOSE_API.draft(id);
  return parseBody(await http.request(path, { signal }), ComposeDraftBodyStruct, path).data;
};

export interface SaveDraftInput {
  /** null: the first save creates the draft; afterwards its id, so later saves update it. */
  id: number | null;
  input: ComposeInput;
  /** Only sent on creation: a reply draft remembers what it answers. */
  replyToId?: number | null;
}

export const saveDraft = fromCall<ComposeDraft, SaveDraftInput>(async ({ input, signal, http }) => {
  const path = input.id === null ? COMPOSE_API.drafts : COMPOSE_API.draft(input.id);
  const body = input.id === null ? { ...input.input, ...(input.replyToId ? { reply_to_id: input.replyToId } : {}) } : { ...input.input };
  const answer = await http.request(path, { method: input.id === null ? 'POST' : 'PUT', body, signal });
  return parseBody(answer, ComposeDraftBodyStruct, path).data;
});

export interface EstimateInput {
  input: ComposeInput;
  /** The draft being sent: the server checks its attachments as send will (they are the draft's own). */
  draftId: number | null;
  /** The message answered: the server checks it may be answered, as send will. */
  replyToId: number | null;
}

export const estimate = fromCall<Estimate, EstimateInput>(async ({ input, signal, http }) => {
  const body = {
    ...input.input,
    ...(input.draftId !== null ? { draft_id: input.draftId } : {}),
    ...(input.replyToId !== null ? { reply_to_id: input.replyToId } : {}),
  };
  return parseBody(await http.request(COMPOSE_API.estimate, { method: 'POST', body, signal }), EstimateBodyStruct, COMPOSE_API.estimate)
    .data;
});

export interface SendInput {
  input: ComposeInput;
  /** Sending a saved draft turns that draft into the sent/scheduled message. */
  draftId: number | null;
  replyToId: number | null;
  /** Same key for a retry of the same message: the server answers the first result again. */
  idempotencyKey: string;
}

async function post(http: HttpClient, path: string, send: SendInput, signal: AbortSignal): Promise<SendResult> {
  const body = {
    ...send.input,
    ...(send.draftId !== null ? { draft_id: send.draftId } : {}),
    ...(send.replyToId !== null ? { reply_to_id: send.replyToId } : {}),
  };
  const headers = { [IDEMPOTENCY_HEADER]: send.idempotencyKey };
  return parseBody(await http.request(path, { method: 'POST', body, headers, signal }), SendResultBodyStruct, path).data;
}

export const sendMessage = fromCall<SendResult, SendInput>(({ input, signal, http }) => post(http, COMPOSE_API.send, input, signal));

/** `input.input.scheduled_at` carries the instant (see `zonedToUtc`). */
export const scheduleMessage = fromCall<SendResult, SendInput>(({ input, signal, http }) =>
  post(http, COMPOSE_API.schedule, input, signal),
);

export const deleteAttachment = fromCall<void, IdInput>(async ({ input, signal, http }) => {
  await http.request(MESSAGES_API.attachment(input.id), { method: 'DELETE', signal });
});

/** What a saved draft sends: its own fields, its attachments by id. */
function draftToInput(draft: ComposeDraft, scheduledAt: string | null): ComposeInput {
  return {
    title: draft.title,
    content: draft.content,
    channels: draft.channels,
    recipients: draft.recipients,
    attachment_ids: draft.attachments.map((attachment) => attachment.id),
    allow_replies: draft.allow_replies,
    copy_to_sender: draft.copy_to_sender,
    scheduled_at: scheduledAt,
  };
}

/** Send a saved draft by id (message lifecycle, folder view): read it, then send it as it is. */
export const sendDraftById = fromCall<SendResult, IdInput>(async ({ input, signal, http }) => {
  const draft = await draftOf(http, input.id, signal);
  const send = { input: draftToInput(draft, null), draftId: draft.id, replyToId: draft.reply_to_id, idempotencyKey: newIdempotencyKey() };
  return post(http, COMPOSE_API.send, send, signal);
});

/** Schedule a saved draft by id at `at` (ISO UTC). */
export const scheduleDraftById = fromCall<SendResult, IdInput & { at: string }>(async ({ input, signal, http }) => {
  const draft = await draftOf(http, input.id, signal);
  const send = {
    input: draftToInput(draft, input.at),
    draftId: draft.id,
    replyToId: draft.reply_to_id,
    idempotencyKey: newIdempotencyKey(),
  };
  return post(http, COMPOSE_API.schedule, send, signal);
});

/** Save a draft by id with what the server already holds (the lifecycle has no form to send). */
export const resaveDraftById = fromCall<ComposeDraft, IdInput>(async ({ input, signal, http }) => {
  const draft = await draftOf(http, input.id, signal);
  const path = COMPOSE_API.draft(draft.id);
  const body = { ...draftToInput(draft, draft.scheduled_at) };
  return parseBody(await http.request(path, { method: 'PUT', body, signal }), ComposeDraftBodyStruct, path).data;
});

/** A fresh key for one message being sent (36 characters; the contract wants 8–100). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
