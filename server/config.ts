// Runtime settings, read once from the environment by main.ts and passed explicitly everywhere else
// (tests build their own), so no module reads process.env behind the caller's back.
import { randomBytes } from 'node:crypto';
import { TOKEN_MAX_AGE_S } from '../shared/contract';

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
  /**
   * Guardian-app sign-in codes one client IP may ask for in 10 minutes, whichever the phones
   * (HERMES_APP_CODES_PER_IP, default 60); the per-phone rule (3) applies besides.
   */
  appCodesPerIp: number;
  /** Wrong guardian-app codes one client IP may send in 10 minutes (HERMES_APP_WRONG_CODES_PER_IP, default 30). */
  appWrongCodesPerIp: number;
  /**
   * Single sign-on requests (leaving for the provider, coming back) one client IP may make in 10 minutes
   * (HERMES_SSO_PER_IP, default 300): a whole school behind one address signs in at the same hour.
   */
  ssoPerIp: number;
  /** Where uploaded attachments are stored (HERMES_ATTACHMENTS_DIR, default ./data/attachments). */
  attachmentsDir: string;
  /** SMTP server for the e-mail channel (SMTP_URL, e.g. smtp://user:pass@host:587); unset writes .eml files. */
  smtpUrl?: string;
  /** Where e-mails are written as .eml files when there is no SMTP_URL (HERMES_OUTBOX_DIR, default ./data/outbox). */
  outboxDir: string;
  /** From address of every e-mail (HERMES_MAIL_FROM). */
  mailFrom: string;
  /**
   * SMS and WhatsApp provider (server/delivery/provider.ts): base URL and bearer token of its JSON API
   * (SMS_PROVIDER_URL / SMS_PROVIDER_TOKEN, WHATSAPP_PROVIDER_URL / WHATSAPP_PROVIDER_TOKEN). Unset: the
   * built-in simulator (server/delivery/simulator.ts).
   */
  smsProvider?: { url: string; token: string };
  whatsappProvider?: { url: string; token: string };
  /**
   * Twilio Programmable Messaging for SMS and/or WhatsApp (SMS_PROVIDER=twilio / WHATSAPP_PROVIDER=twilio;
   * server/delivery/twilio/). Unset: that channel uses its JSON provider or the simulator, as above.
   */
  twilio?: TwilioSettings;
  /**
   * Shared secret of the providers' status webhook signatures (HERMES_WEBHOOK_SECRET). Required with a real
   * provider; otherwise a random one per process (the built-in simulator reports in-process).
   */
  webhookSecret: string;
  /** This server as providers and staff reach it: status callbacks, invitation links (HERMES_PUBLIC_URL). */
  publicUrl: string;
  /**
   * SMS and WhatsApp to guardians without the families' app carry its address, the first time and then at
   * most monthly (server/app-api/install-link.ts; HERMES_INSTALL_LINK=0 turns it off). Configs built in code
   * (tests) leave it off unless they ask for it, so the texts they compare stay the composed ones.
   */
  installLink: boolean;
  /** Simulator: share of messages it reports not delivered (HERMES_SIM_FAILURE_RATE, 0–1, default 0.05). */
  simFailureRate: number;
  /** Simulator: how long after accepting it reports the outcome (HERMES_SIM_DELAY_MS, default 1500). */
  simDelayMs: number;
  /** Retries of a delivery after transient errors, with exponential backoff (HERMES_DELIVERY_RETRIES, default 5). */
  deliveryRetries: number;
  /** First backoff step in seconds (HERMES_DELIVERY_RETRY_DELAY, default 30: 30 s, 1 min, 2 min…). */
  deliveryRetryDelayS: number;
  /** Deliveries handed to channels at the same time per worker (HERMES_DELIVERY_CONCURRENCY, default 20). */
  deliveryConcurrency: number;
  /** Run the queue's workers inside the server process (HERMES_WORKERS=0 leaves them to `npm run worker`). */
  workers: boolean;
  /**
   * What the CSRF tokens are signed with (HERMES_SECRET, at least 32 characters). Null: a random secret
   * created in the database on first start and shared by every server on it (server/auth/secret.ts).
   */
  secret: string | null;
  /**
   * The VAPID key pair Web Push is signed with (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, base64url, both or
   * neither). Null: a pair created in the database on first start and shared by every process on it
   * (server/push/keys.ts).
   */
  vapid: { publicKey: string; privateKey: string } | null;
  /** Who the push services may contact about our pushes (VAPID_SUBJECT, mailto: or https:); default the mail sender. */
  vapidSubject: string;
  /** WhatsApp through Meta's Cloud API instead of a provider URL or the simulator (WHATSAPP_PROVIDER=meta; metaWhatsapp below). */
  metaWhatsapp?: MetaWhatsappConfig;
}

