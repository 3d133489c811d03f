import { describe, expect, it } from 'vitest';
import { withGuardianTerm } from '../../shared/guardian-term';

describe('withGuardianTerm (SPEC §3: the locale’s term for guardian in product templates)', () => {
  it('leaves Chilean texts as written', () => {
    const text = 'Estimado apoderado: la reunión de Apoderados es el jueves. APODERADA TITULAR.';
    expect(withGuardianTerm(text, 'es-CL')).toBe(text);
  });

  it('says "padre o tutor" in Mexico, keeping number', () => {
    expect(withGuardianTerm('Estimado apoderado', 'es-MX')).toBe('Estimado padre o tutor');
    expect(withGuardianTerm('Reunión de apoderados', 'es-MX')).toBe('Reunión de padres o tutores');
  });

  it('keeps the case of the word replaced: capitalised, all caps, lowercase', () => {
    expect(withGuardianTerm('Apoderado:', 'es-MX')).toBe('Padre o tutor:');
    expect(withGuardianTerm('Apoderados', 'es-MX')).toBe('Padres o tutores');
    expect(withGuardianTerm('REUNIÓN DE APODERADOS', 'es-MX')).toBe('REUNIÓN DE PADRES O TUTORES');
    expect(withGuardianTerm('APODERADO', 'es-MX')).toBe('PADRE O TUTOR');
  });

  it('says "madre o tutora" for "apoderada", singular and plural', () => {
    expect(withGuardianTerm('Estimada apoderada', 'es-MX')).toBe('Estimada madre o tutora');
    expect(withGuardianTerm('Apoderadas del curso', 'es-MX')).toBe('Madres o tutoras del curso');
  });

  it('replaces whole words only, every occurrence, next to punctuation and line breaks', () => {
    expect(withGuardianTerm('apoderamiento, apoderadísimo', 'es-MX')).toBe('apoderamiento, apoderadísimo');
    expect(withGuardianTerm('(apoderado)\napoderados.', 'es-MX')).toBe('(padre o tutor)\npadres o tutores.');
    expect(withGuardianTerm('Apoderado y apoderado', 'es-MX')).toBe('Padre o tutor y padre o tutor');
  });

  it('leaves the {apoderado} merge field alone: it is filled with a name at delivery', () => {
    expect(withGuardianTerm('Hola {apoderado}, apoderado de {estudiante}', 'es-MX')).toBe(
      'Hola {apoderado}, padre o tutor de {estudiante}',
    );
  });
});
