// The privacy screens' pure rules (privacy/privacy-rules.ts): a search is asked only when it can name someone
// (two characters, not counting spaces around them), and the person page's address.
import { describe, expect, it } from 'vitest';
import { isSearchable, PRIVACY_PATH, privacyPersonPath } from '../../src/machines/privacy/privacy-rules';

describe('isSearchable', () => {
  it('waits for two characters, spaces around them not counted', () => {
    expect(isSearchable('')).toBe(false);
    expect(isSearchable('a')).toBe(false);
    expect(isSearchable('  a  ')).toBe(false);
    expect(isSearchable('an')).toBe(true);
    expect(isSearchable(' 12 ')).toBe(true);
  });
});

describe('addresses', () => {
  it('names the search and a person by kind and id', () => {
    expect(PRIVACY_PATH).toBe('/privacy');
    expect(privacyPersonPath('apoderado', 42)).toBe('/privacy/apoderado/42');
    expect(privacyPersonPath('funcionario', 7)).toBe('/privacy/funcionario/7');
  });
});
