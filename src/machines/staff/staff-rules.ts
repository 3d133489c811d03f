// What an administrator may do to one account of the staff list, by its state (shared/staff-contract.ts):
// roles and device while the account is not deactivated; deactivate anyone not deactivated but oneself;
// reactivate the deactivated; resend an invitation to the invited, and revoke it while its link works.
// The server decides again (the last administrator, one's own admin role); these only choose what is offered.
import { ROLE_CODES, SCHOOL_ADMIN_ROLE, type RoleCode } from '../../../shared/codes';
import type { StaffDevice, StaffMember } from '../../../shared/staff-contract';

export const canChange = (member: StaffMember): boolean => member.state !== 'deactivated';
export const canDeactivate = (member: StaffMember): boolean => member.state !== 'deactivated' && !member.is_self;
export const canReactivate = (member: StaffMember): boolean => member.state === 'deactivated';
export const canResend = (member: StaffMember): boolean => member.state === 'invited';
export const canRevoke = (member: StaffMember): boolean => member.state === 'invited' && member.invitation_state === 'pending';

/** The roles in the contract's order (as the dialog lists them), whatever order they were picked in. */
export const orderedRoles = (roles: readonly RoleCode[]): RoleCode[] => ROLE_CODES.filter((role) => roles.includes(role));

/** A role picked or unpicked. */
export const toggledRoles = (roles: readonly RoleCode[], role: RoleCode): RoleCode[] =>
  orderedRoles(roles.includes(role) ? roles.filter((r) => r !== role) : [...roles, role]);

/**
 * Why the roles picked cannot be saved, before asking the server: none at all, or one's own admin role
 * dropped (the server refuses both; the last administrator only it can tell).
 */
export function rolesProblem(member: StaffMember, roles: readonly RoleCode[]): 'rolesRequired' | 'ownAdmin' | null {
  if (roles.length === 0) return 'rolesRequired';
  if (member.is_self && member.roles.includes(SCHOOL_ADMIN_ROLE) && !roles.includes(SCHOOL_ADMIN_ROLE)) return 'ownAdmin';
  return null;
}

/** The change a save sends: only what differs (the server wants at least one); null when nothing does. */
export function changeOf(
  member: StaffMember,
  roles: readonly RoleCode[],
  device: StaffDevice,
): { roles?: RoleCode[]; device?: StaffDevice } | null {
  const sameRoles = orderedRoles(member.roles).join() === orderedRoles(roles).join();
  const change = { ...(sameRoles ? {} : { roles: orderedRoles(roles) }), ...(device === member.device ? {} : { device }) };
  return Object.keys(change).length > 0 ? change : null;
}
