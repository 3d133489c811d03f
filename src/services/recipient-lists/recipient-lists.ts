// Recipient-list management calls (shared/recipient-lists-contract.ts `RECIPIENT_LISTS_API`) as actor logic:
// the paged lists and their trash (for the list pattern), one list with its members, and every change the
// owner makes. Every answer is checked with the structs below.
import { array, boolean, enums, literal, nullable, number, string, type, union, type Describe, type Struct } from 'superstruct';
import type { NumberedPage, RecipientPick } from '../../../shared/compose-contract';
import {
  RECIPIENT_LISTS_API,
  type RecipientListInput,
  type RecipientListMember,
  type RecipientListSummary,
  type TrashedRecipientList,
  type UserToEdit,
  type UserToEditInput,
} from '../../../shared/recipient-lists-contract';
import { RecipientListUserStruct } from '../../../shared/compose-structs';
import { fromCall, parseBody } from '../http/client';
import { fromNumberedPage, pageNumberOf, type ListFetchInput, type ListPage } from '../list/pages';

// --- structs ----------------------------------------------------------------------------------------

const summaryFields = {
  id: number(),
  name: string(),
  users_count: number(),
  shared: boolean(),
  is_owner: boolean(),
  owner_name: string(),
  updated_at: string(),
  stale_count: number(),
};

export const RecipientListSummaryStruct: Describe<RecipientListSummary> = type(summaryFields);
export const TrashedRecipientListStruct: Describe<TrashedRecipientList> = type({ ...summaryFields, deleted_at: string(), deleted_by_name: string() });

const pageOf = <T>(item: Struct<T, unknown>) =>
  type({
    data: array(item),
    meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number() }),
    links: type({ next: nullable(string()), prev: nullable(string()) }),
  }) as unknown as Struct<NumberedPage<T>, unknown>;

const SummaryPageStruct = pageOf(RecipientListSummaryStruct);
const TrashPageStruct = pageOf(TrashedRecipientListStruct);
const SummaryBodyStruct = type({ data: RecipientListSummaryStruct });

export const RecipientListMemberStruct = type({
  ...(RecipientListUserStruct as unknown as { schema: Record<string, Struct<unknown, unknown>> }).schema,
  dni: nullable(string()),
  device_status: nullable(enums(['blue', 'green', 'yellow', 'red'] as const)),
  stale: nullable(enums(['not_enrolled', 'course_changed'] as const)),
}) as unknown as Struct<RecipientListMember, unknown>;
const MembersBodyStruct = type({ data: array(RecipientListMemberStruct) });

export const UserToEditStruct = type({
  user_type: enums(['apoderado', 'estudiante', 'funcionario'] as const),
  id: number(),
  ficha_adulto_id: nullable(number()),
  ficha_estudiante_id: nullable(number()),
  fono_celular: nullable(string()),
  email: nullable(string()),
  dni: nullable(string()),
  tipo_documento_id: nullable(union([literal(1), literal(2), literal(3)])),
  nombres: string(),
  apellido_paterno: string(),
  name: string(),
}) as unknown as Struct<UserToEdit, unknown>;
const UserBodyStruct = type({ data: UserToEditStruct });
const RemovedBodyStruct = type({ data: type({ removed: number() }) });

// --- paged lists ------------------------------------------------------------------------------------

export const LISTS_PER_PAGE = 25;

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
  return fromNumberedPage(parseBody(body, SummaryPageStruct, RECIPIENT_LISTS_API.lists));
});

export const fetchTrashPage = fromCall<ListPage<TrashedRecipientList>, ListFetchInput<ListsQuery>>(async ({ input, signal, http }) => {
  const body = await http.request(RECIPIENT_LISTS_API.trash, { query: pageQuery(input), signal });
  return fromNumberedPage(parseBody(body, TrashPageStruct, RECIPIENT_LISTS_API.trash));
});

// --- one list ---------------------------------------------------------------------------------------

export interface ListIdInput {
  id: number;
}

const summaryAnswer = (body: unknown, path: string) => parseBody(body, SummaryBodyStruct, path).data;

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
  const usersPath = `${listPath}/users`;
  const [list, members] = await Promise.all([
    http.request(listPath, { signal }).then((body) => summaryAnswer(body, listPath)),
    http.request(usersPath, { signal }).then((body) => parseBody(body, MembersBodyStruct, usersPath).data),
  ]);
  return { list, members };
});

export const updateList = fromCall<RecipientListSummary, ListIdInput & { name?: string; shared?: boolean }>(async ({ input, signal, http }) => {
  const { id, ...body } = input;
  const path = RECIPIENT_LISTS_API.list(id);
  return summaryAnswer(await http.request(path, { method: 'PATCH', body, signal }), path);
});

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
  return parseBody(await http.request(path, { signal }), UserBodyStruct, path).data;
});

export const saveMemberUser = fromCall<UserToEdit, MemberInput & { changes: UserToEditInput }>(async ({ input, signal, http }) => {
  const path = RECIPIENT_LISTS_API.user(input.listId, input.memberId);
  return parseBody(await http.request(path, { method: 'PATCH', body: { ...input.changes }, signal }), UserBodyStruct, path).data;
});
