// The recipient picker's search index (SPEC §5: ignores case and accents, matches the name by
// substring, an empty search returns everything; at most 20 shown per tab with the full count).
// Built once per data load: every name is folded once, and each tab's folded names are joined into one
// haystack string, so a keystroke is a run of `indexOf` calls plus an offset → item lookup. All matches
// are counted; the best PREVIEW_LIMIT by rank (decision 0128) become preview rows.
import type { Audience, DeviceStatus, GuardianRoleId, RecipientPick, Recipients } from './compose-contract';
import type { RecipientList } from './recipient-lists-contract';
import { fold } from './fold';

/** SPEC §5 / §9: preview 20 per tab. */
export const PREVIEW_LIMIT = 20;

export type PickerTab = 'students' | 'staff' | 'lists';

/**
 * What a row is: a pick kind, or `family`, a student's guardians as one row (it picks the student with a
 * guardian audience, so the server reaches the student's titular and suplente).
 */
type ItemKind = RecipientPick['kind'] | 'family';

/** One row the picker can show and pick. */
export interface IndexItem {
  /** Unique in its tab (a guardian of two students is two rows, one per student). */
  key: string;
  kind: ItemKind;
  id: number;
  name: string;
  /** Students and families: the student's course; guardians: the student they answer for; staff: their cargo; lists: null. */
  detail: string | null;
  /** Students, families and guardians: the student's course (a guardian's, their child's), to tell namesakes apart. */
  course: string | null;
  /** Guardians only: 1 titular, 2 suplente. */
  roleId: GuardianRoleId | null;
  /** Guardians only (SPEC §3 legend). */
  deviceStatus: DeviceStatus | null;
  /** Staff and appointments: the cargo. */
  cargoId: number | null;
  /** Courses and electives with no students (SPEC §5: flagged); families with no guardian on record. */
  empty: boolean;
  /** People this row reaches when picked whole: students of a group, a student's guardians, staff of a cargo, list members. */
  size: number;
}

export interface SearchFilters {
  /** Students tab: which people a group reaches and which person rows are shown; null shows all. */
  audience: Audience | null;
  /** Staff tab: one cargo; null shows all. */
  cargoId: number | null;
}

export const NO_FILTERS: SearchFilters = { audience: null, cargoId: null };

export interface SearchResult {
  preview: IndexItem[];
  total: number;
}

/** One tab: its items, and their folded names joined by a separator no query contains. */
interface TabIndex {
  items: IndexItem[];
  haystack: string;
  /** starts[i]: offset of item i's name in `haystack`; one extra entry at the end. */
  starts: Int32Array;
  /** Every item's words, each opened by WORD, the item's last word closed by WORD. */
  words: string;
  /** wordStarts[i]: offset of item i's words in `words`; one extra entry at the end. */
  wordStarts: Int32Array;
  /** Item i's words joined by one space: its whole name, for the exact rank. */
  wordKeys: string[];
  /** formsAt[i]: where item i's own words end in `words` and the other spellings of its numbers begin. */
  formsAt: Int32Array;
}

interface CourseInfo {
  students: number[];
  guardians: { id: number; roleId: GuardianRoleId }[];
}

export interface RecipientIndex {
  tabs: Record<PickerTab, TabIndex>;
  /** `course:<id>` / `elective:<id>` → its people: courses and electives number their ids apart, so 7 can be both. */
  groups: Map<string, CourseInfo>;
  /** level id → its course ids. */
  levels: Map<number, number[]>;
  /** student id → their guardians (across courses). */
  guardiansOf: Map<number, { id: number; roleId: GuardianRoleId }[]>;
  /** cargo id → staff ids. */
  cargos: Map<number, number[]>;
  /** Recipient lists seen so far: id → member count. */
  lists: Map<number, number>;
  /** `${kind}:${id}` → display name, for chip labels (`family:<student id>`: the student with their course). */
  names: Map<string, string>;
}

const SEPARATOR = '\u0001';
/** Opens every word in `TabIndex.words` (and closes an item's last), so `WORD + w` is "a word starting with w". */
const WORD = '\u0002';

