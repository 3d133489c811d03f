// One student's or guardian's record (people/person.ts): the contact form with the member editor's checks
// before sending (a refusal moves focus to the first refused field, the server's 422 lands on its field,
// everything typed stays), «Agregar apoderado» on a role still free, «Quitar», «Marcar como retirado» and
// «Volver a matricular» each after a question that a refusal keeps open with the server's words. Every
// transition on the real actor, against a hand-written oracle and hand-written effects.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { PersonRecord } from '../../shared/people-contract';
import { PERSON_ERRORS } from '../../shared/person-rules';
import { personMachine, type PersonSnapshot } from '../../src/machines/people/person';
import { GUARDIAN_RECORD, GUARDIAN_ROW, personRecord } from '../fixtures/people';
import { failure } from './fixtures';
import { defineModelTests, send, settle, type StepEnv } from './harness';

const ps = (snapshot: AnyMachineSnapshot) => snapshot as unknown as PersonSnapshot;
const INPUT = { kind: 'estudiante', id: 7, defaultPrefix: '+56' } as const;

const STUDENT = personRecord();
const SAVED = personRecord({ apellido_materno: '', name: 'Martín Núñez' });
const SUPLENTE = { id: 22, name: 'Pedro Núñez', rol_adulto_id: 2, relationship: 'Padre', fono_celular: null, email: null } as const;
const BOTH = personRecord({ guardians: [{ ...GUARDIAN_ROW }, { ...SUPLENTE }] });
const NONE = personRecord({ guardians: [] });
const WITHDRAWN = personRecord({ withdrawn_at: '2026-03-02T12:00:00.000Z' });

const PHONE_REFUSED = failure(422, 'validation.failed', 'Revisa los campos', { fono_celular: [PERSON_ERRORS.phoneNotMobile] });
const ROLE_REFUSED = failure(422, 'validation.failed', 'Revisa los campos', {
  rol_adulto_id: ['Ese estudiante ya tiene apoderado suplente.'],
});
const ALREADY = failure(409, 'people.conflict', 'El estudiante ya está retirado.');

type Ctx = PersonSnapshot['context'];
const ctx = (s: AnyMachineSnapshot): Ctx => ps(s).context;

/**
 * The record's fields the browser refuses, in the form's order (shared person rules, decision 0069, in short):
 * names are required; a student has no phone; a Chilean mobile is 9 digits after +56.
 */
function refusedRecord(c: Ctx): string[] {
  const refused: string[] = [];
  if (c.form.nombres.trim() === '') refused.push('nombres');
  const phone = c.form.phone.trim();
  if (phone !== '' && (c.record?.kind === 'estudiante' || !/^\d{9}$/.test(phone))) refused.push('phone');
  return refused;
}

/** A new guardian's refused fields, in the dialog's order: a role still free, a relationship, the names. */
function refusedGuardian(c: Ctx): string[] {
  const taken = (c.record?.guardians ?? []).map((g) => String(g.rol_adulto_id));
  const g = c.guardian;
  return [
    (g.rol_adulto_id === '' || taken.includes(g.rol_adulto_id)) && 'rol_adulto_id',
    g.relationship.trim() === '' && 'relationship',
    g.nombres.trim() === '' && 'nombres',
    g.apellido_paterno.trim() === '' && 'apellido_paterno',
  ].filter((f): f is string => f !== false);
}

const isStudent = (c: Ctx) => c.record?.kind === 'estudiante';
const rolesUsed = (c: Ctx) => new Set((c.record?.guardians ?? []).map((g) => g.rol_adulto_id)).size;
const toast = (key: string, name: string) => ({ type: 'toast', kind: 'success', key, params: { name } });
const focus = (target: string) => ({ type: 'focus', target });
const fieldOf = (key: string) => (key === 'fono_celular' ? 'phone' : key);

