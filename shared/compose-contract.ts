// API contract for composing and sending, shared by the SPA and `server/`. Plain types and constants only. Bodies follow SPEC §7: `{ data }` and, for paged lists, `{ data, meta, links }`.
import type { AttachmentSummary } from './messages-contract';
import type { ChannelCode } from './codes';

/** `GET /channels` → `{ data: Channel[] }` (SPEC §3). Ids are global: 1 app-mobile, 2 e-mail, 3 sms, 4 whatsapp. */
export interface Channel {
  id: number;
  code: ChannelCode;
  enabled_by_institution: boolean;
}

/** `GET /communication-permission/user` → `{ data: CommunicationPermission }`. */
export interface CommunicationPermission {
  institution_channel_permissions: { channel_id: number; enabled: boolean }[];
}

/** SPEC §3 legend: blue app installed, green SMS works, yellow last 3 not received, red no usable number. */
export type DeviceStatus = 'blue' | 'green' | 'yellow' | 'red';
/** The legend's order. */
export const DEVICE_STATUSES: readonly DeviceStatus[] = ['blue', 'green', 'yellow', 'red'];

/** 1 titular, 2 suplente (SPEC `rol_adulto_id`). */
export type GuardianRoleId = 1 | 2;

export interface RecipientStudent {
  id: number;
  name: string;
}

export interface RecipientGuardian {
  /** Guardian id (unique per person across courses). */
  id: number;
  /** The student of this course this guardian answers for. */
  student_id: number;
  rol_adulto_id: GuardianRoleId;
  device_status: DeviceStatus;
  ficha_apoderado: {
    email: string | null;
    /** Guardians have no staff login; the guardian app account id when there is one. */
    user_id: number | null;
    name: string;
    fono_celular: string | null;
    user_type: 'apoderado';
  };
}

/** A course or an elective (grupo_type `curso` | `electivo`). */
export interface RecipientCourse {
  id: number;
  nombre: string;
  grupo_type: 'curso' | 'electivo';
  /** Null for electives (they cross levels). */
  level_id: number | null;
  estudiantes: RecipientStudent[];
  apoderados: RecipientGuardian[];
}

export interface RecipientStaff {
  /** Staff id. */
  user_id: number;
  name: string;
  cargo_id: number | null;
  email: string | null;
  /** The staff member's Hermes login (their /inbox), when they have one. */
  login_user_id: number | null;
}

/** Staff grouped by cargo (SPEC "appointments"). */
export interface RecipientAppointment {
  id: number;
  nombre: string;
  users: RecipientStaff[];
}

export interface RecipientLevel {
  id: number;
  nombre: string;
  course_ids: number[];
}

/**
 * `GET /recipients` → `{ data: Recipients }`: everything the picker shows, for the user's school.
 * `courses` holds regular courses first (by level), then electives.
 */
export interface Recipients {
  courses: RecipientCourse[];
  appointments: RecipientAppointment[];
  levels: RecipientLevel[];
}

/** A course or an elective without its people. */
export type RecipientGroup = Omit<RecipientCourse, 'estudiantes' | 'apoderados'>;

/**
 * `GET /recipients/courses` → `{ data: RecipientGroups }`: the directory's levels and groups without their
 * people, in the same order, for a screen that needs only them (news compose's audience): a few kB where the
 * whole directory of a large school is hundreds.
 */
export interface RecipientGroups {
  levels: RecipientLevel[];
  courses: RecipientGroup[];
}

/**
 * Who a pick reaches among a group's people (the picker's role filter):
 * `apoderados` titular and suplente, `titulares` / `suplentes` one role, `estudiantes` the students.
 */
export type Audience = 'apoderados' | 'titulares' | 'suplentes' | 'estudiantes';

/**
 * One selection in the picker, stored as-is in drafts and expanded on the server (deduplicated).
 * `level`/`course`/`elective`/`student` reach the audience (a `student` with a guardian audience is the
 * student's family: their titular and/or suplente); `guardian` one guardian; `appointment` every
 * staff member with that cargo; `staff` one colleague; `recipient-list` the list's members.
 */
export type RecipientPick = (
  | { kind: 'level' | 'course' | 'elective' | 'student'; id: number; audience: Audience }
  | { kind: 'guardian' | 'appointment' | 'staff' | 'recipient-list'; id: number }
) & {
  /** What the chip shows ("3° Básico A · titulares"), kept so a reopened draft shows it before the picker loads. */
  label?: string;
};

/** What compose sends to save a draft, schedule or send. */
export interface ComposeInput {
  title: string;
  content: string;
  channels: ChannelCode[];
  recipients: RecipientPick[];
  /** Ids from `POST /attachments` (uploaded by this user, not yet sent). */
  attachment_ids: number[];
  allow_replies: boolean;
  copy_to_sender: boolean;
  /** Only for schedule: ISO 8601 UTC instant; the SPA builds it from date + time in the institution zone. */
  scheduled_at: string | null;
  /**
   * Marked "Emergencia": may spend the SMS the school keeps in reserve. Absent is false; drafts
   * and scheduled messages keep it.
   */
  emergency?: boolean;
}

