// E-mail channel adapter. With SMTP_URL it speaks SMTP; without it each message becomes an .eml file
// under the outbox directory so a fresh install can "send" and be inspected without a mail server.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';

interface EmailAttachment {
  filename?: string;
  /** File on disk; streamed by nodemailer, never loaded whole into memory … */
  path?: string;
  /** … or the bytes, for attachments stored before files moved to disk. */
  content?: Buffer;
  contentType: string;
  /** Shown inside the HTML alternative (`<img src="cid:…">`) rather than listed as a file. */
  cid?: string;
  /** The whole MIME part, headers and encoded body, made once (the school's logo). */
  raw?: string;
}

interface EmailMessage {
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
  /** Once at start-up, before the first send: the outbox removes what writers killed mid-write left behind. */
  start(): Promise<void>;
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

/** Host part of our Message-IDs: the key makes them unique, this only has to be stable. */
const MESSAGE_ID_HOST = 'hermes.local';

/** The Message-ID of a delivery's e-mail, from its key (channel.ts deliveryKey). */
export const deliveryMessageId = (key: string): string => `<${key}@${MESSAGE_ID_HOST}>`;

/** The outbox file of the e-mail with `messageId` (an erasure finds a person's e-mails by it). */
export const outboxFileName = (messageId: string): string => `${safeFileName(messageId)}.eml`;

export function createEmailAdapter(options: EmailAdapterOptions): EmailAdapter {
  return options.smtpUrl ? smtpAdapter(options.smtpUrl, options.from) : outboxAdapter(options.outboxDir, options.from);
}

/**
 * A few reused connections instead of one per message (the queue sends thousands at once); settings in
 * the URL (e.g. ?pool=false or ?maxConnections=10) take precedence. The bench's raw nodemailer run uses it too.
 */
export const SMTP_POOL = { pool: true, maxConnections: 5 } as const;

function smtpAdapter(smtpUrl: string, from: string): EmailAdapter {
  const transport = nodemailer.createTransport({ ...SMTP_POOL, ...SMTP_TIMEOUTS, url: smtpUrl });
  return {
    async start() {},
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
  let ready: Promise<void> | undefined;
  // Once per adapter, at start-up or else at the first send: the directory, then what killed writers left.
  // A failure is not kept: the next send tries again, and fails with the reason.
  const prepare = () =>
    (ready ??= (async () => {
      await mkdir(outboxDir, { recursive: true });
      await removeLeftovers(outboxDir);
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  return {
    start: prepare,
    async send(message) {
      await prepare();
      const info = await transport.sendMail({ ...message, from });
      if (!Buffer.isBuffer(info.message)) throw new Error('El transporte de correo no entregó el mensaje completo');
      // Named after the Message-ID alone: a delivery written again after a crash replaces its file.
      const name = outboxFileName(info.messageId);
      // Written beside its final name and renamed, so a reader of the outbox never sees half a file.
      const temp = path.join(outboxDir, tempFileName(name));
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

/**
 * Who writes an outbox temp file: a process (pid) on a host, and a random tag of this run, because a
 * restarted container often gets its predecessor's pid and host name back.
 */
export interface OutboxWriter {
  pid: number;
  host: string;
  run: string;
}

export const THIS_WRITER: OutboxWriter = {
  pid: process.pid,
  host:
    hostname()
      .replace(/[^A-Za-z0-9-]/g, '_')
      .slice(0, 63) || 'host',
  run: randomBytes(4).toString('hex'),
};

/** `.<name>.<pid>@<host>.<run>.<uuid>.tmp`: hidden, unique per write, and it names its writer. */
export const tempFileName = (name: string, writer: OutboxWriter = THIS_WRITER): string =>
  `.${name}.${writer.pid}@${writer.host}.${writer.run}.${randomUUID()}.tmp`;

const TEMP_FILE = /^\..*\.tmp$/;
const TEMP_WRITER = /\.(\d+)@([A-Za-z0-9_-]+)\.([0-9a-f]{8})\.[0-9a-f-]{36}\.tmp$/;

/**
 * A temp file whose writer's fate cannot be told (another host, a name from before writers were named, a
 * pid now used by another process) is a leftover once untouched this long; writing one e-mail (22 MB of
 * attachments at most) takes seconds.
 */
export const LEFTOVER_AGE_MS = 3600_000;

/** Whether the writer of a temp file is certainly dead: this host, and its pid gone or reused by this run. */
function writerIsDead(file: string): boolean {
  const match = TEMP_WRITER.exec(file);
  if (!match || match[2] !== THIS_WRITER.host) return false;
  const pid = Number(match[1]);
  if (pid === THIS_WRITER.pid) return match[3] !== THIS_WRITER.run;
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return isZombie(pid);
  } catch (error) {
    // EPERM: alive, someone else's.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * A killed process its parent has not reaped yet still answers kill(pid, 0), but will never rename its
 * file. A killed server's inner node (tsx runs it as a child) is such a zombie until PID 1 reaps it, which
 * in a container without an init may be never. Linux only; elsewhere, as before, the file waits its hour.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "<pid> (<name>) <state> …": the name may hold spaces and parentheses, the state follows the last ')'.
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false;
  }
}

/**
 * Removes the temp files of writes that never reached their rename (the process was killed in between):
 * at once when their writer is dead, otherwise after LEFTOVER_AGE_MS. Several processes (PostgreSQL
 * workers) may share the outbox, so a live writer's file is never taken; should a guess still be wrong,
 * that writer's rename fails, the delivery is retried and its file written again under the same name.
 */
async function removeLeftovers(outboxDir: string, now = Date.now()): Promise<void> {
  for (const file of (await readdir(outboxDir)).filter((name) => TEMP_FILE.test(name))) {
    const full = path.join(outboxDir, file);
    // Gone meanwhile (renamed by its writer, or removed by another process starting too): nothing to do.
    const modified = await stat(full).then(
      (info) => info.mtimeMs,
      () => null,
    );
    if (modified === null) continue;
    if (writerIsDead(file) || now - modified > LEFTOVER_AGE_MS) await rm(full, { force: true });
  }
}

function safeFileName(messageId: string): string {
  return (
    messageId
      .replace(/^<|>$/g, '')
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 120) || randomUUID()
  );
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
