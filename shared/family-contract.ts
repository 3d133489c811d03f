// The guardian app's API (server/routes/guardian-app.ts, mounted at /api/app) as the server answers it: a
// six-digit code sent by SMS to the guardian's phone, traded for a bearer token; then the inbox of the
// app-mobile channel's messages (numbered pages, newest first), one message (opening it reports received),
// reading it (reports read: the staff's reception screen shows «leído»), replying when the author allowed it,
// and the school's wall (its types in news-contract.ts). Paths are relative to the API base (`/api`).
import type { Locale } from './contract';

export const FAMILY_API = {
  /** POST `{ phone }` → 202 `{ data: { message } }`, the same whether or not the phone is a guardian's. */
  code: '/app/session/code',
  /** POST `{ phone, code }` → `{ data: FamilySession }`; DELETE (bearer) → 204, the token revoked. */
  session: '/app/session',
  /**
   * GET `?page=&student=&q=` → `FamilyInboxPage`: every school's messages together (one row per message);
   * `student` one child's (a `FamilyChild` id; another's is a 404), `q` words of the title or text, accents
   * and case aside.
   */
  messages: '/app/messages',
  /** GET → `{ data: FamilyMessageDetail }`; 404 when it is not this guardian's. */
  message: (id: number) => `/app/messages/${id}`,
  /** POST → `{ data: FamilyReadAnswer }`; idempotent. */
  read: (id: number) => `/app/messages/${id}/read`,
  /** POST `{ content }` → 201 `{ data: FamilyReplyAnswer }`; 409 `message.replies_closed`; 422 on an empty or long text. */
  reply: (id: number) => `/app/messages/${id}/reply`,
  /** GET (bearer) → the file's bytes (Content-Disposition: attachment); 404 when it is not this session's. */
  attachment: (id: number, attachmentId: number) => `/app/messages/${id}/attachments/${attachmentId}`,
  /** GET → `{ data: FamilyChild[] }`: the session's enrolled children in every school. */
  children: '/app/children',
} as const;

/** The header that carries the token on every call but the two sign-in ones. */
export const bearer = (token: string): string => `Bearer ${token}`;

/** Digits of a sign-in code. */
export const FAMILY_CODE_LENGTH = 6;
/** Longest reply the server accepts (server/app-api/reply.ts). */
export const FAMILY_REPLY_MAX = 4000;

/** A school of the session: one guardian record is one school's. */
export interface FamilySchool {
  name: string;
  locale: Locale;
}

/**
 * `POST /app/session` → `{ data }`. `expires_at` is ISO 8601. The session is the phone's: `guardian` is the
 * record the code signed in (its school's locale is the app's), `schools` every school where that phone is a
 * guardian's, that one first.
 */
export interface FamilySession {
  token: string;
  expires_at: string;
  guardian: { id: number; name: string; school: FamilySchool; schools: FamilySchool[] };
}

/** One child of the session (`GET /app/children`): this year's course, the messages about them still unread. */
export interface FamilyChild {
  id: number;
  name: string;
  school_name: string;
  course_name: string;
  unread: number;
}

/** One inbox row. `sent_at` ISO 8601 (null: not handed over yet); `student_names` the children it is about. */
export interface FamilyMessageSummary {
  id: number;
  title: string;
  snippet: string;
  sender_name: string;
  /** The school that sent it (a session may span several). */
  school_name: string;
  sent_at: string | null;
  read: boolean;
  allow_replies: boolean;
  student_names: string | null;
}

export interface FamilyAttachment {
  id: number;
  name: string;
  size: number;
  content_type: string;
}

/** One message of a conversation in the app: the guardian's own answers are `mine`. */
export interface FamilyThreadMessage {
  id: number;
  title: string;
  content: string;
  sender_name: string;
  mine: boolean;
  sent_at: string | null;
}

export interface FamilyMessageDetail extends FamilyMessageSummary {
  content: string;
  /** The school's signature as sent (null: none). */
  signature: string | null;
  read_at: string | null;
  attachments: FamilyAttachment[];
  /** The conversation as this guardian has it, oldest first, this message left out. */
  thread: FamilyThreadMessage[];
}

/**
 * `GET /app/messages?page=` (numbered, Laravel style). `meta.unread`: the messages of this inbox (the same child
 * and words) still unread, over every page, as they were before this page was listed.
 */
export interface FamilyInboxPage {
  data: FamilyMessageSummary[];
  meta: { current_page: number; last_page: number; per_page: number; total: number; unread: number };
  links: { first: string; last: string; prev: string | null; next: string | null };
}

/** `POST /app/messages/:id/read` → `{ data }`. */
export interface FamilyReadAnswer {
  id: number;
  read: true;
  read_at: string | null;
}

/** `POST /app/messages/:id/reply` → 201 `{ data }`: the answer, as the thread will list it (`sent_at` ISO 8601). */
export interface FamilyReplyAnswer {
  id: number;
  sent_at: string;
}
