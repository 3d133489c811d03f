// The people screens' pure rules (people/people-rules.ts) and the contact form they share with the list member
// editor (people/contact-form.ts): the list's address both ways, what a student's record allows, what a save
// sends and how the server's and the browser's refusals land on the form's fields.
import { describe, expect, it } from 'vitest';
import type { PersonRecord, StudentGuardian } from '../../shared/people-contract';
import {
  contactChangesOf,
  contactErrors,
  contactFormOf,
  contactServerErrors,
  emptyContactForm,
  firstRefusedField,
  prefixesFor,
} from '../../src/machines/people/contact-form';
import {
  canAddGuardian,
  canEnrol,
  canWithdraw,
  freeRoles,
  hasGuardian,
  peopleAddress,
  peopleQueryOf,
  personPath,
  relationshipProblem,
  sameQuery,
} from '../../src/machines/people/people-rules';

const guardian = (id: number, rol_adulto_id: 1 | 2): StudentGuardian => ({
  id,
  name: `Apoderado ${id}`,
  rol_adulto_id,
  relationship: 'Madre',
  fono_celular: null,
  email: null,
});

const student = (over: Partial<PersonRecord> = {}): PersonRecord => ({
  kind: 'estudiante',
  id: 4,
  nombres: 'Ana',
  apellido_paterno: 'Pérez',
  apellido_materno: '',
  name: 'Ana Pérez',
  dni: null,
  tipo_documento_id: null,
  fono_celular: null,
  email: null,
  course: { id: 1, name: '1° Básico A' },
  withdrawn_at: null,
  guardians: [],
  students: [],
  ...over,
});

describe('the people list in the address', () => {
  it('reads what the address says and takes the defaults for what it does not, or says wrongly', () => {
    expect(peopleQueryOf('')).toEqual({ q: '', kind: null, status: 'enrolled', page: 1 });
    expect(peopleQueryOf('q=perez&kind=apoderado&status=withdrawn&page=3')).toEqual({
      q: 'perez',
      kind: 'apoderado',
      status: 'withdrawn',
      page: 3,
    });
    expect(peopleQueryOf('kind=funcionario&status=todos&page=0')).toEqual({ q: '', kind: null, status: 'enrolled', page: 1 });
    expect(peopleQueryOf('page=2.5').page).toBe(1);
    expect(peopleQueryOf(`q=${'a'.repeat(150)}`).q).toHaveLength(100);
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    expect(peopleAddress({ q: '', kind: null, status: 'enrolled', page: 1 })).toBe('/settings/people');
    expect(peopleAddress({ q: '  ', kind: null, status: 'enrolled', page: 1 })).toBe('/settings/people');
    const query = { q: 'josé luis', kind: 'estudiante' as const, status: 'all' as const, page: 2 };
    const address = peopleAddress(query);
    expect(address).toBe('/settings/people?q=jos%C3%A9+luis&kind=estudiante&status=all&page=2');
    expect(peopleQueryOf(address.split('?')[1]!)).toEqual(query);
    expect(sameQuery(query, { ...query })).toBe(true);
    expect(sameQuery(query, { ...query, page: 3 })).toBe(false);
    expect(personPath('apoderado', 12)).toBe('/settings/people/apoderado/12');
  });
});

