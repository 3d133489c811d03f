// Recipient-list management calls (shared/recipient-lists-contract.ts `RECIPIENT_LISTS_API`) as actor logic:
// the paged lists and their trash (for the list pattern), one list with its members, and every change the
// owner makes. Every answer is checked with its struct (shared/recipient-lists-structs.ts).
import type { RecipientPick } from '../../../shared/compose-contract';
import {
  RECIPIENT_LISTS_API,
  type RecipientListInput,
  type RecipientListMember,
  type RecipientListSummary,
  type TrashedRecipientList,
  type UserToEdit,
  type UserToEditInput,
} from '../../../shared/recipient-lists-contract';
import {
  RecipientListMembersBodyStruct,
  RecipientListSummaryBodyStruct,
  RecipientListSummaryPageStruct,
  RemovedBodyStruct,
  TrashedRecipientListPageStruct,
  UserToEditBodyStruct,
} from '../../../shared/recipient-lists-structs';
import { fromCall, parseBody } from '../http/client';
import { fromNumberedPage, pageNumberOf, type ListFetchInput, type ListPage } from '../list/pages';

// --- paged lists ------------------------------------------------------------------------------------

const LISTS_PER_PAGE = 25;

/** The search of the lists and of their trash (case- and accent-insensitive on the server). */
export interface ListsQuery {
  q: string;
}

const pageQuery = (input: ListFetchInput<ListsQuery>) => ({
  page: pageNumberOf(input.after),
  per_page: LISTS_PER_PAGE,
  ...(input.query.q.trim() ? { q: input.query.q.trim() } : {}),
});

export const fetchListsPage = fromCall<ListPage<RecipientListSummary>, ListFetchInput<ListsQuery>>(async ({ input, signal, http }) => {
  const body = await http.request(RECIPIENT_LISTS_API.lists, { query: pageQuery(input), signal });
  return fromNumberedPage(parseBody(body, RecipientListSummaryPageStruct, RECIPIENT_LISTS_API.lists));
});

export const fetchTrashPage = fromCall<ListPage<TrashedRecipientList>, ListFetchInput<ListsQuery>>(async ({ input, signal, http }) => {
  const body = await http.request(RECIPIENT_LISTS_API.trash, { query: pageQuery(input), signal });
  return fromNumberedPage(parseBody(body, TrashedRecipientListPageStruct, RECIPIENT_LISTS_API.trash));
});

// --- one list ---------------------------------------------------------------------------------------

export interface ListIdInput {
  id: number;
}

const summaryAnswer = (body: unknown, path: string) => parseBody(body, RecipientListSummaryBodyStruct, path).data;

export const createList = fromCall<RecipientListSummary, RecipientListInput>(async ({ input, signal, http }) =>
  summaryAnswer(await http.request(RECIPIENT_LISTS_API.lists, { method: 'POST', body: { ...input }, signal }), RECIPIENT_LISTS_API.lists),
);

export interface ListDetail {
  list: RecipientListSummary;
  members: RecipientListMember[];
}

/** The list and its members, together (the screen shows nothing of a list without its members). */
export const fetchListDetail = fromCall<ListDetail, ListIdInput>(async ({ input, signal, http }) => {
  const listPath = RECIPIENT_LISTS_API.list(input.id);
  const usersPath = RECIPIENT_LISTS_API.users(input.id);
  const [list, members] = await Promise.all([
    http.request(listPath, { signal }).then((body) => summaryAnswer(body, listPath)),
    http.request(usersPath, { signal }).then((body) => parseBody(body, RecipientListMembersBodyStruct, usersPath).data),
  ]);
  return { list, members };
});

export const updateList = fromCall<RecipientListSummary, ListIdInput & { name?: string; shared?: boolean }>(
  async ({ input, signal, http }) => {
    const { id, ...body } = input;
    const path = RECIPIENT_LISTS_API.list(id);
    return summaryAnswer(await http.request(path, { method: 'PATCH', body, signal }), path);
  },
);

export const addMembers = fromCall<RecipientListSummary, ListIdInput & { picks: RecipientPick[] }>(async ({ input, signal, http }) => {
  const path = RECIPIENT_LISTS_API.members(input.id);
  return summaryAnswer(await http.request(path, { method: 'POST', body: { picks: input.picks }, signal }), path);
});

export const removeMember = fromCall<void, ListIdInput & { memberId: number }>(async ({ input, signal, http }) => {
  await http.request(RECIPIENT_LISTS_API.member(input.id, input.memberId), { method: 'DELETE', signal });
});

export const removeStale = fromCall<number, ListIdInput>(async ({ input, signal, http }) => {
  const path = RECIPIENT_LISTS_API.removeStale(input.id);
  return parseBody(await http.request(path, { method: 'POST', signal }), RemovedBodyStruct, path).data.removed;
});

export const deleteList = fromCall<void, ListIdInput>(async ({ input, signal, http }) => {
  await http.request(RECIPIENT_LISTS_API.list(input.id), { method: 'DELETE', signal });
});

export const restoreList = fromCall<RecipientListSummary, ListIdInput>(async ({ input, signal, http }) => {
  const path = RECIPIENT_LISTS_API.restore(input.id);
  return summaryAnswer(await http.request(path, { method: 'POST', signal }), path);
});

export const purgeList = fromCall<void, ListIdInput>(async ({ input, signal, http }) => {
  await http.request(RECIPIENT_LISTS_API.forever(input.id), { method: 'DELETE', signal });
});

// --- a member's person record -----------------------------------------------------------------------

export interface MemberInput {
  listId: number;
  memberId: number;
}

export const fetchMemberUser = fromCall<UserToEdit, MemberInput>(async ({ input, signal, http }) => {
  const path = RECIPIENT_LISTS_API.user(input.listId, input.memberId);
  return parseBody(await http.request(path, { signal }), UserToEditBodyStruct, path).data;
});

export const saveMemberUser = fromCall<UserToEdit, MemberInput & { changes: UserToEditInput }>(async ({ input, signal, http }) => {
  const path = RECIPIENT_LISTS_API.user(input.listId, input.memberId);
  return parseBody(await http.request(path, { method: 'PATCH', body: { ...input.changes }, signal }), UserToEditBodyStruct, path).data;
});

/** «Solicitar corrección»: the note goes to the school's leadership as a message (nothing to read back). */
export const requestCorrection = fromCall<void, MemberInput & { note: string }>(async ({ input, signal, http }) => {
  await http.request(RECIPIENT_LISTS_API.correction(input.listId, input.memberId), { method: 'POST', body: { note: input.note }, signal });
});
