// The templates screen's pure rules: what the editor refuses before any request, whether compose has text
// to replace, and merge fields cut out for chips. (The SMS size is shared/template-size.ts, tested beside it.)
import { describe, expect, it } from 'vitest';
import {
  changesTemplateField,
  EMPTY_DRAFT,
  firstChangedTemplateField,
  formHasText,
  hasUnsavedTemplateChanges,
  splitMergeFields,
  templateErrors,
} from '../../src/machines/templates/rules';
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

  it('closing the editor asks only when something would be lost: a new template with more than blanks, an own one changed as a save would send it', () => {
    expect(hasUnsavedTemplateChanges(EMPTY_DRAFT, EMPTY_DRAFT)).toBe(false);
    expect(hasUnsavedTemplateChanges(EMPTY_DRAFT, { id: null, name: '  ', content: '\n ' })).toBe(false);
    expect(hasUnsavedTemplateChanges(EMPTY_DRAFT, { id: null, name: 'R', content: '' })).toBe(true);
    expect(hasUnsavedTemplateChanges(EMPTY_DRAFT, { id: null, name: '', content: 'Hola' })).toBe(true);
    const own = { id: 3, name: 'Reunión', content: 'Hola {estudiante}' };
    expect(hasUnsavedTemplateChanges(own, own)).toBe(false);
    // The name is saved trimmed; the content as written.
    expect(hasUnsavedTemplateChanges(own, { ...own, name: ' Reunión ' })).toBe(false);
    expect(hasUnsavedTemplateChanges(own, { ...own, name: 'Reunion' })).toBe(true);
    expect(hasUnsavedTemplateChanges(own, { ...own, content: 'Hola {estudiante} ' })).toBe(true);
    expect(hasUnsavedTemplateChanges(own, { ...own, name: '' })).toBe(true);
    // "Seguir editando" goes back to the first field holding the changes.
    expect(firstChangedTemplateField(own, { ...own, content: 'x' })).toBe('content');
    expect(firstChangedTemplateField(own, { ...own, name: 'x', content: 'x' })).toBe('name');
    expect(firstChangedTemplateField(EMPTY_DRAFT, { id: null, name: '  ', content: 'x' })).toBe('content');
    // A field repeating its value changes nothing.
    expect(changesTemplateField(own, { field: 'content', value: own.content })).toBe(false);
    expect(changesTemplateField(own, { field: 'name', value: 'Reunión 2' })).toBe(true);
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
