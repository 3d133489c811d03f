// API contract of recipient lists (SPEC §2 /recipient-lists, its trash and /recipient-list/:id, §3
// "Recipient list user" and "User to edit"), shared by the SPA and `server/`: the paged lists compose's
// picker reads and the list screens manage, one list, its members and their person records. Plain types
// and constants only.
import type { DeviceStatus, GuardianRoleId, RecipientPick } from './compose-contract';

export const LIST_NAME_MAX = 80;

/** A list as compose's picker shows it: `GET /recipient-lists?page=&per_page=` → NumberedPage<RecipientList>. */
export interface RecipientList {
  id: number;
  name: string;
  users_count: number;
}

/** Laravel length-aware page (recipient lists page by number, SPEC §4 "reset or appended page by page"). */
export interface NumberedPage<T> {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
  links: { next: string | null; prev: string | null };
}

/** `GET /recipient-lists/{id}/users` → `{ data: RecipientListUser[] }` (SPEC §3 fields). */
interface RecipientListUser {
  id: number;
  user_id: number;
  user_type: 'apoderado' | 'estudiante' | 'funcionario';
  name: string;
  email: string | null;
  phone: string | null;
  list_id: number;
  list_name: string;
  nombre_rol: string;
  group_id: number | null;
  group_type: string | null;
  rol_adulto_id: GuardianRoleId | null;
  student_id: number | null;
  course: string | null;
}

/** A list as the list screens show it (`GET /recipient-lists/{id}` → `{ data }`; rows of the paged list). */
export interface RecipientListSummary {
  id: number;
  name: string;
  users_count: number;
  /** The owner shares it with the school's staff (they can read and use it; only the owner changes it). */
  shared: boolean;
  /** The signed-in user owns it (may rename, share, change members, delete). */
  is_owner: boolean;
  owner_name: string;
  updated_at: string;
  /** Members no longer enrolled, or whose course changed since they were added ("3 miembros ya no están matriculados"). */
  stale_count: number;
}

/** A list in the trash (`GET /recipient-lists/trash?page=&per_page=&q=`, own lists only). */
export interface TrashedRecipientList extends RecipientListSummary {
  deleted_at: string;
  deleted_by_name: string;
}

/** Why a member is stale: withdrawn from the school, or now in another course than when added. */
export type StaleReason = 'not_enrolled' | 'course_changed';

/** `GET /recipient-lists/{id}/users` rows, with what the list screen shows beyond SPEC §3's fields. */
export interface RecipientListMember extends RecipientListUser {
  /** Guardians: the student they are a member for, in full (a guardian of two children says which); others null. */
  student_name: string | null;
  /** Guardians and students: their document (RUT in Chile, CURP in Mexico), shown and searched; staff: null. */
  dni: string | null;
  /** Guardians only: SPEC §3 device status colour. */
  device_status: DeviceStatus | null;
  stale: StaleReason | null;
}

/** Document types (SPEC "tipo_documento_id"): RUT (Chile, check digit), CURP (Mexico), passport or other. */
export const DOCUMENT_TYPES = { rut: 1, curp: 2, otro: 3 } as const;
export type DocumentTypeId = (typeof DOCUMENT_TYPES)[keyof typeof DOCUMENT_TYPES];

/**
 * SPEC §3 "User to edit": a member's person record (`GET /recipient-lists/{id}/users/{memberId}` → `{ data }`).
 * Editing it changes the person for every list and every future message.
 */
export interface UserToEdit {
  user_type: 'apoderado' | 'estudiante' | 'funcionario';
  id: number;
  ficha_adulto_id: number | null;
  ficha_estudiante_id: number | null;
  /** E.164 (+56…, +52…), or null. */
  fono_celular: string | null;
  email: string | null;
  dni: string | null;
  tipo_documento_id: DocumentTypeId | null;
  nombres: string;
  apellido_paterno: string;
  /** '' when the person has none. */
  apellido_materno: string;
  /** Full name as shown. */
  name: string;
  /** Whether the signed-in user may change this record (the school's leadership); others ask them to. */
  can_edit: boolean;
}

