// The templates screen's pure rules: what the editor refuses before any request, whether compose has text
// to replace, and merge fields cut out for chips. (The SMS size is shared/template-size.ts, tested beside it.)
import { describe, expect, it } from 'vitest';
import { formHasText, splitMergeFields, templateErrors } from '../../src/machines/template-rules';
import { TEMPLATE_CONTENT_MAX, TEMPLATE_NAME_MAX } from '../../shared/templates-contract';

describe('template rules', () => {
  it('the editor refuses an empty or blank name or content, and either over its limit', () => {
    expect(templateErrors({ id: null, name: '  ', content: '\n' })).toEqual({
      name: { key: 'templates.errors.nameRequired' },
      content: { key: 'templates.errors.contentRequired' },
    });
    expect(templateErrors({ id: 1, name: 'n'.repeat(TEMPLATE_NAME_MAX + 1), content: 'c'.repeat(TEMPLATE_CONTENT_MAX + 1) })).toEqual({
      name: { key: 'templates.errors.nameTooLong', params: { max: TEMPLATE_NAME_MAX } },
      content: { key: 'templates.errors.contentTooLong', params: { max: TEMPLATE_CONTENT_MAX } },
    });
    expect(templateErrors({ id: null, name: ` ${'n'.repeat(TEMPLATE_NAME_MAX)} `, content: 'Hola' })).toEqual({});
  });

  it('asks before replacing only when a title or content has more than blanks', () => {
    expect(formHasText({ title: ' ', content: '\n\n' })).toBe(false);
    expect(formHasText({ title: 'Re: Hola', content: '' })).toBe(true);
    expect(formHasText({ title: '', content: 'x' })).toBe(true);
  });

  it('cuts the three merge fields out of a text, leaving other braces as text', () => {
    expect(splitMergeFields('Hola {apoderado}: {estudiante} de {curso}. {otro}')).toEqual([
      { kind: 'text', text: 'Hola ' },
      { kind: 'field', field: 'apoderado' },
      { kind: 'text', text: ': ' },
      { kind: 'field', field: 'estudiante' },
      { kind: 'text', text: ' de ' },
      { kind: 'field', field: 'curso' },
      { kind: 'text', text: '. {otro}' },
    ]);
  });
});
