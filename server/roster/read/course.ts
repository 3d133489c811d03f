// A course however a school writes it, as the school's country names it: "1° Básico A", "1ro básico a",
// "primero básico A", "1°A", "1A", "IV Medio B", "Pre-kínder", "NT2" (Chile); "1° de Primaria A",
// "1A primaria", "3ro secundaria B", "2° de preescolar" (Mexico). A number with no stage is Básico in
// Chile; in Mexico it is Primaria unless the file's other courses name one stage only (decision 0181).
import { fold } from '../../../shared/fold';
import type { RosterCourse } from '../../../shared/roster-contract';

export type Country = 'CL' | 'MX';
type Stage = 'basico' | 'medio' | 'preescolar' | 'primaria' | 'secundaria';

const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii'];
const ORDINALS: Readonly<Record<string, number>> = {
  primero: 1,
  primer: 1,
  primera: 1,
  segundo: 2,
  segunda: 2,
  tercero: 3,
  tercer: 3,
  tercera: 3,
  cuarto: 4,
  cuarta: 4,
  quinto: 5,
  quinta: 5,
  sexto: 6,
  sexta: 6,
  septimo: 7,
  setimo: 7,
  septima: 7,
  octavo: 8,
  octava: 8,
};
/** Ordinal endings written after a digit ("1ro", "2do", "3er", "1ª" once folded). */
const ORDINAL_ENDINGS = new Set(['o', 'ro', 'ra', 'do', 'da', 'er', 'era', 'to', 'ta', 'vo', 'va', 'no', 'na', 'mo', 'ma']);
const STAGE_WORDS: Readonly<Record<string, Stage>> = {
  basico: 'basico',
  basica: 'basico',
  b: 'basico',
  eb: 'basico',
  medio: 'medio',
  media: 'medio',
  m: 'medio',
  em: 'medio',
  preescolar: 'preescolar',
  kinder: 'preescolar',
  primaria: 'primaria',
  prim: 'primaria',
  p: 'primaria',
  secundaria: 'secundaria',
  sec: 'secundaria',
  s: 'secundaria',
};
/** Words that say nothing about the course. */
const FILLER = new Set(['de', 'del', 'grado', 'ano', 'curso', 'nivel', 'grupo', 'seccion', 'letra', 'ensenanza', 'educacion']);

const STAGE_NAMES: Readonly<Record<Stage, string>> = {
  basico: 'Básico',
  medio: 'Medio',
  preescolar: 'Preescolar',
  primaria: 'Primaria',
  secundaria: 'Secundaria',
};
const STAGES: Readonly<Record<Country, readonly Stage[]>> = { CL: ['basico', 'medio'], MX: ['preescolar', 'primaria', 'secundaria'] };
const STAGE_SIZE: Readonly<Record<Stage, number>> = { basico: 8, medio: 4, preescolar: 3, primaria: 6, secundaria: 3 };

interface Parsed {
  special: 'prekinder' | 'kinder' | null;
  number: number | null;
  stage: Stage | null;
  letter: string;
}

function tokens(text: string): string[] {
  return fold(text)
    .replace(/pre[\s-]*kinder|pre[\s-]*k\b|\bnt ?1\b|\bpk\b/g, ' prekinder ')
    .replace(/\bnt ?2\b/g, ' kinder ')
    .replace(/[°º]/g, ' ')
    .replace(/(\d)([a-z])/g, '$1 $2')
    .replace(/([a-z])(\d)/g, '$1 $2')
    .replace(/[^a-z0-9ñ]+/g, ' ')
    .trim()
    .split(' ')
    .filter((t) => t !== '' && !FILLER.has(t));
}

function parse(text: string): Parsed | null {
  const words = tokens(text);
  const parsed: Parsed = { special: null, number: null, stage: null, letter: '' };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === 'prekinder' && parsed.special === null && parsed.number === null) parsed.special = 'prekinder';
    else if (/^\d{1,2}$/.test(word) && parsed.number === null) {
      parsed.number = Number(word);
      if (ORDINAL_ENDINGS.has(words[i + 1] ?? '') && (words[i + 1] !== 'a' || i + 2 < words.length)) i++;
    } else if (ORDINALS[word] !== undefined && parsed.number === null) parsed.number = ORDINALS[word];
    else if (ROMAN.includes(word) && parsed.number === null && i === 0 && words.length > 1) parsed.number = ROMAN.indexOf(word) + 1;
    else if (word === 'kinder' && parsed.number === null && parsed.special === null) parsed.special = 'kinder';
    // A one-letter stage ("1 B A", "3 M B") only between a number and a letter: alone at the end it is the letter.
    else if (STAGE_WORDS[word] && parsed.stage === null && (word.length > 1 || (parsed.number !== null && i < words.length - 1)))
      parsed.stage = STAGE_WORDS[word]!;
    else if (/^[a-zñ]$/.test(word) && parsed.letter === word.toUpperCase() && i === words.length - 1)
      continue; // "1° Básico A" + Letra "A"
    else if (/^[a-zñ]$/.test(word) && parsed.letter === '' && i === words.length - 1) parsed.letter = word.toUpperCase();
    else if (/^[a-zñ]$/.test(word) && parsed.letter === '' && (parsed.number !== null || parsed.special !== null))
      parsed.letter = word.toUpperCase();
    else return null;
  }
  return parsed;
}

/**
 * The stage a Mexican file's bare numbers ("1A") belong to: the one its other courses name, when they name
 * one only (primaria and secundaria are usually separate schools there). Chile writes Medio out, so a bare
 * number there is always Básico.
 */
export function fileStage(courses: readonly string[], country: Country): Stage | null {
  if (country !== 'MX') return null;
  const stages = new Set<Stage>();
  for (const text of courses) {
    const stage = parse(text)?.stage;
    if (stage && STAGES.MX.includes(stage)) stages.add(stage);
  }
  return stages.size === 1 ? [...stages][0]! : null;
}

const CL_SPECIAL = { prekinder: 'Pre-kínder', kinder: 'Kínder' } as const;

/** The course a cell names in the school's country, or null when it names none. */
export function parseCourse(text: string, country: Country, defaultStage: Stage | null = null): RosterCourse | null {
  const parsed = parse(text);
  if (parsed === null) return null;
  const { number, letter } = parsed;
  let level: string;
  let position: number;
  if (country === 'CL') {
    if (parsed.special !== null) {
      if (number !== null || parsed.stage !== null) return null;
      level = CL_SPECIAL[parsed.special];
      position = parsed.special === 'prekinder' ? 0 : 1;
    } else {
      if (number === null) return null;
      const stage = parsed.stage ?? 'basico';
      if (stage !== 'basico' && stage !== 'medio') return null;
      if (number < 1 || number > STAGE_SIZE[stage]) return null;
      level = stage === 'basico' ? `${number}° Básico` : `${ROMAN[number - 1]!.toUpperCase()} Medio`;
      position = stage === 'basico' ? 1 + number : 9 + number;
    }
  } else {
    let stage = parsed.stage;
    if (parsed.special === 'kinder') stage = 'preescolar';
    if (parsed.special === 'prekinder' || number === null) return null;
    stage ??= defaultStage && STAGES.MX.includes(defaultStage) ? defaultStage : 'primaria';
    if (!STAGES.MX.includes(stage) || number < 1 || number > STAGE_SIZE[stage]) return null;
    level = `${number}° de ${STAGE_NAMES[stage]}`;
    position = (stage === 'preescolar' ? 0 : stage === 'primaria' ? 3 : 9) + number - 1;
  }
  return { level, letter, name: letter === '' ? level : `${level} ${letter}`, position };
}
