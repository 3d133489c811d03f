// Phone numbers for the SMS and WhatsApp channels: validated and normalised to E.164 per country
// prefix (SPEC §3). The "max" metadata is needed because only it can tell mobiles from landlines.
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** Countries whose prefixes SPEC §3 offers: CA and US +1, PE +51, MX +52, AR +54, BR +55, CL +56. */
const PHONE_COUNTRIES = ['CL', 'MX', 'AR', 'BR', 'PE', 'US', 'CA'] as const;
export type PhoneCountry = (typeof PHONE_COUNTRIES)[number];

export type NormalizedPhone = { ok: true; e164: string } | { ok: false; reason: 'empty' | 'invalid' | 'not_mobile' };

// Digits and the punctuation people type around them; anything else (letters, "ext.") is refused
// rather than letting the parser guess a number out of free text.
const PHONE_CHARS = /^\+?[\d\s().\-/]+$/;

// Types that can never receive an SMS. FIXED_LINE_OR_MOBILE is kept: several countries (MX, US, CA,
// and CL since its numbering reform) do not tell them apart, so a country rule below decides.
const NOT_MOBILE = new Set(['FIXED_LINE', 'TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'VOIP', 'UAN', 'VOICEMAIL', 'PAGER']);

const SUPPORTED = new Set<string>(PHONE_COUNTRIES);

export function normalizePhone(raw: string, country: PhoneCountry): NormalizedPhone {
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: false, reason: 'empty' };
  if (!PHONE_CHARS.test(trimmed)) return { ok: false, reason: 'invalid' };

  const parsed = parsePhoneNumberFromString(dropMexicanMobilePrefix(trimmed, country), country as CountryCode);
  if (!parsed?.isValid() || !parsed.country || !SUPPORTED.has(parsed.country)) {
    return { ok: false, reason: 'invalid' };
  }
  const type = parsed.getType();
  if (type && NOT_MOBILE.has(type)) return { ok: false, reason: 'not_mobile' };
  // Chilean mobiles are exactly 9 + 8 digits; 2x (Santiago) and other area codes are landlines.
  if (parsed.country === 'CL' && !/^9\d{8}$/.test(parsed.nationalNumber)) return { ok: false, reason: 'not_mobile' };
  return { ok: true, e164: parsed.number };
}

// Mexico dropped the "1" after +52 and the 044/045 mobile prefixes in 2019-2020, but guardians still
// write them; without this the parser calls those numbers invalid.
function dropMexicanMobilePrefix(value: string, country: PhoneCountry): string {
  const digits = value.replace(/\D/g, '');
  if (value.startsWith('+')) {
    return /^521\d{10}$/.test(digits) ? `+52${digits.slice(3)}` : value;
  }
  if (country !== 'MX') return value;
  if (/^04[45]\d{10}$/.test(digits)) return digits.slice(3);
  if (/^521\d{10}$/.test(digits)) return `+52${digits.slice(3)}`;
  return value;
}

/**
 * A number whose country nobody said (a provider's webhook): an international one as its prefix says; a
 * national one read as Chilean, then as Mexican, the countries of Hermes's schools (a Chilean mobile has 9
 * digits, a Mexican one 10: no number is both).
 */
export function normalizeAnyPhone(raw: string): NormalizedPhone {
  const chilean = normalizePhone(raw, 'CL');
  if (chilean.ok || chilean.reason === 'empty') return chilean;
  const mexican = normalizePhone(raw, 'MX');
  return mexican.ok ? mexican : chilean;
}

/** «+56 9 8765 4321»: the number as people read it (E.164 as it came when it does not parse). */
export function phoneForPeople(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
