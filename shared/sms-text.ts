// SMS text rules shared by the compose screen (live counter) and the server (refusal), so both count
// the same way. Decision (README): an SMS is one GSM-7 segment of 160 units; with the institution
// signature active 6 are reserved for it (SPEC §5). Characters GSM-7 lacks are replaced by their
// unaccented letter (á → a, í → i, ó → o, ú → u; ñ, é, ü are GSM-7 and stay); typographic quotes and
// dashes become plain ones. Characters with no GSM-7 form (emoji…) are refused rather than silently
// switching to UCS-2, which would cut the limit to 70 without the author noticing.

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

export interface SmsText {
  /** The text as it will be sent (transliterated). */
  text: string;
  /** GSM-7 units used (extended characters count 2). */
  units: number;
  /** Units allowed: 160, or 154 with the signature active. */
  limit: number;
  /** Distinct characters that cannot be sent by SMS, in order of appearance. */
  unsupported: string[];
  /** Fits in one segment and has no unsupported characters. */
  ok: boolean;
}

export function smsText(content: string, signatureActive: boolean): SmsText {
  let text = '';
  let units = 0;
  const unsupported: string[] = [];
  // Iterate by code point so an emoji is one unsupported character, not two halves.
  for (const char of content.replace(/\r\n/g, '\n')) {
    const gsm = toGsmChar(char);
    if (gsm === null) {
      if (!unsupported.includes(char)) unsupported.push(char);
      continue;
    }
    text += gsm;
    for (const c of gsm) units += EXTENDED_SET.has(c) ? 2 : 1;
  }
  const limit = SMS_SEGMENT_UNITS - (signatureActive ? SIGNATURE_DISCOUNT : 0);
  return { text, units, limit, unsupported, ok: unsupported.length === 0 && units <= limit };
}

/** Segments one SMS of this content uses (always 1 when `ok`; the server refuses anything else). */
export const SMS_SEGMENTS_PER_MESSAGE = 1;
