// API contract of staff single sign-on through OpenID Connect ("Ingresar con Google / Microsoft"): the
// school's settings as its administrator edits them (/settings/sso), the providers the login page offers,
// and the browser routes of the flow. Plain types and constants only.

/** The kinds of provider: the login page names Google and Microsoft; `other` is any OpenID provider. */
export const SSO_PROVIDERS = ['google', 'microsoft', 'other'] as const;
export type SsoProvider = (typeof SSO_PROVIDERS)[number];

export const SSO_ISSUER_MAX = 500;
export const SSO_CLIENT_ID_MAX = 300;
export const SSO_SECRET_MAX = 1000;
export const SSO_DOMAIN_MAX = 253;

/** The school's settings as `GET /sso/settings` answers them: the secret itself never leaves the server. */
export interface SsoSettings {
  provider: SsoProvider;
  issuer: string;
  client_id: string;
  /** Whether a client secret is stored. */
  has_secret: boolean;
  /** Lower-case e-mail domain (`sanandres.cl`) a person signing in this way must belong to. */
  domain: string;
  enabled: boolean;
  /** Where the provider must send people back: the redirect URI to register with it. */
  redirect_uri: string;
}

/**
 * `PUT /sso/settings` body. `client_secret` absent (or null) keeps the stored one; a string replaces it.
 * Answers `{ data: SsoSettings }`, or 422 with Spanish field errors.
 */
export interface SsoSettingsInput {
  provider: SsoProvider;
  issuer: string;
  client_id: string;
  client_secret?: string | null;
  domain: string;
  enabled: boolean;
}

/** `GET /sso/providers` → `{ data: SsoProvider[] }`: the providers some school has switched on, open to all. */
export const SSO_API = {
  settings: '/sso/settings',
  providers: '/sso/providers',
  /** Browser navigation, not a fetch: `?provider=google&email=…` redirects to the provider. */
  start: '/sso/start',
  /** Where the provider sends the browser back. */
  callback: '/sso/callback',
} as const;

/** Why a sign-in through a provider was refused: `/login?sso=<code>` tells the login page which. */
export const SSO_REFUSALS = ['unavailable', 'email_needed', 'failed', 'unverified', 'domain', 'unknown', 'throttled', 'no_access'] as const;
export type SsoRefusal = (typeof SSO_REFUSALS)[number];

/** The query parameter of /login that carries a refusal. */
export const SSO_REFUSAL_PARAM = 'sso';
