// The families' app's checks (family/session-rules.ts, family/screen-rules.ts): the light phone and code
// checks before a paid SMS, and what each failed call is said as.
import { describe, expect, it } from 'vitest';
import { cleanPhone, codeProblem, phoneProblem, signInFailureOf } from '../../src/machines/family/session-rules';
import { replyFailureOf, replyProblem, screenFailureOf } from '../../src/machines/family/screen-rules';

const failure = (status: number, message = '', fieldErrors: Record<string, string[]> = {}) => ({ status, code: 'x', message, fieldErrors });

describe("the families' app's rules", () => {
  it('takes a phone as people type it, Chilean or Mexican, with or without the country code', () => {
    for (const phone of ['+56 9 1234 5678', '9 1234 5678', '(55) 1234-5678', '+52 55 1234 5678', '912345678']) {
      expect(phoneProblem(phone), phone).toBeNull();
    }
    expect(cleanPhone(' +56 9 1234-5678 ')).toBe('+56912345678');
    expect(phoneProblem('  ')).toBe('required');
    for (const phone of ['1234567', 'llámame', '+56 9 1234 5678 9999 9', '56+912345678'])
      expect(phoneProblem(phone), phone).toBe('invalid');
  });

  it('wants six digits of code, spaces allowed', () => {
    expect(codeProblem('123 456')).toBeNull();
    expect(codeProblem('')).toBe('required');
    expect(codeProblem('12345')).toBe('incomplete');
    expect(codeProblem('1234567')).toBe('incomplete');
  });

  it("says the server's own sentence for a refused code or too many tries, offline and server errors its own", () => {
    expect(signInFailureOf(failure(401, 'El código no es válido o venció. Solicita uno nuevo.'))).toEqual({
      kind: 'server',
      message: 'El código no es válido o venció. Solicita uno nuevo.',
    });
    expect(signInFailureOf(failure(422, 'Revisa los campos', { phone: ['El teléfono no es válido.'] }))).toEqual({
      kind: 'server',
      message: 'El teléfono no es válido.',
    });
    expect(signInFailureOf(failure(0))).toEqual({ kind: 'offline' });
    expect(signInFailureOf(failure(500, 'Internal'))).toEqual({ kind: 'error' });
    const wait = 'Demasiados códigos incorrectos desde tu red. Inténtalo de nuevo en 10 minutos.';
    expect(signInFailureOf(failure(429, wait))).toEqual({ kind: 'server', message: wait });
    // An answer without a sentence (a proxy's page) gets the app's own.
    expect(signInFailureOf(failure(429))).toEqual({ kind: 'error' });
  });

  it('tells offline, missing and other failures of a screen apart', () => {
    expect(screenFailureOf(failure(0))).toBe('offline');
    expect(screenFailureOf(failure(404))).toBe('missing');
    expect(screenFailureOf(failure(500))).toBe('error');
  });

  it('checks a reply as the server does: not blank, at most 4000 characters', () => {
    expect(replyProblem(' \n ')).toBe('required');
    expect(replyProblem('a'.repeat(4000))).toBeNull();
    expect(replyProblem('a'.repeat(4001))).toBe('tooLong');
    expect(replyFailureOf(failure(409))).toEqual({ kind: 'closed' });
    expect(replyFailureOf(failure(0))).toEqual({ kind: 'offline' });
    expect(replyFailureOf(failure(422, 'x', { content: ['La respuesta no puede estar vacía.'] }))).toEqual({
      kind: 'server',
      message: 'La respuesta no puede estar vacía.',
    });
    expect(replyFailureOf(failure(500))).toEqual({ kind: 'error' });
  });
});
