// The contact-data checks the SPA and the server share (shared/person-rules.ts): RUT and CURP check digits,
// e-mail, phone prefixes of SPEC §3, and the whole "User to edit" body with its Spanish field errors.
import { describe, expect, it } from 'vitest';
import { DOCUMENT_TYPES } from '../../shared/recipient-lists-contract';
import {
  checkPersonEdit,
  checkPhoneShape,
  isEmail,
  normalizeCurp,
  normalizeRut,
  PERSON_ERRORS,
  PERSON_ERRORS_MX,
  phonePrefixesFor,
  rutCheckDigit,
} from '../../shared/person-rules';

const none = { dni: null, tipo_documento_id: null };

describe('RUT', () => {
  it('computes the modulo-11 check digit, with K and 0', () => {
    expect(rutCheckDigit(12_345_678)).toBe('5');
    expect(rutCheckDigit(11_111_111)).toBe('1');
    expect(rutCheckDigit(10_000_013)).toBe('K');
    expect(rutCheckDigit(10_000_004)).toBe('0');
  });

  it('accepts dots, spaces, a missing dash and a lower-case k, and stores "12345678-5"', () => {
    expect(normalizeRut('12.345.678-5')).toEqual({ ok: true, value: '12345678-5' });
    expect(normalizeRut(' 123456785 ')).toEqual({ ok: true, value: '12345678-5' });
    expect(normalizeRut('10.000.013-k')).toEqual({ ok: true, value: '10000013-K' });
  });

  it('refuses a wrong check digit and what is not a RUT, each with its text', () => {
    expect(normalizeRut('12.345.678-4')).toEqual({ ok: false, error: PERSON_ERRORS.rutCheck });
    expect(normalizeRut('abc')).toEqual({ ok: false, error: PERSON_ERRORS.rutShape });
    expect(normalizeRut('123-4')).toEqual({ ok: false, error: PERSON_ERRORS.rutShape });
  });
});

describe('CURP', () => {
  it('accepts a real CURP (RENAPO example), in any case', () => {
    expect(normalizeCurp('hegg560427mvzrrl04')).toEqual({ ok: true, value: 'HEGG560427MVZRRL04' });
  });

  it('refuses a wrong check digit, a bad state, a bad date and the wrong length', () => {
    expect(normalizeCurp('HEGG560427MVZRRL05')).toEqual({ ok: false, error: PERSON_ERRORS.curpCheck });
    expect(normalizeCurp('HEGG560427MXXRRL04')).toEqual({ ok: false, error: PERSON_ERRORS.curpShape });
    expect(normalizeCurp('HEGG561327MVZRRL04')).toEqual({ ok: false, error: PERSON_ERRORS.curpShape });
    expect(normalizeCurp('HEGG560427MVZRRL0')).toEqual({ ok: false, error: PERSON_ERRORS.curpShape });
  });
});

describe('e-mail and phone shape', () => {
  it('e-mail needs one @ and a dotted domain', () => {
    expect(isEmail('ana.perez@gmail.com')).toBe(true);
    for (const bad of ['ana', 'ana@', 'ana@gmail', 'ana perez@gmail.com', 'a@@b.cl']) expect(isEmail(bad)).toBe(false);
  });

  it('keeps the typed prefix, assumes the school one without "+", and refuses other prefixes', () => {
    expect(checkPhoneShape('+56 9 1234 5678', '+56')).toEqual({ ok: true, value: '+56912345678', countries: ['CL'] });
    expect(checkPhoneShape('55 1234 5678', '+52')).toEqual({ ok: true, value: '+525512345678', countries: ['MX'] });
    expect(checkPhoneShape('+1 415 555 0100', '+56')).toMatchObject({ ok: true, countries: ['US', 'CA'] });
    expect(checkPhoneShape('+49 151 2345 6789', '+56')).toEqual({ ok: false, error: PERSON_ERRORS.phonePrefix });
    expect(checkPhoneShape('+56 9 12', '+56')).toEqual({ ok: false, error: PERSON_ERRORS.phoneShape });
    expect(checkPhoneShape('nueve uno dos', '+56')).toEqual({ ok: false, error: PERSON_ERRORS.phoneShape });
  });
});

