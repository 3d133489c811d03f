// A course however a school writes it, as the school's country names it: "1° Básico A", "1ro básico a",
// "primero básico A", "1°A", "1A", "IV Medio B", "Sala cuna menor", "Nivel medio mayor", "Pre-kínder",
// "NT2" (Chile); "1° de Primaria A", "1A primaria", "3ro secundaria B", "2° de preescolar", "3ro de kínder",
// "1er semestre de bachillerato", "2° de preparatoria" (Mexico). A number with no stage is Básico in Chile;
// in Mexico it is Primaria unless the file's other courses name one stage only (decisions 0181, 0198).
import { fold } from '../../../shared/fold';
import type { RosterCourse } from '../../../shared/roster-contract';

export type Country = 'CL' | 'MX';
type Stage = 'basico' | 'medio' | 'preescolar' | 'primaria' | 'secundaria' | 'bachillerato';

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
  bachillerato: 'bachillerato',
  bach: 'bachillerato',
  preparatoria: 'bachillerato',
  prepa: 'bachillerato',
};
/** Words that say nothing about the course. */
const FILLER = new Set(['de', 'del', 'grado', 'ano', 'curso', 'nivel', 'grupo', 'seccion', 'letra', 'ensenanza', 'educacion']);

const STAGE_NAMES: Readonly<Record<Stage, string>> = {
  basico: 'Básico',
  medio: 'Medio',
  preescolar: 'Preescolar',
  primaria: 'Primaria',
  secundaria: 'Secundaria',
  bachillerato: 'Bachillerato',
};
const STAGES: Readonly<Record<Country, readonly Stage[]>> = {
  CL: ['basico', 'medio'],
  MX: ['preescolar', 'primaria', 'secundaria', 'bachillerato'],
};
const STAGE_SIZE: Readonly<Record<Stage, number>> = { basico: 8, medio: 4, preescolar: 3, primaria: 6, secundaria: 3, bachillerato: 3 };
/** A bachillerato counted by semesters: six of them, in the three years' places and after. */
const SEMESTERS = 6;
/** Where each Mexican stage's first grade sits in the school's order. */
const MX_FIRST: Readonly<Partial<Record<Stage, number>>> = { preescolar: 0, primaria: 3, secundaria: 9, bachillerato: 12 };

/** Chile's levels with a name and no number: the early years, below 1° Básico. */
type Special = 'salacunamenor' | 'salacunamayor' | 'mediomenor' | 'mediomayor' | 'prekinder' | 'kinder';
const SPECIAL_WORDS: ReadonlySet<string> = new Set<Special>([
  'salacunamenor',
  'salacunamayor',
  'mediomenor',
  'mediomayor',
  'prekinder',
  'kinder',
]);
/** Their names and places: the two levels of transition keep 0 and 1, the younger ones go below (decision 0198). */
const CL_SPECIAL: Readonly<Record<Special, { level: string; position: number }>> = {
  salacunamenor: { level: 'Sala Cuna Menor', position: -4 },
  salacunamayor: { level: 'Sala Cuna Mayor', position: -3 },
  mediomenor: { level: 'Medio Menor', position: -2 },
  mediomayor: { level: 'Medio Mayor', position: -1 },
  prekinder: { level: 'Pre-kínder', position: 0 },
  kinder: { level: 'Kínder', position: 1 },
};

interface Parsed {
  special: Special | null;
  number: number | null;
  stage: Stage | null;
  semester: boolean;
  letter: string;
}

function tokens(text: string): string[] {
  return (
    fold(text)
      .replace(/\bsala[\s-]*cuna[\s-]*(menor|mayor)\b/g, ' salacuna$1 ')
      .replace(/\b(?:nivel[\s-]+)?medio[\s-]+(menor|mayor)\b/g, ' medio$1 ')
      // The levels of transition by their name: primer (NT1, Pre-kínder) and segundo (NT2, Kínder).
      .replace(/(?:\bprimer|\b1\s*(?:er|ro|°|º)?)\s*nivel\s+(?:de\s+)?transicion\b/g, ' prekinder ')
      .replace(/(?:\bsegundo|\b2\s*(?:do|°|º)?)\s*nivel\s+(?:de\s+)?transicion\b/g, ' kinder ')
      .replace(/pre[\s-]*kinder|pre[\s-]*k\b|\bnt ?1\b|\bpk\b/g, ' prekinder ')
      .replace(/\bnt ?2\b/g, ' kinder ')
      .replace(/[°º]/g, ' ')
      .replace(/(\d)([a-z])/g, '$1 $2')
      .replace(/([a-z])(\d)/g, '$1 $2')
      .replace(/[^a-z0-9ñ]+/g, ' ')
      .trim()
      .split(' ')
      .filter((t) => t !== '' && !FILLER.has(t))
  );
}

function parse(text: string): Parsed | null {
  const words = tokens(text);
  const parsed: Parsed = { special: null, number: null, stage: null, semester: false, letter: '' };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (SPECIAL_WORDS.has(word) && word !== 'kinder' && parsed.special === null && parsed.number === null) parsed.special = word as Special;
    else if ((word === 'semestre' || word === 'sem') && !parsed.semester && parsed.number !== null) parsed.semester = true;
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

/** The course a cell names in the school's country, or null when it names none. */
export function parseCourse(text: string, country: Country, defaultStage: Stage | null = null): RosterCourse | null {
  const parsed = parse(text);
  if (parsed === null) return null;
  const { number, letter } = parsed;
  let level: string;
  let position: number;
  if (country === 'CL') {
    if (parsed.semester) return null;
    if (parsed.special !== null) {
      if (number !== null || parsed.stage !== null) return null;
      ({ level, position } = CL_SPECIAL[parsed.special]);
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
    else if (parsed.special !== null || number === null) return null;
    if (number === null) return null;
    // A semester is a bachillerato's: Mexico counts no other stage by semesters.
    if (parsed.semester) {
      if ((stage ?? 'bachillerato') !== 'bachillerato' || number < 1 || number > SEMESTERS) return null;
      level = `${number}° Semestre de Bachillerato`;
      position = MX_FIRST.bachillerato! + number - 1;
    } else {
      stage ??= defaultStage && STAGES.MX.includes(defaultStage) ? defaultStage : 'primaria';
      if (!STAGES.MX.includes(stage) || number < 1 || number > STAGE_SIZE[stage]) return null;
      level = `${number}° de ${STAGE_NAMES[stage]}`;
      position = MX_FIRST[stage]! + number - 1;
    }
  }
  return { level, letter, name: letter === '' ? level : `${level} ${letter}`, position };
}