/** Folded, with runs of spaces as one: "maría  josé" is typed with two spaces. */
const squeeze = (text: string): string => fold(text).replace(/\s+/g, ' ').trim();

/**
 * The ending staff add to a course number ("3ro", "1ra", "2do", "4to", "1er", "7mo", "8vo", "9no"), dropped so
 * the number stands alone; a single letter after it ("3b") is the course's letter and stays.
 */
const ORDINAL_ENDING = /(?<=\p{N})(?:ro|ra|do|da|to|ta|er|mo|ma|vo|va|no|na)(?![\p{L}\p{N}])/gu;

/**
 * The words of a squeezed text: runs of letters, digits, hyphens and apostrophes ("Pre-kínder" is one word).
 * A course's number is a word of its own however it is written: "3°B", "3ºB", "3b", "3° B" and "3ro b" are "3 b".
 */
const wordsOf = (squeezed: string): string[] =>
  squeezed
    .replace(ORDINAL_ENDING, '')
    .split(/[^\p{L}\p{N}'-]+|[ºª]+|(?<=\p{N})(?=\p{L})/u)
    .filter((word) => word !== '');

/** Courses are named "3° Básico A" and "III Medio A" (Chile) or "1° de Secundaria"; staff also write "tercero". */
const ORDINALS = ['primero', 'segundo', 'tercero', 'cuarto', 'quinto', 'sexto', 'septimo', 'octavo'];
const ROMANS = ['i', 'ii', 'iii', 'iv'];

/** A word and its other spellings as a course number: "3", "tercero" and "iii" each match all three. */
function spellings(word: string): string[] {
  const number = /^[1-8]$/.test(word) ? Number(word) : ORDINALS.indexOf(word) + 1 || ROMANS.indexOf(word) + 1;
  if (number === 0) return [word];
  const roman = ROMANS[number - 1];
  return [String(number), ORDINALS[number - 1] as string, ...(roman === undefined ? [] : [roman])];
}

function tabIndex(items: IndexItem[]): TabIndex {
  const starts = new Int32Array(items.length + 1);
  const wordStarts = new Int32Array(items.length + 1);
  const formsAt = new Int32Array(items.length);
  const parts: string[] = new Array<string>(items.length);
  const wordParts: string[] = new Array<string>(items.length);
  const wordKeys: string[] = new Array<string>(items.length);
  let offset = 0;
  let wordOffset = 0;
  items.forEach((item, index) => {
    const folded = squeeze(item.name);
    const words = wordsOf(folded);
    parts[index] = folded;
    starts[index] = offset;
    offset += folded.length + SEPARATOR.length;
    const own = [...new Set(words)];
    const forms = [...new Set(words.flatMap(spellings))].filter((form) => !own.includes(form));
    const head = `${WORD}${own.join(WORD)}`;
    const joined = `${head}${WORD}${forms.map((form) => `${form}${WORD}`).join('')}`;
    wordParts[index] = joined;
    wordStarts[index] = wordOffset;
    formsAt[index] = wordOffset + head.length;
    wordOffset += joined.length;
    wordKeys[index] = words.join(' ');
  });
  starts[items.length] = offset;
  wordStarts[items.length] = wordOffset;
  return { items, haystack: parts.join(SEPARATOR) + SEPARATOR, starts, words: wordParts.join(''), wordStarts, wordKeys, formsAt };
}

const row = (kind: ItemKind, id: number, name: string, extra: Partial<IndexItem> = {}): IndexItem => ({
  key: `${kind}:${id}`,
  kind,
  id,
  name,
  detail: null,
  course: null,
  roleId: null,
  deviceStatus: null,
  cargoId: null,
  empty: false,
  size: 0,
  ...extra,
});

/** Builds the index for one `GET /recipients` answer (and the recipient lists loaded so far). */
export function buildRecipientIndex(recipients: Recipients, lists: readonly RecipientList[] = []): RecipientIndex {
  const names = new Map<string, string>();
  const groupInfo = new Map<string, CourseInfo>();
  const guardiansOf = new Map<number, { id: number; roleId: GuardianRoleId }[]>();
  const groups: IndexItem[] = [];
  /** Each student, then their family. */
  const students: IndexItem[] = [];
  const families: IndexItem[] = [];
  const guardians: IndexItem[] = [];
  const seenStudents = new Set<number>();
  const seenGuardians = new Set<string>();
  const studentNames = new Map<number, string>();
  /** A student's course: the first group they are listed in, their course (courses come before electives). */
  const studentCourses = new Map<number, string>();

  for (const level of recipients.levels) {
    const size = level.course_ids.reduce(
      (sum, id) => sum + (recipients.courses.find((course) => course.id === id && course.grupo_type === 'curso')?.estudiantes.length ?? 0),
      0,
    );
    groups.push(row('level', level.id, level.nombre, { size, empty: size === 0 }));
    names.set(`level:${level.id}`, level.nombre);
  }
  for (const course of recipients.courses) {
    const kind = course.grupo_type === 'electivo' ? 'elective' : 'course';
    groups.push(row(kind, course.id, course.nombre, { size: course.estudiantes.length, empty: course.estudiantes.length === 0 }));
    names.set(`${kind}:${course.id}`, course.nombre);
    groupInfo.set(`${kind}:${course.id}`, {
      students: course.estudiantes.map((student) => student.id),
      guardians: course.apoderados.map((guardian) => ({ id: guardian.id, roleId: guardian.rol_adulto_id })),
    });
    for (const student of course.estudiantes) {
      studentNames.set(student.id, student.name);
      if (seenStudents.has(student.id)) continue;
      seenStudents.add(student.id);
      studentCourses.set(student.id, course.nombre);
      const family = row('family', student.id, student.name, { detail: course.nombre, course: course.nombre });
      students.push(row('student', student.id, student.name, { detail: course.nombre, course: course.nombre, size: 1 }), family);
      families.push(family);
      // Chips name a student with the course, so two namesakes picked together are told apart.
      names.set(`student:${student.id}`, `${student.name} (${course.nombre})`);
      names.set(`family:${student.id}`, `${student.name} (${course.nombre})`);
    }
    for (const guardian of course.apoderados) {
      const key = `${guardian.id}:${guardian.student_id}`;
      if (seenGuardians.has(key)) continue;
      seenGuardians.add(key);
      const of = guardiansOf.get(guardian.student_id) ?? [];
      of.push({ id: guardian.id, roleId: guardian.rol_adulto_id });
      guardiansOf.set(guardian.student_id, of);
      guardians.push({
        ...row('guardian', guardian.id, guardian.ficha_apoderado.name, {
          roleId: guardian.rol_adulto_id,
          deviceStatus: guardian.device_status,
          size: 1,
        }),
        key: `guardian:${key}`,
        // Filled below, once every student's name is known.
        detail: String(guardian.student_id),
      });
      names.set(`guardian:${guardian.id}`, guardian.ficha_apoderado.name);
    }
  }
  for (const guardian of guardians) {
    const studentId = Number(guardian.detail);
    guardian.detail = studentNames.get(studentId) ?? null;
    guardian.course = studentCourses.get(studentId) ?? null;
  }
  for (const family of families) {
    family.size = guardiansOf.get(family.id)?.length ?? 0;
    family.empty = family.size === 0;
  }

  const cargos = new Map<number, number[]>();
  const staffRows: IndexItem[] = [];
  const appointmentRows: IndexItem[] = [];
  const seenStaff = new Set<number>();
  for (const appointment of recipients.appointments) {
    appointmentRows.push(
      row('appointment', appointment.id, appointment.nombre, { cargoId: appointment.id, size: appointment.users.length }),
    );
    names.set(`appointment:${appointment.id}`, appointment.nombre);
    cargos.set(
      appointment.id,
      appointment.users.map((user) => user.user_id),
    );
    for (const user of appointment.users) {
      if (seenStaff.has(user.user_id)) continue;
      seenStaff.add(user.user_id);
      staffRows.push(
        row('staff', user.user_id, user.name, { detail: appointment.nombre, cargoId: user.cargo_id ?? appointment.id, size: 1 }),
      );
      names.set(`staff:${user.user_id}`, user.name);
    }
  }

  const levels = new Map(recipients.levels.map((level) => [level.id, level.course_ids]));
  const base: RecipientIndex = {
    tabs: {
      students: tabIndex([...groups, ...students, ...guardians]),
      staff: tabIndex([...appointmentRows, ...staffRows]),
      lists: tabIndex([]),
    },
    groups: groupInfo,
    levels,
    guardiansOf,
    cargos,
    lists: new Map(),
    names,
  };
  return withLists(base, lists);
}

/** The same index with the recipient lists loaded so far (pages arrive one by one). */
export function withLists(index: RecipientIndex, lists: readonly RecipientList[]): RecipientIndex {
  const names = new Map(index.names);
  for (const list of lists) names.set(`recipient-list:${list.id}`, list.name);
  return {
    ...index,
    tabs: {
      ...index.tabs,
      lists: tabIndex(lists.map((list) => row('recipient-list', list.id, list.name, { size: list.users_count }))),
    },
    lists: new Map(lists.map((list) => [list.id, list.users_count])),
    names,
  };
}

/** Whether a row is shown under the filters (filters of the other tab do not apply). */
function accepts(tab: PickerTab, filters: SearchFilters, item: IndexItem): boolean {
  if (tab === 'students') {
    switch (filters.audience) {
      case null:
        return true;
      case 'estudiantes':
        return item.kind !== 'guardian' && item.kind !== 'family';
      case 'apoderados':
        return item.kind !== 'student';
      case 'titulares':
        return item.kind !== 'student' && (item.kind !== 'guardian' || item.roleId === 1);
      case 'suplentes':
        return item.kind !== 'student' && (item.kind !== 'guardian' || item.roleId === 2);
    }
  }
  if (tab === 'staff') return filters.cargoId === null || item.cargoId === filters.cargoId;
  return true;
}

/** Index of the item whose name contains `offset` (binary search from `low`). */
function itemAt(starts: Int32Array, offset: number, low: number): number {
  let lo = low;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** SPEC §5 search on one tab. */
export function search(index: RecipientIndex, tab: PickerTab, query: string, filters: SearchFilters = NO_FILTERS): SearchResult {
  const { items, haystack, starts } = index.tabs[tab];
  const needle = squeeze(query).replaceAll(SEPARATOR, '').replaceAll(WORD, '');
  const unfiltered = tab === 'lists' || (tab === 'students' ? filters.audience === null : filters.cargoId === null);
  const preview: IndexItem[] = [];
  let total = 0;
  if (needle === '') {
    if (unfiltered) return { preview: items.slice(0, PREVIEW_LIMIT), total: items.length };
    for (const item of items) {
      if (!accepts(tab, filters, item)) continue;
      total += 1;
      if (preview.length < PREVIEW_LIMIT) preview.push(item);
    }
    return { preview, total };
  }
  // rankOf[i]: item i's best rank, RANKS when it does not match.
  const rankOf = new Uint8Array(items.length).fill(RANKS);
  const byWords = rankWords(index.tabs[tab], needle, rankOf);
  // A one-word query has had its substrings ranked with its words.
  let position = byWords === 'all' ? -1 : haystack.indexOf(needle);
  let current = 0;
  while (position !== -1) {
    current = itemAt(starts, position, current);
    const next = starts[current + 1] as number;
    if (byWords !== 'none') {
      // A whole-query match at the start of a word is also a match of its words, ranked there already: what
      // is left is the other substrings.
      if (rankOf[current] === RANKS) rankOf[current] = RANKS - 1;
    } else {
      // A query with no word ("°"): the item's best occurrence decides its rank.
      for (let again = position; again !== -1 && again < next; again = haystack.indexOf(needle, again + 1)) {
        const rank = rankAt(haystack, starts[current] as number, next - SEPARATOR.length, again, needle.length);
        if (rank < (rankOf[current] as number)) rankOf[current] = rank;
      }
    }
    position = haystack.indexOf(needle, next);
  }
  // Matches are sorted into RANKS buckets; a bucket only keeps what the preview can still show.
  const buckets: IndexItem[][] = Array.from({ length: RANKS }, () => []);
  for (let at = 0; at < items.length; at += 1) {
    const rank = rankOf[at] as number;
    if (rank === RANKS) continue;
    const item = items[at] as IndexItem;
    if (!unfiltered && !accepts(tab, filters, item)) continue;
    total += 1;
    const bucket = buckets[rank] as IndexItem[];
    if (bucket.length < PREVIEW_LIMIT) bucket.push(item);
  }
  return { preview: buckets.flat().slice(0, PREVIEW_LIMIT), total };
}

/**
 * Ranks, best first: the whole name, a whole word (or words), the start of a word, any other substring.
 * The first row is the one Tab and Space reach first, so it must be the best match ("Kínder A" before
 * "Pre-kínder A").
 */
const RANKS = 4;

/** Rank of the match at `at` (length `length`) in the name spanning [start, end) of the haystack. */
function rankAt(haystack: string, start: number, end: number, at: number, length: number): number {
  const startsWord = at === start || haystack[at - 1] === ' ';
  const endsWord = at + length === end || haystack[at + length] === ' ';
  if (at === start && at + length === end) return 0;
  if (startsWord && endsWord) return 1;
  return startsWord ? 2 : 3;
}

/** At most this many words of a query are matched one by one (a bit each); more is not a name. */
const MAX_WORDS = 30;

/**
 * Every word of the query matches the start of a word of the name, in any order: whole words rank 1 (0 for
 * the whole name), word starts 2. Two scans per query word over `words`; an item missing an earlier word
 * is skipped. False when the query has no word to match ("°").
 */
function rankWords({ words, wordStarts, wordKeys, formsAt }: TabIndex, needle: string, rankOf: Uint8Array): 'none' | 'words' | 'all' {
  const all = wordsOf(needle);
  const tokens = [...new Set(all)].slice(0, MAX_WORDS);
  if (tokens.length === 0) return 'none';
  // A query that is one word is a substring of the name exactly where it is inside one of the item's own
  // words (not the other spellings of a number), so this scan can rank those too.
  const single = tokens.length === 1 && tokens[0] === needle;
  const prefix = new Int32Array(rankOf.length);
  const whole = new Int32Array(rankOf.length);
  tokens.forEach((token, t) => {
    const bit = 1 << t;
    const before = bit - 1;
    // Searched without its WORD mark (a rarer first character scans faster); a hit counts at a word's start.
    const length = token.length;
    let current = 0;
    for (let at = words.indexOf(token); at !== -1; ) {
      current = itemAt(wordStarts, at, current);
      const next = wordStarts[current + 1] as number;
      if (((prefix[current] as number) & before) !== before) {
        at = words.indexOf(token, next);
        continue;
      }
      if (words[at - 1] !== WORD) {
        if (single && at < (formsAt[current] as number) && rankOf[current] === RANKS) rankOf[current] = RANKS - 1;
      } else {
        prefix[current] = (prefix[current] as number) | bit;
        if (words[at + length] === WORD) {
          whole[current] = (whole[current] as number) | bit;
          at = words.indexOf(token, next);
          continue;
        }
      }
      at = words.indexOf(token, at + 1);
    }
  });
  const every = (1 << tokens.length) - 1;
  const key = all.join(' ');
  for (let at = 0; at < rankOf.length; at += 1) {
    if (prefix[at] !== every) continue;
    rankOf[at] = whole[at] !== every ? 2 : wordKeys[at] === key ? 0 : 1;
  }
  return single ? 'all' : 'words';
}

// --- picks ------------------------------------------------------------------------------------------

/** Identity of a pick (the same course for two audiences is two picks). */
export function pickKey(pick: RecipientPick): string {
  return 'audience' in pick ? `${pick.kind}:${pick.id}:${pick.audience}` : `${pick.kind}:${pick.id}`;
}

/**
 * The pick a row makes: groups reach `audience` (default the guardians), a student row the student, a
 * family row the student's guardians (the guardian audience chosen, both roles under «Todos»).
 */
export function pickOf(item: IndexItem, audience: Audience | null): RecipientPick {
  switch (item.kind) {
    case 'level':
    case 'course':
    case 'elective':
      return { kind: item.kind, id: item.id, audience: audience ?? 'apoderados', label: item.name };
    case 'student':
      return { kind: 'student', id: item.id, audience: 'estudiantes', label: item.name };
    case 'family':
      return {
        kind: 'student',
        id: item.id,
        audience: audience === null || audience === 'estudiantes' ? 'apoderados' : audience,
        label: item.name,
      };
    default:
      return { kind: item.kind, id: item.id, label: item.name };
  }
}

/** A family row's pick: a student with a guardian audience, reaching the student's guardians rather than the student. */
export type FamilyPick = RecipientPick & { kind: 'student'; audience: Exclude<Audience, 'estudiantes'> };

export const isFamilyPick = (pick: RecipientPick): pick is FamilyPick => pick.kind === 'student' && pick.audience !== 'estudiantes';

/** The chip text: the name of what was picked (views add the audience), or the stored label. */
export function labelOf(index: RecipientIndex, pick: RecipientPick): string {
  return index.names.get(`${isFamilyPick(pick) ? 'family' : pick.kind}:${pick.id}`) ?? pick.label ?? '';
}

const matchesAudience = (audience: Audience, roleId: GuardianRoleId) =>
  audience === 'apoderados' || (audience === 'titulares' ? roleId === 1 : audience === 'suplentes' && roleId === 2);

/**
 * Approximate number of distinct people the picks reach (guardians, students and staff counted once
 * each). Recipient lists add their member count as is. The server's estimate is authoritative.
 */
export function countPeople(index: RecipientIndex, picks: readonly RecipientPick[]): number {
  const people = new Set<string>();
  let listed = 0;
  const addGroup = (key: string, audience: Audience) => {
    const course = index.groups.get(key);
    if (!course) return;
    if (audience === 'estudiantes') for (const id of course.students) people.add(`s:${id}`);
    else for (const guardian of course.guardians) if (matchesAudience(audience, guardian.roleId)) people.add(`g:${guardian.id}`);
  };
  for (const pick of picks) {
    switch (pick.kind) {
      case 'level':
        for (const courseId of index.levels.get(pick.id) ?? []) addGroup(`course:${courseId}`, pick.audience);
        break;
      case 'course':
      case 'elective':
        addGroup(`${pick.kind}:${pick.id}`, pick.audience);
        break;
      case 'student':
        if (pick.audience === 'estudiantes') people.add(`s:${pick.id}`);
        else
          for (const guardian of index.guardiansOf.get(pick.id) ?? [])
            if (matchesAudience(pick.audience, guardian.roleId)) people.add(`g:${guardian.id}`);
        break;
      case 'guardian':
        people.add(`g:${pick.id}`);
        break;
      case 'appointment':
        for (const id of index.cargos.get(pick.id) ?? []) people.add(`f:${id}`);
        break;
      case 'staff':
        people.add(`f:${pick.id}`);
        break;
      case 'recipient-list':
        listed += index.lists.get(pick.id) ?? 0;
        break;
    }
  }
  return people.size + listed;
}

/** Picked courses/levels/electives that reach nobody because they have no students (SPEC §5 flag). */
export function emptyGroups(index: RecipientIndex, picks: readonly RecipientPick[]): RecipientPick[] {
  const studentsOf = (key: string) => index.groups.get(key)?.students.length ?? 0;
  return picks.filter((pick) => {
    if (pick.kind === 'course' || pick.kind === 'elective') return studentsOf(`${pick.kind}:${pick.id}`) === 0;
    if (pick.kind === 'level') return (index.levels.get(pick.id) ?? []).every((id) => studentsOf(`course:${id}`) === 0);
    return false;
  });
}
