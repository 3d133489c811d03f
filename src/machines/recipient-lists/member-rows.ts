// The members table of /recipient-list/:id at school scale (a list of every family is ~3,000 rows): which
// members a search finds and how many of them are shown. Pure rules beside recipient-lists/recipient-list.ts, which keeps
// only the query and the slice size in its context; the view renders what these answer.
//
// The search is the one of every search here (shared/fold.ts: case and accents ignored) over the name,
// e-mail, phone, document (RUT / CURP), course and a guardian's student; each word typed must be found (in any of them), and a
// search that is a number (digits with spaces, dots, dashes, "+", a RUT's K) is one phone or document,
// compared without punctuation, so "9 1111 2222" finds "+56911112222" and "12345678" finds "12.345.678-5". The rows are shown in slices of MEMBER_SLICE ("Mostrar más").
import { fold } from '../../../shared/fold';
import type { RecipientListMember } from '../../../shared/recipient-lists-contract';
import { memoPerOwner } from '../app/memo';

/** Rows rendered at first and added by each "Mostrar más". */
export const MEMBER_SLICE = 100;
/** The search field's id (focus after "Limpiar búsqueda"). */
export const MEMBER_SEARCH_ID = 'recipient-list-member-search';
/** A row's id: focus goes to the first row a "Mostrar más" adds. */
export const memberRowId = (memberId: number) => `member-row-${memberId}`;

/** Digits (and a RUT's K) only: how a phone or a document is compared. */
const compact = (text: string): string => text.replace(/[^0-9k]/g, '');
/** A word that is a phone or a document fragment (digits with their punctuation), compared compacted too. */
const isNumberish = (word: string): boolean => /^[+\d][\d\s.()+-]*k?$/.test(word) && /\d/.test(word);

interface Searchable {
  text: string;
  digits: string;
}

/** Each member's folded text, computed once per members array (a search is then `includes` calls). */
const searchables = new WeakMap<readonly RecipientListMember[], Searchable[]>();

function searchableOf(members: readonly RecipientListMember[]): Searchable[] {
  let found = searchables.get(members);
  if (!found) {
    found = members.map((m) => {
      const text = fold([m.name, m.email ?? '', m.phone ?? '', m.dni ?? '', m.course ?? '', m.student_name ?? ''].join('\n'));
      return { text, digits: `${compact(fold(m.phone ?? ''))}\n${compact(fold(m.dni ?? ''))}` };
    });
    searchables.set(members, found);
  }
  return found;
}

/**
 * The words of a query, folded; none for a blank query. A query that is all a number ("9 1111 2222",
 * "12.345.678-5") is one word: its parts are one phone or document, not words found anywhere.
 */
function queryWords(query: string): string[] {
  const folded = fold(query).trim();
  if (isNumberish(folded)) return [folded];
  return folded.split(/\s+/).filter(Boolean);
}

/** The members a query finds, in the list's order; every member for a blank query (the same array). */
export function filterMembers(members: readonly RecipientListMember[], query: string): readonly RecipientListMember[] {
  const words = queryWords(query);
  if (words.length === 0) return members;
  const index = searchableOf(members);
  return members.filter((_, i) => {
    const entry = index[i]!;
    return words.every(
      (word) => entry.text.includes(word) || (isNumberish(word) && compact(word).length > 0 && entry.digits.includes(compact(word))),
    );
  });
}

export interface MemberRows {
  /** The members shown: the first `limit` of those found. */
  rows: readonly RecipientListMember[];
  /** How many the search finds (every member when it is blank). */
  matches: number;
  /** How many the list has. */
  total: number;
  /** How many rows "Mostrar más" adds: the next slice, or what is left of those found (0: none). */
  more: number;
}

/**
 * What the table shows. The same inputs answer the same object, remembered per members array (each list
 * actor's own: app/memo.ts), so a selector over it keeps its reference between snapshots and the table
 * re-renders only when the rows change, whichever other list is open meanwhile.
 */
export const memberRows = memoPerOwner((members: readonly RecipientListMember[], query: string, limit: number): MemberRows => {
  const found = filterMembers(members, query);
  const rows = found.length <= limit ? found : found.slice(0, limit);
  return { rows, matches: found.length, total: members.length, more: Math.min(found.length - rows.length, MEMBER_SLICE) };
});

/** The table's part of the list machine's context: the search typed and how many of those found are shown. */
export interface MemberView {
  memberQuery: string;
  memberLimit: number;
}
export const MEMBER_VIEW: MemberView = { memberQuery: '', memberLimit: MEMBER_SLICE };

/** The table after a change, and where keyboard focus goes (null: where it is). */
export interface MemberViewChange {
  view: MemberView;
  focus: string | null;
}

/** A search typed: the first slice of what it finds; cleared, focus back in the search field. */
export function afterSearch(query: string): MemberViewChange {
  return { view: { memberQuery: query, memberLimit: MEMBER_SLICE }, focus: query === '' ? MEMBER_SEARCH_ID : null };
}

/** "Mostrar más": one slice more; focus on its first row, so the keyboard continues where the reading does. */
export function afterShowMore(members: readonly RecipientListMember[], view: MemberView): MemberViewChange {
  const first = firstAddedRow(members, view.memberQuery, view.memberLimit);
  return { view: { ...view, memberLimit: view.memberLimit + MEMBER_SLICE }, focus: first === null ? null : memberRowId(first) };
}

/** Whether "Mostrar más" has rows to add. */
export function hasMoreRows(members: readonly RecipientListMember[], query: string, limit: number): boolean {
  return memberRows(members, query, limit).more > 0;
}

/** Whether a search is typed (a blank one shows every member): what the count line says depends on it. */
export const isSearching = (query: string): boolean => query.trim() !== '';

/** The first row a "Mostrar más" adds (focus goes there), or null when there is none. */
export function firstAddedRow(members: readonly RecipientListMember[], query: string, limit: number): number | null {
  return filterMembers(members, query)[limit]?.id ?? null;
}
