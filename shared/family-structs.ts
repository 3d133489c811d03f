// Runtime checks of the guardian app's answers (family-contract.ts), read by the families' app only, so its
// download carries none of the staff's structs. `type()` (not `object()`) so fields the server adds later do
// not break an app already installed on a phone; `Describe` keeps each struct in step with the contract.
import { array, boolean, enums, literal, nullable, number, string, type, type Describe } from 'superstruct';
import type {
  FamilyAttachment,
  FamilyChild,
  FamilyInboxPage,
  FamilyMessageDetail,
  FamilyMessageSummary,
  FamilyReadAnswer,
  FamilySchool,
  FamilySession,
  FamilyThreadMessage,
} from './family-contract';

const FamilySchoolStruct: Describe<FamilySchool> = type({ name: string(), locale: enums(['es-CL', 'es-MX']) });

const FamilySessionStruct: Describe<FamilySession> = type({
  token: string(),
  expires_at: string(),
  guardian: type({
    id: number(),
    name: string(),
    school: FamilySchoolStruct,
    schools: array(FamilySchoolStruct),
  }),
});

const FamilyChildStruct: Describe<FamilyChild> = type({
  id: number(),
  name: string(),
  school_name: string(),
  course_name: string(),
  unread: number(),
});

/** `GET /app/children` → `{ data: FamilyChild[] }`. */
export const FamilyChildrenBodyStruct = type({ data: array(FamilyChildStruct) });

/** `POST /app/session` → `{ data: FamilySession }`. */
export const FamilySessionBodyStruct = type({ data: FamilySessionStruct });

/** `POST /app/session/code` → 202 `{ data: { message } }`. */
export const FamilyCodeSentBodyStruct = type({ data: type({ message: string() }) });

const FamilyMessageSummaryStruct: Describe<FamilyMessageSummary> = type({
  id: number(),
  title: string(),
  snippet: string(),
  sender_name: string(),
  school_name: string(),
  sent_at: nullable(string()),
  read: boolean(),
  allow_replies: boolean(),
  student_names: nullable(string()),
});

/** `GET /app/messages?page=`. */
export const FamilyInboxPageStruct: Describe<FamilyInboxPage> = type({
  data: array(FamilyMessageSummaryStruct),
  meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number(), unread: number() }),
  links: type({ first: string(), last: string(), prev: nullable(string()), next: nullable(string()) }),
});

const FamilyAttachmentStruct: Describe<FamilyAttachment> = type({ id: number(), name: string(), size: number(), content_type: string() });

const FamilyThreadMessageStruct: Describe<FamilyThreadMessage> = type({
  id: number(),
  title: string(),
  content: string(),
  sender_name: string(),
  mine: boolean(),
  sent_at: nullable(string()),
});

// A message as opened: the inbox row's fields and what only the message shows.
const FamilyMessageDetailStruct: Describe<FamilyMessageDetail> = type({
  ...FamilyMessageSummaryStruct.schema,
  content: string(),
  signature: nullable(string()),
  read_at: nullable(string()),
  attachments: array(FamilyAttachmentStruct),
  thread: array(FamilyThreadMessageStruct),
});

/** `GET /app/messages/:id` → `{ data: FamilyMessageDetail }`. */
export const FamilyMessageBodyStruct = type({ data: FamilyMessageDetailStruct });

const FamilyReadAnswerStruct: Describe<FamilyReadAnswer> = type({ id: number(), read: literal(true), read_at: nullable(string()) });

/** `POST /app/messages/:id/read` → `{ data: FamilyReadAnswer }`. */
export const FamilyReadBodyStruct = type({ data: FamilyReadAnswerStruct });

/** `POST /app/messages/:id/reply` → 201 `{ data: { id } }`. */
export const FamilyReplyBodyStruct = type({ data: type({ id: number(), sent_at: string() }) });
