// The sign-in through a school's OpenID provider (authorization code with PKCE, state and nonce), with
// openid-client: `begin` picks the school's provider and builds the address to send the browser to,
// keeping the state's hash, the nonce and the PKCE verifier in `sso_attempts`; `finish` takes the provider's
// answer, uses up that row (a state works once), has openid-client exchange the code and check the ID
// token, and then decides who it is: only an active or invited member of that school, with an e-mail the
// provider says is verified, in the school's allowed domain. No account is ever created here.
import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { SsoProvider, SsoRefusal } from '../../shared/sso-contract';
import { hashToken } from '../auth/tokens';
import { transactionRetrying, type Db } from '../db/client';
import { users } from '../db/schema/auth';
import { ssoAttempts, ssoSettings } from '../db/schema/sso';
import { invitations } from '../db/schema/staff';
import { recordChange } from '../staff/changes';
import { callbackUrl, isLoopback, isVerified } from './rules';

/** How long the provider may take to send the browser back (the person types a password, maybe a code). */
const ATTEMPT_TTL_MS = 10 * 60_000;
/** How long a provider's discovered metadata is reused before it is read again. */
const DISCOVERY_TTL_MS = 10 * 60_000;

type SettingsRow = typeof ssoSettings.$inferSelect;

const discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

/**
 * The provider's configuration from its discovery document, kept a while per issuer, client and secret
 * (a changed secret is a new entry). A failed discovery is forgotten so the next sign-in tries again.
 */
function providerConfig(row: SettingsRow, now: number): Promise<oidc.Configuration> {
  const key = JSON.stringify([row.issuer, row.clientId, row.clientSecret]);
  const kept = discovered.get(key);
  if (kept && now - kept.at < DISCOVERY_TTL_MS) return kept.config;
  const issuer = new URL(row.issuer);
  const config = oidc.discovery(issuer, row.clientId, row.clientSecret ?? undefined, undefined, {
    // Plain http only for a provider on this machine (rules.ts refuses any other http issuer).
    ...(issuer.protocol === 'http:' && isLoopback(issuer.hostname) ? { execute: [oidc.allowInsecureRequests] } : {}),
    timeout: 10,
  });
  // Entries of settings since changed are dropped as they go stale, so the map keeps only what is in use.
  for (const [other, entry] of discovered) if (now - entry.at >= DISCOVERY_TTL_MS) discovered.delete(other);
  discovered.set(key, { at: now, config });
  config.catch(() => discovered.delete(key));
  return config;
}

const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

/** The school whose provider a sign-in goes to: by the e-mail's domain when one was typed, else the only one. */
async function pickSchool(db: Db, provider: SsoProvider, email: string | null): Promise<SettingsRow | SsoRefusal> {
  const rows = await db
    .select()
    .from(ssoSettings)
    .where(and(eq(ssoSettings.provider, provider), eq(ssoSettings.enabled, true)));
  if (rows.length === 0) return 'unavailable';
  if (email === null) return rows.length === 1 ? rows[0]! : 'email_needed';
  const matching = rows.filter((r) => r.domain === domainOf(email));
  if (matching.length <= 1) return matching[0] ?? 'domain';
  // Schools of one corporation may share a domain: the person's own school, if they have an account.
  const [user] = await db.select({ institutionId: users.institutionId }).from(users).where(eq(users.email, email)).limit(1);
  return matching.find((r) => r.institutionId === user?.institutionId) ?? matching[0]!;
}

export type Begin = { kind: 'refused'; why: SsoRefusal } | { kind: 'redirect'; url: string; state: string };

