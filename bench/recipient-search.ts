// Recipient search per keystroke: the picker's index (shared/recipient-index.ts) over
// 7,000 and 70,000 realistic Chilean names, side by side with @leeoniya/ufuzzy and match-sorter run on
// the SAME folded names (SPEC §5: case- and accent-insensitive substring, empty query = everything).
// The two libraries must find the same substring matches; ours finds those and, the query's words in any
// order, what a plain rewrite of the picker's rule finds, and previews its best 20 in rank order (decision
// 0128). Any difference fails the run. Targets: median ≤ 0.5 ms at 7k and ≤ 4 ms at 70k for our index.
//
// `npx tsx bench/recipient-search.ts` alone, or `runRecipientSearchBench()` from bench/run.ts.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import uFuzzy from '@leeoniya/ufuzzy';
import { matchSorter, rankings } from 'match-sorter';
import { CHILE } from '../server/seed/names';
import { mulberry32, type Rng } from '../server/seed/prng';
import type { RecipientCourse, RecipientGuardian, Recipients } from '../shared/compose-contract';
import { fold } from '../shared/fold';
import { buildRecipientIndex, search, type IndexItem } from '../shared/recipient-index';

/** What a user types, one letter at a time (accents and ñ as typed; all three engines get them folded). */
const QUERIES = ['ramirez', 'gonzález', 'ñuñoa', 'mar', 'maría jos', 'muñoz r', 'zz', ''];
const SIZES = [7_000, 70_000] as const;
const TARGET_MEDIAN_MS: Readonly<Record<number, number>> = { 7000: 0.5, 70000: 4 };
const REPEATS = 15;

interface EngineStats {
  medianMs: number;
  p95Ms: number;
}

interface SizeReport {
  names: number;
  buildIndexMs: number;
  keystrokes: number;
  ours: EngineStats;
  ufuzzy: EngineStats;
  matchSorter: EngineStats;
  targetMedianMs: number;
  meetsTarget: boolean;
}

export interface RecipientSearchReport {
  queries: string[];
  sizes: SizeReport[];
  /** Every keystroke gave the same matches in the three engines (the run throws otherwise). */
  sameResults: true;
}

function personName(rng: Rng): string {
  const first = rng.chance(0.5) ? rng.pick(CHILE.female) : rng.pick(CHILE.male);
  const second = rng.chance(0.3) ? ` ${rng.chance(0.5) ? rng.pick(CHILE.female) : rng.pick(CHILE.male)}` : '';
  return `${first}${second} ${rng.pick(CHILE.surnames)} ${rng.pick(CHILE.surnames)}`;
}

/**
 * A school-shaped `GET /recipients` with about `names` searchable names on the students tab: courses of
 * ~35 students, each with one or two guardians. The odd course name is "Ñuñoa" so that query hits too.
 */
function syntheticRecipients(names: number, seed = 4): Recipients {
  const rng = mulberry32(seed);
  const courses: RecipientCourse[] = [];
  let count = 0;
  let studentId = 0;
  let guardianId = 0;
  for (let courseId = 1; count < names; courseId += 1) {
    const course: RecipientCourse = {
      id: courseId,
      nombre:
        courseId % 97 === 0
          ? `Taller Ñuñoa ${courseId}`
          : `${(courseId % 12) + 1}° Básico ${String.fromCharCode(65 + (courseId % 4))} ${courseId}`,
      grupo_type: 'curso',
      level_id: (courseId % 12) + 1,
      estudiantes: [],
      apoderados: [],
    };
    count += 1;
    courses.push(course);
    for (let seat = 0; seat < 35 && count < names; seat += 1) {
      studentId += 1;
      course.estudiantes.push({ id: studentId, name: personName(rng) });
      count += 1;
      const guardians = rng.chance(0.4) ? 2 : 1;
      for (let g = 0; g < guardians && count < names; g += 1) {
        guardianId += 1;
        const guardian: RecipientGuardian = {
          id: guardianId,
          student_id: studentId,
          rol_adulto_id: g === 0 ? 1 : 2,
          device_status: rng.pick(['blue', 'green', 'yellow', 'red'] as const),
          ficha_apoderado: { email: null, user_id: null, name: personName(rng), fono_celular: null, user_type: 'apoderado' },
        };
        course.apoderados.push(guardian);
        count += 1;
      }
    }
  }
  return { courses, appointments: [], levels: [] };
}

