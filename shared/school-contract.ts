// API contract of the school's own settings (`/settings/school`): what the administrators see and change
// of their school. Plain types and constants only; the checks are shared/school-rules.ts'.
import type { Country, SchoolLocale } from './school-rules';

export const SCHOOL_API = { school: '/school' } as const;

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
}

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
