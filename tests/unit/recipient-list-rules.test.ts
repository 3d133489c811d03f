// /recipient-list/:id's pure rules (recipient-lists/recipient-list-rules.ts) and the contact editor's focus rule: the rename
// draft across reloads, the rows after a removal or a saved person, the first refused field.
import { describe, expect, it } from 'vitest';
import { firstRefusedField } from '../../src/machines/recipient-lists/member-editor';
import { isRenameChange, nameDraftAfter, withEditedUser, withoutMember } from '../../src/machines/recipient-lists/recipient-list-rules';
import { listMember, listSummary, userToEdit } from '../fixtures/recipient-lists';

describe('recipient-list rules', () => {
  it('keeps what the owner typed across a reload; an untouched field (or one holding the new name) follows the name', () => {
    expect(nameDraftAfter('', null, 'Familias')).toBe('Familias');
    expect(nameDraftAfter('Familias', 'Familias', 'Familias 2026')).toBe('Familias 2026');
    expect(nameDraftAfter('Familias ', 'Familias', 'Familias 2026')).toBe('Familias 2026');
    expect(nameDraftAfter('Directiva', 'Familias', 'Familias 2026')).toBe('Directiva');
    expect(nameDraftAfter(' Directiva ', 'Familias', 'Directiva')).toBe('Directiva');
    expect(nameDraftAfter('', 'Familias', 'Familias')).toBe('');
  });

  it('a rename is sent only for a valid name other than the current one', () => {
    expect(isRenameChange(' Directiva ', 'Familias')).toBe(true);
    expect(isRenameChange('Familias ', 'Familias')).toBe(false);
    expect(isRenameChange('  ', 'Familias')).toBe(false);
    expect(isRenameChange('x'.repeat(81), 'Familias')).toBe(false);
  });

  it('a removed member leaves the rows and the counts (the stale count only if it was stale)', () => {
    const members = [listMember({ id: 10 }), listMember({ id: 11, stale: 'course_changed' })];
    const list = listSummary({ users_count: 2, stale_count: 1 });
    expect(withoutMember(list, members, 11)).toEqual({ members: [members[0]], list: { ...list, users_count: 1, stale_count: 0 } });
    expect(withoutMember(list, members, 10).list).toEqual({ ...list, users_count: 1, stale_count: 1 });
    expect(withoutMember(null, members, 10).list).toBeNull();
  });

  it("a saved person changes every row of that person (and no one else's)", () => {
    const members = [
      listMember({ id: 10, user_id: 100 }),
      listMember({ id: 11, user_id: 100, student_id: 51 }),
      listMember({ id: 12, user_id: 100, user_type: 'funcionario' }),
    ];
    const rows = withEditedUser(members, userToEdit({ id: 100, fono_celular: '+56987654321', email: null, name: 'Carolina Soto P.' }));
    expect(rows.map((m) => [m.phone, m.email, m.name])).toEqual([
      ['+56987654321', null, 'Carolina Soto P.'],
      ['+56987654321', null, 'Carolina Soto P.'],
      [members[2]?.phone, members[2]?.email, members[2]?.name],
    ]);
  });

  it('the contact editor focuses the first refused field in the form order, none for a failure of the whole form', () => {
    expect(firstRefusedField({ dni: { text: 'x' }, phone: { text: 'y' } })).toBe('phone');
    expect(firstRefusedField({ dni: { text: 'x' }, nombres: { text: 'y' } })).toBe('nombres');
    expect(firstRefusedField({ form: { text: 'x' } })).toBeNull();
    expect(firstRefusedField({})).toBeNull();
  });
});
