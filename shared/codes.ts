// The codes both sides speak, each declared once. Types, struct enums, the Drizzle schema and the
// screens all derive from these lists, so adding a channel or a role is one edit here.

/** Delivery channels, in the order screens show them (SPEC §3). */
export const CHANNEL_CODES = ['app-mobile', 'e-mail', 'sms', 'whatsapp'] as const;
export type ChannelCode = (typeof CHANNEL_CODES)[number];

/** Channel ids of the contract (global, the same in every school). */
export const CHANNEL_ID: Readonly<Record<ChannelCode, number>> = { 'app-mobile': 1, 'e-mail': 2, sms: 3, whatsapp: 4 };

/** Staff role codes (SPEC §6). */
export const ROLE_CODES = ['colegio-administrador', 'colegio-director', 'colegio-utp', 'corp-utp', 'docente'] as const;
export type RoleCode = (typeof ROLE_CODES)[number];

/** Each role's name as staff read it (stored beside the code in `user_roles.name`). */
export const ROLE_NAMES: Readonly<Record<RoleCode, string>> = {
  'colegio-administrador': 'Administrador',
  'colegio-director': 'Director',
  'colegio-utp': 'Jefe de UTP',
  'corp-utp': 'UTP de corporación',
  docente: 'Docente',
};

/** The school's administrator (SPEC §6 `colegio-administrador`): a school keeps at least one. */
export const SCHOOL_ADMIN_ROLE: RoleCode = 'colegio-administrador';

/** Who manages the school's staff accounts: invitations, roles, device, deactivation. */
export const STAFF_ADMIN_ROLES: readonly RoleCode[] = [SCHOOL_ADMIN_ROLE];

/** Dashboards, rankings and settings (SPEC §2, §6). */
export const ADMIN_ROLES: readonly RoleCode[] = ['colegio-administrador', 'colegio-director', 'colegio-utp', 'corp-utp'];

/** Who manages the news wall: categories, trash, compose (SPEC §2 `check-newsfeed-role`). */
export const NEWSFEED_ROLES: readonly RoleCode[] = ['colegio-administrador', 'colegio-director', 'colegio-utp'];

/** Whether any of `roles` is one of `allowed` (role lists arrive as plain strings from sessions and tokens). */
export function hasAnyRole(roles: readonly string[], allowed: readonly RoleCode[]): boolean {
  return roles.some((role) => (allowed as readonly string[]).includes(role));
}

/** Mail folders in the URL and the API. `trash` holds messages the user deleted from any other folder. */
export const FOLDERS = ['inbox', 'sent', 'scheduled', 'draft', 'trash'] as const;
export type Folder = (typeof FOLDERS)[number];

/** The folders a trashed message can return to. */
export const LIVE_FOLDERS = ['inbox', 'sent', 'scheduled', 'draft'] as const satisfies readonly Folder[];

/** Message kinds as one user sees them (SPEC §4); `received` exists only for a recipient's copy. */
export const MESSAGE_KINDS = ['draft', 'scheduled', 'sent', 'received', 'deleted'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Folder counter types of `GET /messages/info` (SPEC §3). */
export const COUNT_TYPES = ['received', 'sent', 'scheduled', 'draft'] as const;
export type CountType = (typeof COUNT_TYPES)[number];

/** Who a person is to the school. */
export const PERSON_KINDS = ['funcionario', 'apoderado', 'estudiante'] as const;
export type PersonKind = (typeof PERSON_KINDS)[number];
