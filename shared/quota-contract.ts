// API contract of the school's message quota (SPEC §2 /settings/message-quota, §3 "Quota", §8 "limit not
// updated"), shared by the SPA and `server/`: this month's quota compose reads, and the settings and usage
// the quota screen reads and changes. Plain types and constants only.

/**
 * `GET /quota` → `{ data: Quota }`. `month` is the calendar month in the institution's time zone.
 * Balances are null when the school has no limit for that channel.
 */
export interface Quota {
  month: string; // YYYY-MM
  timezone: string;
  sms: {
    limit: number;
    used: number;
    /** limit − used (never below 0), the reserve included. */
    remaining: number;
    /** Segments of `limit` kept for messages marked "Emergencia": floor(limit × reserve % / 100). */
    reserved: number;
    /** Less than the school's alert share of the limit is left (false when it has no alert). */
    low: boolean;
  };
  email: { remaining: number | null };
  whatsapp: { remaining: number | null };
}

/** Share of the monthly limit kept for messages marked "Emergencia" (0: no reserve). */
export const RESERVE_PERCENT_MAX = 50;
/** The low-quota alert fires when less than this share of the limit is left (null: no alert). */
export const ALERT_PERCENT_MIN = 1;
export const ALERT_PERCENT_MAX = 50;
/** Highest monthly SMS limit an administrator may set (segments). */
export const SMS_LIMIT_MAX = 10_000_000;

/**
 * `GET /quota/settings` → `{ data: QuotaSettings }` (admin roles). The month is the calendar month in the
 * school's time zone, as compose counts it.
 */
export interface QuotaSettings extends Quota {
  sms: Quota['sms'] & {
    reserve_percent: number;
    alert_percent: number | null;
    /**
     * At this month's pace (used ÷ days elapsed), the day (YYYY-MM-DD, school zone) the remaining segments
     * run out, or null when they last past the month's end (or nothing is used yet).
     */
    runs_out_on: string | null;
  };
}

/**
 * `PATCH /quota/settings` (admin roles), any of the fields → `{ data: QuotaSettings }`.
 * Errors: 422 `validation.failed` with per-field errors; `errors.sms_monthly_limit` says the figure when the
 * limit is below what this month already used ("Este mes ya se usaron 1.234 SMS; el límite no puede ser
 * menor."). The SPA shows SPEC §8 "limit not updated" on any failure.
 */
export interface QuotaSettingsInput {
  sms_monthly_limit?: number;
  reserve_percent?: number;
  /** null switches the alert off. */
  alert_percent?: number | null;
}

/** How the usage chart lays out a year: January–December, or the school year (Chile March–December, Mexico August–July). */
export type UsageCalendar = 'civil' | 'school';
export type UsageView = 'monthly' | 'annual';

/** One bar: SMS segments used in a month (or a year) and the limit in force then (the line). */
export interface UsageBar {
  /** 'YYYY-MM' (monthly view) or 'YYYY' / school year label 'YYYY' of its start (annual view). */
  period: string;
  used: number;
  /** Monthly view: the limit in force that month; annual view: the sum of the months' limits. */
  limit: number;
}

/**
 * `GET /quota/usage?view=monthly|annual&year=YYYY&calendar=civil|school` → `{ data: QuotaUsage }` (admin
 * roles). Monthly: the 12 months (school calendar: the school year's months) of `year` (default: the one
 * holding this month), months to come included with used 0. Annual: the last 5 years (or school years).
 */
export interface QuotaUsage {
  view: UsageView;
  calendar: UsageCalendar;
  year: number;
  bars: UsageBar[];
  /** This month (school zone): who and which courses used the most SMS segments, most first, at most 5. */
  top_senders: { user_id: number; name: string; segments: number; messages: number }[];
  top_courses: { course_id: number; name: string; segments: number }[];
}

export const QUOTA_API = {
  quota: '/quota',
  settings: '/quota/settings',
  usage: '/quota/usage',
} as const;
