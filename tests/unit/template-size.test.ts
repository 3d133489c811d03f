import { describe, expect, it } from 'vitest';
import { templateSmsSize } from '../../shared/template-size';

describe('templateSmsSize (characters and segments after the GSM-7 rule)', () => {
  it('is one segment up to the limit, with or without the signature', () => {
    expect(templateSmsSize('a'.repeat(160), null)).toEqual({ units: 160, limit: 160, segments: 1, unsupported: [], ok: true });
    expect(templateSmsSize('a'.repeat(154), 'CSA')).toMatchObject({ units: 154, limit: 154, segments: 1, ok: true });
  });

  it('counts further segments at 153 units each, the signature included', () => {
    expect(templateSmsSize('a'.repeat(161), null)).toMatchObject({ segments: 2, ok: false });
    expect(templateSmsSize('a'.repeat(155), 'CSA')).toMatchObject({ segments: 2, ok: false });
    expect(templateSmsSize('a'.repeat(306), null).segments).toBe(2);
    expect(templateSmsSize('a'.repeat(307), null).segments).toBe(3);
    expect(templateSmsSize('a'.repeat(300), 'CSA').segments).toBe(2);
    expect(templateSmsSize('a'.repeat(301), 'CSA').segments).toBe(3);
  });

  it('counts accents as GSM-7 sends them, escaped characters and merge-field braces twice', () => {
    expect(templateSmsSize('Reunión', null).units).toBe(7);
    expect(templateSmsSize('{curso}', null).units).toBe(9);
    expect(templateSmsSize('10 €', null).units).toBe(5);
  });

  it('reports what SMS cannot carry', () => {
    expect(templateSmsSize('Hola 😀', null)).toMatchObject({ unsupported: ['😀'], ok: false, segments: 1 });
  });
});
