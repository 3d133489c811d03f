// The families' app's texts (src/i18n/family.ts): both locales with the same keys, real plurals, the
// locale's word for guardian and school, the browser's locale before sign-in.
import { describe, expect, it } from 'vitest';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import familyMX from '../../src/i18n/family/es-MX.json' with { type: 'json' };
import { browserLocale, familyText } from '../../src/i18n/family';

const keysOf = (table: object, prefix = ''): string[] =>
  Object.entries(table).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value as object, `${prefix}${key}.`),
  );

describe("the families' app's texts", () => {
  it('es-CL and es-MX have exactly the same keys', () => {
    expect(keysOf(familyMX).sort()).toEqual(keysOf(familyCL).sort());
  });

  it('says «apoderado» and «colegio» in Chile, «padre o tutor» and «escuela» in Mexico', () => {
    expect(familyText('es-CL', 'family.app.tagline')).toBe('Los mensajes del colegio para apoderados');
    expect(familyText('es-MX', 'family.app.tagline')).toBe('Los mensajes de la escuela para padres y tutores');
    expect(familyText('es-MX', 'family.message.school')).toBe('Escuela');
  });

  it('picks plural forms and writes the count as the locale does', () => {
    expect(familyText('es-CL', 'family.message.attachments', { count: 1 })).toBe('1 archivo adjunto');
    expect(familyText('es-CL', 'family.message.attachments', { count: 3 })).toBe('3 archivos adjuntos');
    expect(familyText('es-CL', 'family.inbox.unread', { count: 1200 })).toBe('1.200 sin leer');
    expect(familyText('es-MX', 'family.inbox.unread', { count: 1200 })).toBe('1,200 sin leer');
  });

  it('fills placeholders, and shows the key of a text that exists nowhere', () => {
    expect(familyText('es-CL', 'family.inbox.from', { name: 'Ana Soto' })).toBe('De Ana Soto');
    expect(familyText('es-CL', 'family.nada' as never)).toBe('family.nada');
  });

  it("reads Mexican Spanish from the browser before sign-in, Chile's otherwise", () => {
    expect(browserLocale(['es-MX', 'en'])).toBe('es-MX');
    expect(browserLocale(['es-CL'])).toBe('es-CL');
    expect(browserLocale(['en-US'])).toBe('es-CL');
    expect(browserLocale([])).toBe('es-CL');
  });
});
