// The members table's rules (src/machines/recipient-lists/member-rows.ts): what a search finds over name, e-mail, phone,
// document, course and a guardian's student (case and accents ignored, every word found, phones and RUTs without punctuation),
// and the slices shown.
import { describe, expect, it } from 'vitest';
import {
  filterMembers,
  firstAddedRow,
  hasMoreRows,
  isSearching,
  MEMBER_SLICE,
  memberRows,
} from '../../src/machines/recipient-lists/member-rows';
import { listMember } from '../fixtures/recipient-lists';
import { manyMembers } from '../fixtures/recipient-lists';

const CAROLINA = listMember({
  id: 1,
  name: 'Carolina Muñoz Soto',
  email: 'CAROLINA.munoz@example.cl',
  phone: '+56911112222',
  dni: '12.345.678-5',
  course: '3° Básico A',
  student_name: 'Tomás Muñoz Soto',
});
const JORGE = listMember({
  id: 2,
  name: 'Jorge Díaz',
  email: null,
  phone: null,
  dni: '9.876.543-K',
  course: '1° Medio B',
  student_name: 'Martina Díaz Rojas',
});
const ANA = listMember({
  id: 3,
  user_type: 'funcionario',
  name: 'Ana Pérez',
  email: 'ana.perez@sanandres.cl',
  phone: '+56 9 3333 4444',
  dni: null,
  course: null,
  student_name: null,
});
const MEMBERS = [CAROLINA, JORGE, ANA];
const ids = (members: readonly { id: number }[]) => members.map((m) => m.id);

describe('filterMembers', () => {
  it('a blank search finds everyone, as the same array', () => {
    expect(filterMembers(MEMBERS, '')).toBe(MEMBERS);
    expect(filterMembers(MEMBERS, '   ')).toBe(MEMBERS);
  });

  it.each([
    ['name, without accents or case', 'MUNOZ', [1]],
    ['name with accents typed', 'díaz', [2]],
    ['part of a name', 'ere', [3]],
    ['e-mail', 'carolina.munoz@', [1]],
    ['e-mail domain', 'sanandres', [3]],
    ['phone as stored', '+5691111', [1]],
    ['phone with spaces typed', '9 1111 2222', [1]],
    ['phone stored with spaces, typed without', '93333', [3]],
    ['RUT as written', '12.345.678-5', [1]],
    ['RUT without dots or dash', '123456785', [1]],
    ['RUT with K in lower case', '9876543-k', [2]],
    ['a number typed in parts is one number, not words', '5691 1112', [1]],
    ['course', '3° basico', [1]],
    ['course, another word order', 'medio 1°', [2]],
    ['the student a guardian is a member for', 'martina rojas', [2]],
    ['every word must be found', 'carolina basico', [1]],
    ['a word nobody has', 'carolina medio', []],
    ['nothing', 'zzz', []],
  ])('%s: «%s»', (_what, query, expected) => {
    expect(ids(filterMembers(MEMBERS, query))).toEqual(expected);
  });

  it('keeps the list order', () => {
    expect(ids(filterMembers(MEMBERS, 'a'))).toEqual([1, 2, 3]);
  });
});

describe('memberRows', () => {
  const big = manyMembers(3_012);

  it('shows the first slice of everyone, counting all', () => {
    const view = memberRows(big, '', MEMBER_SLICE);
    expect(view.rows).toHaveLength(MEMBER_SLICE);
    expect(view.rows[0]).toBe(big[0]);
    expect([view.matches, view.total]).toEqual([3_012, 3_012]);
    // "Mostrar 100 más": a whole slice is left.
    expect(view.more).toBe(MEMBER_SLICE);
    expect(hasMoreRows(big, '', MEMBER_SLICE)).toBe(true);
    expect(firstAddedRow(big, '', MEMBER_SLICE)).toBe(big[MEMBER_SLICE]!.id);
  });

  it('answers the same object for the same inputs, and a new one when any changes', () => {
    const first = memberRows(big, '', MEMBER_SLICE);
    expect(memberRows(big, '', MEMBER_SLICE)).toBe(first);
    expect(memberRows(big, '', MEMBER_SLICE * 2)).not.toBe(first);
    expect(memberRows(big, '', MEMBER_SLICE * 2).rows).toHaveLength(MEMBER_SLICE * 2);
  });

  it('a search is typed when it is not blank', () => {
    expect(['', '   ', 'ana', ' 9 '].map(isSearching)).toEqual([false, false, true, true]);
  });

  it('two lists read in turn (two actors) each keep their own object', () => {
    const other = manyMembers(250);
    const mine = memberRows(big, '', MEMBER_SLICE);
    const theirs = memberRows(other, '', MEMBER_SLICE * 2);
    for (let turn = 0; turn < 3; turn++) {
      expect(memberRows(big, '', MEMBER_SLICE)).toBe(mine);
      expect(memberRows(other, '', MEMBER_SLICE * 2)).toBe(theirs);
    }
    expect([mine.total, theirs.total, theirs.rows.length]).toEqual([3_012, 250, MEMBER_SLICE * 2]);
  });

  it('a search finds a member beyond the first slice', () => {
    const last = big.at(-1)!;
    const view = memberRows(big, last.name.toUpperCase(), MEMBER_SLICE);
    expect(view.rows.map((m) => m.id)).toContain(last.id);
    expect(view.total).toBe(3_012);
    expect(view.matches).toBe(view.rows.length);
  });

  it('the last slice is what is left; then there is no more', () => {
    const view = memberRows(big, '', 3_100);
    expect(view.rows).toHaveLength(3_012);
    expect(view.more).toBe(0);
    // "Mostrar 12 más": the last slice is what is left.
    expect(memberRows(big, '', 3_000).more).toBe(12);
    expect(hasMoreRows(big, '', 3_000)).toBe(true);
    expect(hasMoreRows(big, '', 3_100)).toBe(false);
    expect(firstAddedRow(big, '', 3_012)).toBeNull();
  });
});
