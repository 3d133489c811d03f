// The news wall's rules both sides apply (shared/news-rules.ts): each field message of a post, the publish
// date checked only on create, end dates, the length counted in characters people see, category names,
// the derived status at a moment, and who manages the wall.
import { describe, expect, it } from 'vitest';
import { NEWS_ATTACHMENTS_MAX, NEWS_BODY_MAX, NEWS_CATEGORY_NAME_MAX, NEWS_TITLE_MAX, type NewsInput } from '../../shared/news-contract';
import { newsInput } from '../fixtures/news';
import { categoryNameError, isNewsManager, NEWS_MESSAGES, newsErrors, newsStatus } from '../../shared/news-rules';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
const input = newsInput;

describe('newsErrors', () => {
  it('accepts a complete post published now', () => {
    expect(newsErrors(input(), NOW, true)).toEqual({});
  });

  it.each([
    [{ title: '  ' }, { title: NEWS_MESSAGES.titleRequired }],
    [{ title: 'a'.repeat(NEWS_TITLE_MAX + 1) }, { title: NEWS_MESSAGES.titleLong }],
    [{ body: '\n\n' }, { body: NEWS_MESSAGES.bodyRequired }],
    [{ body: 'a'.repeat(NEWS_BODY_MAX + 1) }, { body: NEWS_MESSAGES.bodyLong }],
    [{ audience: { scope: 'groups', level_ids: [], course_ids: [] } }, { audience: NEWS_MESSAGES.audienceEmpty }],
    [
      { attachment_ids: Array.from({ length: NEWS_ATTACHMENTS_MAX + 1 }, (_, i) => i + 1) },
      { attachment_ids: NEWS_MESSAGES.attachmentsMany },
    ],
    [{ publish_at: at(-2) }, { publish_at: NEWS_MESSAGES.publishPast }],
    [{ publish_at: 'el lunes' }, { publish_at: NEWS_MESSAGES.dateInvalid }],
    [{ ends_at: 'pronto' }, { ends_at: NEWS_MESSAGES.dateInvalid }],
    [{ ends_at: at(0) }, { ends_at: NEWS_MESSAGES.endsPast }],
    [{ publish_at: at(120), ends_at: at(60) }, { ends_at: NEWS_MESSAGES.endsBeforePublish }],
    [{ publish_at: at(120), ends_at: at(120) }, { ends_at: NEWS_MESSAGES.endsBeforePublish }],
  ] as [Partial<NewsInput>, Record<string, string>][])('%j → %j', (overrides, errors) => {
    expect(newsErrors(input(overrides), NOW, true)).toEqual(errors);
  });

  it('gives every field’s message at once', () => {
    const errors = newsErrors(
      input({ title: '', body: '', audience: { scope: 'groups', level_ids: [], course_ids: [] }, ends_at: at(-5) }),
      NOW,
      true,
    );
    expect(Object.keys(errors).sort()).toEqual(['audience', 'body', 'ends_at', 'title']);
  });

  it('allows the limits exactly, counted in characters (an emoji is one)', () => {
    expect(newsErrors(input({ title: '🎉'.repeat(NEWS_TITLE_MAX), body: 'ñ'.repeat(NEWS_BODY_MAX) }), NOW, true)).toEqual({});
    expect(newsErrors(input({ attachment_ids: Array.from({ length: NEWS_ATTACHMENTS_MAX }, (_, i) => i + 1) }), NOW, true)).toEqual({});
  });

  it('lets a publish date drift up to a minute into the past on create, and any past date on edit', () => {
    expect(newsErrors(input({ publish_at: at(-0.5) }), NOW, true)).toEqual({});
    expect(newsErrors(input({ publish_at: at(-60 * 24 * 30) }), NOW, false)).toEqual({});
  });

  it('accepts a groups audience with a level or a course', () => {
    expect(newsErrors(input({ audience: { scope: 'groups', level_ids: [3], course_ids: [] } }), NOW, true)).toEqual({});
    expect(newsErrors(input({ audience: { scope: 'groups', level_ids: [], course_ids: [9] } }), NOW, true)).toEqual({});
  });

  it('has Spanish texts with the limits written for people', () => {
    expect(NEWS_MESSAGES.titleLong).toBe(`El título puede tener hasta ${NEWS_TITLE_MAX} caracteres.`);
    expect(NEWS_MESSAGES.bodyLong).toBe('El texto puede tener hasta 10.000 caracteres.');
    expect(NEWS_MESSAGES.attachmentsMany).toBe(`Puedes adjuntar hasta ${NEWS_ATTACHMENTS_MAX} archivos.`);
  });
});

describe('categoryNameError', () => {
  it('requires a name, limits its length and refuses a taken one', () => {
    expect(categoryNameError('  ', false)).toBe(NEWS_MESSAGES.categoryRequired);
    expect(categoryNameError('x'.repeat(NEWS_CATEGORY_NAME_MAX + 1), false)).toBe(NEWS_MESSAGES.categoryLong);
    expect(categoryNameError(' Deportes ', true)).toBe(NEWS_MESSAGES.categoryTaken);
    expect(categoryNameError('x'.repeat(NEWS_CATEGORY_NAME_MAX), false)).toBeNull();
    expect(categoryNameError('Convivencia escolar', false)).toBeNull();
  });
});

describe('newsStatus', () => {
  const post = (o: Partial<Parameters<typeof newsStatus>[0]> = {}) => ({
    deleted_at: null,
    unpublished_at: null,
    publish_at: at(-60),
    ends_at: null,
    ...o,
  });
  it.each([
    ['published', post()],
    ['published', post({ publish_at: at(0) })],
    ['scheduled', post({ publish_at: at(1) })],
    ['ended', post({ ends_at: at(0) })],
    ['published', post({ ends_at: at(1) })],
    ['unpublished', post({ unpublished_at: at(-5), publish_at: at(30) })],
    ['deleted', post({ deleted_at: at(-1), unpublished_at: at(-5) })],
  ] as const)('%s', (status, p) => {
    expect(newsStatus(p, NOW)).toBe(status);
  });
});

describe('isNewsManager', () => {
  it('is administrador, director or UTP of the school (SPEC §6), not corp-utp or docente', () => {
    expect(['colegio-administrador', 'colegio-director', 'colegio-utp'].map((r) => isNewsManager([r]))).toEqual([true, true, true]);
    expect(isNewsManager(['corp-utp'])).toBe(false);
    expect(isNewsManager(['docente'])).toBe(false);
    expect(isNewsManager([])).toBe(false);
    expect(isNewsManager(['docente', 'colegio-utp'])).toBe(true);
  });
});