/** Where to send the browser for `provider`, `email` (lower-case) when the person typed it. */
export async function begin(db: Db, publicUrl: string, provider: SsoProvider, email: string | null, now = new Date()): Promise<Begin> {
  const school = await pickSchool(db, provider, email);
  if (typeof school === 'string') return { kind: 'refused', why: school };
  let config: oidc.Configuration;
  try {
    config = await providerConfig(school, now.getTime());
  } catch {
    return { kind: 'refused', why: 'failed' };
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  // Housekeeping on the way in: attempts nobody came back from.
  await db.delete(ssoAttempts).where(lt(ssoAttempts.expiresAt, now));
  await db.insert(ssoAttempts).values({
    institutionId: school.institutionId,
    stateHash: hashToken(state),
    nonce,
    codeVerifier,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ATTEMPT_TTL_MS),
  });
  const parameters: Record<string, string> = {
    redirect_uri: callbackUrl(publicUrl),
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  };
  if (email !== null) parameters.login_hint = email;
  // Google shows only the accounts of the school's Workspace domain.
  if (school.provider === 'google') parameters.hd = school.domain;
  return { kind: 'redirect', url: oidc.buildAuthorizationUrl(config, parameters).href, state };
}

export type Finish =
  /** `institutionId`: the school whose provider was tried, once known (the audit log's entry names it). */
  { kind: 'refused'; why: SsoRefusal; institutionId?: number } | { kind: 'identified'; userId: number };

/** The attempt of this state, removed as it is read so that it works once; null when none (or expired). */
async function takeAttempt(db: Db, state: string, now: Date) {
  const [attempt] = await db
    .delete(ssoAttempts)
    .where(eq(ssoAttempts.stateHash, hashToken(state)))
    .returning();
  return attempt && attempt.expiresAt > now ? attempt : null;
}

/**
 * The provider's answer at `search` (the callback's query string). `cookieState` is the state this browser
 * was given when it left: an answer for another browser's sign-in is refused.
 */
export async function finish(db: Db, publicUrl: string, search: string, cookieState: string | null, now = new Date()): Promise<Finish> {
  const refuse = (why: SsoRefusal, institutionId?: number): Finish => ({
    kind: 'refused',
    why,
    ...(institutionId === undefined ? {} : { institutionId }),
  });
  const current = new URL(`${callbackUrl(publicUrl)}${search}`);
  const state = current.searchParams.get('state');
  if (!state || !cookieState || state !== cookieState) return refuse('failed');
  const attempt = await takeAttempt(db, state, now);
  if (!attempt) return refuse('failed');
  const [school] = await db.select().from(ssoSettings).where(eq(ssoSettings.institutionId, attempt.institutionId)).limit(1);
  if (!school?.enabled) return refuse('unavailable', attempt.institutionId);

  let claims: Record<string, unknown>;
  try {
    const config = await providerConfig(school, now.getTime());
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: attempt.codeVerifier,
      expectedState: state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    claims = { ...tokens.claims() };
  } catch {
    // A refused consent, a replayed or forged code, a bad signature, a wrong nonce: all one refusal.
    return refuse('failed', attempt.institutionId);
  }
  if (!isVerified(school.provider, claims)) return refuse('unverified', attempt.institutionId);
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (email === '' || domainOf(email) !== school.domain) return refuse('domain', attempt.institutionId);

  const [user] = await db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(and(eq(users.email, email), eq(users.institutionId, school.institutionId), inArray(users.status, ['active', 'invited'])))
    .limit(1);
  if (!user) return refuse('unknown', attempt.institutionId);
  if (user.status === 'invited') await acceptByProvider(db, school.institutionId, user.id, now);
  return { kind: 'identified', userId: user.id };
}

/**
 * An invited person signing in through the school's provider has accepted their invitation: the account
 * becomes active, its open links are used up, and the change is recorded as the link's acceptance is.
 */
async function acceptByProvider(db: Db, institutionId: number, userId: number, now: Date): Promise<void> {
  await transactionRetrying(db, async (tx) => {
    const [activated] = await tx
      .update(users)
      .set({ status: 'active' })
      .where(and(eq(users.id, userId), eq(users.status, 'invited')))
      .returning({ id: users.id });
    // Another tab got there first: one acceptance, one record.
    if (!activated) return;
    const used = await tx
      .update(invitations)
      .set({ usedAt: now })
      .where(and(eq(invitations.userId, userId), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    await recordChange(tx, {
      institutionId,
      subjectUserId: userId,
      actorUserId: userId,
      action: 'invitation.accepted',
      detail: { via: 'sso', invitation_ids: used.map((u) => u.id) },
    });
  });
}
