// The school's students and guardians (shared/people-contract.ts `PEOPLE_API`) as actor logic: one numbered
// page of the list, one person's record, a correction, a guardian added or removed, a withdrawal and a
// re-enrolment. Every answer is checked with its struct (shared/people-structs.ts).
import {
  PEOPLE_API,
  PEOPLE_PER_PAGE,
  type NewGuardianInput,
  type PeopleKind,
  type PeoplePage,
  type PeopleQuery,
  type PeopleStatus,
  type PersonInput,
  type PersonRecord,
} from '../../../shared/people-contract';
import { PeoplePageStruct, PersonRecordDataStruct } from '../../../shared/people-structs';
import { fromCall, parseBody } from '../http/client';

/** What the list shows: a search, a kind (null: both), a standing and a page. */
export interface PeopleListQuery {
  q: string;
  kind: PeopleKind | null;
  status: PeopleStatus;
  page: number;
}

export const fetchPeople = fromCall<PeoplePage, PeopleListQuery>(async ({ input, signal, http }) => {
  const q = input.q.trim();
  const query: PeopleQuery = {
    page: input.page,
    per_page: PEOPLE_PER_PAGE,
    status: input.status,
    ...(q ? { q } : {}),
    ...(input.kind ? { kind: input.kind } : {}),
  };
  const body = await http.request(PEOPLE_API.people, { query: { ...query }, signal });
  return parseBody(body, PeoplePageStruct, PEOPLE_API.people);
});

export interface PersonKey {
  kind: PeopleKind;
  id: number;
}

const recordAnswer = (body: unknown, path: string): PersonRecord => parseBody(body, PersonRecordDataStruct, path).data;

export const fetchPerson = fromCall<PersonRecord, PersonKey>(async ({ input, signal, http }) => {
  const path = PEOPLE_API.person(input.kind, input.id);
  return recordAnswer(await http.request(path, { signal }), path);
});

export const savePerson = fromCall<PersonRecord, PersonKey & { changes: PersonInput }>(async ({ input, signal, http }) => {
  const path = PEOPLE_API.person(input.kind, input.id);
  return recordAnswer(await http.request(path, { method: 'PATCH', body: { ...input.changes }, signal }), path);
});

export const addGuardian = fromCall<PersonRecord, { studentId: number; guardian: NewGuardianInput }>(async ({ input, signal, http }) => {
  const path = PEOPLE_API.guardians(input.studentId);
  return recordAnswer(await http.request(path, { method: 'POST', body: { ...input.guardian }, signal }), path);
});

export const removeGuardian = fromCall<PersonRecord, { studentId: number; guardianId: number }>(async ({ input, signal, http }) => {
  const path = PEOPLE_API.guardian(input.studentId, input.guardianId);
  return recordAnswer(await http.request(path, { method: 'DELETE', signal }), path);
});

export const withdrawStudent = fromCall<PersonRecord, { studentId: number }>(async ({ input, signal, http }) => {
  const path = PEOPLE_API.withdrawal(input.studentId);
  return recordAnswer(await http.request(path, { method: 'POST', signal }), path);
});

export const enrolStudent = fromCall<PersonRecord, { studentId: number }>(async ({ input, signal, http }) => {
  const path = PEOPLE_API.withdrawal(input.studentId);
  return recordAnswer(await http.request(path, { method: 'DELETE', signal }), path);
});