describe('checkPersonEdit', () => {
  it('trims and normalizes what it accepts, and leaves absent fields out', () => {
    const out = checkPersonEdit(
      'apoderado',
      { nombres: '  María   José ', email: ' MJ@Gmail.com ', dni: '12.345.678-5', tipo_documento_id: DOCUMENT_TYPES.rut },
      none,
      '+56',
    );
    expect(out.errors).toEqual({});
    expect(out.values).toEqual({ nombres: 'María José', email: 'mj@gmail.com', dni: '12345678-5', tipo_documento_id: 1 });
    expect(out.phoneCountries).toBeNull();
  });

  it("takes a colleague's edit as the contact editor sends it (no document, as nulls), and refuses a document", () => {
    // The member editor sends every field, blanks as null: a staff member's empty document is not a document.
    const out = checkPersonEdit(
      'funcionario',
      {
        nombres: 'Ana',
        apellido_paterno: 'Rojas',
        email: 'ana@sanandres.cl',
        fono_celular: '+56955551234',
        dni: null,
        tipo_documento_id: null,
      },
      none,
      '+56',
    );
    expect(out.errors).toEqual({});
    expect(out.values).toMatchObject({ email: 'ana@sanandres.cl', fono_celular: '+56955551234' });
    expect(checkPersonEdit('funcionario', { dni: '12345678-5', tipo_documento_id: DOCUMENT_TYPES.rut }, none, '+56').errors).toEqual({
      dni: [PERSON_ERRORS.staffDocument],
    });
    expect(checkPersonEdit('funcionario', { dni: null, tipo_documento_id: DOCUMENT_TYPES.rut }, none, '+56').errors).toEqual({
      tipo_documento_id: [PERSON_ERRORS.staffDocument],
    });
  });

  it('answers a Spanish error per bad field', () => {
    const out = checkPersonEdit(
      'apoderado',
      {
        nombres: ' ',
        apellido_paterno: 'x'.repeat(81),
        email: 'ana@',
        fono_celular: '+49 151 2345 6789',
        dni: '12345678-4',
        tipo_documento_id: 1,
      },
      none,
      '+56',
    );
    expect(out.errors).toEqual({
      nombres: [PERSON_ERRORS.nombresRequired],
      apellido_paterno: [PERSON_ERRORS.apellidoLong],
      email: [PERSON_ERRORS.email],
      fono_celular: [PERSON_ERRORS.phonePrefix],
      dni: [PERSON_ERRORS.rutCheck],
    });
  });

  it('checks a new number against the stored type and a new type against the stored number', () => {
    expect(checkPersonEdit('apoderado', { dni: 'HEGG560427MVZRRL04' }, { dni: null, tipo_documento_id: 2 }, '+52').values).toEqual({
      dni: 'HEGG560427MVZRRL04',
      tipo_documento_id: 2,
    });
    expect(checkPersonEdit('apoderado', { tipo_documento_id: 2 }, { dni: '12345678-5', tipo_documento_id: 1 }, '+56').errors).toEqual({
      dni: [PERSON_ERRORS.curpShape],
    });
    expect(checkPersonEdit('apoderado', { dni: '12345678-5' }, none, '+56').errors).toEqual({
      tipo_documento_id: [PERSON_ERRORS.documentTypeMissing],
    });
    expect(checkPersonEdit('apoderado', { tipo_documento_id: 9 as never }, none, '+56').errors).toEqual({
      tipo_documento_id: [PERSON_ERRORS.documentType],
    });
  });

  it('an emptied field clears it; "other" documents are free text', () => {
    expect(
      checkPersonEdit('apoderado', { email: '', fono_celular: ' ', dni: '' }, { dni: '1-9', tipo_documento_id: 1 }, '+56').values,
    ).toEqual({ email: null, fono_celular: null, dni: null, tipo_documento_id: null });
    expect(checkPersonEdit('apoderado', { dni: 'P-1234567', tipo_documento_id: 3 }, none, '+56').values).toEqual({
      dni: 'P-1234567',
      tipo_documento_id: 3,
    });
  });

  it('students have no phone and staff no document in Hermes', () => {
    expect(checkPersonEdit('estudiante', { fono_celular: '+56912345678' }, none, '+56').errors).toEqual({
      fono_celular: [PERSON_ERRORS.phoneStudent],
    });
    expect(checkPersonEdit('funcionario', { dni: '12345678-5' }, none, '+56').errors).toEqual({ dni: [PERSON_ERRORS.staffDocument] });
    expect(checkPersonEdit('funcionario', { fono_celular: '+56 9 8765 4321' }, none, '+56')).toMatchObject({
      errors: {},
      phoneCountries: ['CL'],
    });
  });

  it('a Mexican school (+52) reads Mexican examples and words; a Chilean one the Chilean texts', () => {
    expect(checkPersonEdit('apoderado', { fono_celular: '12', email: 'x' }, none, '+52').errors).toEqual({
      fono_celular: ['Revisa el número: después del prefijo del país van de 8 a 11 dígitos, por ejemplo 55 1234 5678.'],
      email: ['Ingresa un correo electrónico válido, por ejemplo nombre@dominio.mx.'],
    });
    expect(checkPersonEdit('estudiante', { fono_celular: '+525512345678' }, none, '+52').errors).toEqual({
      fono_celular: [PERSON_ERRORS_MX.phoneStudent],
    });
    expect(PERSON_ERRORS_MX.phoneStudent).toMatch(/padres o tutores/);
    expect(checkPersonEdit('funcionario', { dni: 'HEGG560427MVZRRL04' }, none, '+52').errors).toEqual({
      dni: ['Hermes no guarda documentos del personal.'],
    });
    // The same in both countries where nothing differs.
    expect(checkPersonEdit('apoderado', { dni: 'HEGG560427MVZRRL05', tipo_documento_id: 2 }, none, '+52').errors).toEqual({
      dni: [PERSON_ERRORS.curpCheck],
    });
    expect(checkPersonEdit('apoderado', { fono_celular: '12' }, none, '+56').errors).toEqual({ fono_celular: [PERSON_ERRORS.phoneShape] });
    for (const text of Object.values(PERSON_ERRORS_MX)) expect(text).not.toMatch(/apoderad|funcionari|estudiante|\+56|\.cl\b/i);
  });
});