export const DEFAULT_CONFIG: ServerConfig = {
  tokenTtlS: TOKEN_MAX_AGE_S,
  refreshTtlS: 14 * 24 * 3600,
  log: 'info',
  trustProxy: false,
  loginMaxFailures: 5,
  loginWindowS: 60,
  appCodesPerIp: 60,
  appWrongCodesPerIp: 30,
  ssoPerIp: 300,
  attachmentsDir: './data/attachments',
  outboxDir: './data/outbox',
  mailFrom: 'Hermes <no-responder@hermes.local>',
  // Only configs built in code (tests) use this; configFromEnv draws a random one or requires the variable.
  webhookSecret: 'hermes-test-webhook-secret',
  publicUrl: 'http://localhost:3000',
  installLink: false,
  simFailureRate: 0.05,
  simDelayMs: 1500,
  deliveryRetries: 5,
  deliveryRetryDelayS: 30,
  deliveryConcurrency: 20,
  workers: true,
  secret: null,
  vapid: null,
  vapidSubject: 'mailto:no-responder@hermes.local',
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
    appCodesPerIp: positiveInt(env, 'HERMES_APP_CODES_PER_IP', DEFAULT_CONFIG.appCodesPerIp),
    appWrongCodesPerIp: positiveInt(env, 'HERMES_APP_WRONG_CODES_PER_IP', DEFAULT_CONFIG.appWrongCodesPerIp),
    ssoPerIp: positiveInt(env, 'HERMES_SSO_PER_IP', DEFAULT_CONFIG.ssoPerIp),
    attachmentsDir: env.HERMES_ATTACHMENTS_DIR || DEFAULT_CONFIG.attachmentsDir,
    ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
    outboxDir: env.HERMES_OUTBOX_DIR || DEFAULT_CONFIG.outboxDir,
    mailFrom: env.HERMES_MAIL_FROM || DEFAULT_CONFIG.mailFrom,
    ...provider(env, 'SMS', 'smsProvider'),
    ...provider(env, 'WHATSAPP', 'whatsappProvider'),
    ...twilioFromEnv(env),
    webhookSecret: webhookSecret(env),
    publicUrl: (env.HERMES_PUBLIC_URL || `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, ''),
    installLink: env.HERMES_INSTALL_LINK !== '0' && env.HERMES_INSTALL_LINK !== 'false',
    simFailureRate: fraction(env, 'HERMES_SIM_FAILURE_RATE', DEFAULT_CONFIG.simFailureRate),
    simDelayMs: nonNegativeInt(env, 'HERMES_SIM_DELAY_MS', DEFAULT_CONFIG.simDelayMs),
    deliveryRetries: nonNegativeInt(env, 'HERMES_DELIVERY_RETRIES', DEFAULT_CONFIG.deliveryRetries),
    deliveryRetryDelayS: positiveInt(env, 'HERMES_DELIVERY_RETRY_DELAY', DEFAULT_CONFIG.deliveryRetryDelayS),
    deliveryConcurrency: positiveInt(env, 'HERMES_DELIVERY_CONCURRENCY', DEFAULT_CONFIG.deliveryConcurrency),
    workers: env.HERMES_WORKERS !== '0' && env.HERMES_WORKERS !== 'false',
    secret: secret(env),
    vapid: vapid(env),
    vapidSubject: vapidSubject(env),
    ...metaWhatsapp(env),
  };
}

/** Both keys or neither; the sizes a P-256 pair has, so a pasted half key fails at start, not at the first push. */
function vapid(env: NodeJS.ProcessEnv): ServerConfig['vapid'] {
  const publicKey = env.VAPID_PUBLIC_KEY ?? '';
  const privateKey = env.VAPID_PRIVATE_KEY ?? '';
  if (publicKey === '' && privateKey === '') return null;
  if (publicKey === '' || privateKey === '') throw new Error('VAPID_PUBLIC_KEY y VAPID_PRIVATE_KEY van juntas: defina las dos o ninguna');
  const bytes = (value: string) => (/^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').length : 0);
  if (bytes(publicKey) !== 65) throw new Error('VAPID_PUBLIC_KEY debe ser una clave P-256 en base64url (65 bytes)');
  if (bytes(privateKey) !== 32) throw new Error('VAPID_PRIVATE_KEY debe ser una clave P-256 en base64url (32 bytes)');
  return { publicKey, privateKey };
}

function vapidSubject(env: NodeJS.ProcessEnv): string {
  const value = env.VAPID_SUBJECT;
  if (value) {
    if (!/^(mailto:|https:\/\/)\S+$/.test(value)) throw new Error('VAPID_SUBJECT debe empezar por mailto: o https://');
    return value;
  }
  // The sender's address: whoever runs the school's mail is who a push service should write to.
  const address = /<([^>]+)>/.exec(env.HERMES_MAIL_FROM ?? '')?.[1] ?? (env.HERMES_MAIL_FROM || '').trim();
  return address.includes('@') ? `mailto:${address}` : DEFAULT_CONFIG.vapidSubject;
}

/** Shorter than 32 characters is a password, not a signing key: refused rather than weakly used. */
const SECRET_MIN_LENGTH = 32;

function secret(env: NodeJS.ProcessEnv): string | null {
  const value = env.HERMES_SECRET;
  if (value === undefined || value === '') return null;
  if (value.length < SECRET_MIN_LENGTH)
    throw new Error(`HERMES_SECRET debe tener al menos ${SECRET_MIN_LENGTH} caracteres (tiene ${value.length})`);
  return value;
}

function webhookSecret(env: NodeJS.ProcessEnv): string {
  if (env.HERMES_WEBHOOK_SECRET) return env.HERMES_WEBHOOK_SECRET;
  // A known default would let anyone sign reports to the public webhook and mark deliveries received.
  if (env.SMS_PROVIDER_URL || env.WHATSAPP_PROVIDER_URL) {
    throw new Error(
      'Con un proveedor de SMS o WhatsApp configurado, HERMES_WEBHOOK_SECRET es obligatorio (el secreto compartido de sus reportes).',
    );
  }
  return randomBytes(32).toString('base64url');
}

function provider(env: NodeJS.ProcessEnv, prefix: 'SMS' | 'WHATSAPP', key: 'smsProvider' | 'whatsappProvider') {
  const url = env[`${prefix}_PROVIDER_URL`];
  if (!url) return {};
  return { [key]: { url: url.replace(/\/+$/, ''), token: env[`${prefix}_PROVIDER_TOKEN`] ?? '' } };
}

// ── Twilio (SMS_PROVIDER=twilio / WHATSAPP_PROVIDER=twilio) ─────────────────────────────────────────────

export interface TwilioSettings {
  accountSid: string;
  /** Signs our API calls (HTTP Basic) and Twilio's webhooks (X-Twilio-Signature). Never logged. */
  authToken: string;
  /** Base of Twilio's REST API (TWILIO_API_URL, default https://api.twilio.com): tests point it at a local fake. */
  apiUrl: string;
  /** SMS through Twilio: from a number or sender id, or from a Messaging Service (which picks the sender). */
  sms?: { from: string } | { messagingServiceSid: string };
  /**
   * WhatsApp through Twilio: the approved WhatsApp sender, E.164 without the `whatsapp:` prefix; and the
   * approved content template every school message goes as (TWILIO_WHATSAPP_CONTENT_SID, `HX…`; null: free
   * text, which WhatsApp delivers only within 24 hours of the family's last message).
   */
  whatsapp?: { from: string; contentSid: string | null };
}

const TWILIO_API_URL = 'https://api.twilio.com';

/** What SMS_PROVIDER / WHATSAPP_PROVIDER may say besides Twilio (the other adapters read their own values). */
const OTHER_PROVIDERS: Record<'SMS' | 'WHATSAPP', readonly string[]> = { SMS: [], WHATSAPP: ['meta'] };

/**
 * SMS_PROVIDER / WHATSAPP_PROVIDER as every adapter reads it: `Meta` or `meta ` is meta, so a capital or a
 * stray space never falls back to the simulator unnoticed.
 */
const providerName = (env: NodeJS.ProcessEnv, prefix: 'SMS' | 'WHATSAPP'): string => (env[`${prefix}_PROVIDER`] ?? '').trim().toLowerCase();

function twilioFromEnv(env: NodeJS.ProcessEnv): { twilio?: TwilioSettings } {
  const chosen = (prefix: 'SMS' | 'WHATSAPP'): boolean => {
    const value = providerName(env, prefix);
    if (value === '') return false;
    if (value !== 'twilio' && !OTHER_PROVIDERS[prefix].includes(value)) {
      throw new Error(`${prefix}_PROVIDER debe ser uno de: ${['twilio', ...OTHER_PROVIDERS[prefix]].join(', ')} (es "${value}")`);
    }
    if (value === 'twilio' && env[`${prefix}_PROVIDER_URL`]) {
      throw new Error(`${prefix}_PROVIDER=twilio y ${prefix}_PROVIDER_URL se contradicen: defina solo uno de los dos`);
    }
    return value === 'twilio';
  };
  const sms = chosen('SMS');
  const whatsapp = chosen('WHATSAPP');
  if (!sms && !whatsapp) return {};

  const required = (name: string): string => {
    const value = env[name]?.trim();
    if (!value) throw new Error(`Con Twilio como proveedor falta ${name}`);
    return value;
  };
  const accountSid = required('TWILIO_ACCOUNT_SID');
  if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid)) throw new Error('TWILIO_ACCOUNT_SID debe empezar por AC y tener 34 caracteres');
  const authToken = required('TWILIO_AUTH_TOKEN');
  // Twilio calls us back at this address and signs it: the default (localhost) would never be reached.
  if (!env.HERMES_PUBLIC_URL)
    throw new Error('Con Twilio como proveedor, HERMES_PUBLIC_URL es obligatorio (la dirección pública a la que Twilio informa)');

  const settings: TwilioSettings = {
    accountSid,
    authToken,
    apiUrl: (env.TWILIO_API_URL || TWILIO_API_URL).replace(/\/+$/, ''),
  };
  if (sms) {
    const from = env.TWILIO_SMS_FROM?.trim();
    const service = env.TWILIO_MESSAGING_SERVICE_SID?.trim();
    if (from && service) throw new Error('TWILIO_SMS_FROM y TWILIO_MESSAGING_SERVICE_SID se contradicen: defina solo uno de los dos');
    if (!from && !service) throw new Error('Con SMS_PROVIDER=twilio falta TWILIO_SMS_FROM o TWILIO_MESSAGING_SERVICE_SID');
    if (service && !/^MG[0-9a-fA-F]{32}$/.test(service))
      throw new Error('TWILIO_MESSAGING_SERVICE_SID debe empezar por MG y tener 34 caracteres');
    settings.sms = service ? { messagingServiceSid: service } : { from: from! };
  }
  if (whatsapp) {
    const from = required('TWILIO_WHATSAPP_FROM').replace(/^whatsapp:/i, '');
    if (!/^\+[1-9]\d{6,14}$/.test(from)) throw new Error('TWILIO_WHATSAPP_FROM debe ser un número en formato internacional (+56912345678)');
    const contentSid = env.TWILIO_WHATSAPP_CONTENT_SID?.trim() || null;
    if (contentSid && !/^HX[0-9a-fA-F]{32}$/.test(contentSid)) {
      throw new Error('TWILIO_WHATSAPP_CONTENT_SID debe empezar por HX y tener 34 caracteres');
    }
    settings.whatsapp = { from, contentSid };
  }
  return { twilio: settings };
}

function nonNegativeInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} debe ser un entero mayor o igual a 0 (es "${raw}")`);
  return value;
}

