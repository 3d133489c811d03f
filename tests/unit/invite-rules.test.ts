// Pasted lines and CSV files of staff to invite (staff/invite-rules.ts): separators, the optional header in
// any order, roles as staff write them, and each row's problems, with hand-written expectations.
import { describe, expect, it } from 'vitest';
import { isSendable, parseInvite, roleOf } from '../../src/machines/staff/invite-rules';

describe('invite rules', () => {
  it('reads name, e-mail and role separated by semicolons, commas or tabs, without a header', () => {
    for (const separator of [';', ',', '\t']) {
      const { rows } = parseInvite(['Ana Rojas', 'ana@colegio.cl', 'docente'].join(separator));
      expect(rows).toEqual([{ line: 1, name: 'Ana Rojas', email: 'ana@colegio.cl', roleText: 'docente', role: 'docente', problems: [] }]);
    }
  });

  it('takes the columns from a header in any order, and numbers lines as the file does', () => {
    const { rows } = parseInvite('Correo;Rol;Nombre\n\nluis@colegio.cl;Jefe de UTP;Luis Pérez\n');
    expect(rows.map((row) => [row.line, row.name, row.email, row.role])).toEqual([[2, 'Luis Pérez', 'luis@colegio.cl', 'colegio-utp']]);
  });

  it('understands roles as staff write them; an empty role is a teacher; an unknown one is a problem', () => {
    expect(['Docente', 'profesora', 'ADMINISTRADOR', 'Directora', 'utp', 'UTP de corporación', '', 'corp-utp'].map(roleOf)).toEqual([
      'docente',
      'docente',
      'colegio-administrador',
      'colegio-director',
      'colegio-utp',
      'corp-utp',
      'docente',
      'corp-utp',
    ]);
    expect(roleOf('jardinero')).toBeNull();
  });

  it("lists every row's problems: missing name, bad or repeated e-mail, unknown role", () => {
    const parsed = parseInvite('Ana;ana@colegio.cl;docente\n;sin-arroba;docente\nAna Bis;ANA@colegio.cl;jardinero');
    expect(parsed.rows.map((row) => row.problems)).toEqual([[], ['nameRequired', 'emailInvalid'], ['emailRepeated', 'roleUnknown']]);
    expect(isSendable(parsed)).toBe(false);
    expect(isSendable(parseInvite('Ana;ana@colegio.cl;docente'))).toBe(true);
    expect(isSendable(parseInvite('   '))).toBe(false);
  });

  it('refuses more people than one invitation carries', () => {
    const text = Array.from({ length: 501 }, (_, i) => `Persona ${i};p${i}@colegio.cl;docente`).join('\n');
    const parsed = parseInvite(text);
    expect([parsed.rows.length, parsed.tooMany, isSendable(parsed)]).toEqual([501, true, false]);
  });
});
