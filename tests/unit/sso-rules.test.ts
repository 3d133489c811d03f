// Single sign-on's two small rules (docs/decisions/0175): which issuer URLs openid-client may be pointed
// at, and when a provider vouches for an e-mail.
import { describe, expect, it } from 'vitest';
import { issuerProblem, isVerified } from '../../server/sso/rules';

describe('the issuer URL', () => {
  it('is https, or plain http on this machine only', () => {
    expect(issuerProblem('https://accounts.google.com')).toBe(false);
    expect(issuerProblem('https://login.microsoftonline.com/0f1e2d3c-aaaa-bbbb-cccc-123456789abc/v2.0')).toBe(false);
    expect(issuerProblem('http://127.0.0.1:4100')).toBe(false);
    expect(issuerProblem('http://localhost:4100')).toBe(false);
    expect(issuerProblem('http://accounts.google.com')).toBe(true);
    expect(issuerProblem('http://10.0.0.5')).toBe(true);
    expect(issuerProblem('ftp://accounts.google.com')).toBe(true);
    expect(issuerProblem('accounts.google.com')).toBe(true);
  });

  it('has no query, fragment or credentials (the discovery path is added to it)', () => {
    expect(issuerProblem('https://accounts.google.com?x=1')).toBe(true);
    expect(issuerProblem('https://accounts.google.com#a')).toBe(true);
    expect(issuerProblem('https://user:pass@accounts.google.com')).toBe(true);
  });
});

describe('a verified e-mail', () => {
  it('is `email_verified` true, for any provider; a string or an absent claim is not', () => {
    for (const provider of ['google', 'microsoft', 'other'] as const) {
      expect(isVerified(provider, { email_verified: true })).toBe(true);
      expect(isVerified(provider, { email_verified: 'true' })).toBe(false);
      expect(isVerified(provider, { email_verified: false })).toBe(false);
      expect(isVerified(provider, {})).toBe(false);
    }
  });

  it('is also Microsoft’s `xms_edov` true, from Microsoft only', () => {
    expect(isVerified('microsoft', { xms_edov: true })).toBe(true);
    expect(isVerified('microsoft', { xms_edov: false })).toBe(false);
    expect(isVerified('google', { xms_edov: true })).toBe(false);
    expect(isVerified('other', { xms_edov: true })).toBe(false);
  });
});
