// The school's staff accounts (shared/staff-contract.ts `STAFF_API`) as actor logic: the paged list (for the
// list pattern), invitations one or many, roles and device, resend and revoke, deactivate and reactivate.
// Every answer is checked with its struct (shared/staff-structs.ts).
import {
  STAFF_API,
  STAFF_PER_PAGE,
  type Deactivated,
  type InviteInput,
  type InviteOutcome,
  type SortOrder,
  type StaffChange,
  type StaffMember,
  type StaffQuery,
  type StaffSort,
  type StaffState,
} from '../../../shared/staff-contract';
import {
  DeactivatedBodyStruct,
  InviteOutcomesBodyStruct,
  ResentBodyStruct,
  StaffMemberBodyStruct,
  StaffPageStruct,
} from '../../../shared/staff-structs';
import { fromCall, parseBody } from '../http/client';
import { fromNumberedPage, pageNumberOf, type ListFetchInput, type ListPage } from '../list/pages';

/** What the staff list shows: a search of name and e-mail, a state (null: all) and an order. */
export interface StaffListQuery {
  q: string;
  state: StaffState | null;
  sort: StaffSort;
  order: SortOrder;
}

export const fetchStaffPage = fromCall<ListPage<StaffMember>, ListFetchInput<StaffListQuery>>(async ({ input, signal, http }) => {
  const { q, state, sort, order } = input.query;
  const query: StaffQuery = {
    page: pageNumberOf(input.after),
    per_page: STAFF_PER_PAGE,
    sort,
    order,
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(state ? { state } : {}),
  };
  const body = await http.request(STAFF_API.staff, { query: { ...query }, signal });
  return fromNumberedPage(parseBody(body, StaffPageStruct, STAFF_API.staff));
});

const memberAnswer = (body: unknown, path: string): StaffMember => parseBody(body, StaffMemberBodyStruct, path).data;

export interface MemberIdInput {
  id: number;
}

export const inviteStaff = fromCall<InviteOutcome[], InviteInput>(async ({ input, signal, http }) => {
  const body = await http.request(STAFF_API.invitations, { method: 'POST', body: { people: input.people } satisfies InviteInput, signal });
  return parseBody(body, InviteOutcomesBodyStruct, STAFF_API.invitations).data;
});

export const changeStaff = fromCall<StaffMember, MemberIdInput & { change: StaffChange }>(async ({ input, signal, http }) => {
  const path = STAFF_API.member(input.id);
  return memberAnswer(await http.request(path, { method: 'PATCH', body: { ...input.change }, signal }), path);
});

/** A new link by e-mail; `mailSent` false: the mail server refused it (the link stands, «Reenviar» tries again). */
export const resendInvitation = fromCall<{ member: StaffMember; mailSent: boolean }, MemberIdInput>(async ({ input, signal, http }) => {
  const path = STAFF_API.invitation(input.id);
  const body = parseBody(await http.request(path, { method: 'POST', signal }), ResentBodyStruct, path);
  return { member: body.data, mailSent: body.mail_sent };
});

export const revokeInvitation = fromCall<StaffMember, MemberIdInput>(async ({ input, signal, http }) => {
  const path = STAFF_API.invitation(input.id);
  return memberAnswer(await http.request(path, { method: 'DELETE', signal }), path);
});

export const deactivateStaff = fromCall<Deactivated, MemberIdInput>(async ({ input, signal, http }) => {
  const path = STAFF_API.deactivate(input.id);
  return parseBody(await http.request(path, { method: 'POST', signal }), DeactivatedBodyStruct, path).data;
});

export const reactivateStaff = fromCall<StaffMember, MemberIdInput>(async ({ input, signal, http }) => {
  const path = STAFF_API.reactivate(input.id);
  return memberAnswer(await http.request(path, { method: 'POST', signal }), path);
});
