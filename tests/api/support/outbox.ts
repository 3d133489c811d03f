// The account e-mails a test server wrote to its .eml outbox (no SMTP_URL), read back with a small MIME
// reader of its own (one text part, quoted-printable or base64), so the test does not trust nodemailer to
// read what it wrote.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`), as a subject with accents travels. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function parse(raw: string): OutboxMail {
  const normalized = raw.replace(/\r\n/g, '\n');
  const split = normalized.indexOf('\n\n');
  const headers = new Map<string, string>();
  for (const line of normalized
    .slice(0, split)
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = normalized.slice(split + 2);
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to: headers.get('to') ?? '', subject: decodeWords(headers.get('subject') ?? ''), text };
}

/** Every e-mail in the outbox (none when it was never created). */
export async function outboxMails(outboxDir: string): Promise<OutboxMail[]> {
  const files = await readdir(outboxDir).catch(() => [] as string[]);
  const mails = await Promise.all(
    files.filter((f) => f.endsWith('.eml')).map(async (f) => parse(await readFile(path.join(outboxDir, f), 'utf8'))),
  );
  return mails;
}

/** The e-mails to `address`. */
export async function mailsTo(outboxDir: string, address: string): Promise<OutboxMail[]> {
  return (await outboxMails(outboxDir)).filter((m) => m.to.toLowerCase().includes(address.toLowerCase()));
}
