// API contract of the school's own settings (`/settings/school`): what the administrators see and change
// of their school. Plain types and constants only; the checks are shared/school-rules.ts'.
import type { Country, SchoolLocale } from './school-rules';

export const SCHOOL_API = { school: '/school', logo: '/school/logo' } as const;

/** The logo's file: PNG or JPEG (told by its content, not its name), at most 512 kB and 4000 px a side. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_MAX_SIDE = 4000;
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/**
 * The school's logo as settings show it. `url` is relative to the API base like every path here
 * (`/school/logo?v=<hash>`) and changes with the file, so it may be cached for good.
 */
export interface SchoolLogo {
  url: string;
  content_type: LogoType;
  size: number;
  width: number;
  height: number;
}

/** `GET /school` → `{ data: SchoolSettings }` (admin roles); `PATCH /school` answers the same. */
export interface SchoolSettings {
  name: string;
  country: Country;
  timezone: string;
  locale: SchoolLocale;
  home_url: string;
  /** The support chat (SPEC `isChatEnabled`) is offered to the school's administrators. */
  chat_enabled: boolean;
  /** Only schools of domain `cl` have the support chat. */
  chat_available: boolean;
  /** The logo of its e-mails and printed pages; null when it has none. */
  logo: SchoolLogo | null;
}

/**
 * `PUT /school/logo` (admin roles), multipart `file` → `{ data: SchoolLogo }`, the logo uploaded or replaced.
 * Errors: 413 `attachment.too_large` over LOGO_MAX_BYTES, 415 `attachment.type` for anything but PNG or JPEG
 * (SVG included), 422 `validation.failed` on `file` (missing, empty, unreadable or too many pixels).
 * `DELETE /school/logo` (admin roles) → 204. `GET /school/logo?v=<hash>` (any signed-in staff of the school)
 * → the image; 404 when the school has none or `v` is not its current version.
 */

/**
 * `PATCH /school` (admin roles), any of the fields → `{ data: SchoolSettings }`. A new country moves the
 * school's domain and phone prefix with it and needs a time zone of that country (the one in use, or one
 * sent). Errors: 422 `validation.failed` per field (`name`, `country`, `timezone`, `locale`, `home_url`,
 * `chat_enabled`); 403 for other roles.
 */
export interface SchoolSettingsInput {
  name?: string;
  country?: Country;
  timezone?: string;
  locale?: SchoolLocale;
  home_url?: string;
  chat_enabled?: boolean;
}
