// Compose calls (compose-contract.ts `COMPOSE_API`) as actor logic, plus the pure helpers compose needs:
// idempotency keys, wall-clock → UTC in the institution's zone, and the local backup of what was typed.
import { array, boolean, enums, is, literal, nullable, number, object, string, type } from 'superstruct';
import { fromPromise } from 'xstate';
import { COMPOSE_API, IDEMPOTENCY_HEADER, type ComposeDraft, type ComposeInput, type Estimate, type NumberedPage, type Quota, type RecipientList, type RecipientListUser, type RecipientPick, type Recipients, type SendResult, type Signature } from '../../shared/compose-contract';
import {
  AttachmentBodyStruct,
  AttachmentSummaryStruct,
  ChannelsBodyStruct,
  ComposeDraftBodyStruct,
  EstimateBodyStruct,
  PermissionBodyStruct,
  QuotaBodyStruct,
  RecipientListPageStruct,
  RecipientListUsersBodyStruct,
  RecipientPickStruct,
  RecipientsBodyStruct,
  SendResultBodyStruct,
  SignaturesBodyStruct,
} from '../../shared/compose-structs';
import { API, COOKIE, XSRF_HEADER } from '../../shared/contract';
import { readCookie } from './cookies';
import { API_BASE, ApiFailureError, http, parseBody, type ApiFailure } from './http';
import { MESSAGES_API, type AttachmentSummary, type MessageDetail } from '../../shared/messages-contract';
import { ApiErrorStruct, MessageDetailBodyStruct } from '../../shared/structs';
import { CHANNEL_CODES, CHANNEL_ID, type ChannelCode } from '../../shared/codes';

// --- setup ------------------------------------------------------------------------------------------

/** Everything compose needs before the form can be used. */
export interface ComposeSetup {
  /** Enabled by the institution AND permitted for this user, in contract order. */
  availableChannels: ChannelCode[];
  /** The active institution signature, or null when there is none or it is inactive. */
  signature: Signature | null;
  quota: Quota;
}

async function loadSetup(signal: AbortSignal): Promise<ComposeSetup> {
  const [channels, permission, signatures, quota] = await Promise.all([
    http.request(COMPOSE_API.channels, { signal }).then((body) => parseBody(body, ChannelsBodyStruct, COMPOSE_API.channels).data),
    http.request(COMPOSE_API.permissions, { signal }).then((body) => parseBody(body, PermissionBodyStruct, COMPOSE_API.permissions).data),
    http.request(COMPOSE_API.signatures, { signal }).then((body) => parseBody(body, SignaturesBodyStruct, COMPOSE_API.signatures).data),
    http.request(COMPOSE_API.quota, { signal }).then((body) => parseBody(body, QuotaBodyStruct, COMPOSE_API.quota).data),
  ]);
  const permitted = new Set(
    permission.institution_channel_permissions.filter((entry) => entry.enabled).map((entry) => entry.channel_id),
  );
  const enabled = new Set(channels.filter((channel) => channel.enabled_by_institution).map((channel) => channel.code));
  const availableChannels = (Object.keys(CHANNEL_ID) as ChannelCode[]).filter(
    (code) => enabled.has(code) && permitted.has(CHANNEL_ID[code]),
  );
  return { availableChannels, signature: signatures.find((entry) => entry.is_active) ?? null, quota };
}

export const fetchComposeSetup = fromPromise<ComposeSetup>(({ signal }) => loadSetup(signal));

export interface ComposeStartInput {
  /** The draft being edited, if any. */
  draftId: number | null;
  /** The message being answered (a new reply), if any. */
  replyToId: number | null;
  backupKey: string;
}

/** What a reply starts with: "Re: <title>" to the original sender. */
export interface ReplyStart {
  title: string;
  /** The sender as a pick; null when the sender cannot be picked. */
  pick: RecipientPick | null;
}

export interface ComposeStart {
  setup: ComposeSetup;
  draft: ComposeDraft | null;
  /** What this browser kept of the form (see `loadComposeBackup`). */
  backup: ComposeBackup | null;
  reply: ReplyStart | null;
}

/** The reply form for `message` (a staff sender is picked as staff, a guardian as guardian, a student as student). */
export function replyStartOf(message: MessageDetail): ReplyStart {
  const title = /^re:/i.test(message.title) ? message.title : `Re: ${message.title}`;
  const { sender } = message;
  const pick: RecipientPick =
    sender.kind === 'apoderado'
      ? { kind: 'guardian', id: sender.id, label: sender.name }
      : sender.kind === 'estudiante'
        ? { kind: 'student', id: sender.id, audience: 'estudiantes', label: sender.name }
        : { kind: 'staff', id: sender.id, label: sender.name };
  return { title, pick };
}

