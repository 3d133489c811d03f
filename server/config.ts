// Runtime settings, read once from the environment by main.ts and passed explicitly everywhere else
// (tests build their own), so no module reads process.env behind the caller's back.
import { TOKEN_MAX_AGE_S } from '../src/services/contract';

export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

export interface ServerConfig {
  /** Access token lifetime in seconds (HERMES_TOKEN_TTL, default 1800). */
  tokenTtlS: number;
  /** Refresh token lifetime in seconds (HERMES_REFRESH_TTL, default 14 days). */
  refreshTtlS: number;
  log: LogLevel;
  /** Honour X-Forwarded-Proto / X-Forwarded-For from a reverse proxy (HERMES_TRUST_PROXY=1). */
  trustProxy: boolean;
  /** Failed logins allowed per e-mail and IP inside the window before answering 429. */
  loginMaxFailures: number;
  loginWindowS: number;
  /** Where uploaded attachments are stored (HERMES_ATTACHMENTS_DIR, default ./data/attachments). */
  attachmentsDir: string;
  /** SMTP server for the e-mail channel (SMTP_URL, e.g. smtp://user:pass@host:587); unset writes .eml files. */
  smtpUrl?: string;
  /** Where e-mails are written as .eml files when there is no SMTP_URL (HERMES_OUTBOX_DIR, default ./data/outbox). */
  outboxDir: string;
  /** From address of every e-mail (HERMES_MAIL_FROM). */
  mailFrom: string;
}

export const DEFAULT_CONFIG: ServerConfig = {
  tokenTtlS: TOKEN_MAX_AGE_S,
  refreshTtlS: 14 * 24 * 3600,
  log: 'info',
  trustProxy: false,
  loginMaxFailures: 5,
  loginWindowS: 60,
  attachmentsDir: './data/attachments',
  outboxDir: './data/outbox',
  mailFrom: 'Hermes <no-responder@hermes.local>',
};

const LOG_LEVELS: readonly LogLevel[] = ['silent', 'error', 'info', 'debug'];

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const log = (env.HERMES_LOG ?? (env.VITEST ? 'silent' : 'info')) as LogLevel;
  if (!LOG_LEVELS.includes(log)) throw new Error(`HERMES_LOG debe ser uno de: ${LOG_LEVELS.join(', ')}`);
  return {
    ...DEFAULT_CONFIG,
    tokenTtlS: positiveInt(env, 'HERMES_TOKEN_TTL', DEFAULT_CONFIG.tokenTtlS),
    refreshTtlS: positiveInt(env, 'HERMES_REFRESH_TTL', DEFAULT_CONFIG.refreshTtlS),
    log,
    trustProxy: env.HERMES_TRUST_PROXY === '1' || env.HERMES_TRUST_PROXY === 'true',
    attachmentsDir: env.HERMES_ATTACHMENTS_DIR || DEFAULT_CONFIG.attachmentsDir,
    ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
    outboxDir: env.HERMES_OUTBOX_DIR || DEFAULT_CONFIG.outboxDir,
    mailFrom: env.HERMES_MAIL_FROM || DEFAULT_CONFIG.mailFrom,
  };
}

export function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} debe ser un entero positivo (es "${raw}")`);
  return value;
}