function emits({ from, event }: StepEnv): AnyEventObject[] {
  const c = ctx(from);
  const error = (event as { error?: { status: number; fieldErrors: Record<string, string[]> } }).error;
  switch (event.type) {
    case 'person.save': {
      const refused = from.matches({ ready: 'idle' }) ? refusedRecord(c) : [];
      return refused[0] ? [focus(`person-${refused[0]}`)] : [];
    }
    case 'xstate.done.actor.savePerson':
      return [toast('people.toast.saved', (event.output as PersonRecord).name)];
    case 'xstate.error.actor.savePerson':
      return error?.status === 422 ? [focus(`person-${fieldOf(Object.keys(error.fieldErrors)[0] as string)}`)] : [];
    case 'guardian.save': {
      const refused = from.matches({ ready: { adding: 'open' } }) ? refusedGuardian(c) : [];
      return refused[0] ? [focus(`guardian-${refused[0]}`)] : [];
    }
    case 'guardian.cancel':
      return from.matches({ ready: { adding: 'open' } }) ? [focus('person-add-guardian')] : [];
    case 'xstate.done.actor.addGuardian':
      return [toast('people.toast.guardianAdded', c.guardian.nombres.trim()), focus('person-guardians')];
    case 'xstate.error.actor.addGuardian':
      return error?.status === 422 ? [focus(`guardian-${Object.keys(error.fieldErrors)[0]}`)] : [];
    case 'person.cancel':
      if (from.matches({ ready: 'confirmingRemove' })) return [focus(`person-guardian-${c.guardianId}`)];
      return from.matches({ ready: 'confirmingWithdraw' }) || from.matches({ ready: 'confirmingEnrol' }) ? [focus('person-standing')] : [];
    case 'xstate.done.actor.removeGuardian':
      return [
        toast('people.toast.guardianRemoved', c.record?.guardians.find((g) => g.id === c.guardianId)?.name ?? ''),
        focus('person-guardians'),
      ];
    case 'xstate.done.actor.withdrawStudent':
      return [toast('people.toast.withdrawn', (event.output as PersonRecord).name), focus('person-standing')];
    case 'xstate.done.actor.enrolStudent':
      return [toast('people.toast.enrolled', (event.output as PersonRecord).name), focus('person-standing')];
    default:
      return [];
  }
}

const CALLS = ['fetchPerson', 'savePerson', 'addGuardian', 'removeGuardian', 'withdrawStudent', 'enrolStudent'];
function running(env: StepEnv, id: string | null) {
  for (const other of CALLS) expect(env.fakes.isRunning(other), other).toBe(other === id);
}

/** After a question closes, or a change is refused, what was typed in the record's form is still there. */
const keepsForm = (s: AnyMachineSnapshot, env: StepEnv) => expect(ctx(s).form).toEqual(ctx(env.from).form);

