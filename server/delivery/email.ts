// E-mail channel adapter. With SMTP_URL it speaks SMTP; without it each message becomes an .eml file
// under the outbox directory so a fresh install can "send" and be inspected without a mail server.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface EmailAttachment {
  filename: string;
  /** File on disk; streamed by nodemailer, never loaded whole into memory … */
  path?: string;
  /** … or the bytes, for attachments stored before files moved to disk. */
  content?: Buffer;
  contentType: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: EmailAttachment[];
  headers?: Record<string, string>;
  /** Message-ID (`<key@host>`); the same delivery sent again keeps it, so receivers and the outbox dedupe. */
  messageId?: string;
}

export interface EmailAdapter {
  send(message: EmailMessage): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

export interface EmailAdapterOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: string;
}

// Bounded so a dead or silent server surfaces as a transient error the queue retries, instead of
// holding a worker for nodemailer's default of minutes.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createEmailAdapter(options: EmailAdapterOptions): EmailAdapter {
  return options.smtpUrl ? smtpAdapter(options.smtpUrl, options.from) : outboxAdapter(options.outboxDir, options.from);
}

function smtpAdapter(smtpUrl: string, from: string): EmailAdapter {
  // A few reused connections instead of one per message (the queue sends thousands at once); settings in
  // the URL (e.g. ?pool=false or ?maxConnections=10) take precedence over these.
  const transport = nodemailer.createTransport({ pool: true, maxConnections: 5, ...SMTP_TIMEOUTS, url: smtpUrl });
  return {
    async send(message) {
      const info = await transport.sendMail({ ...message, from });
      return { messageId: info.messageId };
    },
    async close() {
      transport.close();
    },
  };
}

function outboxAdapter(outboxDir: string, from: string): EmailAdapter {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let ready: Promise<unknown> | undefined;
  return {
    async send(message) {
      ready ??= mkdir(outboxDir, { recursive: true });
      await ready;
      const info = await transport.sendMail({ ...message, from });
      if (!Buffer.isBuffer(info.message)) throw new Error('El transporte de correo no entregó el mensaje completo');
      // Named after the Message-ID alone: a delivery written again after a crash replaces its file.
      const name = `${safeFileName(info.messageId)}.eml`;
      // Written beside its final name and renamed, so a reader of the outbox never sees half a file.
      const temp = path.join(outboxDir, `.${name}.${randomUUID()}.tmp`);
      try {
        await writeFile(temp, info.message);
        await rename(temp, path.join(outboxDir, name));
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return { messageId: info.messageId };
    },
    async close() {
      transport.close();
    },
  };
}

function safeFileName(messageId: string): string {
  return messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || randomUUID();
}

// Nodemailer error codes meaning the message or its addresses can never be sent as they are.
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'EMAXRECIPIENTS', 'EFILEACCESS', 'EURLACCESS', 'ECONFIG']);

/**
 * Whether retrying later may succeed. SMTP replies decide when present (5xx permanent, 4xx transient);
 * otherwise a bad envelope or message is permanent and anything network-shaped is transient.
 */
export function classifyEmailError(err: unknown): 'transient' | 'permanent' {
  if (typeof err !== 'object' || err === null) return 'transient';
  const { responseCode, code } = err as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number') {
    if (responseCode >= 500 && responseCode < 600) return 'permanent';
    if (responseCode >= 400 && responseCode < 500) return 'transient';
  }
  if (typeof code === 'string' && PERMANENT_CODES.has(code)) return 'permanent';
  return 'transient';
}
