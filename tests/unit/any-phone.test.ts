// A family's number as a provider's webhook gives it, with no country said (server/recipients/phone.ts
// normalizeAnyPhone): kept as Hermes keeps guardians' numbers.
import { describe, expect, it } from 'vitest';
import { normalizeAnyPhone } from '../../server/recipients/phone';

describe('normalizeAnyPhone', () => {
  it('takes an international number by its prefix, a Mexican mobile without the old «1»', () => {
    expect(normalizeAnyPhone('+5215512345678')).toEqual({ ok: true, e164: '+525512345678' });
    expect(normalizeAnyPhone('+525512345678')).toEqual({ ok: true, e164: '+525512345678' });
    expect(normalizeAnyPhone('+56987654321')).toEqual({ ok: true, e164: '+56987654321' });
  });

  it('reads a national number as Chilean, then as Mexican', () => {
    expect(normalizeAnyPhone('9 8765 4321')).toEqual({ ok: true, e164: '+56987654321' });
    expect(normalizeAnyPhone('55 1234 5678')).toEqual({ ok: true, e164: '+525512345678' });
  });

  it('refuses what is no mobile, saying why as for a Chilean number', () => {
    expect(normalizeAnyPhone('')).toEqual({ ok: false, reason: 'empty' });
    expect(normalizeAnyPhone('+56223456789')).toEqual({ ok: false, reason: 'not_mobile' });
    expect(normalizeAnyPhone('12')).toEqual({ ok: false, reason: 'invalid' });
  });
});
