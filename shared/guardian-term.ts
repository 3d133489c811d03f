// The locale's word for a student's guardian (SPEC §3: "In {product} templates the word Apoderado is
// replaced by the locale's term for guardian"). The product's texts are written in Chilean Spanish; a
// Mexican school reads "Padre o tutor". Pure, so the server (templates it answers) and the SPA can share it.
import type { Audience } from './compose-contract';
import type { Locale } from './contract';

interface Term {
  /** Masculine (or generic) singular and plural. */
  one: string;
  other: string;
  /** Feminine singular and plural ("apoderada"). */
  oneFeminine: string;
  otherFeminine: string;
}

/** Lowercase forms; the case of the word replaced is applied to them. */
const GUARDIAN_TERMS: Readonly<Record<Locale, Term>> = {
  'es-CL': { one: 'apoderado', other: 'apoderados', oneFeminine: 'apoderada', otherFeminine: 'apoderadas' },
  'es-MX': { one: 'padre o tutor', other: 'padres o tutores', oneFeminine: 'madre o tutora', otherFeminine: 'madres o tutoras' },
};

/**
 * "apoderado", "apoderada" and their plurals as whole words, in any case. Not inside another word
 * ("apoderamiento") and not a merge field: `{apoderado}` is filled with a person's name at delivery, so
 * it is left alone (a letter or `{` before, a letter or `}` after, is not a match).
 */
const WORD = /(?<![\p{L}{])apoderad([oa])(s?)(?![\p{L}}])/giu;

/** `replacement` in the case of `original`: all caps, capitalised, or as written (lowercase). */
function matchCase(original: string, replacement: string): string {
  const letters = original.replace(/[^\p{L}]/gu, '');
  if (letters.length > 1 && letters === letters.toUpperCase()) return replacement.toUpperCase();
  const first = original[0]!;
  if (first !== first.toLowerCase()) return replacement[0]!.toUpperCase() + replacement.slice(1);
  return replacement;
}

/**
 * `text` with every "apoderado(s)" / "apoderada(s)" in the locale's term, keeping case and number
 * (es-MX: "Apoderados" → "Padres o tutores", "APODERADO" → "PADRE O TUTOR", "apoderada" → "madre o
 * tutora"). es-CL texts come back unchanged.
 */
export function withGuardianTerm(text: string, locale: Locale): string {
  if (locale === 'es-CL') return text;
  const term = GUARDIAN_TERMS[locale];
  return text.replace(WORD, (word, gender: string, plural: string) => {
    const feminine = gender.toLowerCase() === 'a';
    const many = plural !== '';
    const replacement = feminine ? (many ? term.otherFeminine : term.oneFeminine) : many ? term.other : term.one;
    return matchCase(word, replacement);
  });
}

/** A student's guardians as one recipient group, by the audience picked (the picker's «Apoderados de …» row). */
const FAMILY_WORDS: Readonly<Record<Exclude<Audience, 'estudiantes'>, string>> = {
  apoderados: 'Apoderados de',
  titulares: 'Apoderados titulares de',
  suplentes: 'Apoderados suplentes de',
};

/**
 * The words before a student's name when a message goes to their guardians ("Apoderados de", es-MX "Padres o
 * tutores de"): the folders' «Para …» must not read as if the student were the recipient.
 */
export function familyWords(audience: Exclude<Audience, 'estudiantes'>, locale: Locale): string {
  return withGuardianTerm(FAMILY_WORDS[audience], locale);
}
