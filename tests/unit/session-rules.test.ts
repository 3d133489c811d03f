import { describe, expect, it } from 'vitest';
import { loginFailureFor, validateCredentials } from '../../src/machines/session/rules';
import { ApiFailureError } from '../../src/services/http/client';

const failure = (status: number, code: string, fieldErrors: Record<string, string[]> = {}) =>
  new ApiFailureError({ status, code, message: code, fieldErrors });

describe('validateCredentials', () => {
  it.each([
    [
      { email: '', password: '' },
      { email: 'login.errors.emailRequired', password: 'login.errors.passwordRequired' },
    ],
    [{ email: '   ', password: 'x' }, { email: 'login.errors.emailRequired' }],
    [{ email: 'ana', password: 'x' }, { email: 'login.errors.emailInvalid' }],
    [{ email: 'ana@colegio', password: 'x' }, { email: 'login.errors.emailInvalid' }],
    [{ email: 'ana @colegio.cl', password: 'x' }, { email: 'login.errors.emailInvalid' }],
    [{ email: 'ana@colegio.cl', password: '' }, { password: 'login.errors.passwordRequired' }],
    [{ email: ' ana@colegio.cl ', password: ' ' }, {}],
  ])('%j → %j', (credentials, errors) => {
    expect(validateCredentials(credentials)).toEqual(errors);
  });
});

describe('loginFailureFor', () => {
  it.each([
    [failure(401, 'auth.invalid_credentials'), 'login.errors.invalidCredentials'],
    [failure(403, 'auth.policy_missing'), 'login.errors.policyMissing'],
    [failure(429, 'auth.throttled'), 'login.errors.throttled'],
    [failure(0, 'network'), 'login.errors.network'],
    [failure(419, 'csrf.mismatch'), 'login.errors.server'],
    [failure(500, 'server.error'), 'login.errors.server'],
    [failure(422, 'validation.failed'), 'login.errors.server'],
    [new TypeError('Failed to fetch'), 'login.errors.network'],
  ])('%s → %s', (error, key) => {
    expect(loginFailureFor(error)).toEqual({ loginError: key, fieldErrors: {} });
  });

  it('turns server field errors into field messages', () => {
    expect(loginFailureFor(failure(422, 'validation.failed', { email: ['x'], password: ['y'] }))).toEqual({
      loginError: null,
      fieldErrors: { email: 'login.errors.emailInvalid', password: 'login.errors.passwordRequired' },
    });
  });
});
