// API contract of the school's staff accounts (the /settings/staff screen of administrators) and of the
// invitation page a new colleague opens from their e-mail (`/invitation/:token`), shared by the SPA and
// `server/`. Plain types and constants only; the response structs are in staff-structs.ts.
import type { RoleCode } from './codes';
import type { TokenTimes, SignedIn } from './contract';
import type { NumberedPage } from './recipient-lists-contract';

/** Where an account stands: invited (no password yet), active, or deactivated (cannot sign in). */
export const STAFF_STATES = ['invited', 'active', 'deactivated'] as const;
export type StaffState = (typeof STAFF_STATES)[number];

/** The device a colleague uses Hermes on: `latam` sees the news wall, `cl` does not (SPEC §1). */
export const STAFF_DEVICES = ['latam', 'cl'] as const;
export type StaffDevice = (typeof STAFF_DEVICES)[number];

/** Where an invited person's latest invitation stands: its link works, it ran out, or it was revoked. */
export const INVITATION_STATES = ['pending', 'expired', 'revoked'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

/** The list's sort keys (`sort=`) and directions (`order=`). */
export const STAFF_SORTS = ['name', 'email', 'last_sign_in', 'state'] as const;
export type StaffSort = (typeof STAFF_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const STAFF_PER_PAGE = 25;
export const STAFF_PER_PAGE_MAX = 100;
export const STAFF_Q_MAX = 100;
export const STAFF_NAME_MAX = 120;
export const STAFF_EMAIL_MAX = 254;
/** People one invitation call may carry (a pasted list or a CSV of a whole school's staff). */
export const INVITE_MAX_PEOPLE = 500;

/** One account as the staff list shows it (`GET /staff` rows, `GET /staff/{id}`). */
export interface StaffMember {
  id: number;
  name: string;
  email: string;
  /** Role codes, alphabetical (shared/codes.ts ROLE_CODES; `docente` is a teacher). */
  roles: RoleCode[];
  device: StaffDevice;
  /** Holds the `hermes-acceder-sistema` policy (without it sign-in is refused, SPEC §6). */
  access: boolean;
  /** ISO instant of the last successful sign-in, null when never. */
  last_sign_in_at: string | null;
  state: StaffState;
  /** Invited only: the latest invitation's state and expiry (ISO); null otherwise. */
  invitation_state: InvitationState | null;
  invitation_expires_at: string | null;
  /** The signed-in administrator themselves (who cannot deactivate themselves nor drop their own admin role). */
  is_self: boolean;
}

/**
 * `GET /staff?q=&state=&page=&per_page=&sort=&order=` → NumberedPage<StaffMember>. `q` matches name and
 * e-mail ignoring case and accents; `state` filters (absent: all); `sort` defaults to `name`, `order` to
 * `asc` (ties by name, then id). Bad values answer 422 with the field's Spanish message.
 */
export interface StaffQuery {
  q?: string;
  state?: StaffState;
  page?: number;
  per_page?: number;
  sort?: StaffSort;
  order?: SortOrder;
}

export type StaffPage = NumberedPage<StaffMember>;

/** One person to invite (a form row, a pasted line, a CSV line). `device` defaults by country: cl in Chile, latam in Mexico. */
export interface InvitePerson {
  name: string;
  email: string;
  role: RoleCode;
  device?: StaffDevice;
}

/** Body of `POST /staff/invitations`: one person or many. */
export interface InviteInput {
  people: InvitePerson[];
}

/**
 * What became of each person of an invitation call, in the order sent (`index` is their position):
 * - `invited`: account created in state invited and the e-mail sent (`mail_sent` false: the mail server
 *   refused it; the invitation stands and «Reenviar» sends it again).
 * - `member`: the e-mail already belongs to someone of this school (`id` is theirs); nothing changed.
 * - `refused`: not invited; `field` is what is wrong and `reason` says why in Spanish (bad name, e-mail or
 *   role, repeated in the same call, or an e-mail with an account in another school).
 */
export type InviteOutcome =
  | { index: number; email: string; outcome: 'invited'; id: number; expires_at: string; mail_sent: boolean }
  | { index: number; email: string; outcome: 'member'; id: number }
  | { index: number; email: string; outcome: 'refused'; field: 'name' | 'email' | 'role' | 'device'; reason: string };

/** Body of `PATCH /staff/{id}` (absent = unchanged; at least one). */
export interface StaffChange {
  /** At least one role; the school keeps an active administrator, and an administrator keeps their own admin role. */
  roles?: RoleCode[];
  device?: StaffDevice;
}

/** A recipient list the person shares with the school, which stays theirs after deactivation. */
export interface HandoverList {
  id: number;
  name: string;
  users_count: number;
}

/** A scheduled message of the person (not yet sent), which still goes out unless someone cancels it. */
export interface HandoverMessage {
  id: number;
  title: string;
  /** ISO instant it is scheduled for. */
  scheduled_at: string;
}

/** What an administrator may want to hand over when a person leaves. */
export interface Handover {
  shared_lists: HandoverList[];
  scheduled_messages: HandoverMessage[];
}

/** Answer of `POST /staff/{id}/deactivate`. */
export interface Deactivated {
  member: StaffMember;
  handover: Handover;
}

/** `GET /invitations/{token}`: who the invitation is for, to greet them on the password form. */
export interface InvitationInfo {
  name: string;
  email: string;
  school: string;
  expires_at: string;
}

/** Body of `POST /invitations/{token}/accept`. */
export interface AcceptInvitationInput {
  password: string;
}

/** `POST /invitations/{token}/accept` signs the person in, answering as `POST /login` does. */
export type AcceptedInvitation = { data: TokenTimes } & SignedIn;

/**
 * Administrators of the school only (STAFF_ADMIN_ROLES: 401 without a session, 403 `auth.forbidden`
 * otherwise); an id of another school, or no one's, answers 404.
 * - GET    /staff?q=&state=&page=&per_page=&sort=&order=   StaffPage
 * - GET    /staff/{id}                         { data: StaffMember }
 * - POST   /staff/invitations                  InviteInput → 200 { data: InviteOutcome[] }
 *                                              (422 only when the body itself is wrong: no `people`, none, over INVITE_MAX_PEOPLE)
 * - POST   /staff/{id}/invitation              → { data: StaffMember, mail_sent: boolean }  resend: a new link by e-mail,
 *                                              the old one stops working (mail_sent false: the mail server refused it)
 *                                              (409 `staff.not_invited` when the person is not in state invited)
 * - DELETE /staff/{id}/invitation              → { data: StaffMember }  revoke: the link stops working, the person stays invited
 *                                              (409 `staff.not_invited` likewise, or when no link is pending)
 * - PATCH  /staff/{id}                         StaffChange → { data: StaffMember }
 *                                              (422 `errors.roles` for the last administrator or one's own admin role)
 * - GET    /staff/{id}/handover                { data: Handover }
 * - POST   /staff/{id}/deactivate              → { data: Deactivated }  their sessions end at once
 *                                              (409 `staff.self` for oneself, `staff.last_admin`, `staff.state` when already deactivated)
 * - POST   /staff/{id}/reactivate              → { data: StaffMember }  active again (invited again if they never set a password)
 *                                              (409 `staff.state` when not deactivated)
 * Public (no session; CSRF like every POST):
 * - GET    /invitations/{token}                { data: InvitationInfo }; 404 for an unknown token; 410 `invitation.expired`,
 *                                              `invitation.used` or `invitation.revoked` with a Spanish message
 * - POST   /invitations/{token}/accept         AcceptInvitationInput → AcceptedInvitation (sets the session cookies);
 *                                              422 `errors.password` with the password rule's reason; 404 / 410 as above
 * Errors: 422 `validation.failed` with per-field `errors` (q, state, page, per_page, sort, order, people, roles, device, password).
 */
export const STAFF_API = {
  staff: '/staff',
  member: (id: number) => `/staff/${id}`,
  invitations: '/staff/invitations',
  invitation: (id: number) => `/staff/${id}/invitation`,
  handover: (id: number) => `/staff/${id}/handover`,
  deactivate: (id: number) => `/staff/${id}/deactivate`,
  reactivate: (id: number) => `/staff/${id}/reactivate`,
  publicInvitation: (token: string) => `/invitations/${encodeURIComponent(token)}`,
  accept: (token: string) => `/invitations/${encodeURIComponent(token)}/accept`,
} as const;

/** The SPA's page an invitation e-mail links to (outside `/api`). */
export const invitationPagePath = (token: string): string => `/invitation/${encodeURIComponent(token)}`;
