// The API contract shared by the SPA and `server/`. Plain TypeScript only (no runtime imports), so the
// server can import it without pulling browser code. Response checking lives in `structs.ts`.

/** Cookie and storage names. `auth.` is the SPEC §9 storage prefix. */
export const COOKIE = {
  /** HttpOnly access token (max age = token TTL, 1800 s by default). */
  session: 'hermes_session',
  /** HttpOnly refresh token. */
  refresh: 'hermes_refresh',
  /** Readable CSRF token; every non-GET call echoes it in `X-XSRF-TOKEN`. */
  xsrf: 'XSRF-TOKEN-HERMES',
  /**
   * Readable, not secret: epoch ms when the access token expires. Its presence is the start-up
   * "session cookie check" (SPEC §4); its value feeds the token machine.
   */
  tokenExpiration: 'auth._token_expiration.cookie',
  /** Readable, not secret: epoch ms when the refresh token expires. */
  refreshExpiration: 'auth._refresh_token_expiration.cookie',
  /** Locale cookie (SPEC §1): `es-CL` | `es-MX`, 365 days, SameSite=Lax. */
  locale: 'i18n_redirected',
} as const;

export const XSRF_HEADER = 'X-XSRF-TOKEN';
export const ACCESS_POLICY = 'hermes-acceder-sistema';
export const TOKEN_MAX_AGE_S = 1800;

export type Locale = 'es-CL' | 'es-MX';

/** SPEC §3 signed-in user. `GET /api/user` answers `{ user: SignedInUser, policies }` (`SignedIn`). */
export interface SignedInUser {
  id: number;
  email: string;
  roles: { codigo: string; nombre: string }[];
  person: { name: string };
  institution: {
    id: number;
    desc: string;
    locale: Locale;
    timezone: string;
    country: 'CL' | 'MX';
    /** The school's logo for printed pages (`/school/logo?v=<hash>`, relative to the API base); absent without one. */
    logo_url?: string;
  };
  /** `latam` users see the news wall; others (`cl`) do not. */
  device: string;
  options: { url: { home: string } };
  scope: string[];
  domain: 'cl' | 'mx';
  zendesk_info?: {
    name: string;
    email: string;
    organization: string;
    tags: string[];
    isChatEnabled: boolean;
  };
}

/**
 * Who is signed in: `GET /api/user` answers `{ user, policies }`, and a sign-in answers it beside its token
 * times (`{ data: TokenTimes, user, policies }`), so the first screen needs no further call to know them.
 */
export interface SignedIn {
  user: SignedInUser;
  /** The user's policy names (`hermes-acceder-sistema`…), alphabetical. */
  policies: string[];
}

/** Body of `POST /api/login` (with `SignedIn` beside it) and `POST /api/token/refresh` on success: `{ data: TokenTimes }`. */
export interface TokenTimes {
  /** epoch ms */
  token_expires_at: number;
  /** epoch ms */
  refresh_expires_at: number;
}

/** Every error body: `{ message, code }` (+ `errors` per field on 422, Laravel style). */
export interface ApiError {
  message: string;
  code: ErrorCode;
  errors?: Record<string, string[]>;
}

export type ErrorCode =
  | 'auth.invalid_credentials' // 401 on login: unknown e-mail or wrong password (same answer for both)
  | 'auth.policy_missing' // 403 on login: user lacks hermes-acceder-sistema
  | 'auth.unauthenticated' // 401 on any call without a valid session
  | 'auth.refresh_expired' // 401 on token refresh
  | 'auth.throttled' // 429 on login after too many failures
  | 'auth.forbidden' // 403: signed in, but the role does not allow this action (e.g. signature settings)
  | 'csrf.mismatch' // 419 when X-XSRF-TOKEN is missing or differs from the cookie
  | 'validation.failed' // 422 with `errors`
  | 'not_found' // 404, also for another school's ids
  | 'message.illegal_transition' // 409: the message lifecycle does not allow it
  | 'message.replies_closed' // 409 on a guardian app reply: the author did not allow replies
  | 'compose.quota' // 409 on send/schedule: SMS quota or a channel balance does not cover it (`errors.quota`)
  | 'attachment.too_large' // 413 on upload: over 22 MB
  | 'attachment.type' // 415 on upload: type not allowed, or extension/content not matching it
  | 'attachment.in_use' // 409 on delete: the attachment belongs to a sent or scheduled message
  | 'list.scheduled' // 409 on deleting a recipient list a scheduled message uses (`errors.list` names the message)
  | 'news.device' // 403 on any news wall call by a user whose device is not latam (SPEC §1)
  | 'news.category_in_use' // 409 on deleting a news category that posts still use (the message says how many)
  | 'staff.not_invited' // 409 on resending or revoking an invitation of someone not (or no longer) invited
  | 'staff.self' // 409 on deactivating oneself
  | 'staff.last_admin' // 409 on deactivating the school's last active administrator
  | 'staff.state' // 409 on deactivating someone deactivated, or reactivating someone who is not
  | 'invitation.expired' // 410 on an invitation link past its 7 days
  | 'invitation.used' // 410 on an invitation link already used
  | 'invitation.revoked' // 410 on an invitation link revoked, replaced by a newer one, or of a deactivated account
  | 'password_reset.invalid' // 404 on a password reset link that never existed
  | 'password_reset.expired' // 410 on a password reset link older than an hour
  | 'password_reset.used' // 410 on a password reset link already used (or made void by another one's use)
  | 'setup.done' // 410 on POST /setup once the install has a school (the setup code is spent)
  | 'roster.state' // 409 on applying a roster import that is not a preview (applied or discarded already)
  | 'roster.stale' // 409 on applying a roster import whose school's roster changed since its preview
  | 'privacy.erased' // 409 on erasing, blocking or unblocking a person already erased, or editing them
  | 'privacy.self' // 409 on erasing one's own staff row
  | 'people.state' // 409 on withdrawing a withdrawn student, or enrolling again one who is enrolled
  | 'inbound.busy' // 503 on a provider's webhook: another request is still handling the same family message
  | 'server.error'; // 500

/** Course summary, `GET /api/courses` → `{ data: Course[] }`, `GET /api/courses/:id` → `{ data: Course }`. */
export interface Course {
  id: number;
  nombre: string;
  grupo_type: 'curso';
  level: { id: number; nombre: string };
  students_count: number;
}

/**
 * API paths, relative to the configurable base (`VITE_API_BASE`, default `/api`).
 * Login/refresh/logout/user/policies are the session API.
 */
export const API = {
  login: '/login',
  refresh: '/token/refresh',
  logout: '/logout',
  user: '/user',
  policies: '/institution-policies',
  courses: '/courses',
  health: '/health',
  /** 204; sets the readable XSRF cookie when it is missing (call before the first POST). */
  csrf: '/csrf-cookie',
} as const;
