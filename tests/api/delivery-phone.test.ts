// Phone normalisation for SMS/WhatsApp (SPEC §3): pure function, no server needed.
import { describe, expect, it } from 'vitest';
import { normalizePhone } from '../../server/recipients/phone';

describe('normalizePhone: Chile', () => {
  it.each([
    ['9 8765 4321'],
    ['987654321'],
    ['9-8765-4321'],
    ['(9) 8765 4321'],
    ['+56 9 8765 4321'],
    ['+56987654321'],
    ['56 9 8765 4321'],
    ['  +56 (9) 8765-4321  '],
  ])('accepts the mobile "%s"', (raw) => {
    expect(normalizePhone(raw, 'CL')).toEqual({ ok: true, e164: '+56987654321' });
  });

  it.each([['(2) 2123 4567'], ['22 123 4567'], ['+56 2 2123 4567'], ['+56 32 212 3456']])(
    'refuses the landline "%s" as not_mobile',
    (raw) => {
      expect(normalizePhone(raw, 'CL')).toEqual({ ok: false, reason: 'not_mobile' });
    },
  );

  it.each([['9 8765 432'], ['9 8765 43210'], ['123'], ['+56 1 2345 6789']])('refuses the malformed "%s"', (raw) => {
    expect(normalizePhone(raw, 'CL')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('normalizePhone: Mexico', () => {
  it.each([
    ['55 1234 5678'],
    ['(55) 1234-5678'],
    ['55.1234.5678'],
    ['+52 55 1234 5678'],
    ['+52 55-1234-5678'],
    // Pre-2020 mobile formats that guardians still type.
    ['+52 1 55 1234 5678'],
    ['044 55 1234 5678'],
    ['045 55 1234 5678'],
  ])('accepts "%s"', (raw) => {
    expect(normalizePhone(raw, 'MX')).toEqual({ ok: true, e164: '+525512345678' });
  });

  it('accepts a Monterrey number with a 2-digit area code and a Guadalajara one', () => {
    expect(normalizePhone('81 1234 5678', 'MX')).toEqual({ ok: true, e164: '+528112345678' });
    expect(normalizePhone('33-1234-5678', 'MX')).toEqual({ ok: true, e164: '+523312345678' });
  });

  it('refuses a toll-free 800 number as not_mobile', () => {
    expect(normalizePhone('800 123 4567', 'MX')).toEqual({ ok: false, reason: 'not_mobile' });
  });

  it('refuses 9 or 11 digits', () => {
    expect(normalizePhone('55 1234 567', 'MX')).toEqual({ ok: false, reason: 'invalid' });
    expect(normalizePhone('55 1234 56789', 'MX')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('normalizePhone: other SPEC §3 prefixes', () => {
  it('keeps an explicit prefix over the institution country', () => {
    expect(normalizePhone('+54 9 11 2345 6789', 'CL')).toEqual({ ok: true, e164: '+5491123456789' });
    expect(normalizePhone('+51 912 345 678', 'CL')).toEqual({ ok: true, e164: '+51912345678' });
    expect(normalizePhone('+55 11 91234 5678', 'MX')).toEqual({ ok: true, e164: '+5511912345678' });
    expect(normalizePhone('+1 212 555 0123', 'CL')).toEqual({ ok: true, e164: '+12125550123' });
    expect(normalizePhone('+1 613 555 0123', 'MX')).toEqual({ ok: true, e164: '+16135550123' });
  });

  it('parses national formats of the other countries', () => {
    expect(normalizePhone('912 345 678', 'PE')).toEqual({ ok: true, e164: '+51912345678' });
    expect(normalizePhone('(11) 91234-5678', 'BR')).toEqual({ ok: true, e164: '+5511912345678' });
    expect(normalizePhone('(212) 555-0123', 'US')).toEqual({ ok: true, e164: '+12125550123' });
  });

  it('refuses landlines the metadata can tell apart', () => {
    // Lima, São Paulo and Buenos Aires fixed lines.
    expect(normalizePhone('(01) 234 5678', 'PE')).toEqual({ ok: false, reason: 'not_mobile' });
    expect(normalizePhone('(11) 3123-4567', 'BR')).toEqual({ ok: false, reason: 'not_mobile' });
    expect(normalizePhone('011 4123-4567', 'AR')).toEqual({ ok: false, reason: 'not_mobile' });
    expect(normalizePhone('+1 800 555 0199', 'CL')).toEqual({ ok: false, reason: 'not_mobile' });
  });

  it('refuses a valid number of a country outside SPEC §3', () => {
    expect(normalizePhone('+33 6 12 34 56 78', 'CL')).toEqual({ ok: false, reason: 'invalid' });
    expect(normalizePhone('+34 612 34 56 78', 'MX')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('normalizePhone: garbage', () => {
  it.each([[''], ['   '], ['\t\n']])('calls %j empty', (raw) => {
    expect(normalizePhone(raw, 'CL')).toEqual({ ok: false, reason: 'empty' });
  });

  it.each([['abc'], ['llamar al 987654321'], ['9 8765 4321 ext. 2'], ['+'], ['---'], ['++56987654321'], ['+56 9 8765 4321 🙂']])(
    'refuses %j as invalid',
    (raw) => {
      expect(normalizePhone(raw, 'CL')).toEqual({ ok: false, reason: 'invalid' });
    },
  );
});
