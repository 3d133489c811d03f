// The audit screen's pure rules (audit/audit-rules.ts): the action filter keeps the contract's order whatever
// the order of the clicks, and a date range is refused only when its end comes before its start.
import { describe, expect, it } from 'vitest';
import { isRangeOrdered, toggledAction } from '../../src/machines/audit/audit-rules';

describe('toggledAction', () => {
  it('adds an action, keeping the contract order rather than the order of the clicks', () => {
    const one = toggledAction([], 'person.erased');
    expect(one).toEqual(['person.erased']);
    expect(toggledAction(one, 'session.signed_in')).toEqual(['session.signed_in', 'person.erased']);
  });

  it('takes away an action already chosen, leaving the others', () => {
    expect(toggledAction(['session.signed_in', 'person.erased'], 'session.signed_in')).toEqual(['person.erased']);
    expect(toggledAction(['person.erased'], 'person.erased')).toEqual([]);
  });

  it('does not change the list it was given', () => {
    const chosen = ['roster.imported'] as const;
    toggledAction(chosen, 'audit.exported');
    expect(chosen).toEqual(['roster.imported']);
  });
});

describe('isRangeOrdered', () => {
  it('accepts an open end on either side', () => {
    expect(isRangeOrdered('', '')).toBe(true);
    expect(isRangeOrdered('2026-03-01', '')).toBe(true);
    expect(isRangeOrdered('', '2026-03-01')).toBe(true);
  });

  it('accepts one day and a forward range, refuses an end before the start', () => {
    expect(isRangeOrdered('2026-03-01', '2026-03-01')).toBe(true);
    expect(isRangeOrdered('2026-03-01', '2026-12-31')).toBe(true);
    expect(isRangeOrdered('2026-03-02', '2026-03-01')).toBe(false);
    expect(isRangeOrdered('2026-12-31', '2027-01-01')).toBe(true);
  });
});
