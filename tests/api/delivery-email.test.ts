// The e-mail adapter through a real SMTP conversation on loopback, and its .eml outbox fallback.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyEmailError,
  createEmailAdapter,
  LEFTOVER_AGE_MS,
  tempFileName,
  THIS_WRITER,
  type EmailAdapter,
} from '../../server/delivery/email';
import { decodeBody, decodeQuotedPrintable, flatten, parseMime } from './support/mime';

const FROM = 'Hermes <no-responder@hermes.local>';
const SUBJECT = 'Reunión de apoderados';
const TEXT = 'Estimada familia: la reunión es el jueves a las 18:30 en el gimnasio.';
const ATTACHMENT_BYTES = Buffer.from('%PDF-1.4\nCitación de prueba\n%%EOF\n', 'utf8');

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let tempDir: string;
let attachmentPath: string;
let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'hermes-email-'));
  attachmentPath = path.join(tempDir, 'citacion.pdf');
  await writeFile(attachmentPath, ATTACHMENT_BYTES);

  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Local parts pick the reply so one server covers the permanent and transient refusals.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('inexistente@')) return callback(smtpError('Buzón inexistente', 550));
      if (address.address.startsWith('ocupado@')) return callback(smtpError('Buzón ocupado, intente más tarde', 450));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  port = await new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as net.AddressInfo).port));
  });
});

afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
});

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

