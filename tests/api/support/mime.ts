// A small MIME reader of the tests' own, so a test of what nodemailer wrote does not trust nodemailer to
// read it back: headers, multipart children, and a part's decoded body.
interface MimePart {
  headers: Map<string, string>;
  body: string;
  children: MimePart[];
}

export function parseMime(raw: string): MimePart {
  const normalized = raw.replace(/\r\n/g, '\n');
  const split = normalized.indexOf('\n\n');
  const head = split === -1 ? normalized : normalized.slice(0, split);
  const body = split === -1 ? '' : normalized.slice(split + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  const children = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((chunk) => parseMime(chunk.replace(/^\n/, '')))
    : [];
  return { headers, body, children };
}

export function flatten(part: MimePart): MimePart[] {
  return part.children.length === 0 ? [part] : part.children.flatMap(flatten);
}

export function decodeBody(part: MimePart): Buffer {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body.replace(/=\n/g, ''));
  return Buffer.from(part.body, 'utf8');
}

export function decodeQuotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}
