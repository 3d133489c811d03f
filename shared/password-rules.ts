// The password rule both sides apply (a new account's, an invitation's, a reset's, a change's): at least
// 10 characters, and not guessable: zxcvbn-ts estimates how many guesses it takes, knowing the common
// passwords, Spanish words and names, keyboard patterns, dates, and what is known of the person (their name,
// e-mail and school). The server's answer is the rule; a screen may run the same check while the user types.
// The dictionaries are large: a browser loads this module only on the screens that set a password.
import { ZxcvbnFactory, type MatchExtended } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as common } from '@zxcvbn-ts/language-common';
import { dictionary as spanish } from '@zxcvbn-ts/language-es-es';

export const PASSWORD_MIN = 10;
/** NIST asks to allow at least 64; zxcvbn's work grows fast with length (a crafted 128-character password takes about 0.6 s). */
export const PASSWORD_MAX = 64;
/** zxcvbn's 0–4 score: 3 is "safely unguessable" (about 10^10 guesses), what a school's accounts need. */
const MIN_SCORE = 3;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'personal' | 'common' | 'weak';

export const PASSWORD_MESSAGES: Record<PasswordProblem, string> = {
  tooShort: `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres.`,
  tooLong: `La contraseña puede tener como máximo ${PASSWORD_MAX} caracteres.`,
  personal: 'La contraseña no puede basarse en tu nombre, tu correo o el nombre de tu institución.',
  common: 'Esa contraseña es muy común y fácil de adivinar. Elige otra, por ejemplo una frase de varias palabras.',
  weak: 'Esa contraseña es fácil de adivinar. Agrega palabras poco comunes o combina palabras que no vayan juntas.',
};

/** What is known of the person, which their password must not be built from. */
export interface PasswordOwner {
  name?: string | null;
  email?: string | null;
  school?: string | null;
}

let estimator: ZxcvbnFactory | null = null;
const estimatorOf = (): ZxcvbnFactory =>
  (estimator ??= new ZxcvbnFactory({ dictionary: { ...common, ...spanish }, graphs: adjacencyGraphs }));

/** A password's length as people count it: characters, not UTF-16 units. */
const lengthOf = (password: string): number => [...password.normalize('NFC')].length;

const folded = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The words of what is known of the person, without accents, as zxcvbn compares them (lower case). */
export function ownerWords(owner: PasswordOwner): string[] {
  const local = owner.email?.split('@')[0] ?? '';
  const words = [owner.name ?? '', local, owner.school ?? '']
    .flatMap((text) => folded(text).split(/[^\p{L}\p{N}]+/u))
    .filter((word) => word.length >= 3);
  return [...new Set(words)];
}

const isOwnerMatch = (match: MatchExtended): boolean => match.pattern === 'dictionary' && match.dictionaryName === 'userInputs';
const isCommonMatch = (match: MatchExtended): boolean => match.pattern === 'dictionary' && match.dictionaryName === 'passwords-common';

/**
 * The password without the person's own words: what is left must stand on its own. zxcvbn alone lets
 * "mariajose2024" pass for María José (two first names and a year count as enough guesses), which is
 * exactly the password someone who knows her tries first.
 */
function withoutOwnerWords(password: string, words: readonly string[]): string {
  let rest = folded(password);
  for (const word of [...words].sort((a, b) => b.length - a.length)) rest = rest.split(word).join('');
  return rest;
}

/** Why `password` may not be used by `owner`, or null when it may. */
export function passwordProblem(password: string, owner: PasswordOwner = {}): PasswordProblem | null {
  const length = lengthOf(password);
  if (length < PASSWORD_MIN) return 'tooShort';
  if (length > PASSWORD_MAX) return 'tooLong';
  const words = ownerWords(owner);
  const rest = withoutOwnerWords(password, words);
  const isBuiltOnOwner = rest.length < folded(password).length;
  const result = estimatorOf().check(password, words);
  if (result.score < MIN_SCORE) {
    if (isBuiltOnOwner || result.sequence.some(isOwnerMatch)) return 'personal';
    return result.sequence.some(isCommonMatch) ? 'common' : 'weak';
  }
  return isBuiltOnOwner && estimatorOf().check(rest).score < MIN_SCORE ? 'personal' : null;
}

/** The Spanish reason `password` may not be used, or null. */
export function passwordError(password: string, owner: PasswordOwner = {}): string | null {
  const problem = passwordProblem(password, owner);
  return problem ? PASSWORD_MESSAGES[problem] : null;
}
