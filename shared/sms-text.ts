// SMS text rules shared by the compose screen (live counter), the server (refusal, estimate) and the delivery
// (the body handed to the provider), so the text sent is exactly the text counted. Decision
// (docs/decisions/0045-an-sms-is-one-gsm7-segment.md): an SMS is one GSM-7 segment of 160 units; with the
// institution signature active 6 are reserved for it (SPEC §5). Characters GSM-7 lacks are replaced by their
// unaccented letter (á → a, í → i, ó → o, ú → u; ñ, é, ü are GSM-7 and stay); typographic quotes and dashes
// become plain ones. Characters with no GSM-7 form (emoji…) are refused rather than silently switching to
// UCS-2, which would cut the limit to 70 without the author noticing.

export const SMS_SEGMENT_UNITS = 160;
export const SIGNATURE_DISCOUNT = 6;

const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Escape-prefixed characters: each costs two units. */
const EXTENDED = '^{}\\[~]|€\f';

const BASIC_SET = new Set(BASIC);
const EXTENDED_SET = new Set(EXTENDED);

const REPLACEMENTS: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201C': '"',
  '\u201D': '"',
  '«': '"',
  '»': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00A0': ' ',
  '\t': ' ',
  º: 'o',
  ª: 'a',
};

function toGsmChar(char: string): string | null {
  if (BASIC_SET.has(char) || EXTENDED_SET.has(char)) return char;
  const replaced = REPLACEMENTS[char];
  if (replaced !== undefined) return replaced;
  const base = char.normalize('NFD').replace(/\p{Diacritic}/gu, '');
  return base.length === 1 && BASIC_SET.has(base) ? base : null;
}

/** How every channel closes a message with the signature: a blank line, then the sigla. */
export function withSignature(content: string, signature: string | null): string {
  return signature ? `${content}\n\n${signature}` : content;
}

export interface SmsText {
  /** The SMS exactly as it is handed to the provider: the content transliterated, then the signature. */
  text: string;
  /** GSM-7 units of the content (extended characters count 2), what the counter shows. */
  units: number;
  /** Units the content may use: 160, less what the signature takes (6 for a 3–4 letter sigla). */
  limit: number;
  /** Distinct characters that cannot be sent by SMS, in order of appearance. */
  unsupported: string[];
  /** Fits in one segment and has no unsupported characters. */
  ok: boolean;
}

function toGsm(text: string): { text: string; units: number; unsupported: string[] } {
  let out = '';
  let units = 0;
  const unsupported: string[] = [];
  // Iterate by code point so an emoji is one unsupported character, not two halves.
  for (const char of text.replace(/\r\n/g, '\n')) {
    const gsm = toGsmChar(char);
    if (gsm === null) {
      if (!unsupported.includes(char)) unsupported.push(char);
      continue;
    }
    out += gsm;
    for (const c of gsm) units += EXTENDED_SET.has(c) ? 2 : 1;
  }
  return { text: out, units, unsupported };
}

/** The one SMS of `content` signed with `signature` (null: none or inactive), as counted and as sent. */
export function smsText(content: string, signature: string | null): SmsText {
  const body = toGsm(content);
  const closing = toGsm(withSignature('', signature));
  // The signature reserves SPEC's 6 units; one that takes more (escaped characters) takes what it needs,
  // so the whole text still fits one segment.
  const reserved = closing.units === 0 ? 0 : Math.max(SIGNATURE_DISCOUNT, closing.units);
  const limit = SMS_SEGMENT_UNITS - reserved;
  const unsupported = [...body.unsupported, ...closing.unsupported.filter((char) => !body.unsupported.includes(char))];
  return { text: body.text + closing.text, units: body.units, limit, unsupported, ok: unsupported.length === 0 && body.units <= limit };
}

/** Segments one SMS of this content uses (always 1 when `ok`; the server refuses anything else). */
export const SMS_SEGMENTS_PER_MESSAGE = 1;
