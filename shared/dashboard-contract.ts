// API contract for the data screens (SPEC §2 /dashboard/connectivity, /dashboard/users,
// /connectivity/course/:id, /ranking/courses, /ranking/users; §3 device status and "recipient data shown";
// §9 "activity percentage can exceed 100 %"), shared by the SPA and `server/`. Admin roles only (403 for
// others); every figure is an SQL aggregate over the school's real deliveries and reads. Plain types and
// constants only.
import type { ChannelCode } from './codes';
import type { DeviceStatus } from './compose-contract';

/**
 * A period as a query: `?period=month&month=YYYY-MM` (default: this month in the school's zone) or
 * `?period=school-year&year=YYYY` (the school year starting that year: Chile March–December, Mexico
 * August–July; default: the one holding this month, or the one just ended in a Chilean summer).
 */
export type PeriodKind = 'month' | 'school-year';
export interface Period {
  kind: PeriodKind;
  /** 'YYYY-MM' for a month, 'YYYY' (start year) for a school year. */
  key: string;
  /** First and last day, 'YYYY-MM-DD' in the school's zone (a school year's last month included). */
  from: string;
  to: string;
}

/**
 * Guardians by SPEC §3 device status: blue app installed and regular, green no app but good by phone (SMS or
 * WhatsApp), yellow last 3 device deliveries not received (app or not), red no app and no number the school can
 * send to: green counts as red where the school can send neither SMS nor WhatsApp.
 */
export type DeviceMix = Record<DeviceStatus, number>;

/**
 * Guardians a channel can reach: app installed (the irregular too, so it can exceed `blue`), an e-mail, and for
 * SMS and WhatsApp a number the engine can text, only where the school can send by that channel now (SMS:
 * contracted with a monthly limit above 0; WhatsApp: contracted), else 0.
 */
type ChannelReach = Record<ChannelCode, number>;

/**
 * "Cobertura efectiva": of the guardians who were sent at least one of the group's last
 * COVERAGE_MESSAGES messages, those who received or read at least one of them on some channel within
 * COVERAGE_HOURS of its sending. `share` is reached / addressed, null when nothing was addressed.
 */
export const COVERAGE_MESSAGES = 3;
export const COVERAGE_HOURS = 24;
interface Coverage {
  reached: number;
  addressed: number;
  share: number | null;
}

/** One row of the connectivity table: the school, a level or a course. */
export interface ConnectivityRow {
  id: number;
  name: string;
  students: number;
  guardians: number;
  reach: ChannelReach;
  devices: DeviceMix;
  coverage: Coverage;
}

/** `GET /dashboard/connectivity` → `{ data: Connectivity }`: levels in school order, courses by name. */
export interface Connectivity {
  school: ConnectivityRow;
  levels: (ConnectivityRow & { courses: ConnectivityRow[] })[];
  /**
   * The families' app's install link carried by SMS and WhatsApp (server/app-api/install-link.ts): guardians
   * sent it, and those of them who signed in to the app since the first one.
   */
  install_link?: InstallLinkFigures;
}

export interface InstallLinkFigures {
  sent: number;
  installed: number;
}

/** What staff should fix for a guardian (red / yellow explained, SPEC §3). */
export type FixHint =
  | 'phone_missing'
  | 'phone_invalid'
  | 'email_missing'
  | 'email_bounced'
  | 'sms_failed'
  /** The family texted "BAJA" by SMS / by WhatsApp (`opted_out` says when). */
  | 'sms_opted_out'
  | 'whatsapp_opted_out'
  | 'no_app';

/** A channel the guardian's phone opted out of, and when (ISO 8601 UTC). */
export interface OptedOut {
  channel: 'sms' | 'whatsapp';
  at: string;
}

/**
 * A delivery that did not reach a guardian, among their last messages (the yellow status's evidence). One
 * per message and channel; a message that failed on two channels comes twice, with the same message fields.
 */
export interface MissedDelivery {
  message_id: number;
  title: string;
  sent_at: string;
  channel: ChannelCode;
  status: 'not_received' | 'error' | 'failed';
  /** Who wrote the message (their name today); null when their account no longer exists. */
  author: string | null;
  /**
   * Whether the user asking may open the message's reception status (`/sent/message/{id}/reception`): only
   * its author may (the reception API answers anyone else 404), so a director who did not write it is shown
   * the failure in place instead of a link. Always false in the call list, which nobody follows.
   */
  can_view_reception: boolean;
}

export interface CourseGuardian {
  id: number;
  name: string;
  role: 'titular' | 'suplente';
  device_status: DeviceStatus;
  phone: string | null;
  email: string | null;
  app_installed: boolean;
  fix: FixHint[];
  /** The phone channels their number opted out of (server/opt-outs/), SMS first. */
  opted_out: OptedOut[];
  /** Their last COVERAGE_MESSAGES messages' deliveries that did not reach them, newest first. */
  missed: MissedDelivery[];
}