describe('e-mail adapter over SMTP', () => {
  let adapter: EmailAdapter;
  beforeAll(() => {
    adapter = createEmailAdapter({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: path.join(tempDir, 'unused'), from: FROM });
  });
  afterAll(async () => {
    await adapter?.close();
  });

  it('delivers envelope, subject, text and attachment to the SMTP server', async () => {
    const before = received.length;
    const { messageId } = await adapter.send({
      to: 'apoderada.perez@example.cl',
      subject: SUBJECT,
      text: TEXT,
      attachments: [{ filename: 'citación.pdf', path: attachmentPath, contentType: 'application/pdf' }],
      headers: { 'X-Hermes-Delivery': 'entrega-42' },
    });

    expect(received).toHaveLength(before + 1);
    const mail = received[before]!;
    expect(mail.from).toBe('no-responder@hermes.local');
    expect(mail.to).toEqual(['apoderada.perez@example.cl']);

    const top = parseMime(mail.raw);
    expect(decodeWords(top.headers.get('subject') ?? '')).toBe(SUBJECT);
    expect(top.headers.get('message-id')).toBe(messageId);
    expect(top.headers.get('x-hermes-delivery')).toBe('entrega-42');
    expect(top.headers.get('from')).toBe(FROM);

    const leaves = flatten(top);
    const text = leaves.find((part) => part.headers.get('content-type')?.startsWith('text/plain'));
    expect(text && decodeBody(text).toString('utf8').trim()).toBe(TEXT);
    const file = leaves.find((part) => part.headers.get('content-type')?.startsWith('application/pdf'));
    expect(file).toBeDefined();
    expect(attachmentName(file!.headers.get('content-disposition') ?? '')).toBe('citación.pdf');
    expect(decodeBody(file!).equals(ATTACHMENT_BYTES)).toBe(true);
  });

  it('a 550 to RCPT TO is permanent and nothing is delivered', async () => {
    const before = received.length;
    const error = await adapter.send({ to: 'inexistente@example.cl', subject: SUBJECT, text: TEXT }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toMatchObject({ responseCode: 550 });
    expect(classifyEmailError(error)).toBe('permanent');
    expect(received).toHaveLength(before);
  });

  it('a 450 to RCPT TO is transient', async () => {
    const error = await adapter.send({ to: 'ocupado@example.cl', subject: SUBJECT, text: TEXT }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toMatchObject({ responseCode: 450 });
    expect(classifyEmailError(error)).toBe('transient');
  });

  it('an address without a domain is permanent', async () => {
    const error = await adapter.send({ to: 'no es un correo', subject: SUBJECT, text: TEXT }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    expect(classifyEmailError(error)).toBe('permanent');
  });
});

describe('e-mail adapter against a closed port', () => {
  it('is transient', async () => {
    // Bind and release a port so nothing listens on it.
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const adapter = createEmailAdapter({ smtpUrl: `smtp://127.0.0.1:${closedPort}`, outboxDir: tempDir, from: FROM });
    try {
      const error = await adapter.send({ to: 'apoderado@example.cl', subject: SUBJECT, text: TEXT }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toMatchObject({ code: expect.stringMatching(/ECONNECTION|ECONNREFUSED|ESOCKET/) });
      expect(classifyEmailError(error)).toBe('transient');
    } finally {
      await adapter.close();
    }
  });
});

describe('e-mail adapter without SMTP (outbox)', () => {
  it('writes one complete .eml file per message, creating the directory', async () => {
    const outboxDir = path.join(tempDir, 'outbox', 'nested');
    const adapter = createEmailAdapter({ outboxDir, from: FROM });
    try {
      const { messageId } = await adapter.send({
        to: 'Juan Pérez <juan.perez@example.mx>',
        subject: SUBJECT,
        text: TEXT,
        html: `<p>${TEXT}</p>`,
        attachments: [{ filename: 'citacion.pdf', path: attachmentPath, contentType: 'application/pdf' }],
      });

      const files = await readdir(outboxDir);
      expect(files).toHaveLength(1);
      const [name] = files as [string];
      expect(name).toMatch(/^[A-Za-z0-9._-]+\.eml$/);
      expect(name).toContain(messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_'));

      const raw = await readFile(path.join(outboxDir, name), 'utf8');
      // Accents in headers travel RFC 2047-encoded, never as raw UTF-8.
      expect(raw).toMatch(/^Subject: =\?UTF-8\?[QB]\?/im);
      expect(raw).not.toContain(`Subject: ${SUBJECT}`);
      const top = parseMime(raw);
      expect(decodeWords(top.headers.get('subject') ?? '')).toBe(SUBJECT);
      expect(top.headers.get('message-id')).toBe(messageId);
      expect(decodeWords(top.headers.get('to') ?? '')).toContain('juan.perez@example.mx');
      const leaves = flatten(top);
      expect(leaves.map((part) => part.headers.get('content-type')?.split(';')[0])).toEqual(['text/plain', 'text/html', 'application/pdf']);
      expect(decodeBody(leaves[0]!).toString('utf8').trim()).toBe(TEXT);
      expect(decodeBody(leaves[2]!).equals(ATTACHMENT_BYTES)).toBe(true);

      await adapter.send({ to: 'otra@example.mx', subject: 'Segundo', text: 'Hola' });
      const after = await readdir(outboxDir);
      expect(after).toHaveLength(2);
      expect(after.every((file) => file.endsWith('.eml') && !file.startsWith('.'))).toBe(true);

      // The same delivery written again (a retry after a crash) replaces its file instead of adding one.
      const again = { to: 'otra@example.mx', subject: 'Tercero', text: 'Hola', messageId: '<hermes-7-0@hermes.local>' };
      await adapter.send(again);
      await adapter.send({ ...again, text: 'Hola otra vez' });
      const final = await readdir(outboxDir);
      expect(final).toHaveLength(3);
      expect(final).toContain('hermes-7-0_hermes.local.eml');
      expect(await readFile(path.join(outboxDir, 'hermes-7-0_hermes.local.eml'), 'utf8')).toContain('Hola otra vez');
    } finally {
      await adapter.close();
    }
  });
});

describe('outbox temp files left by a crash', () => {
  /** A pid whose process has exited (the writer killed mid-write). */
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((done) => child.once('exit', done));
    return child.pid!;
  }

  /**
   * A pid whose process was killed but not yet reaped: a zombie, which still answers kill(pid, 0). A killed
   * server's inner node (tsx runs it as a child) is one until PID 1 reaps it, for good where PID 1 never
   * does. Here a short `sleep` ends in the background of a shell that has meanwhile become a long `sleep`,
   * which never reaps it.
   */
  async function zombie(): Promise<{ pid: number; parent: ChildProcess }> {
    const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 60']);
    const pid = await new Promise<number>((done) => parent.stdout.once('data', (chunk: Buffer) => done(Number(String(chunk).trim()))));
    const state = () =>
      readFile(`/proc/${pid}/stat`, 'utf8').then(
        (stat) => stat.slice(stat.lastIndexOf(')') + 2)[0],
        () => null,
      );
    const until = Date.now() + 10_000;
    while ((await state()) !== 'Z') {
      if (Date.now() > until) throw new Error(`el proceso ${pid} no quedó zombi`);
      await new Promise((done) => setTimeout(done, 20));
    }
    return { pid, parent };
  }

  it('are removed at start-up when their writer is dead, and nothing a live writer may still rename is touched', async () => {
    const outboxDir = path.join(tempDir, 'outbox-leftovers');
    await mkdir(outboxDir, { recursive: true });
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const killed = await zombie();
    try {
      const eml = 'hermes-1-0_hermes.local.eml';
      const files = {
        // Killed between writing and renaming: this host, a pid that is gone.
        dead: tempFileName(eml, { ...THIS_WRITER, pid: await deadPid() }),
        // Killed, not yet reaped by its parent.
        zombie: tempFileName(eml, { ...THIS_WRITER, pid: killed.pid }),
        // A restarted container's predecessor: same host and pid as this process, another run.
        predecessor: tempFileName(eml, { ...THIS_WRITER, run: THIS_WRITER.run === '00000000' ? '00000001' : '00000000' }),
        // Another server or worker on this host, still writing.
        otherProcess: tempFileName(eml, { ...THIS_WRITER, pid: live.pid! }),
        // Another host sharing the outbox: its fate is unknown until the file is old.
        otherHost: tempFileName(eml, { ...THIS_WRITER, host: 'otro-servidor' }),
        otherHostOld: tempFileName('hermes-2-0_hermes.local.eml', { ...THIS_WRITER, host: 'otro-servidor' }),
        // Named before writers were named.
        unnamed: `.${eml}.5fc9ab07-4212-49b2-b586-0a76b75f40fc.tmp`,
        unnamedOld: `.hermes-3-0_hermes.local.eml.a44a6229-8b53-4b0f-988d-2c3e73a384b5.tmp`,
        delivered: eml,
      };
      for (const file of Object.values(files)) await writeFile(path.join(outboxDir, file), 'From: …\n');
      const old = new Date(Date.now() - LEFTOVER_AGE_MS - 60_000);
      for (const file of [files.otherHostOld, files.unnamedOld]) await utimes(path.join(outboxDir, file), old, old);

      const adapter = createEmailAdapter({ outboxDir, from: FROM });
      try {
        await adapter.start();
        expect(new Set(await readdir(outboxDir))).toEqual(new Set([files.otherProcess, files.otherHost, files.unnamed, files.delivered]));

        // This process's own writes are never taken for leftovers, by a second adapter starting on the same outbox either.
        const mine = tempFileName('hermes-4-0_hermes.local.eml');
        await writeFile(path.join(outboxDir, mine), 'From: …\n');
        await createEmailAdapter({ outboxDir, from: FROM }).start();
        expect(await readdir(outboxDir)).toContain(mine);
      } finally {
        await adapter.close();
      }
    } finally {
      live.kill('SIGKILL');
      killed.parent.kill('SIGKILL');
    }
  });
});

describe('classifyEmailError', () => {
  it.each([
    [{ responseCode: 550, code: 'EENVELOPE' }, 'permanent'],
    [{ responseCode: 554, code: 'EMESSAGE' }, 'permanent'],
    [{ responseCode: 535, code: 'EAUTH' }, 'permanent'],
    [{ responseCode: 421, code: 'EENVELOPE' }, 'transient'],
    [{ responseCode: 452, code: 'EMESSAGE' }, 'transient'],
    [{ code: 'EENVELOPE' }, 'permanent'],
    [{ code: 'ECONNECTION' }, 'transient'],
    [{ code: 'ETIMEDOUT' }, 'transient'],
    [{ code: 'ECONNREFUSED' }, 'transient'],
    [{ code: 'EDNS' }, 'transient'],
    [new Error('algo falló'), 'transient'],
    ['texto', 'transient'],
    [null, 'transient'],
  ] as const)('%j is %s', (error, expected) => {
    expect(classifyEmailError(error)).toBe(expected);
  });
});

// --- a small MIME reader, enough to check what nodemailer wrote without trusting it to read itself

// RFC 2231: non-ASCII names travel as filename*0*=utf-8''<percent-encoded>, possibly continued.
function attachmentName(disposition: string): string {
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  if (plain) return decodeWords(plain);
  const pieces = [...disposition.matchAll(/filename\*(\d+)?\*?="?([^";]+)"?/gi)].map((m) => m[2]!);
  return decodeURIComponent(pieces.join('').replace(/^utf-8''/i, ''));
}

function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_match, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}
