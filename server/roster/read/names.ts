// A whole name split into first names and the two surnames (decision 0182). Chile and Mexico write
// "Nombres ApellidoPaterno ApellidoMaterno"; a comma means "Apellidos, Nombres" (lists sorted by surname).
// Without a comma the last two surnames are the father's and the mother's, a surname keeping its particles
// ("De la Fuente", "San Martín"); with three words, one first name and two surnames, as in official lists.

const PARTICLES = new Set(['de', 'del', 'la', 'las', 'los', 'y', 'san', 'santa', 'da', 'das', 'do', 'dos', 'van', 'von', 'mac', 'mc']);

/** The words of a name grouped so that a surname keeps the particles before it. */
function surnameUnits(words: readonly string[]): string[] {
  const units: string[] = [];
  let pending: string[] = [];
  for (const word of words) {
    pending.push(word);
    if (!PARTICLES.has(word.toLowerCase())) {
      units.push(pending.join(' '));
      pending = [];
    }
  }
  if (pending.length > 0) {
    if (units.length === 0) units.push(pending.join(' '));
    else units[units.length - 1] = `${units[units.length - 1]} ${pending.join(' ')}`;
  }
  return units;
}

/** "González Pérez" → father's and mother's surname; one surname leaves the mother's empty. */
export function splitSurnames(text: string): { father: string; mother: string } {
  const units = surnameUnits(text.split(' ').filter(Boolean));
  if (units.length <= 1) return { father: units[0] ?? '', mother: '' };
  return { father: units.slice(0, -1).join(' '), mother: units[units.length - 1]! };
}

export interface SplitName {
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
}

/**
 * A whole name split; null when it has a single word (no surname to tell). `surnamesFirst`: a column
 * headed "Apellidos y nombres" writes "Soto Pérez Ana María" without a comma.
 */
export function splitFullName(text: string, surnamesFirst = false): SplitName | null {
  const comma = text.indexOf(',');
  if (comma >= 0) {
    const surnames = text.slice(0, comma).trim();
    const first = text.slice(comma + 1).trim();
    if (surnames === '' || first === '') return null;
    const { father, mother } = splitSurnames(surnames);
    return { first_names: first, last_name_father: father, last_name_mother: mother };
  }
  const units = surnameUnits(text.split(' ').filter(Boolean));
  if (units.length < 2) return null;
  if (surnamesFirst) {
    const two = units.length > 2;
    return { first_names: units.slice(two ? 2 : 1).join(' '), last_name_father: units[0]!, last_name_mother: two ? units[1]! : '' };
  }
  if (units.length === 2) return { first_names: units[0]!, last_name_father: units[1]!, last_name_mother: '' };
  return {
    first_names: units.slice(0, -2).join(' '),
    last_name_father: units[units.length - 2]!,
    last_name_mother: units[units.length - 1]!,
  };
}

/**
 * A name typed all in capitals (as SIGE and many systems export them) as names are written: each word
 * capitalised, also after a hyphen or apostrophe ("O'Higgins-Pérez"), particles after the first word in
 * lower case ("De la Fuente"). Any other casing, or anything but letters, is the school's and is kept.
 */
export function nameCase(text: string): string {
  // Only words: a cell such as "@SUMA(A1)" is kept as the text it is.
  if (!/^[\p{L}\s'’.-]+$/u.test(text) || text !== text.toLocaleUpperCase('es')) return text;
  return text
    .toLocaleLowerCase('es')
    .split(' ')
    .map((word, index) =>
      index > 0 && PARTICLES.has(word)
        ? word
        : word.replace(/(^|[-'’])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toLocaleUpperCase('es')),
    )
    .join(' ');
}
