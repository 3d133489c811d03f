// The install link's line (server/app-api/install-link.ts): after the content and before the signature; in
// an SMS only while the whole still fits the one GSM-7 segment the quota was charged for; in a WhatsApp
// always.
import { describe, expect, it } from 'vitest';
import { installLinkUrl, withInstallLink } from '../../server/app-api/install-link';
import { SMS_SEGMENT_UNITS, smsText } from '../../shared/sms-text';

const URL = installLinkUrl('https://hermes.sanandres.cl');
const LINE = 'Instala la app: https://hermes.sanandres.cl/familia';

describe('the install link line', () => {
  it('is the families app under the public address', () => {
    expect(URL).toBe('https://hermes.sanandres.cl/familia');
  });

  it('goes after an SMS’s content and before its signature, transliterated, still one segment', () => {
    const text = withInstallLink('sms', 'Mañana no hay clases, ¿vale?', 'CSA', URL);
    expect(text).toBe(`Mañana no hay clases, ¿vale?\n\n${LINE}\n\nCSA`);
    expect(text!.length).toBeLessThanOrEqual(SMS_SEGMENT_UNITS);
  });

  it('stays out of an SMS it would push past its segment: exactly where it would no longer fit', () => {
    const limit = smsText('', 'CSA').limit;
    // Content + "\n\n" + the line uses every unit left: it fits; one character more and it does not.
    const room = limit - LINE.length - 2;
    expect(withInstallLink('sms', 'a'.repeat(room), 'CSA', URL)).toBe(`${'a'.repeat(room)}\n\n${LINE}\n\nCSA`);
    expect(withInstallLink('sms', 'a'.repeat(room + 1), 'CSA', URL)).toBeNull();
    // An escaped character counts two units.
    expect(withInstallLink('sms', `${'a'.repeat(room - 1)}€`, 'CSA', URL)).toBeNull();
  });

  it('always rides a WhatsApp, whatever its length', () => {
    const long = 'Texto largo. '.repeat(100);
    expect(withInstallLink('whatsapp', long, 'CSA', URL)).toBe(`${long}\n\n${LINE}\n\nCSA`);
    expect(withInstallLink('whatsapp', 'Hola', null, URL)).toBe(`Hola\n\n${LINE}`);
  });
});