defineModelTests({
  name: 'person',
  machine: personMachine,
  // The header: the record loads (Reintentar after a failure); Guardar and Agregar check in the browser
  // before asking; Quitar, retirar and matricular ask first; a refusal keeps the form or the question open.
  oracle: {
    initial: 'loading',
    targets: {
      loading: { 'xstate.done.actor.fetchPerson': 'ready.idle', 'xstate.error.actor.fetchPerson': 'failed' },
      failed: { 'person.retry': 'loading' },
      'ready.idle': {
        'person.save': ({ context, stay }) => (refusedRecord(context).length === 0 ? 'ready.saving' : stay),
        'guardian.open': ({ context, stay }) => (isStudent(context) && rolesUsed(context) < 2 ? 'ready.adding.open' : stay),
        'guardian.remove': ({ context, event, stay }) =>
          isStudent(context) && context.record?.guardians.some((g) => g.id === event.id) ? 'ready.confirmingRemove' : stay,
        'person.withdraw': ({ context, stay }) =>
          isStudent(context) && context.record?.withdrawn_at === null ? 'ready.confirmingWithdraw' : stay,
        'person.enrol': ({ context, stay }) =>
          isStudent(context) && context.record?.withdrawn_at !== null ? 'ready.confirmingEnrol' : stay,
      },
      'ready.saving': { 'xstate.done.actor.savePerson': 'ready.idle', 'xstate.error.actor.savePerson': 'ready.idle' },
      'ready.adding.open': {
        'guardian.save': ({ context, stay }) => (refusedGuardian(context).length === 0 ? 'ready.adding.sending' : stay),
        'guardian.cancel': 'ready.idle',
      },
      'ready.adding.sending': { 'xstate.done.actor.addGuardian': 'ready.idle', 'xstate.error.actor.addGuardian': 'ready.adding.open' },
      'ready.confirmingRemove': { 'person.confirm': 'ready.removing', 'person.cancel': 'ready.idle' },
      'ready.removing': { 'xstate.done.actor.removeGuardian': 'ready.idle', 'xstate.error.actor.removeGuardian': 'ready.confirmingRemove' },
      'ready.confirmingWithdraw': { 'person.confirm': 'ready.withdrawing', 'person.cancel': 'ready.idle' },
      'ready.withdrawing': {
        'xstate.done.actor.withdrawStudent': 'ready.idle',
        'xstate.error.actor.withdrawStudent': 'ready.confirmingWithdraw',
      },
      'ready.confirmingEnrol': { 'person.confirm': 'ready.enrolling', 'person.cancel': 'ready.idle' },
      'ready.enrolling': { 'xstate.done.actor.enrolStudent': 'ready.idle', 'xstate.error.actor.enrolStudent': 'ready.confirmingEnrol' },
    },
  },
  traversal: {
    input: INPUT,
    events: [
      { type: 'person.change', field: 'phone', value: '987654321' },
      { type: 'person.change', field: 'phone', value: '' },
      { type: 'person.change', field: 'nombres', value: ' ' },
      { type: 'person.save' },
      { type: 'person.retry' },
      { type: 'person.withdraw' },
      { type: 'person.enrol' },
      { type: 'person.confirm' },
      { type: 'person.cancel' },
      { type: 'guardian.open' },
      { type: 'guardian.change', field: 'nombres', value: 'Pedro' },
      { type: 'guardian.change', field: 'apellido_paterno', value: 'Núñez' },
      { type: 'guardian.change', field: 'relationship', value: 'Padre' },
      { type: 'guardian.change', field: 'rol_adulto_id', value: '1' },
      { type: 'guardian.save' },
      { type: 'guardian.cancel' },
      { type: 'guardian.remove', id: 21 },
      { type: 'guardian.remove', id: 99 },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchPerson', output: STUDENT },
      { type: 'xstate.done.actor.fetchPerson', output: GUARDIAN_RECORD },
      { type: 'xstate.error.actor.fetchPerson', error: failure(404, 'not.found') },
      { type: 'xstate.done.actor.savePerson', output: SAVED },
      { type: 'xstate.error.actor.savePerson', error: PHONE_REFUSED },
      { type: 'xstate.error.actor.savePerson', error: failure(0, 'network') },
      { type: 'xstate.done.actor.addGuardian', output: BOTH },
      { type: 'xstate.error.actor.addGuardian', error: ROLE_REFUSED },
      { type: 'xstate.error.actor.addGuardian', error: failure(0, 'network') },
      { type: 'xstate.done.actor.removeGuardian', output: NONE },
      { type: 'xstate.error.actor.removeGuardian', error: failure(500, 'server.error', 'No se pudo quitar.') },
      { type: 'xstate.done.actor.withdrawStudent', output: WITHDRAWN },
      { type: 'xstate.error.actor.withdrawStudent', error: ALREADY },
      { type: 'xstate.done.actor.enrolStudent', output: STUDENT },
      { type: 'xstate.error.actor.enrolStudent', error: failure(0, 'network') },
    ],
    // Coarse on purpose: what was typed and the record's shape, not the errors shown (they follow from them).
    serializeState: (s) => {
      const c = s.context as Ctx;
      const g = c.guardian;
      const adding = s.matches({ ready: 'adding' });
      return JSON.stringify([
        s.value,
        c.record && [c.record.kind, c.record.guardians.length, c.record.withdrawn_at !== null],
        c.form.phone,
        c.form.nombres,
        adding && [g.nombres, g.apellido_paterno, g.relationship, g.rol_adulto_id],
        c.guardianId,
      ]);
    },
    limit: 20000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: {
          fetchPerson: fakes.promise(),
          savePerson: fakes.promise(),
          addGuardian: fakes.promise(),
          removeGuardian: fakes.promise(),
          withdrawStudent: fakes.promise(),
          enrolStudent: fakes.promise(),
        },
      }),
      { input: INPUT as never, inspect },
    ),
  states: {
    loading: (s, env) => {
      running(env, 'fetchPerson');
      expect(env.fakes.inputOf('fetchPerson')).toEqual({ kind: 'estudiante', id: 7 });
      expect(s.hasTag('busy')).toBe(true);
    },
    failed: (s, env) => {
      running(env, null);
      expect(s.can({ type: 'person.retry' })).toBe(true);
      // A 404 is «not found» (no Reintentar offered by the view); any other failure can be retried.
      if (env.event.type === 'xstate.error.actor.fetchPerson')
        expect(ctx(s).notFound).toBe((env.event.error as { status: number }).status === 404);
    },
    ready: (s, env) => {
      // The record as loaded fills the form; later records (a guardian, the standing) leave what is typed.
      if (env.event.type === 'xstate.done.actor.fetchPerson' || env.event.type === 'xstate.done.actor.savePerson') {
        const record = env.event.output as PersonRecord;
        expect(ctx(s).record).toEqual(record);
        expect(ctx(s).form).toMatchObject({ nombres: record.nombres, apellido_materno: record.apellido_materno, prefix: '+56' });
        expect(ctx(s).errors).toEqual({});
      }
      if (/^xstate\.done\.actor\.(addGuardian|removeGuardian|withdrawStudent|enrolStudent)$/.test(env.event.type)) {
        expect(ctx(s).record).toEqual(env.event.output);
        keepsForm(s, env);
      }
    },
    'ready.idle': (s, env) => {
      running(env, null);
      expect(s.can({ type: 'person.save' })).toBe(true);
      if (env.event.type === 'person.save') {
        // Refused here: each refused field has its Spanish text; nothing typed is lost.
        expect(Object.keys(ctx(s).errors)).toEqual(refusedRecord(ctx(env.from)));
        keepsForm(s, env);
        if (ctx(env.from).record?.kind === 'estudiante' && ctx(env.from).form.phone !== '')
          expect(ctx(s).errors.phone).toEqual({ text: PERSON_ERRORS.phoneStudent });
      }
      if (env.event.type === 'xstate.error.actor.savePerson') {
        keepsForm(s, env);
        const error = env.event.error as { status: number };
        expect(ctx(s).errors).toEqual(error.status === 422 ? { phone: { text: PERSON_ERRORS.phoneNotMobile } } : {});
        expect(ctx(s).failed).toBe(error.status !== 422);
      }
      if (env.event.type === 'person.change') {
        const { field, value } = env.event as unknown as { field: 'phone' | 'nombres'; value: string };
        expect(ctx(s).form[field]).toBe(value);
        expect(ctx(s).errors[field]).toBeUndefined();
      }
      if (env.event.type === 'person.cancel' || env.event.type === 'guardian.cancel') keepsForm(s, env);
      // What the view offers is what the record allows.
      const c = ctx(s);
      expect(s.can({ type: 'guardian.open' })).toBe(isStudent(c) && rolesUsed(c) < 2);
      expect(s.can({ type: 'person.withdraw' })).toBe(isStudent(c) && c.record?.withdrawn_at === null);
      expect(s.can({ type: 'person.enrol' })).toBe(isStudent(c) && c.record?.withdrawn_at !== null);
    },
    'ready.saving': (s, env) => {
      running(env, 'savePerson');
      expect(s.hasTag('busy')).toBe(true);
      const form = ctx(s).form;
      expect(refusedRecord(ctx(s)), 'only what the rules accept is sent').toEqual([]);
      expect(env.fakes.inputOf('savePerson')).toEqual({
        kind: 'estudiante',
        id: 7,
        changes: {
          nombres: form.nombres.trim(),
          apellido_paterno: form.apellido_paterno,
          apellido_materno: form.apellido_materno,
          email: form.email || null,
          fono_celular: form.phone ? `+56${form.phone}` : null,
          tipo_documento_id: Number(form.tipo_documento_id) || null,
          dni: form.dni || null,
        },
      });
    },
    'ready.adding': (s, env) => {
      // The record's own form waits behind the dialog, untouched.
      if (env.event.type.startsWith('guardian.')) keepsForm(s, env);
    },
    'ready.adding.open': (s, env) => {
      running(env, null);
      const c = ctx(s);
      if (env.event.type === 'guardian.open' && env.from.matches({ ready: 'idle' })) {
        // A blank guardian on the first role the student has free (the titular is taken: suplente), RUT offered.
        const free = ['1', '2'].find((role) => !(c.record?.guardians ?? []).some((g) => String(g.rol_adulto_id) === role));
        expect(c.guardian).toEqual({
          nombres: '',
          apellido_paterno: '',
          apellido_materno: '',
          email: '',
          prefix: '+56',
          phone: '',
          tipo_documento_id: '1',
          dni: '',
          rol_adulto_id: free,
          relationship: '',
        });
      }
      if (env.event.type === 'guardian.save') {
        expect(Object.keys(c.guardianErrors).sort()).toEqual(refusedGuardian(ctx(env.from)).sort());
        expect(c.guardian).toEqual(ctx(env.from).guardian);
      }
      if (env.event.type === 'xstate.error.actor.addGuardian') {
        // Everything typed stays; the server's words under the role, or «not added» above the buttons.
        expect(c.guardian).toEqual(ctx(env.from).guardian);
        const error = env.event.error as { status: number };
        expect(c.guardianErrors).toEqual(
          error.status === 422 ? { rol_adulto_id: { text: 'Ese estudiante ya tiene apoderado suplente.' } } : {},
        );
        expect(c.guardianFailed).toBe(error.status !== 422);
      }
      if (env.event.type === 'guardian.change') {
        const { field, value } = env.event as unknown as { field: 'nombres'; value: string };
        expect(c.guardian[field]).toBe(value);
        expect(c.guardianErrors[field]).toBeUndefined();
      }
    },
    'ready.adding.sending': (s, env) => {
      running(env, 'addGuardian');
      expect(s.hasTag('busy')).toBe(true);
      const g = ctx(s).guardian;
      expect(refusedGuardian(ctx(s))).toEqual([]);
      expect(env.fakes.inputOf('addGuardian')).toEqual({
        studentId: 7,
        guardian: {
          nombres: 'Pedro',
          apellido_paterno: 'Núñez',
          apellido_materno: '',
          email: null,
          fono_celular: null,
          tipo_documento_id: null,
          dni: null,
          rol_adulto_id: Number(g.rol_adulto_id),
          relationship: 'Padre',
        },
      });
    },
    'ready.confirmingRemove': (s, env) => {
      running(env, null);
      expect(ctx(s).guardianId).toBe(21);
      if (env.event.type === 'xstate.error.actor.removeGuardian') expect(ctx(s).problem).toEqual({ text: 'No se pudo quitar.' });
      if (env.event.type === 'guardian.remove') expect(ctx(s).problem).toBeNull();
    },
    'ready.removing': (s, env) => {
      running(env, 'removeGuardian');
      expect(env.fakes.inputOf('removeGuardian')).toEqual({ studentId: 7, guardianId: 21 });
      expect(s.hasTag('busy')).toBe(true);
    },
    'ready.confirmingWithdraw': (s, env) => {
      running(env, null);
      if (env.event.type === 'xstate.error.actor.withdrawStudent')
        expect(ctx(s).problem).toEqual({ text: 'El estudiante ya está retirado.' });
      else expect(ctx(s).problem).toBeNull();
    },
    'ready.withdrawing': (s, env) => {
      running(env, 'withdrawStudent');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('withdrawStudent')).toEqual({ studentId: 7 });
    },
    'ready.confirmingEnrol': (s, env) => {
      running(env, null);
      // A failure with no words of the server's: the question says it could not be done.
      if (env.event.type === 'xstate.error.actor.enrolStudent') expect(ctx(s).problem).toEqual({ key: 'people.error.failed' });
      else expect(ctx(s).problem).toBeNull();
    },
    'ready.enrolling': (s, env) => {
      running(env, 'enrolStudent');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('enrolStudent')).toEqual({ studentId: 7 });
    },
  },
  events: {
    'person.change': send,
    'person.save': send,
    'person.retry': send,
    'person.withdraw': send,
    'person.enrol': send,
    'person.confirm': send,
    'person.cancel': send,
    'guardian.open': send,
    'guardian.change': send,
    'guardian.save': send,
    'guardian.cancel': send,
    'guardian.remove': send,
    'xstate.done.actor.fetchPerson': settle,
    'xstate.error.actor.fetchPerson': settle,
    'xstate.done.actor.savePerson': settle,
    'xstate.error.actor.savePerson': settle,
    'xstate.done.actor.addGuardian': settle,
    'xstate.error.actor.addGuardian': settle,
    'xstate.done.actor.removeGuardian': settle,
    'xstate.error.actor.removeGuardian': settle,
    'xstate.done.actor.withdrawStudent': settle,
    'xstate.error.actor.withdrawStudent': settle,
    'xstate.done.actor.enrolStudent': settle,
    'xstate.error.actor.enrolStudent': settle,
  },
  emits,
});