describe('the prefix picker', () => {
  it('names each prefix by its countries and puts the school’s country first', () => {
    expect(phonePrefixesFor('+52').map((p) => [p.prefix, p.countries])).toEqual([
      ['+52', ['MX']],
      ['+56', ['CL']],
      ['+54', ['AR']],
      ['+55', ['BR']],
      ['+51', ['PE']],
      ['+1', ['US', 'CA']],
    ]);
    expect(phonePrefixesFor('+56').map((p) => p.prefix)).toEqual(['+56', '+52', '+54', '+55', '+51', '+1']);
  });
});

describe('the phone texts', () => {
  it('the shape error asks for what the editor’s hint asks for: the number after the country’s prefix', () => {
    expect(PERSON_ERRORS.phoneShape).toBe('Revisa el número: después del prefijo del país van de 8 a 11 dígitos, por ejemplo 9 1234 5678.');
    expect(PERSON_ERRORS_MX.phoneShape).toBe(
      'Revisa el número: después del prefijo del país van de 8 a 11 dígitos, por ejemplo 55 1234 5678.',
    );
  });
});

describe('the maternal surname', () => {
  it('is optional, trimmed, and at most 80 characters', () => {
    expect(checkPersonEdit('apoderado', { apellido_materno: '  Núñez  del Río ' }, none, '+56').values).toEqual({
      apellido_materno: 'Núñez del Río',
    });
    expect(checkPersonEdit('apoderado', { apellido_materno: ' ' }, none, '+56')).toMatchObject({
      values: { apellido_materno: '' },
      errors: {},
    });
    expect(checkPersonEdit('apoderado', { apellido_materno: 'x'.repeat(81) }, none, '+56').errors).toEqual({
      apellido_materno: [PERSON_ERRORS.apellidoMaternoLong],
    });
  });
});
