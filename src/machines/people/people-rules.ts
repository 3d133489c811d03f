// What the people screens decide without the server: the list's address (`/settings/people?q=&kind=&status=&page=`,
// so a reload or a link shows the same search, filters and page), the pages offered, and what a student's record
// allows (a guardian's role still free, withdrawal or re-enrolment).
import {
  PEOPLE_KINDS,
  PEOPLE_Q_MAX,
  PEOPLE_STATUSES,
  RELATIONSHIP_MAX,
  type GuardianRoleId,
  type PeopleKind,
  type PeopleStatus,
  type PersonRecord,
} from '../../../shared/people-contract';
import type { PeopleListQuery } from '../../services/people/people';

export const PEOPLE_PATH = '/settings/people';
const DEFAULT_STATUS: PeopleStatus = 'enrolled';

/** The list's query as the address says it; what it does not say (or says wrongly) is the default. */
export function peopleQueryOf(search: string): PeopleListQuery {
  const params = new URLSearchParams(search);
  const kind = params.get('kind');
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').slice(0, PEOPLE_Q_MAX),
    kind: PEOPLE_KINDS.find((k) => k === kind) ?? null,
    status: PEOPLE_STATUSES.find((s) => s === status) ?? DEFAULT_STATUS,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The list's address: only what differs from the defaults. */
export function peopleAddress(query: PeopleListQuery): string {
  const params = new URLSearchParams();
  if (query.q.trim()) params.set('q', query.q);
  if (query.kind) params.set('kind', query.kind);
  if (query.status !== DEFAULT_STATUS) params.set('status', query.status);
  if (query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `${PEOPLE_PATH}?${search}` : PEOPLE_PATH;
}

export const sameQuery = (a: PeopleListQuery, b: PeopleListQuery): boolean =>
  a.q === b.q && a.kind === b.kind && a.status === b.status && a.page === b.page;

/** A person's record page. */
export const personPath = (kind: PeopleKind, id: number): string => `${PEOPLE_PATH}/${kind}/${id}`;

/** The guardian roles a student has free (a student has at most one titular and one suplente). */
export const freeRoles = (record: PersonRecord): GuardianRoleId[] =>
  ([1, 2] as const).filter((role) => !record.guardians.some((guardian) => guardian.rol_adulto_id === role));

export const canAddGuardian = (record: PersonRecord): boolean => record.kind === 'estudiante' && freeRoles(record).length > 0;
export const canWithdraw = (record: PersonRecord): boolean => record.kind === 'estudiante' && record.withdrawn_at === null;
export const canEnrol = (record: PersonRecord): boolean => record.kind === 'estudiante' && record.withdrawn_at !== null;
export const hasGuardian = (record: PersonRecord, guardianId: number): boolean =>
  record.kind === 'estudiante' && record.guardians.some((guardian) => guardian.id === guardianId);

/** The new guardian's relationship: required, at most RELATIONSHIP_MAX characters. */
export function relationshipProblem(relationship: string): 'relationshipRequired' | 'relationshipLong' | null {
  const value = relationship.trim();
  if (value === '') return 'relationshipRequired';
  return value.length > RELATIONSHIP_MAX ? 'relationshipLong' : null;
}
