// A school's OpenID provider as its administrator sets it: read (without the secret, only whether one is
// stored) and written after checking every field. Rules for the values are here; the sign-in is flow.ts.
import { recordAudit } from '../audit/record';
import { eq } from 'drizzle-orm';
import {
  SSO_CLIENT_ID_MAX,
  SSO_DOMAIN_MAX,
  SSO_ISSUER_MAX,
  SSO_PROVIDERS,
  SSO_SECRET_MAX,
  type SsoProvider,
  type SsoSettings,
} from '../../shared/sso-contract';
import type { Db } from '../db/client';
import { ssoSettings } from '../db/schema/sso';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';
import { callbackUrl, issuerProblem } from './rules';
import { SSO_MESSAGES } from './texts';

/** The signed-in administrator's school and themselves. */
export interface SsoScope {
  institutionId: number;
  userId: number;
  /** The caller's address, for the audit log of a change. */
  ip?: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isProvider = (value: unknown): value is SsoProvider => (SSO_PROVIDERS as readonly unknown[]).includes(value);

const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

interface CheckedInput {
  provider: SsoProvider;
  issuer: string;
  clientId: string;
  /** Undefined: keep the stored secret. */
  clientSecret: string | undefined;
  domain: string;
  enabled: boolean;
}

/** The body checked field by field (`hasSecret`: whether one is stored, for an enabled provider without one). */
function checkSettings(body: unknown, hasSecret: boolean): { input: CheckedInput } | { errors: FieldErrors } {
  const row = isObject(body) ? body : {};
  const errors: FieldErrors = {};
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  if (!isProvider(row.provider)) errors.provider = [SSO_MESSAGES.provider];
  const issuer = text(row.issuer).replace(/\/+$/, '');
  if (issuer === '') errors.issuer = [SSO_MESSAGES.issuer];
  else if (issuer.length > SSO_ISSUER_MAX) errors.issuer = [SSO_MESSAGES.issuerLong];
  else if (issuerProblem(issuer)) errors.issuer = [SSO_MESSAGES.issuerUrl];
  const clientId = text(row.client_id);
  if (clientId === '') errors.client_id = [SSO_MESSAGES.clientId];
  else if (clientId.length > SSO_CLIENT_ID_MAX) errors.client_id = [SSO_MESSAGES.clientIdLong];
  let clientSecret: string | undefined;
  if (row.client_secret !== undefined && row.client_secret !== null) {
    clientSecret = typeof row.client_secret === 'string' ? row.client_secret.trim() : '';
    if (clientSecret === '') errors.client_secret = [SSO_MESSAGES.secret];
    else if (clientSecret.length > SSO_SECRET_MAX) errors.client_secret = [SSO_MESSAGES.secretLong];
  } else if (!hasSecret) errors.client_secret = [SSO_MESSAGES.secret];
  const domain = text(row.domain).toLowerCase().replace(/^@/, '');
  if (domain === '') errors.domain = [SSO_MESSAGES.domain];
  else if (domain.length > SSO_DOMAIN_MAX) errors.domain = [SSO_MESSAGES.domainLong];
  else if (!DOMAIN_RE.test(domain)) errors.domain = [SSO_MESSAGES.domainInvalid];
  if (typeof row.enabled !== 'boolean') errors.enabled = [SSO_MESSAGES.enabled];
  if (hasFieldErrors(errors)) return { errors };
  return {
    input: { provider: row.provider as SsoProvider, issuer, clientId, clientSecret, domain, enabled: row.enabled as boolean },
  };
}

type SettingsRow = typeof ssoSettings.$inferSelect;

/** The school's row, secret included: for the server's own use only. */
async function settingsRow(db: Db, institutionId: number): Promise<SettingsRow | null> {
  const [row] = await db.select().from(ssoSettings).where(eq(ssoSettings.institutionId, institutionId)).limit(1);
  return row ?? null;
}

/** The settings as the API answers them: never the secret. */
function answer(row: SettingsRow | null, publicUrl: string): SsoSettings {
  return {
    provider: row?.provider ?? 'google',
    issuer: row?.issuer ?? '',
    client_id: row?.clientId ?? '',
    has_secret: row?.clientSecret != null,
    domain: row?.domain ?? '',
    enabled: row?.enabled ?? false,
    redirect_uri: callbackUrl(publicUrl),
  };
}

export async function readSettings(db: Db, scope: SsoScope, publicUrl: string): Promise<SsoSettings> {
  return answer(await settingsRow(db, scope.institutionId), publicUrl);
}

export async function writeSettings(
  db: Db,
  scope: SsoScope,
  body: unknown,
  publicUrl: string,
  now = new Date(),
): Promise<{ kind: 'invalid'; errors: FieldErrors } | { kind: 'saved'; settings: SsoSettings }> {
  const current = await settingsRow(db, scope.institutionId);
  const checked = checkSettings(body, current?.clientSecret != null);
  if ('errors' in checked) return { kind: 'invalid', errors: checked.errors };
  const { clientSecret, ...fields } = checked.input;
  const values = { ...fields, ...(clientSecret === undefined ? {} : { clientSecret }), updatedAt: now, updatedBy: scope.userId };
  // The names of what changed, never the values: a client id or secret has no place in the log.
  const changed = [
    ...Object.entries(fields).flatMap(([field, value]) => (current && current[field as keyof typeof fields] === value ? [] : [field])),
    ...(clientSecret === undefined || current?.clientSecret === clientSecret ? [] : ['clientSecret']),
  ];
  const row = await db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(ssoSettings)
      .values({ institutionId: scope.institutionId, ...values })
      .onConflictDoUpdate({ target: ssoSettings.institutionId, set: values })
      .returning();
    if (changed.length > 0) {
      await recordAudit(
        tx,
        { institutionId: scope.institutionId, actorUserId: scope.userId, ip: scope.ip ?? null },
        {
          action: 'sso.changed',
          subject: { kind: 'colegio', id: scope.institutionId },
          detail: { fields: changed },
        },
      );
    }
    return saved;
  });
  return { kind: 'saved', settings: answer(row ?? null, publicUrl) };
}

/** The providers some school has switched on, for the login page's buttons. */
export async function enabledProviders(db: Db): Promise<SsoProvider[]> {
  const rows = await db.selectDistinct({ provider: ssoSettings.provider }).from(ssoSettings).where(eq(ssoSettings.enabled, true));
  return SSO_PROVIDERS.filter((p) => rows.some((r) => r.provider === p));
}