function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${name} debe ser un número entre 0 y 1 (es "${raw}")`);
  return value;
}

export function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} debe ser un entero positivo (es "${raw}")`);
  return value;
}

// Meta's WhatsApp Cloud API (server/delivery/meta/, docs/providers/meta-whatsapp.md).

/** WhatsApp through Meta's Cloud API: what WHATSAPP_PROVIDER=meta needs. */
export interface MetaWhatsappConfig {
  /** Bearer token of the system user (META_WHATSAPP_TOKEN): a secret, never logged. */
  token: string;
  /** The business number's id in Meta (META_WHATSAPP_PHONE_NUMBER_ID), not the number itself. */
  phoneNumberId: string;
  /** The Meta app's secret (META_APP_SECRET): the key of the webhooks' X-Hub-Signature-256. */
  appSecret: string;
  /** What Hermes answers Meta's webhook verification with (META_WEBHOOK_VERIFY_TOKEN). */
  verifyToken: string;
  /** Graph API origin (META_GRAPH_URL, default https://graph.facebook.com; tests point it at a local fake). */
  graphUrl: string;
  /** Graph API version in the path (META_GRAPH_VERSION, default below). */
  graphVersion: string;
  /** The approved template sent outside the 24-hour window (META_WHATSAPP_TEMPLATE) and its language (META_WHATSAPP_TEMPLATE_LANG). */
  template: string;
  templateLang: string;
}

