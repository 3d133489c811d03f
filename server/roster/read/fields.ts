// One cell of a row checked and normalised: RUN/CURP (shared/person-rules.ts), phones to E.164 by the
// school's country (server/recipients/phone.ts), e-mails, birth dates, titular/suplente. Each returns the
// value or the Spanish reason, as the school's country reads it.
import { fold } from '../../../shared/fold';
import { isEmail, normalizeCurp, normalizeRut, PERSON_ERRORS, PERSON_ERRORS_MX } from '../../../shared/person-rules';
import type { GuardianRole, RosterDocument } from '../../../shared/roster-contract';
import { normalizePhone } from '../../recipients/phone';
import type { Country } from './course';
import { ROW_TEXTS } from './messages';
import { nameCase } from './names';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A person-rules text as a school of `country` reads it. */
function personError(key: keyof typeof PERSON_ERRORS, country: Country): string {
  return (country === 'MX' ? PERSON_ERRORS_MX[key] : undefined) ?? PERSON_ERRORS[key];
}

/** A RUN whole ("12.345.678-5") or as body and DV in two cells. */
export function checkRun(run: string, dv: string | null): Checked<RosterDocument> {
  const whole = dv !== null && dv !== '' ? `${run.replace(/-\s*$/, '')}-${dv}` : run;
  const checked = normalizeRut(whole);
  return checked.ok ? { ok: true, value: { type: 'rut', value: checked.value } } : checked;
}

export function checkCurp(curp: string): Checked<RosterDocument> {
  const checked = normalizeCurp(curp);
  return checked.ok ? { ok: true, value: { type: 'curp', value: checked.value } } : checked;
}

export function checkPhone(raw: string, country: Country): Checked<string> {
  const phone = normalizePhone(raw, country);
  if (phone.ok) return { ok: true, value: phone.e164 };
  if (phone.reason === 'not_mobile') return { ok: false, error: personError('phoneNotMobile', country) };
  if (!/^\+?[\d\s().\-/]+$/.test(raw)) return { ok: false, error: personError('phoneShape', country) };
  return { ok: false, error: personError('phoneInvalid', country) };
}

export function checkEmail(raw: string, country: Country): Checked<string> {
  const value = raw.toLowerCase();
  return isEmail(value) ? { ok: true, value } : { ok: false, error: personError('email', country) };
}

/**
 * A birth date as ISO: the reader gives Excel's date cells as yyyy-mm-dd; typed ones are day first
 * ("15-03-2018", "15/03/2018", "15.03.2018"), as both countries write them. A two-digit year ("15-03-19") is
 * this century's: a school's students are born in it (decision 0199); one that lands after today is asked
 * for in four digits rather than guessed as 19yy.
 */
export function checkBirthDate(raw: string, today: Date, country: Country): Checked<string> {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const dayFirst = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$/.exec(raw);
  const shortYear = dayFirst !== null && dayFirst[3]!.length === 2;
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : dayFirst
      ? [(shortYear ? 2000 : 0) + Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1])]
      : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return { ok: false, error: ROW_TEXTS[country].birthDate };
  if (date.getTime() > today.getTime())
    return { ok: false, error: shortYear ? ROW_TEXTS[country].birthDateShortYear(raw, year) : ROW_TEXTS[country].birthDateFuture };
  return { ok: true, value: date.toISOString().slice(0, 10) };
}

const ROLE_WORDS: Readonly<Record<string, GuardianRole>> = {
  titular: 'titular',
  principal: 'titular',
  primario: 'titular',
  primaria: 'titular',
  'apoderado titular': 'titular',
  'apoderada titular': 'titular',
  '1': 'titular',
  suplente: 'suplente',
  secundario: 'suplente',
  secundaria: 'suplente',
  'apoderado suplente': 'suplente',
  'apoderada suplente': 'suplente',
  '2': 'suplente',
};

/** titular/suplente as written; null for an empty cell (the row's order decides then). */
export function checkRole(raw: string, country: Country): Checked<GuardianRole | null> {
  if (raw === '') return { ok: true, value: null };
  const role = ROLE_WORDS[fold(raw)];
  return role ? { ok: true, value: role } : { ok: false, error: ROW_TEXTS[country].role(raw) };
}

/** A guardian the file gives no relationship, as each country calls one (the lists' fallback says the same). */
const NO_RELATIONSHIP: Readonly<Record<Country, string>> = { CL: 'Apoderado', MX: 'Tutor' };

/** "madre", "MADRE" → "Madre"; empty → "Apoderado" (Mexico "Tutor"), as the contract says. */
export function relationshipOf(raw: string, country: Country): string {
  if (raw === '') return NO_RELATIONSHIP[country];
  const text = nameCase(raw);
  return text.charAt(0).toLocaleUpperCase('es') + text.slice(1);
}