/** Everything compose opens with, in parallel: setup, the draft or the replied message, the local backup. */
export const fetchComposeStart = fromPromise<ComposeStart, ComposeStartInput>(async ({ input, signal }) => {
  const replyPath = input.draftId === null && input.replyToId !== null ? MESSAGES_API.one(input.replyToId) : null;
  const [setup, draft, replied] = await Promise.all([
    loadSetup(signal),
    input.draftId === null ? Promise.resolve(null) : draftOf(input.draftId, signal),
    replyPath === null ? Promise.resolve(null) : http.request(replyPath, { signal }).then((body) => parseBody(body, MessageDetailBodyStruct, replyPath).data),
  ]);
  return { setup, draft, backup: loadComposeBackup(input.backupKey), reply: replied ? replyStartOf(replied) : null };
});

// --- recipients -------------------------------------------------------------------------------------

export const RECIPIENT_LISTS_PER_PAGE = 50;

export const fetchRecipients = fromPromise<Recipients>(async ({ signal }) => {
  const body = await http.request(COMPOSE_API.recipients, { signal });
  return parseBody(body, RecipientsBodyStruct, COMPOSE_API.recipients).data;
});

export interface PageInput {
  /** 1-based page number. */
  page: number;
}

export const fetchRecipientLists = fromPromise<NumberedPage<RecipientList>, PageInput>(async ({ input, signal }) => {
  const query = { page: input.page, per_page: RECIPIENT_LISTS_PER_PAGE };
  const body = await http.request(COMPOSE_API.recipientLists, { query, signal });
  return parseBody(body, RecipientListPageStruct, COMPOSE_API.recipientLists);
});

export interface IdInput {
  id: number;
}

export const fetchRecipientListUsers = fromPromise<RecipientListUser[], IdInput>(async ({ input, signal }) => {
  const path = COMPOSE_API.recipientListUsers(input.id);
  return parseBody(await http.request(path, { signal }), RecipientListUsersBodyStruct, path).data;
});

// --- drafts, estimate, send -------------------------------------------------------------------------

const draftOf = async (id: number, signal: AbortSignal): Promise<ComposeDraft> => {
  const path = COMPOSE_API.draft(id);
  return parseBody(await http.request(path, { signal }), ComposeDraftBodyStruct, path).data;
};

export const fetchDraft = fromPromise<ComposeDraft, IdInput>(({ input, signal }) => draftOf(input.id, signal));

export interface SaveDraftInput {
  /** null: the first save creates the draft; afterwards its id, so later saves update it. */
  id: number | null;
  input: ComposeInput;
  /** Only sent on creation: a reply draft remembers what it answers. */
  replyToId?: number | null;
}

export const saveDraft = fromPromise<ComposeDraft, SaveDraftInput>(async ({ input, signal }) => {
  const path = input.id === null ? COMPOSE_API.drafts : COMPOSE_API.draft(input.id);
  const body =
    input.id === null
      ? { ...input.input, ...(input.replyToId ? { reply_to_id: input.replyToId } : {}) }
      : { ...input.input };
  const answer = await http.request(path, { method: input.id === null ? 'POST' : 'PUT', body, signal });
  return parseBody(answer, ComposeDraftBodyStruct, path).data;
});

export const estimate = fromPromise<Estimate, ComposeInput>(async ({ input, signal }) => {
  const body = await http.request(COMPOSE_API.estimate, { method: 'POST', body: { ...input }, signal });
  return parseBody(body, EstimateBodyStruct, COMPOSE_API.estimate).data;
});

export interface SendInput {
  input: ComposeInput;
  /** Sending a saved draft turns that draft into the sent/scheduled message. */
  draftId: number | null;
  replyToId: number | null;
  /** Same key for a retry of the same message: the server answers the first result again. */
  idempotencyKey: string;
}

async function post(path: string, send: SendInput, signal: AbortSignal): Promise<SendResult> {
  const body = {
    ...send.input,
    ...(send.draftId !== null ? { draft_id: send.draftId } : {}),
    ...(send.replyToId !== null ? { reply_to_id: send.replyToId } : {}),
  };
  const headers = { [IDEMPOTENCY_HEADER]: send.idempotencyKey };
  return parseBody(await http.request(path, { method: 'POST', body, headers, signal }), SendResultBodyStruct, path).data;
}

export const sendMessage = fromPromise<SendResult, SendInput>(({ input, signal }) => post(COMPOSE_API.send, input, signal));

/** `input.input.scheduled_at` carries the instant (see `zonedToUtc`). */
export const scheduleMessage = fromPromise<SendResult, SendInput>(({ input, signal }) =>
  post(COMPOSE_API.schedule, input, signal),
);

