import { describe, expect, it } from 'vitest';
import { SIGNATURE_DISCOUNT, SMS_SEGMENT_UNITS, smsText } from '../../shared/sms-text';

describe('smsText (GSM-7, one segment)', () => {
  it('counts plain GSM-7 text one unit per character', () => {
    const result = smsText('Reunión mañana a las 18:00', null);
    expect(result.units).toBe(26);
    expect(result.limit).toBe(SMS_SEGMENT_UNITS);
    expect(result.ok).toBe(true);
  });

  it('transliterates accents GSM-7 lacks and keeps ñ, é, ü', () => {
    expect(smsText('áíóú ÁÍÓÚ', null).text).toBe('aiou AIOU');
    expect(smsText('ñandú pingüino café', null).text).toBe('ñandu pingüino café');
    expect(smsText('“hola” – adiós…', null).text).toBe('"hola" - adios...');
  });

  it('counts extended characters (€, brackets) as two units', () => {
    expect(smsText('€', null).units).toBe(2);
    expect(smsText('[a]', null).units).toBe(5);
    expect(smsText('10 €', null).units).toBe(5);
  });

  it('refuses emoji and other characters without a GSM-7 form, listed once each', () => {
    const result = smsText('Hola 😀 y 😀 ✓', null);
    expect(result.ok).toBe(false);
    expect(result.unsupported).toEqual(['😀', '✓']);
  });

  it('allows 160 units, or 154 with the signature active', () => {
    expect(smsText('a'.repeat(160), null).ok).toBe(true);
    expect(smsText('a'.repeat(161), null).ok).toBe(false);
    expect(smsText('a'.repeat(154), 'CSA')).toMatchObject({ ok: true, limit: SMS_SEGMENT_UNITS - SIGNATURE_DISCOUNT });
    expect(smsText('a'.repeat(155), 'CSA').ok).toBe(false);
    // 79 € signs = 158 units: fits 160 but not 154.
    expect(smsText('€'.repeat(79), null).ok).toBe(true);
    expect(smsText('€'.repeat(79), 'CSA').ok).toBe(false);
  });

  it('counts CRLF as one line break', () => {
    expect(smsText('a\r\nb', null).units).toBe(3);
  });

  it('is the text sent: the content in GSM-7, then the signature after a blank line', () => {
    expect(smsText('Reunión “mañana” — 18:00', 'CSA').text).toBe('Reunion "mañana" - 18:00\n\nCSA');
    expect(smsText('Hola', null).text).toBe('Hola');
    // A four-letter sigla takes exactly the 6 units reserved: 154 + 6 = 160.
    const full = smsText('a'.repeat(154), 'LBVE');
    expect(full).toMatchObject({ ok: true, limit: 154 });
    expect(full.text).toHaveLength(SMS_SEGMENT_UNITS);
  });

  it('lets a signature with escaped characters take what it needs, so the whole SMS still fits', () => {
    // "\n\n" + € (2) + 3 letters = 7 units.
    expect(smsText('a'.repeat(153), '€CSA')).toMatchObject({ ok: true, limit: 153 });
    expect(smsText('a'.repeat(154), '€CSA').ok).toBe(false);
  });
});
