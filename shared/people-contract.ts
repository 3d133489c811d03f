// API contract of the school's people (the /settings/people screen of the school's leadership): one place to
// find a student or a guardian, correct their record, give a student another guardian and mark a student
// withdrawn or enrolled again, between roster imports. Shared by the SPA and `server/`. Plain types and
// constants only; the response structs are in people-structs.ts.
import type { DocumentTypeId, NumberedPage, UserToEditInput } from './recipient-lists-contract';

/** The people this screen keeps: students and guardians (colleagues are /settings/staff's). */
export const PEOPLE_KINDS = ['estudiante', 'apoderado'] as const;
export type PeopleKind = (typeof PEOPLE_KINDS)[number];

/** A student's standing: `enrolled` (default filter), `withdrawn`, or `all`. Guardians ignore it. */
export const PEOPLE_STATUSES = ['enrolled', 'withdrawn', 'all'] as const;
export type PeopleStatus = (typeof PEOPLE_STATUSES)[number];

export const PEOPLE_PER_PAGE = 25;
export const PEOPLE_PER_PAGE_MAX = 100;
export const PEOPLE_Q_MAX = 100;
export const RELATIONSHIP_MAX = 40;

/** 1 = titular, 2 = suplente (the API's `rol_adulto_id`). */
export type GuardianRoleId = 1 | 2;

/** One row of the people list (`GET /people`). */
export interface PersonSummary {
  kind: PeopleKind;
  id: number;
  /** Full name as shown. */
  name: string;
  dni: string | null;
  tipo_documento_id: DocumentTypeId | null;
  /** A student's course now; a guardian's children's courses, by course order, joined with ", ". */
  course: string | null;
  /** Students: ISO instant they were marked withdrawn, null while enrolled. Guardians: always null. */
  withdrawn_at: string | null;
  /** E.164 or null (students have none). */
  fono_celular: string | null;
  email: string | null;
}

/**
 * `GET /people?q=&kind=&status=&course_id=&page=&per_page=` → NumberedPage<PersonSummary>. `q` matches name,
 * document (with or without dots and dash), phone digits and e-mail, ignoring case and accents; `kind`
 * absent lists both (students first, then by name); `course_id` keeps the students of that course and their
 * guardians. Bad values answer 422 with the field's Spanish message.
 */
export interface PeopleQuery {
  q?: string;
  kind?: PeopleKind;
  status?: PeopleStatus;
  course_id?: number;
  page?: number;
  per_page?: number;
}

export type PeoplePage = NumberedPage<PersonSummary>;

/** A student's guardian as the student's record shows it. */
export interface StudentGuardian {
  id: number;
  name: string;
  rol_adulto_id: GuardianRoleId;
  /** Madre, Padre, Abuela… */
  relationship: string;
  fono_celular: string | null;
  email: string | null;
}

/** A guardian's student as the guardian's record shows it. */
export interface GuardianStudent {
  id: number;
  name: string;
  course: string;
  rol_adulto_id: GuardianRoleId;
  relationship: string;
  withdrawn_at: string | null;
}

/** One person's record (`GET /people/{kind}/{id}`): the editable fields, then what the kind adds. */
export interface PersonRecord {
  kind: PeopleKind;
  id: number;
  nombres: string;
  apellido_paterno: string;
  /** '' when the person has none. */
  apellido_materno: string;
  name: string;
  dni: string | null;
  tipo_documento_id: DocumentTypeId | null;
  /** E.164 or null; always null for a student. */
  fono_celular: string | null;
  email: string | null;
  /** Students only (null for guardians). */
  course: { id: number; name: string } | null;
  withdrawn_at: string | null;
  /** Students: their guardians, titular first. Guardians: []. */
  guardians: StudentGuardian[];
  /** Guardians: their students by name. Students: []. */
  students: GuardianStudent[];
}

/** `PATCH /people/{kind}/{id}`: the same fields and checks as the list member editor (shared/person-rules.ts). */
export type PersonInput = UserToEditInput;

/**
 * `POST /people/estudiante/{id}/guardians`: a guardian for the student. A guardian of the school with the
 * same document is linked (their record is not changed); else a new guardian is created. The role must be
 * free for that student (422 `errors.rol_adulto_id` otherwise).
 */
export interface NewGuardianInput extends UserToEditInput {
  nombres: string;
  apellido_paterno: string;
  rol_adulto_id: GuardianRoleId;
  relationship: string;
}

/**
 * - GET    /people                                         NumberedPage<PersonSummary>
 * - GET    /people/{kind}/{id}                             { data: PersonRecord }
 * - PATCH  /people/{kind}/{id}            PersonInput    → { data: PersonRecord }  (each changed field in contact_changes)
 * - POST   /people/estudiante/{id}/guardians  NewGuardianInput → 201 { data: PersonRecord (the student) }
 * - DELETE /people/estudiante/{id}/guardians/{guardianId} → { data: PersonRecord (the student) } (the link only;
 *                                                            the guardian's record stays for their other children)
 * - POST   /people/estudiante/{id}/withdrawal              → { data: PersonRecord }  (marked withdrawn now; 409 when already)
 * - DELETE /people/estudiante/{id}/withdrawal              → { data: PersonRecord }  (enrolled again; 409 when not withdrawn)
 * Leadership only (shared/person-rules.ts PEOPLE_EDITORS): 403 `auth.forbidden` for everyone else. Another
 * school's person, or a guardian id not linked to that student, is 404. Errors: 422 `validation.failed` with
 * per-field `errors` (q, kind, status, course_id, page, per_page, nombres, apellido_paterno, apellido_materno,
 * email, fono_celular, dni, tipo_documento_id, rol_adulto_id, relationship).
 * A withdrawal or re-enrolment by hand is recorded in `contact_changes` (field `estado`), so the next roster
 * import shows undoing it as a conflict, like a corrected phone.
 */
export const PEOPLE_API = {
  people: '/people',
  person: (kind: PeopleKind, id: number) => `/people/${kind}/${id}`,
  guardians: (studentId: number) => `/people/estudiante/${studentId}/guardians`,
  guardian: (studentId: number, guardianId: number) => `/people/estudiante/${studentId}/guardians/${guardianId}`,
  withdrawal: (studentId: number) => `/people/estudiante/${studentId}/withdrawal`,
} as const;
