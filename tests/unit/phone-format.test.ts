// One phone format for people (shared/phone-format.ts): every screen and the CSV show a stored E.164 number
// the international way, grouped as the country writes it.
import { describe, expect, it } from 'vitest';
import { formatPhone } from '../../shared/phone-format';

describe('formatPhone', () => {
  it('groups a stored number as its country writes it, after its prefix', () => {
    expect(formatPhone('+56997473752')).toBe('+56 9 9747 3752');
    expect(formatPhone('+525512345678')).toBe('+52 55 1234 5678');
    expect(formatPhone('+12025550123')).toBe('+1 202 555 0123');
  });

  it('shows a value it cannot read as it is stored', () => {
    expect(formatPhone('+56')).toBe('+56');
    expect(formatPhone('no es un número')).toBe('no es un número');
  });
});
