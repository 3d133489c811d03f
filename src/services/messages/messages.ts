// Mail folder and message calls (messages-contract.ts `MESSAGES_API`) as actor logic. Every body is checked
// before a machine sees it.
import { fromCallback, type EventObject } from 'xstate';
import { fromCall, API_BASE, parseBody, httpIn, type HttpClient } from '../http/client';
import type { IdsInput } from './folder-info';
import { fromCursorPage, type ListFetchInput, type ListPage } from '../list/pages';
import { MAX_POLL_WAIT_MS, pollEvery } from '../http/poll';
import { PROGRESS_POLL_MS, type DeliveryProgress } from '../../../shared/reception-contract';
import { MESSAGES_API, type MessageDetail, type MessageSummary, type Paged } from '../../../shared/messages-contract';
import {
  MessageDetailBodyStruct,
  MessagePageBodyStruct,
  MessageSummaryBodyStruct,
  MovedBodyStruct,
  PurgedBodyStruct,
} from '../../../shared/messages-structs';
import type { Folder } from '../../../shared/codes';

/** Page size of folder lists (the contract's default). */
const FOLDER_PAGE_SIZE = 50;

/** The download link of an attachment (a plain `<a download>`, so the browser streams it). */
export const attachmentHref = (id: number): string => `${API_BASE}${MESSAGES_API.attachment(id)}`;

interface FolderPageInput {
  folder: Folder;
  /** Search text; an empty string lists everything (SPEC §5). */
  q: string;
  /** null for the first page; `meta.next_cursor` of the previous page otherwise. */
  cursor: string | null;
}

export interface IdInput {
  id: number;
}

/** A folder list's query (machines/messages/folder.ts): the folder, and the search text as typed. */
export interface FolderQuery {
  folder: Folder;
  q: string;
}

/** The folder list's `fetchPage` (machines/list/list.ts): the same cursor pages, in the list's shape. */
export const fetchFolderListPage = fromCall<ListPage<MessageSummary>, ListFetchInput<FolderQuery>>(async ({ input, signal, http }) =>
  fromCursorPage(await folderPage(http, { folder: input.query.folder, q: input.query.q, cursor: input.after }, signal)),
);

/** `silent`: background refreshes show no loading bar. */
async function folderPage(http: HttpClient, input: FolderPageInput, signal: AbortSignal, silent = false): Promise<Paged<MessageSummary>> {
  const query = {
    folder: input.folder,
    q: input.q === '' ? undefined : input.q,
    cursor: input.cursor ?? undefined,
    limit: FOLDER_PAGE_SIZE,
  };
  const body = await http.request(MESSAGES_API.list, { query, signal, silent });
  return parseBody(body, MessagePageBodyStruct, MESSAGES_API.list);
}

export interface FolderProgressInput {
  folder: Folder;
  q: string;
  /** Listed messages whose deliveries are in flight. */
  ids: number[];
}

export type FolderProgressEvent = { type: 'folder.progress'; progress: Record<number, DeliveryProgress> };

/**
 * The sent folder while some listed messages are still being delivered: page 1 again every
 * PROGRESS_POLL_MS, reporting those messages' progress, until none of them is in flight. Silent on errors.
 */
export const watchFolderProgress = fromCallback<EventObject, FolderProgressInput, FolderProgressEvent>(({ input, sendBack, system }) => {
  if (input.ids.length === 0) return undefined;
  const http = httpIn(system);
  const wanted = new Set(input.ids);
  return pollEvery(
    async (signal) => {
      const page = await folderPage(http, { folder: input.folder, q: input.q, cursor: null }, signal, true);
      const progress: Record<number, DeliveryProgress> = {};
      for (const row of page.data) if (wanted.has(row.id) && row.progress) progress[row.id] = row.progress;
      if (!signal.aborted) sendBack({ type: 'folder.progress', progress });
      return Object.values(progress).some((p) => p.state === 'sending');
    },
    PROGRESS_POLL_MS,
    MAX_POLL_WAIT_MS,
  );
});

export const fetchMessage = fromCall<MessageDetail, IdInput>(async ({ input, signal, http }) => {
  const path = MESSAGES_API.one(input.id);
  return parseBody(await http.request(path, { signal }), MessageDetailBodyStruct, path).data;
});

export const markRead = fromCall<MessageSummary, IdInput>(async ({ input, signal, http }) => {
  const path = MESSAGES_API.read(input.id);
  return parseBody(await http.request(path, { method: 'POST', signal }), MessageSummaryBodyStruct, path).data;
});

export const deleteMessages = fromCall<number, IdsInput>(async ({ input, signal, http }) => {
  const body = await http.request(MESSAGES_API.delete, { method: 'POST', body: { ids: input.ids }, signal });
  return parseBody(body, MovedBodyStruct, MESSAGES_API.delete).data.moved;
});

export const purgeMessages = fromCall<number, IdsInput>(async ({ input, signal, http }) => {
  const body = await http.request(MESSAGES_API.purge, { method: 'POST', body: { ids: input.ids }, signal });
  return parseBody(body, PurgedBodyStruct, MESSAGES_API.purge).data.purged;
});

/** scheduled → draft; answers the message's new summary (as the server does for `read`). */
export const cancelSchedule = fromCall<MessageSummary, IdInput>(async ({ input, signal, http }) => {
  const path = MESSAGES_API.cancelSchedule(input.id);
  return parseBody(await http.request(path, { method: 'POST', signal }), MessageSummaryBodyStruct, path).data;
});
