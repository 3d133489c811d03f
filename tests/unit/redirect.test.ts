import { describe, expect, it } from 'vitest';
import { isSafeRedirect, loginPathFor, resolveRedirect } from '../../src/machines/session/redirect-rules';

describe('isSafeRedirect (SPEC §5)', () => {
  it.each([
    '/',
    '/inbox',
    '/inbox/',
    '/inbox/message/42',
    '/sent?page=2',
    '/mural/news?newsfeed=1#top',
    '/a@b-c%20_~.:/d',
    '/recipient-list/7#miembros',
  ])('accepts %s', (target) => {
    expect(isSafeRedirect(target)).toBe(true);
  });

  it.each([
    ['protocol-relative URL', '//evil.example'],
    ['protocol-relative URL with path', '//evil.example/inbox'],
    ['absolute URL', 'https://x'],
    ['absolute URL to self', 'http://localhost/inbox'],
    ['backslash trick', '/\\evil'],
    ['backslash later in the path', '/inbox\\..\\evil'],
    ['javascript: URL', 'javascript:alert(1)'],
    ['relative path', 'inbox'],
    ['empty', ''],
    ['space in path', '/in box'],
    ['markup', '/<script>'],
    ['quote', "/inbox'"],
    ['encoded newline is fine but a raw one is not', '/inbox\n'],
    ['tab', '/\tevil'],
  ])('refuses a %s (%j)', (_label, target) => {
    expect(isSafeRedirect(target)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isSafeRedirect(null)).toBe(false);
    expect(isSafeRedirect(undefined)).toBe(false);
  });
});

describe('resolveRedirect', () => {
  it('keeps a safe target and sends anything else home', () => {
    expect(resolveRedirect('/sent')).toBe('/sent');
    expect(resolveRedirect('//evil.example')).toBe('/');
    expect(resolveRedirect(null)).toBe('/');
    expect(resolveRedirect('https://x', '/inbox')).toBe('/inbox');
  });
});

describe('loginPathFor', () => {
  it('remembers the wanted page in the query, encoded', () => {
    expect(loginPathFor('/inbox/message/42')).toBe('/login?redirect=%2Finbox%2Fmessage%2F42');
    expect(loginPathFor('/mural?newsfeed=1')).toBe('/login?redirect=%2Fmural%3Fnewsfeed%3D1');
  });

  it('does not remember home', () => {
    expect(loginPathFor('/')).toBe('/login');
  });
});