/** `GET /messages/drafts/:id` → `{ data: ComposeDraft }`: an editable draft (also used for scheduled → edit). */
export interface ComposeDraft extends Omit<ComposeInput, 'attachment_ids' | 'emergency'> {
  id: number;
  emergency: boolean;
  attachments: AttachmentSummary[];
  updated_at: string;
  /** The message this draft replies to (reply compose). */
  reply_to_id: number | null;
}

/** Per-channel cost of sending `ComposeInput` now: `POST /messages/estimate` → `{ data: Estimate }`. */
export interface Estimate {
  /** Distinct people reached after expansion and de-duplication. */
  recipients: number;
  /** Of those, people with no address on any chosen channel: nothing reaches them (all of them: nothing is sent). */
  unreachable: number;
  /**
   * Per chosen channel: deliveries that have an address, those that do not, and (SMS, WhatsApp) those whose
   * phone texted "BAJA" on that channel (`opted_out`; 0 on the others), and people the school blocked at their
   * request (`blocked`, on every channel). Only `deliveries` are sent and paid for.
   */
  channels: { code: ChannelCode; deliveries: number; missing_address: number; opted_out: number; blocked: number }[];
  /**
   * SMS segments this message consumes (deliveries × segments per text), and what is left this month
   * (`remaining`, the reserve included). `reserved`: segments of the limit kept for emergencies this month;
   * a message not marked emergency may use only max(0, remaining − reserved) (shared/quota-rules.ts). `month`
   * (YYYY-MM, school zone): the month these figures are of, the scheduled one for a scheduled message.
   */
  sms: { segments_per_message: number; total: number; remaining: number; limit: number; reserved: number; month: string } | null;
  email: { total: number; remaining: number | null } | null;
  whatsapp: { total: number; remaining: number | null } | null;
  /** Courses picked that have no students (SPEC §5: flagged). */
  empty_courses: { id: number; nombre: string }[];
  /** Quota problems, the codes of send's 409 `compose.quota`. Empty when it can be sent (what send refuses with a 422, the estimate refuses the same way). */
  problems: ComposeProblem[];
}

export type ComposeProblem =
  | 'sms.quota_exceeded'
  /** It fits in what is left only by spending the emergency reserve, and the message is not marked emergency. */
  | 'sms.reserve_only_emergency'
  | 'email.insufficient'
  | 'sms.insufficient'
  | 'whatsapp.insufficient';

/** `POST /messages/send` and `POST /messages/schedule` → 201 (or 200 when replayed) `{ data: SendResult }`. */
export interface SendResult {
  id: number;
  kind: 'sent' | 'scheduled';
  recipients: number;
  /** Of `recipients`, people with no address on any of the message's channels (their deliveries failed at once). */
  unreachable: number;
  deliveries: number;
  sms_segments: number;
}

/**
 * Calls (all scoped to the signed-in user and school):
 * - GET    /channels, /communication-permission/user, /recipients, /recipients/courses (the saved lists are recipient-lists-contract.ts',
 *          the signature signature-contract.ts', the month's quota quota-contract.ts')
 * - POST   /messages/drafts            ComposeInput (+ reply_to_id?) → 201 { data: ComposeDraft }
 * - PUT    /messages/drafts/:id        ComposeInput → { data: ComposeDraft }   (409 if no longer a draft)
 * - GET    /messages/drafts/:id        → { data: ComposeDraft }
 * - POST   /messages/estimate          ComposeInput & { draft_id?: number } → { data: Estimate }; refuses
 *                                      with the same 422 as send (schedule when scheduled_at is given)
 * - POST   /messages/send              ComposeInput & { draft_id?: number; reply_to_id?: number }, header
 *                                      Idempotency-Key (required, 8–100 chars) → 201 { data: SendResult };
 *                                      the same key again → 200 with the first result, nothing new written.
 * - POST   /messages/schedule          same as send, with scheduled_at in the future
 * - POST   /attachments, DELETE /attachments/:id: the attachments (messages-contract.ts `MESSAGES_API`)
 * Errors: 422 `validation.failed` with per-field `errors` (title, recipients, channels, content, attachments,
 * scheduled_at); 409 `compose.quota` with `errors.quota: ComposeProblem[]`; 413 `attachment.too_large`;
 * 415 `attachment.type`.
 */
export const COMPOSE_API = {
  channels: '/channels',
  permissions: '/communication-permission/user',
  recipients: '/recipients',
  recipientCourses: '/recipients/courses',
  drafts: '/messages/drafts',
  draft: (id: number) => `/messages/drafts/${id}`,
  estimate: '/messages/estimate',
  send: '/messages/send',
  schedule: '/messages/schedule',
} as const;

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** SPEC §9: 22 MB each and 22 MB in total (MB = 1024 × 1024 bytes); SMS allows one attachment. */
export const ATTACHMENT_MAX_BYTES = 22 * 1024 * 1024;
export const ATTACHMENTS_TOTAL_MAX_BYTES = 22 * 1024 * 1024;
export const SMS_MAX_ATTACHMENTS = 1;

/** Types a school sends: documents, spreadsheets, slides, images, plain text/CSV. Checked by extension too. */
export const ATTACHMENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'text/plain': ['txt'],
  'text/csv': ['csv'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.ms-powerpoint': ['ppt'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['pptx'],
};

export const TITLE_MAX_LENGTH = 200;
export const CONTENT_MAX_LENGTH = 20_000;
export const MAX_PICKS = 2_000;