/** Body of `PATCH /recipient-lists/{id}/users/{memberId}`: the editable fields (absent = unchanged). */
export interface UserToEditInput {
  nombres?: string;
  apellido_paterno?: string;
  /** Blank clears it (not everyone has a second surname). */
  apellido_materno?: string;
  email?: string | null;
  /** National number plus country prefix (SPEC §3 prefixes); stored E.164. */
  fono_celular?: string | null;
  dni?: string | null;
  tipo_documento_id?: DocumentTypeId | null;
}

/** Body of `POST /recipient-lists`. */
export interface RecipientListInput {
  name: string;
  picks: RecipientPick[];
  shared?: boolean;
}

/**
 * - GET    /recipient-lists?page=&per_page=&q=   NumberedPage<RecipientList & RecipientListSummary> (own and shared)
 * - GET    /recipient-lists/{id}                  { data: RecipientListSummary }
 * - GET    /recipient-lists/{id}/users            { data: RecipientListMember[] } (RecipientListUser and more)
 * - POST   /recipient-lists                       RecipientListInput → 201 { data: RecipientListSummary }
 * - PATCH  /recipient-lists/{id}                  { name?, shared? } → { data: RecipientListSummary }    (owner)
 * - POST   /recipient-lists/{id}/members          { picks } → { data: RecipientListSummary }             (owner; adds, no duplicates)
 * - DELETE /recipient-lists/{id}/members/{memberId} → 204                                                (owner)
 * - POST   /recipient-lists/{id}/members/remove-stale → { data: { removed: number } }                    (owner)
 * - GET    /recipient-lists/{id}/users/{memberId}  { data: UserToEdit }
 * - PATCH  /recipient-lists/{id}/users/{memberId}  UserToEditInput → { data: UserToEdit }    (leadership, any list it sees;
 *                                                  403 `auth.forbidden` for everyone else; each changed field recorded)
 * - POST   /recipient-lists/{id}/users/{memberId}/correction  { note } → 201 { data: { message_id }, message }
 *                                                  («Solicitar corrección»: a message to the leadership; any list it sees)
 * - DELETE /recipient-lists/{id}                  → 204, to the trash (owner); 409 `list.scheduled` with
 *                                                  `errors.list` naming the scheduled message (title and date),
 *                                                  and `errors.message_id` ([id]) when it is the owner's own
 *                                                  message (the screen links to it; optional)
 * - GET    /recipient-lists/trash?page=&per_page=&q=  NumberedPage<TrashedRecipientList>
 * - POST   /recipient-lists/{id}/restore          → { data: RecipientListSummary }                        (owner, from trash)
 * - DELETE /recipient-lists/{id}/forever          → 204                                                   (owner, from trash)
 * A list the user cannot see (another user's unshared list, another school's) is 404 everywhere; a shared
 * list of a colleague is 404 for the owner-only calls too (it is not theirs to change).
 * Errors: 422 `validation.failed` with per-field `errors` (name, picks, nombres, apellido_paterno, apellido_materno, email,
 * fono_celular, dni, tipo_documento_id).
 */
export const RECIPIENT_LISTS_API = {
  lists: '/recipient-lists',
  list: (id: number) => `/recipient-lists/${id}`,
  users: (id: number) => `/recipient-lists/${id}/users`,
  members: (id: number) => `/recipient-lists/${id}/members`,
  member: (id: number, memberId: number) => `/recipient-lists/${id}/members/${memberId}`,
  removeStale: (id: number) => `/recipient-lists/${id}/members/remove-stale`,
  user: (id: number, memberId: number) => `/recipient-lists/${id}/users/${memberId}`,
  correction: (id: number, memberId: number) => `/recipient-lists/${id}/users/${memberId}/correction`,
  trash: '/recipient-lists/trash',
  restore: (id: number) => `/recipient-lists/${id}/restore`,
  forever: (id: number) => `/recipient-lists/${id}/forever`,
} as const;