describe("what a student's record allows", () => {
  it('offers the guardian roles still free, and no more guardians once both are taken', () => {
    expect(freeRoles(student())).toEqual([1, 2]);
    expect(freeRoles(student({ guardians: [guardian(7, 1)] }))).toEqual([2]);
    expect(canAddGuardian(student({ guardians: [guardian(7, 1)] }))).toBe(true);
    expect(canAddGuardian(student({ guardians: [guardian(7, 1), guardian(8, 2)] }))).toBe(false);
    expect(canAddGuardian(student({ kind: 'apoderado' }))).toBe(false);
  });

  it('withdraws an enrolled student, enrols a withdrawn one, and neither for a guardian', () => {
    expect([canWithdraw(student()), canEnrol(student())]).toEqual([true, false]);
    const withdrawn = student({ withdrawn_at: '2026-11-30T12:00:00Z' });
    expect([canWithdraw(withdrawn), canEnrol(withdrawn)]).toEqual([false, true]);
    const adult = student({ kind: 'apoderado', course: null });
    expect([canWithdraw(adult), canEnrol(adult)]).toEqual([false, false]);
  });

  it('removes only a guardian of that student', () => {
    const record = student({ guardians: [guardian(7, 1)] });
    expect(hasGuardian(record, 7)).toBe(true);
    expect(hasGuardian(record, 8)).toBe(false);
  });

  it('asks for a relationship of at most 40 characters', () => {
    expect(relationshipProblem('  ')).toBe('relationshipRequired');
    expect(relationshipProblem(' Abuela ')).toBeNull();
    expect(relationshipProblem('a'.repeat(40))).toBeNull();
    expect(relationshipProblem('a'.repeat(41))).toBe('relationshipLong');
  });
});

describe('the contact form', () => {
  it("shows a stored record: the phone split at its prefix, the school's document offered when none is kept", () => {
    const form = contactFormOf(
      { ...student(), kind: 'apoderado', fono_celular: '+525512345678', email: 'ana@correo.mx', tipo_documento_id: null, dni: null },
      '+56',
    );
    expect(form).toEqual({
      nombres: 'Ana',
      apellido_paterno: 'Pérez',
      apellido_materno: '',
      email: 'ana@correo.mx',
      prefix: '+52',
      phone: '5512345678',
      tipo_documento_id: '1',
      dni: '',
    });
    expect(emptyContactForm('apoderado', '+52')).toMatchObject({ prefix: '+52', phone: '', tipo_documento_id: '2' });
    expect(emptyContactForm('funcionario', '+56').tipo_documento_id).toBe('');
    expect(prefixesFor('+52')[0]).toBe('+52');
  });

  it('sends every field, blanks as null, the phone prefixed once', () => {
    const form = { ...emptyContactForm('apoderado', '+56'), nombres: ' Ana ', apellido_paterno: 'Pérez', phone: '9 1234-5678' };
    expect(contactChangesOf(form)).toEqual({
      nombres: 'Ana',
      apellido_paterno: 'Pérez',
      apellido_materno: '',
      email: null,
      fono_celular: '+56912345678',
      tipo_documento_id: 1,
      dni: null,
    });
    expect(contactChangesOf({ ...form, phone: '+52 55 1234 5678' }).fono_celular).toBe('+525512345678');
    expect(contactChangesOf({ ...form, tipo_documento_id: '' }).tipo_documento_id).toBeNull();
  });

  it("puts the browser's and the server's refusals under the form's fields, the phone's under the number", () => {
    const form = { ...emptyContactForm('apoderado', '+56'), apellido_paterno: 'Pérez', phone: '12', dni: '12.345.678-9' };
    const errors = contactErrors('apoderado', form, { dni: null, tipo_documento_id: null }, '+56');
    expect(Object.keys(errors).sort()).toEqual(['dni', 'nombres', 'phone']);
    expect(firstRefusedField(errors)).toBe('nombres');
    const server = contactServerErrors(
      {
        status: 422,
        code: 'validation.failed',
        message: 'Revisa los datos.',
        fieldErrors: { fono_celular: ['Ese número no es de un celular.'], relationship: ['Falta.'], other: ['?'] },
      },
      ['relationship'],
    );
    expect(server).toEqual({
      phone: { text: 'Ese número no es de un celular.' },
      relationship: { text: 'Falta.' },
      form: { text: '?' },
    });
    expect(firstRefusedField(server)).toBe('phone');
    expect(contactServerErrors({ status: 500, code: 'http.500', message: '', fieldErrors: {} })).toEqual({});
  });
});
