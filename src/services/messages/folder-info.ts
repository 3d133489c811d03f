// The two mail calls the app-lifetime machines make (the folder counters and the undo of a delete), apart
// from messages.ts so the first download carries them and not the whole messages service with its
// paging and polling (bench (a); docs/decisions/0112-initial-javascript-budget.md).
import { fromCall, parseBody } from '../http/client';
import { MESSAGES_API, type FolderCount } from '../../../shared/messages-contract';
import { FolderCountsBodyStruct, RestoredBodyStruct } from '../../../shared/structs';

export interface IdsInput {
  ids: number[];
}

/** Messages back from the trash; answers how many came back. */
export const restoreMessages = fromCall<number, IdsInput>(async ({ input, signal, http }) => {
  const body = await http.request(MESSAGES_API.restore, { method: 'POST', body: { ids: input.ids }, signal });
  return parseBody(body, RestoredBodyStruct, MESSAGES_API.restore).data.restored;
});

/** Every folder's counters (`GET /messages/info`), for the sidebar. */
export const fetchFolderCounts = fromCall<FolderCount[]>(async ({ signal, http }) => {
  const body = await http.request(MESSAGES_API.info, { signal });
  return parseBody(body, FolderCountsBodyStruct, MESSAGES_API.info).data;
});
