// API contract of the first start (`/setup`): whether the install still needs its first school, and the one
// call that creates it with its first administrator. Plain types and constants only; the school's rules
// (countries, time zones, the home link) are in shared/school-rules.ts.
import type { Country, SchoolLocale } from './school-rules';

/** Paths, relative to the API base. */
export const SETUP_API = { setup: '/setup' } as const;

/** `GET /setup` → `{ data: SetupStatus }`, signed out. `needed` is false once any school exists. */
export interface SetupStatus {
  needed: boolean;
}

/** The school as the setup page and the CLI give it. */
export interface SchoolInput {
  name: string;
  country: Country;
  timezone: string;
  locale: SchoolLocale;
  homeUrl: string;
}

/**
 * `POST /setup` → 200 `{ data: TokenTimes } & SignedIn` (the new administrator is signed in, as after
 * `POST /login`). Errors: 422 `validation.failed` with per-field errors keyed `code`, `school.name`,
 * `school.country`, `school.timezone`, `school.locale`, `school.homeUrl`, `admin.name`, `admin.email`,
 * `admin.password` (a wrong setup code is `errors.code`); 429 `auth.throttled` after too many wrong codes
 * from one IP; 410 `setup.done` once a school exists (the code is spent).
 */
export interface SetupInput {
  code: string;
  school: SchoolInput;
  admin: { name: string; email: string; password: string };
}
