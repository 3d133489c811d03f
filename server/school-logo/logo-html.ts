// An e-mail's HTML alternative with the school's logo above its text (messages, invitations, resets). The
// logo travels inside the e-mail as an inline part (Content-ID), never as a remote image, which mail clients
// block and which would tell the sender who opened it. The text is the plain alternative's, escaped, with
// its line breaks kept.

/** The Content-ID the HTML refers to; one per e-mail, so any fixed name will do. */
const LOGO_CID = 'logo@hermes.local';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML that shows exactly it: markup in a message is shown, never run. */
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** The logo's MIME part for nodemailer: `cid` makes it a related part of the HTML, `raw` its whole text. */
export interface LogoPart {
  cid: string;
  contentType: string;
  raw: string;
}

/**
 * The logo's part, encoded once per logo: base64 of up to 512 kB costs milliseconds, which every e-mail of a
 * send would pay again. Keyed by the bytes' Buffer, which the engine's cache keeps while the version lasts.
 */
const parts = new WeakMap<Buffer, LogoPart>();

function logoPart(logo: { content: Buffer; contentType: string }): LogoPart {
  const known = parts.get(logo.content);
  if (known) return known;
  const name = `logo.${EXTENSIONS[logo.contentType] ?? 'img'}`;
  const body = logo.content.toString('base64').replace(/.{76}(?=.)/g, '$&\r\n');
  const part = {
    cid: LOGO_CID,
    contentType: logo.contentType,
    raw: [
      `Content-Type: ${logo.contentType}; name=${name}`,
      'Content-Transfer-Encoding: base64',
      `Content-ID: <${LOGO_CID}>`,
      `Content-Disposition: inline; filename=${name}`,
      '',
      body,
    ].join('\r\n'),
  };
  parts.set(logo.content, part);
  return part;
}

/** The HTML body and the inline logo part of an e-mail of `school`, whose plain body is `text`. */
export function withLogo(
  mail: { subject: string; text: string; school: string },
  logo: { content: Buffer; contentType: string },
): { html: string; logo: LogoPart } {
  const html = [
    '<!doctype html>',
    '<html lang="es"><head><meta charset="utf-8">',
    `<title>${escapeHtml(mail.subject)}</title></head>`,
    '<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937">',
    `<p style="margin:0 0 16px"><img src="cid:${LOGO_CID}" alt="${escapeHtml(mail.school)}" style="max-height:64px;max-width:240px;height:auto"></p>`,
    `<div style="white-space:pre-wrap;word-wrap:break-word">${escapeHtml(mail.text)}</div>`,
    '</body></html>',
  ].join('\n');
  return { html, logo: logoPart(logo) };
}

/** An account e-mail (invitation, password reset) as it leaves: with the school's logo when it has one. */
export function mailWithLogo<M extends { subject: string; text: string }>(
  mail: M,
  school: string,
  logo: { content: Buffer; contentType: string } | null,
): M & { html?: string; attachments?: LogoPart[] } {
  if (!logo) return mail;
  const alternative = withLogo({ subject: mail.subject, text: mail.text, school }, logo);
  return { ...mail, html: alternative.html, attachments: [alternative.logo] };
}