/** A version Meta served when this was written; versions live about two years, so the operator moves it on. */
const META_GRAPH_VERSION = 'v24.0';

const META_REQUIRED = ['META_WHATSAPP_TOKEN', 'META_WHATSAPP_PHONE_NUMBER_ID', 'META_APP_SECRET', 'META_WEBHOOK_VERIFY_TOKEN'] as const;

function metaWhatsapp(env: NodeJS.ProcessEnv): { metaWhatsapp?: MetaWhatsappConfig } {
  if (providerName(env, 'WHATSAPP') !== 'meta') return {};
  const missing = META_REQUIRED.filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`Con WHATSAPP_PROVIDER=meta faltan: ${missing.join(', ')} (vea docs/providers/meta-whatsapp.md)`);
  if (env.WHATSAPP_PROVIDER_URL) throw new Error('WHATSAPP_PROVIDER=meta y WHATSAPP_PROVIDER_URL no van juntas: elija uno de los dos');
  // The template's link and the webhook Meta calls are this address: localhost would reach nobody.
  if (!env.HERMES_PUBLIC_URL)
    throw new Error('Con WHATSAPP_PROVIDER=meta, HERMES_PUBLIC_URL es obligatoria (el enlace de la plantilla y el webhook)');
  const graphUrl = (env.META_GRAPH_URL || 'https://graph.facebook.com').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+$/.test(graphUrl)) throw new Error(`META_GRAPH_URL debe ser un origen http(s) sin ruta (es "${graphUrl}")`);
  const graphVersion = env.META_GRAPH_VERSION || META_GRAPH_VERSION;
  if (!/^v\d+\.\d+$/.test(graphVersion)) throw new Error(`META_GRAPH_VERSION debe ser como ${META_GRAPH_VERSION} (es "${graphVersion}")`);
  const phoneNumberId = env.META_WHATSAPP_PHONE_NUMBER_ID!;
  if (!/^\d+$/.test(phoneNumberId))
    throw new Error('META_WHATSAPP_PHONE_NUMBER_ID debe ser el identificador numérico del número en Meta, no el teléfono');
  const template = env.META_WHATSAPP_TEMPLATE || 'hermes_aviso';
  if (!/^[a-z0-9_]{1,512}$/.test(template))
    throw new Error('META_WHATSAPP_TEMPLATE debe ser el nombre de la plantilla: minúsculas, números y _');
  const templateLang = env.META_WHATSAPP_TEMPLATE_LANG || 'es';
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(templateLang))
    throw new Error('META_WHATSAPP_TEMPLATE_LANG debe ser un código de idioma de Meta, como es o es_MX');
  return {
    metaWhatsapp: {
      token: env.META_WHATSAPP_TOKEN!,
      phoneNumberId,
      appSecret: env.META_APP_SECRET!,
      verifyToken: env.META_WEBHOOK_VERIFY_TOKEN!,
      graphUrl,
      graphVersion,
      template,
      templateLang,
    },
  };
}
