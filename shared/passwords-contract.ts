// API contract of passwords (decisions 0162, 0166–0168), shared by the SPA and `server/`: the forgotten
// password's link by e-mail, the link's check and use, and a signed-in user's change. The rule a new password
// must pass is password-rules.ts. Plain types and constants only.

/** How long a reset link works. */
export const RESET_LINK_TTL_MS = 60 * 60_000;

/** The SPA's page a reset link opens (`/reset-password/<token>`). */
export const resetPasswordPath = (token: string): string => `/reset-password/${encodeURIComponent(token)}`;

/** What the new password must not be built from (password-rules.ts `PasswordOwner`), as the link's check answers it. */
export interface ResetOwner {
  name: string;
  email: string;
  school: string;
}

/**
 * - POST /password-resets          { email }                       → 202 { data: { ok: true } } whether or not the
 *   address has an account (429 per address or per IP beyond the limits)
 * - GET  /password-resets/{token}                                  → { data: ResetOwner }; 404 password_reset.invalid,
 *   410 password_reset.expired | password_reset.used
 * - POST /password-resets/{token}  { password }                    → { data: { ok: true } }; 422 `errors.password`
 *   with the rule's reason; 404 / 410 as the GET. Every session of the user ends; nobody is signed in.
 * - PUT  /user/password            { current_password, password }  → { data: { ok: true } } (signed in); 422
 *   `errors.current_password` or `errors.password`; 429 as a login. The user's other sessions end.
 */
export const PASSWORDS_API = {
  resets: '/password-resets',
  reset: (token: string) => `/password-resets/${encodeURIComponent(token)}`,
  change: '/user/password',
} as const;