export const deleteAttachment = fromPromise<void, IdInput>(async ({ input, signal }) => {
  await http.request(COMPOSE_API.attachment(input.id), { method: 'DELETE', signal });
});

/** What a saved draft sends: its own fields, its attachments by id. */
export function draftToInput(draft: ComposeDraft, scheduledAt: string | null): ComposeInput {
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
export const sendDraftById = fromPromise<SendResult, IdInput>(async ({ input, signal }) => {
  const draft = await draftOf(input.id, signal);
  const send = { input: draftToInput(draft, null), draftId: draft.id, replyToId: draft.reply_to_id, idempotencyKey: newIdempotencyKey() };
  return post(COMPOSE_API.send, send, signal);
});

/** Schedule a saved draft by id at `at` (ISO UTC). */
export const scheduleDraftById = fromPromise<SendResult, IdInput & { at: string }>(async ({ input, signal }) => {
  const draft = await draftOf(input.id, signal);
  const send = { input: draftToInput(draft, input.at), draftId: draft.id, replyToId: draft.reply_to_id, idempotencyKey: newIdempotencyKey() };
  return post(COMPOSE_API.schedule, send, signal);
});

/** Save a draft by id with what the server already holds (the lifecycle has no form to send). */
export const resaveDraftById = fromPromise<ComposeDraft, IdInput>(async ({ input, signal }) => {
  const draft = await draftOf(input.id, signal);
  const path = COMPOSE_API.draft(draft.id);
  const body = { ...draftToInput(draft, draft.scheduled_at) };
  return parseBody(await http.request(path, { method: 'PUT', body, signal }), ComposeDraftBodyStruct, path).data;
});

// --- attachment upload ------------------------------------------------------------------------------

export interface UploadInput {
  file: File;
  /** Called as the bytes go (fetch cannot report upload progress, hence XMLHttpRequest). */
  onProgress?: (loaded: number, total: number) => void;
}


/** Failure codes of the upload when the body says nothing (a proxy answering a bare 413). */
const UPLOAD_STATUS_CODES: Readonly<Record<number, string>> = {
  413: 'attachment.too_large',
  415: 'attachment.type',
  422: 'validation.failed',
};

function uploadFailure(xhr: XMLHttpRequest): ApiFailure {
  let data: unknown = null;
  try {
    data = JSON.parse(xhr.responseText);
  } catch {
    data = null;
  }
  const fallback = UPLOAD_STATUS_CODES[xhr.status] ?? `http.${xhr.status}`;
  if (is(data, ApiErrorStruct)) {
    return { status: xhr.status, code: data.code ?? fallback, message: data.message, fieldErrors: data.errors ?? {} };
  }
  return { status: xhr.status, code: fallback, message: xhr.statusText, fieldErrors: {} };
}

async function xsrfToken(signal: AbortSignal): Promise<string | null> {
  const token = readCookie(COOKIE.xsrf);
  if (token !== null) return token;
  await http.request(API.csrf, { signal, authFlow: true, silent: true });
  return readCookie(COOKIE.xsrf);
}

/**
 * `POST /attachments` (multipart `file`) with XMLHttpRequest for its upload progress. Resolves with the
 * stored attachment; rejects with an ApiFailureError like every other call (413/415/422/network/cancel);
 * stopping the actor aborts the upload.
 */
export const uploadAttachment = fromPromise<AttachmentSummary, UploadInput>(async ({ input, signal }) => {
  const token = await xsrfToken(signal);
  return new Promise<AttachmentSummary>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const fail = (failure: ApiFailure) => reject(new ApiFailureError(failure));
    xhr.upload.onprogress = (event) => {
      input.onProgress?.(event.loaded, event.lengthComputable ? event.total : input.file.size);
    };
    xhr.onload = () => {
      if (xhr.status !== 201 && xhr.status !== 200) return fail(uploadFailure(xhr));
      try {
        resolve(parseBody(JSON.parse(xhr.responseText) as unknown, AttachmentBodyStruct, COMPOSE_API.attachments).data);
      } catch (error) {
        reject(error instanceof ApiFailureError ? error : new ApiFailureError({ status: xhr.status, code: 'response.invalid', message: 'Unexpected response body', fieldErrors: {} }));
      }
    };
    xhr.onerror = () => fail({ status: 0, code: 'network', message: 'Network error', fieldErrors: {} });
    xhr.onabort = () => fail({ status: 0, code: 'request.cancelled', message: 'Request cancelled', fieldErrors: {} });
    if (signal.aborted) {
      fail({ status: 0, code: 'request.cancelled', message: 'Request cancelled', fieldErrors: {} });
      return;
    }
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.open('POST', `${API_BASE}${COMPOSE_API.attachments}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token !== null) xhr.setRequestHeader(XSRF_HEADER, token);
    const form = new FormData();
    form.append('file', input.file, input.file.name);
    xhr.send(form);
  });
});

// --- pure helpers -----------------------------------------------------------------------------------

/** A fresh key for one message being sent (36 characters; the contract wants 8–100). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of `timeZone` at instant `ms`, read back as if it were UTC (so wall − instant = offset). */
function wallAsUtc(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

const DAY_MS = 86_400_000;

/**
 * The UTC instant (ISO 8601) when the wall clock of `timeZone` shows `date` (YYYY-MM-DD) `time` (HH:mm).
 * Around DST changes it behaves like Temporal's "compatible": a repeated hour takes its first occurrence,
 * a skipped one moves forward by the gap (Santiago's 00:30 on a spring-forward night is 01:30).
 * Null for a malformed date or time, or an unknown zone.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  try {
    // The zone's offset a day before and a day after: DST changes are never closer together than that.
    const before = wallAsUtc(wall - DAY_MS, timeZone) - (wall - DAY_MS);
    const after = wallAsUtc(wall + DAY_MS, timeZone) - (wall + DAY_MS);
    const fits = [wall - before, wall - after].filter((instant) => wallAsUtc(instant, timeZone) === wall);
    const instant = fits.length > 0 ? Math.min(...fits) : wall - before;
    return new Date(instant).toISOString();
  } catch {
    return null;
  }
}

/** The wall-clock date (YYYY-MM-DD) and time (HH:mm) of `timeZone` at an instant (epoch ms or ISO). */
export function utcToZoned(instant: number | string, timeZone: string): { date: string; time: string } | null {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  if (Number.isNaN(ms)) return null;
  try {
    const iso = new Date(wallAsUtc(ms, timeZone)).toISOString();
    return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
  } catch {
    return null;
  }
}

// --- local backup of the compose form ---------------------------------------------------------------

/** What is kept so a reload or a crash loses nothing typed. */
export interface ComposeBackup {
  title: string;
  content: string;
  channels: ChannelCode[];
  recipients: RecipientPick[];
  /** Uploaded attachments (already on the server, so their ids stay valid). */
  attachments: AttachmentSummary[];
  allowReplies: boolean;
  copyToSender: boolean;
  schedule: { date: string; time: string } | null;
  /** The draft this form saves into, once saved. */
  draftId: number | null;
  /** Epoch ms of the last change. */
  savedAt: number;
}

export const BACKUP_VERSION = 1;
const BACKUP_PREFIX = 'hermes.compose.';

const ChannelCodeStruct = enums(CHANNEL_CODES);

const ComposeBackupStruct = object({
  v: literal(BACKUP_VERSION),
  value: type({
    title: string(),
    content: string(),
    channels: array(ChannelCodeStruct),
    recipients: array(RecipientPickStruct),
    attachments: array(AttachmentSummaryStruct),
    allowReplies: boolean(),
    copyToSender: boolean(),
    schedule: nullable(type({ date: string(), time: string() })),
    draftId: nullable(number()),
    savedAt: number(),
  }),
});

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Access can throw (storage disabled by the browser); the form still works without a backup.
    return null;
  }
}

/** The backup under `key`, or null when there is none, it is from another version, or it is corrupt. */
export function loadComposeBackup(key: string): ComposeBackup | null {
  const store = storage();
  if (!store) return null;
  let raw: string | null;
  try {
    raw = store.getItem(BACKUP_PREFIX + key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  return is(parsed, ComposeBackupStruct) ? (parsed.value as ComposeBackup) : null;
}

export function saveComposeBackup(key: string, value: ComposeBackup): void {
  try {
    storage()?.setItem(BACKUP_PREFIX + key, JSON.stringify({ v: BACKUP_VERSION, value }));
  } catch {
    // Quota exceeded or storage disabled: losing the backup must not break typing.
  }
}

export function clearComposeBackup(key: string): void {
  try {
    storage()?.removeItem(BACKUP_PREFIX + key);
  } catch {
    // Same as above.
  }
}

/**
 * Drops every backup (any key) that saves into draft `draftId`: once that draft is sent or scheduled,
 * a backup of it (say the "new" form that first saved it) must not bring it back.
 */
export function clearDraftBackups(draftId: number): void {
  const store = storage();
  if (!store) return;
  try {
    const keys: string[] = [];
    for (let index = 0; index < store.length; index += 1) {
      const key = store.key(index);
      if (key?.startsWith(BACKUP_PREFIX)) keys.push(key);
    }
    for (const key of keys) {
      if (loadComposeBackup(key.slice(BACKUP_PREFIX.length))?.draftId === draftId) store.removeItem(key);
    }
  } catch {
    // Same as above.
  }
}