function stats(samples: number[]): EngineStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  return { medianMs: Math.round(at(0.5) * 1000) / 1000, p95Ms: Math.round(at(0.95) * 1000) / 1000 };
}

/** Every prefix of every query: what the picker searches as the user types. */
function keystrokes(): string[] {
  const result: string[] = [];
  for (const query of QUERIES) {
    if (query === '') result.push('');
    for (let end = 1; end <= query.length; end += 1) result.push(query.slice(0, end));
  }
  return result;
}

function time(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function benchSize(names: number): SizeReport {
  const recipients = syntheticRecipients(names);
  let index = buildRecipientIndex(recipients);
  const buildIndexMs = time(() => {
    index = buildRecipientIndex(recipients);
  });
  const items: IndexItem[] = index.tabs.students.items;
  // The other engines get the same folded names (folding is the rule, not part of what is compared).
  const folded = items.map((item) => fold(item.name));
  const byName = items.map((item, position) => ({ key: item.key, name: folded[position] as string }));
  // Plain substring: one term (the split never matches), no insertions or errors inside it.
  const uf = new uFuzzy({ intraMode: 0, intraIns: 0, interIns: 0, interSplit: '(?!)', alpha: 'a-z' });

  const ours: number[] = [];
  const ufuzzy: number[] = [];
  const sorter: number[] = [];
  const strokes = keystrokes();
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    for (const stroke of strokes) {
      const needle = fold(stroke.trim());
      let mine = { total: 0, keys: [] as string[] };
      ours.push(
        time(() => {
          const result = search(index, 'students', stroke);
          mine = { total: result.total, keys: result.preview.map((item) => item.key) };
        }),
      );
      let ufIds: number[] = [];
      ufuzzy.push(
        time(() => {
          ufIds = needle === '' ? folded.map((_, position) => position) : (uf.filter(folded, fold(stroke.trim())) ?? []);
        }),
      );
      let msItems: { key: string }[] = [];
      sorter.push(
        time(() => {
          msItems = matchSorter(byName, fold(stroke.trim()), { keys: ['name'], threshold: rankings.CONTAINS, keepDiacritics: true });
        }),
      );
      if (repeat === 0) checkSame(names, stroke, items, mine, ufIds, msItems, needle);
    }
  }
  const ourStats = stats(ours);
  const target = TARGET_MEDIAN_MS[names] ?? Infinity;
  return {
    names: items.length,
    buildIndexMs: Math.round(buildIndexMs * 10) / 10,
    keystrokes: strokes.length,
    ours: ourStats,
    ufuzzy: stats(ufuzzy),
    matchSorter: stats(sorter),
    targetMedianMs: target,
    meetsTarget: ourStats.medianMs <= target,
  };
}

