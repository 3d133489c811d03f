// Runtime checks for the staff answers (staff-contract.ts), in structs.ts' conventions: `type()` so extra
// fields do not break older clients, `Describe` (or an annotated Struct where `Describe` cannot spell a union
// of shapes) to keep in step with the contract.
import { array, boolean, enums, literal, nullable, number, string, type, union, type Describe, type Struct } from 'superstruct';
import { ROLE_CODES } from './codes';
import type { Handover, InvitationInfo, InviteOutcome, StaffMember, StaffPage } from './staff-contract';
import { INVITATION_STATES, STAFF_DEVICES, STAFF_STATES } from './staff-contract';

export const StaffMemberStruct: Describe<StaffMember> = type({
  id: number(),
  name: string(),
  email: string(),
  roles: array(enums(ROLE_CODES)),
  device: enums(STAFF_DEVICES),
  access: boolean(),
  last_sign_in_at: nullable(string()),
  state: enums(STAFF_STATES),
  invitation_state: nullable(enums(INVITATION_STATES)),
  invitation_expires_at: nullable(string()),
  is_self: boolean(),
});

/** `GET /staff` → one numbered page (SPEC §7 `{ data, meta, links }`). */
export const StaffPageStruct: Struct<StaffPage, unknown> = type({
  data: array(StaffMemberStruct),
  meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number() }),
  links: type({ next: nullable(string()), prev: nullable(string()) }),
});

const InviteOutcomeStruct: Struct<InviteOutcome, unknown> = union([
  type({
    index: number(),
    email: string(),
    outcome: literal('invited'),
    id: number(),
    expires_at: string(),
    mail_sent: boolean(),
  }),
  type({ index: number(), email: string(), outcome: literal('member'), id: number() }),
  type({
    index: number(),
    email: string(),
    outcome: literal('refused'),
    field: enums(['name', 'email', 'role', 'device'] as const),
    reason: string(),
  }),
]);

const HandoverStruct: Describe<Handover> = type({
  shared_lists: array(type({ id: number(), name: string(), users_count: number() })),
  scheduled_messages: array(type({ id: number(), title: string(), scheduled_at: string() })),
});

const InvitationInfoStruct: Describe<InvitationInfo> = type({
  name: string(),
  email: string(),
  school: string(),
  expires_at: string(),
});

// --- `{ data }` envelopes -----------------------------------------------------------------------------

export const StaffMemberBodyStruct = type({ data: StaffMemberStruct });
/** `POST /staff/{id}/invitation` (resend). */
export const ResentBodyStruct = type({ data: StaffMemberStruct, mail_sent: boolean() });
export const InviteOutcomesBodyStruct = type({ data: array(InviteOutcomeStruct) });
export const HandoverBodyStruct = type({ data: HandoverStruct });
export const DeactivatedBodyStruct = type({ data: type({ member: StaffMemberStruct, handover: HandoverStruct }) });
export const InvitationInfoBodyStruct = type({ data: InvitationInfoStruct });
