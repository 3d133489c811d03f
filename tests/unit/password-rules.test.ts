// The password rule both sides apply: long enough, not common, not built from the person or their school.
import { describe, expect, it } from 'vitest';
import { ownerWords, PASSWORD_MESSAGES, passwordError, passwordProblem } from '../../shared/password-rules';

const maria = { name: 'María José González Pérez', email: 'maria.gonzalez@sanjorge.cl', school: 'Colegio San Jorge' };

describe('password rule', () => {
  it('asks for 10 characters at least, counted as people count them, and 64 at most', () => {
    expect(passwordProblem('corto')).toBe('tooShort');
    // Nine characters, eleven UTF-16 units: still too short.
    expect(passwordProblem('ñandú🦙🦙xy')).toBe('tooShort');
    expect(passwordProblem('a'.repeat(65))).toBe('tooLong');
  });

  it('refuses common passwords and keyboard or number runs', () => {
    for (const password of ['password123', 'qwertyuiop', '1234567890', 'contraseña1']) {
      expect(passwordProblem(password), password).not.toBeNull();
    }
    expect(passwordProblem('password123')).toBe('common');
  });

  it("refuses a password built from the person's names, e-mail or school, however strong it looks", () => {
    for (const password of ['mariajose2024', 'Gonzalez2026', 'sanjorge1234', 'ColegioSanJorge!', 'MaríaGonzález!!']) {
      expect(passwordProblem(password, maria), password).toBe('personal');
    }
  });

  it('accepts a passphrase, even one that names the person beside words that stand on their own', () => {
    expect(passwordProblem('tortuga-lluvia-pizarra', maria)).toBeNull();
    expect(passwordProblem('maria-tortuga-lluvia-pizarra', maria)).toBeNull();
  });

  it('explains each refusal in Spanish', () => {
    expect(passwordError('corto')).toBe('La contraseña debe tener al menos 10 caracteres.');
    expect(passwordError('mariajose2024', maria)).toBe(PASSWORD_MESSAGES.personal);
    expect(passwordError('tortuga-lluvia-pizarra', maria)).toBeNull();
  });

  it('takes the words of the name, the e-mail before the @ and the school, without accents or short words', () => {
    expect(ownerWords(maria)).toEqual(['maria', 'jose', 'gonzalez', 'perez', 'colegio', 'san', 'jorge']);
  });
});