const squeezed = (text: string) => fold(text).replace(/\s+/g, ' ').trim();
/** "3ro", "1ra", "4to": the number alone. */
const withoutEnding = (text: string) => text.replace(/(?<=\p{N})(?:ro|ra|do|da|to|ta|er|mo|ma|vo|va|no|na)(?![\p{L}\p{N}])/gu, '');
const wordsOf = (text: string) =>
  withoutEnding(text)
    .split(/[^\p{L}\p{N}'-]+|[ºª]+|(?<=\p{N})(?=\p{L})/u)
    .filter((word) => word !== '');
const NUMBERS = [
  ['1', 'primero', 'i'],
  ['2', 'segundo', 'ii'],
  ['3', 'tercero', 'iii'],
  ['4', 'cuarto', 'iv'],
  ['5', 'quinto'],
  ['6', 'sexto'],
  ['7', 'septimo'],
  ['8', 'octavo'],
];
/** A word's spellings as a course number ("3", "tercero", "iii"), or the word alone. */
const spellings = (word: string) => NUMBERS.find((forms) => forms.includes(word)) ?? [word];

/**
 * The picker's rule written plainly: 0 the whole name, 1 whole words, 2 starts of words (the query's words
 * in any order), 3 another substring of the whole query, 4 no match.
 */
function naiveRank(name: string, query: string): number {
  const text = squeezed(name);
  const needle = squeezed(query);
  const words = wordsOf(text);
  const tokens = wordsOf(needle);
  let rank = 4;
  const forms = words.flatMap(spellings);
  if (tokens.length > 0 && tokens.every((token) => forms.some((form) => form.startsWith(token)))) {
    rank = !tokens.every((token) => forms.includes(token)) ? 2 : words.join(' ') === tokens.join(' ') ? 0 : 1;
  }
  if (text.includes(needle)) {
    const padded = ` ${text} `;
    const phrase = text === needle ? 0 : padded.includes(` ${needle} `) ? 1 : padded.includes(` ${needle}`) ? 2 : 3;
    rank = Math.min(rank, phrase);
  }
  return rank;
}

/**
 * ufuzzy and match-sorter find the same substring matches; ours finds those and the words-in-any-order
 * ones, exactly what the plain rule finds, and previews its best 20.
 */
function checkSame(
  names: number,
  stroke: string,
  items: IndexItem[],
  mine: { total: number; keys: string[] },
  ufIds: number[],
  msItems: { key: string }[],
  needle: string,
): void {
  const fail = (what: string) => {
    throw new Error(`recipient search (${names} names), query "${stroke}": ${what}`);
  };
  const ranked = items.map((item, position) => ({ key: item.key, position, rank: naiveRank(item.name, stroke) }));
  const all = new Set(ranked.filter((item) => item.rank < 4).map((item) => item.key));
  const substring = new Set(items.filter((item) => fold(item.name).includes(needle)).map((item) => item.key));
  const ufSet = new Set(ufIds.map((position) => (items[position] as IndexItem).key));
  const msSet = new Set(msItems.map((item) => item.key));
  if (mine.total !== all.size) fail(`index total ${mine.total} ≠ ${all.size} names the rule finds`);
  if (ufSet.size !== substring.size) fail(`ufuzzy found ${ufSet.size}, ${substring.size} names contain "${needle}"`);
  if (msSet.size !== substring.size) fail(`match-sorter found ${msSet.size}, ${substring.size} names contain "${needle}"`);
  for (const key of substring) {
    if (!all.has(key)) fail(`the rule misses substring match ${key}`);
    if (!ufSet.has(key)) fail(`ufuzzy misses ${key}`);
    if (!msSet.has(key)) fail(`match-sorter misses ${key}`);
  }
  if (mine.keys.length !== Math.min(20, mine.total)) fail(`preview has ${mine.keys.length} rows`);
  // The preview is the best 20 matches, in index order within a rank.
  const expectedPreview = ranked
    .filter((item) => item.rank < 4)
    .sort((a, b) => a.rank - b.rank || a.position - b.position)
    .slice(0, 20)
    .map((item) => item.key);
  if (JSON.stringify(expectedPreview) !== JSON.stringify(mine.keys)) fail('preview is not the best 20 matches');
}

export function runRecipientSearchBench(): RecipientSearchReport {
  // Warm-up so the first size does not pay the JIT.
  benchSize(2_000);
  return { queries: QUERIES, sizes: SIZES.map((size) => benchSize(size)), sameResults: true };
}

export function printRecipientSearchReport(report: RecipientSearchReport): void {
  console.log('\n(f) Búsqueda de destinatarios por tecla (mediana / p95 ms; las tres bibliotecas deben dar las mismas coincidencias)');
  for (const size of report.sizes) {
    console.log(
      `    ${size.names.toLocaleString('es-CL')} nombres, ${size.keystrokes} teclas × ${REPEATS} (índice armado en ${size.buildIndexMs} ms):` +
        `\n      índice propio ${size.ours.medianMs} / ${size.ours.p95Ms}   objetivo mediana ≤ ${size.targetMedianMs} ms → ${size.meetsTarget ? 'OK' : 'NO CUMPLE'}` +
        `\n      ufuzzy        ${size.ufuzzy.medianMs} / ${size.ufuzzy.p95Ms}` +
        `\n      match-sorter  ${size.matchSorter.medianMs} / ${size.matchSorter.p95Ms}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = runRecipientSearchBench();
  printRecipientSearchReport(report);
  if (report.sizes.some((size) => !size.meetsTarget)) process.exitCode = 1;
}