/** `GET /dashboard/connectivity/courses/{id}` → `{ data: CourseConnectivity }` (another school's course: 404). */
export interface CourseConnectivity {
  course: { id: number; name: string; level: { id: number; name: string } };
  summary: ConnectivityRow;
  students: { id: number; name: string; guardians: CourseGuardian[] }[];
}

/**
 * "Lista de llamados": the course's guardians not reached among their last `messages` messages (default
 * COVERAGE_MESSAGES, 1–20): no app and SMS failed, an invalid or missing number, or e-mail bounced.
 * `GET /dashboard/connectivity/courses/{id}/call-list?messages=N` → `{ data: CallList }`;
 * with `&format=csv` → `text/csv; charset=utf-8` (BOM, `;` separated so Excel in es-CL/es-MX opens it),
 * `Content-Disposition: attachment; filename="lista-de-llamados-<curso>.csv"`, the same rows and columns
 * as CALL_LIST_COLUMNS in that order.
 */
export interface CallListRow {
  student: string;
  course: string;
  guardian: string;
  role: 'titular' | 'suplente';
  reasons: FixHint[];
  /** When the opt-outs among `reasons` were made: "se dio de baja por SMS el …". */
  opted_out: OptedOut[];
  phone: string | null;
  email: string | null;
  /** The student's other guardians' phone / e-mail ("Ana Soto (suplente): +56 9 …"). */
  alternatives: string[];
}
export interface CallList {
  course: { id: number; name: string };
  messages: number;
  generated_at: string;
  rows: CallListRow[];
}
export const CALL_LIST_MESSAGES_MAX = 20;
export const CALL_LIST_COLUMNS = ['student', 'course', 'guardian', 'role', 'reasons', 'phone', 'email', 'alternatives'] as const;

/**
 * `GET /dashboard/users?period=…&position_id=` → `{ data: StaffActivity }`: per staff member who can sign
 * in, in the period. `read_rate` counts app deliveries and colleagues' mailbox reads only (an SMS is
 * delivered, never "read"); null when none of their messages went where reading is known.
 * `activity_percent` = staff who sent at least one message ÷ staff on the register today: above 100 % when
 * people who sent have left the register since (SPEC §9).
 */
export interface StaffActivityRow {
  user_id: number;
  name: string;
  position: { id: number; name: string } | null;
  /** Their sent messages of the period by `sent_at` in the school's zone: their Enviados, plus any they removed from it. */
  messages: number;
  people_reached: number;
  read_rate: number | null;
  /** Days of the period (school zone) with at least one message sent. */
  active_days: number;
}
export interface StaffActivity {
  period: Period;
  positions: { id: number; name: string }[];
  staff_on_register: number;
  active_staff: number;
  activity_percent: number;
  rows: StaffActivityRow[];
}

/**
 * `GET /dashboard/summary?year=YYYY` → `{ data: ActivitySummary }` (SPEC §2 activity summary): messages sent
 * per month of the school year, and this month's top staff and courses (at most 5, most first), with the
 * school's device mix for the legend beside it.
 */
export interface ActivitySummary {
  school_year: Period;
  months: { month: string; messages: number; deliveries: number }[];
  top_staff: { user_id: number; name: string; messages: number }[];
  top_courses: { course_id: number; name: string; messages: number }[];
  devices: DeviceMix;
}

/**
 * Rankings. Courses are ranked by a rate normalised by size (`metric=read`: guardians who read ÷ guardians
 * addressed; `metric=reached`: guardians reached ÷ guardians addressed), or `by=improvement` by the change
 * of that rate against the previous period (so small or vulnerable courses are not shamed by raw counts).
 * Staff by messages sent (`metric=messages`) or people reached (`metric=reached`), or by improvement.
 * `GET /ranking/courses?period=…&metric=read|reached&by=value|improvement` and
 * `GET /ranking/users?period=…&metric=messages|reached&by=value|improvement` → `{ data: Ranking }`.
 * Ties share a position; `change` is value − previous value (null when there was none).
 */
export type CourseMetric = 'read' | 'reached';
export type UserMetric = 'messages' | 'reached';
export type RankBy = 'value' | 'improvement';
export interface RankingRow {
  position: number;
  id: number;
  name: string;
  /** Courses: guardians addressed (the rate's denominator); staff: their position (cargo) name or null. */
  detail: string | number | null;
  value: number;
  previous: number | null;
  change: number | null;
  previous_position: number | null;
}
export interface Ranking {
  period: Period;
  previous_period: Period;
  metric: CourseMetric | UserMetric;
  by: RankBy;
  rows: RankingRow[];
}

export const DASHBOARD_API = {
  connectivity: '/dashboard/connectivity',
  course: (id: number) => `/dashboard/connectivity/courses/${id}`,
  callList: (id: number) => `/dashboard/connectivity/courses/${id}/call-list`,
  users: '/dashboard/users',
  summary: '/dashboard/summary',
  rankingCourses: '/ranking/courses',
  rankingUsers: '/ranking/users',
} as const;
