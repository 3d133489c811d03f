import { describe, expect, it } from 'vitest';
import { SIGNATURE_DISCOUNT, SMS_SEGMENT_UNITS, smsText } from '../../shared/sms-text';

describe('smsText (GSM-7, one segment)', () => {
  it('counts plain GSM-7 text one unit per character', () => {
    const result = smsText('Reunión mañana a las 18:00', false);
    expect(result.units).toBe(26);
    expect(result.limit).toBe(SMS_SEGMENT_UNITS);
    expect(result.ok).toBe(true);
  });

  it('transliterates accents GSM-7 lacks and keeps ñ, é, ü', () => {
    expect(smsText('áíóú ÁÍÓÚ', false).text).toBe('aiou AIOU');
    expect(smsText('ñandú pingüino café', false).text).toBe('ñandu pingüino café');
    expect(smsText('“hola” – adiós…', false).text).toBe('"hola" - adios...');
  });

  it('counts extended characters (€, brackets) as two units', () => {
    expect(smsText('€', false).units).toBe(2);
    expect(smsText('[a]', false).units).toBe(5);
    expect(smsText('10 €', false).units).toBe(5);
  });

  it('refuses emoji and other characters without a GSM-7 form, listed once each', () => {
    const result = smsText('Hola 😀 y 😀 ✓', false);
    expect(result.ok).toBe(false);
    expect(result.unsupported).toEqual(['😀', '✓']);
  });

  it('allows 160 units, or 154 with the signature active', () => {
    expect(smsText('a'.repeat(160), false).ok).toBe(true);
    expect(smsText('a'.repeat(161), false).ok).toBe(false);
    expect(smsText('a'.repeat(154), true)).toMatchObject({ ok: true, limit: SMS_SEGMENT_UNITS - SIGNATURE_DISCOUNT });
    expect(smsText('a'.repeat(155), true).ok).toBe(false);
    // 79 € signs = 158 units: fits 160 but not 154.
    expect(smsText('€'.repeat(79), false).ok).toBe(true);
    expect(smsText('€'.repeat(79), true).ok).toBe(false);
  });

  it('counts CRLF as one line break', () => {
    expect(smsText('a\r\nb', false).units).toBe(3);
  });
});
