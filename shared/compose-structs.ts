// Runtime checks for the compose bodies (compose-contract.ts). Same conventions as structs.ts: `type()`
// so extra fields do not break older clients, `Describe` so each struct keeps in step with the contract.
import { array, boolean, enums, literal, nullable, number, optional, string, type, union, type Describe, type Struct } from 'superstruct';
import type {
  Channel,
  CommunicationPermission,
  ComposeDraft,
  Estimate,
  RecipientAppointment,
  RecipientCourse,
  RecipientGroup,
  RecipientGroups,
  RecipientGuardian,
  RecipientLevel,
  RecipientPick,
  Recipients,
  RecipientStaff,
  SendResult,
} from './compose-contract';
import type { AttachmentSummary } from './messages-contract';
import { CHANNEL_CODES } from './codes';

const ChannelCodeStruct = enums(CHANNEL_CODES);
const RoleIdStruct = union([literal(1), literal(2)]);
const AudienceStruct = enums(['apoderados', 'titulares', 'suplentes', 'estudiantes'] as const);

export const AttachmentSummaryStruct: Describe<AttachmentSummary> = type({
  id: number(),
  name: string(),
  size: number(),
  content_type: string(),
  url: string(),
});

const ChannelStruct: Describe<Channel> = type({
  id: number(),
  code: ChannelCodeStruct,
  enabled_by_institution: boolean(),
});

const PermissionStruct: Describe<CommunicationPermission> = type({
  institution_channel_permissions: array(type({ channel_id: number(), enabled: boolean() })),
});

// `Describe` cannot spell the numeric literal union `1 | 2`; a plain Struct still checks the shape.
const GuardianStruct: Struct<RecipientGuardian, unknown> = type({
  id: number(),
  student_id: number(),
  rol_adulto_id: RoleIdStruct,
  device_status: enums(['blue', 'green', 'yellow', 'red'] as const),
  ficha_apoderado: type({
    email: nullable(string()),
    user_id: nullable(number()),
    name: string(),
    fono_celular: nullable(string()),
    user_type: literal('apoderado'),
  }),
});

const GroupStruct: Describe<RecipientGroup> = type({
  id: number(),
  nombre: string(),
  grupo_type: enums(['curso', 'electivo'] as const),
  level_id: nullable(number()),
});

const CourseStruct: Describe<RecipientCourse> = type({
  id: number(),
  nombre: string(),
  grupo_type: enums(['curso', 'electivo'] as const),
  level_id: nullable(number()),
  estudiantes: array(type({ id: number(), name: string() })),
  apoderados: array(GuardianStruct),
});

const StaffStruct: Describe<RecipientStaff> = type({
  user_id: number(),
  name: string(),
  cargo_id: nullable(number()),
  email: nullable(string()),
  login_user_id: nullable(number()),
});

const AppointmentStruct: Describe<RecipientAppointment> = type({ id: number(), nombre: string(), users: array(StaffStruct) });
const LevelStruct: Describe<RecipientLevel> = type({ id: number(), nombre: string(), course_ids: array(number()) });

export const RecipientsStruct: Describe<Recipients> = type({
  courses: array(CourseStruct),
  appointments: array(AppointmentStruct),
  levels: array(LevelStruct),
});

const RecipientGroupsStruct: Describe<RecipientGroups> = type({ levels: array(LevelStruct), courses: array(GroupStruct) });

// A union of two object shapes cannot be `Describe`d field by field; checked as the union it is.
const GroupPickStruct = type({
  kind: enums(['level', 'course', 'elective', 'student'] as const),
  id: number(),
  audience: AudienceStruct,
  label: optional(string()),
});
const OnePickStruct = type({
  kind: enums(['guardian', 'appointment', 'staff', 'recipient-list'] as const),
  id: number(),
  label: optional(string()),
});
export const RecipientPickStruct: Struct<RecipientPick, unknown> = union([GroupPickStruct, OnePickStruct]);

export const ComposeDraftStruct: Describe<ComposeDraft> = type({
  id: number(),
  title: string(),
  content: string(),
  channels: array(ChannelCodeStruct),
  recipients: array(RecipientPickStruct),
  attachments: array(AttachmentSummaryStruct),
  allow_replies: boolean(),
  copy_to_sender: boolean(),
  scheduled_at: nullable(string()),
  emergency: boolean(),
  updated_at: string(),
  reply_to_id: nullable(number()),
});

const BalanceStruct = type({ total: number(), remaining: nullable(number()) });

export const EstimateStruct: Describe<Estimate> = type({
  recipients: number(),
  unreachable: number(),
  channels: array(
    type({ code: ChannelCodeStruct, deliveries: number(), missing_address: number(), opted_out: number(), blocked: number() }),
  ),
  sms: nullable(
    type({ segments_per_message: number(), total: number(), remaining: number(), limit: number(), reserved: number(), month: string() }),
  ),
  email: nullable(BalanceStruct),
  whatsapp: nullable(BalanceStruct),
  empty_courses: array(type({ id: number(), nombre: string() })),
  problems: array(
    enums(['sms.quota_exceeded', 'sms.reserve_only_emergency', 'email.insufficient', 'sms.insufficient', 'whatsapp.insufficient'] as const),
  ),
});

const SendResultStruct: Describe<SendResult> = type({
  id: number(),
  kind: enums(['sent', 'scheduled'] as const),
  recipients: number(),
  unreachable: number(),
  deliveries: number(),
  sms_segments: number(),
});

// --- `{ data }` envelopes -----------------------------------------------------------------------------

export const ChannelsBodyStruct = type({ data: array(ChannelStruct) });
export const PermissionBodyStruct = type({ data: PermissionStruct });
export const RecipientsBodyStruct = type({ data: RecipientsStruct });
export const RecipientGroupsBodyStruct = type({ data: RecipientGroupsStruct });
export const ComposeDraftBodyStruct = type({ data: ComposeDraftStruct });
export const EstimateBodyStruct = type({ data: EstimateStruct });
export const SendResultBodyStruct = type({ data: SendResultStruct });
export const AttachmentBodyStruct = type({ data: AttachmentSummaryStruct });
