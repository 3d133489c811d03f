// The member contact editor (recipient-lists/member-editor.ts): load the person, edit, save; the server's 422 texts land on
// their fields (the phone's under the number) and everything typed stays; other failures say so above the
// buttons; the dialog ends with the saved person, or with nothing when cancelled. A refused save (by the
// shared rules in the browser, or by the server's 422) moves keyboard focus to the first refused field, in
// the form's order, as compose and the templates editor do.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  changesOf,
  checkedErrors,
  formOf,
  memberEditorMachine,
  splitPhone,
  type MemberEditorSnapshot,
} from '../../src/machines/recipient-lists/member-editor';
import { PERSON_ERRORS } from '../../shared/person-rules';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { userToEdit } from '../fixtures/recipient-lists';

const ed = (snapshot: AnyMachineSnapshot) => snapshot as unknown as MemberEditorSnapshot;
const USER = userToEdit();
const SAVED = userToEdit({ fono_celular: '+56987654321' });
/** The record as a teacher reads it: only the school's leadership may change it (decision 0135). */
const READ_ONLY = userToEdit({ can_edit: false });
const canEdit = (context: { user: { can_edit: boolean } | null }) => context.user?.can_edit === true;
const INPUT = { listId: 1, memberId: 10, defaultPrefix: '+56' };
const PHONE_REFUSED = failure(422, 'validation.failed', 'Revisa los campos', {
  fono_celular: ['El celular debe tener 9 dígitos después de +56.'],
});
const NOTE_REFUSED = failure(422, 'validation.failed', 'Revisa los campos', { note: ['Escribe qué dato hay que corregir.'] });
const RUT_REFUSED = failure(422, 'validation.failed', 'Revisa los campos', { dni: ['El RUT no es válido: revisa el dígito verificador.'] });

/** The form's fields top to bottom, as the dialog shows them (their ids are `member-<field>`). */
const FORM_ORDER = ['nombres', 'apellido_paterno', 'apellido_materno', 'email', 'phone', 'tipo_documento_id', 'dni'];
const focusFirst = (errors: Record<string, unknown>): AnyEventObject[] => {
  const field = FORM_ORDER.find((f) => errors[f] !== undefined);
  return field ? [{ type: 'focus', target: `member-${field}` }] : [];
};

/** A RUT's check digit (decision 0069): the number's digits from the right times 2..7 in turn, 11 minus the sum mod 11. */
function rutChecks(rut: string): boolean {
  const [body = '', check = ''] = rut.replace(/\./g, '').split('-');
  const sum = [...body].reverse().reduce((total, digit, index) => total + Number(digit) * (2 + (index % 6)), 0);
  const digit = 11 - (sum % 11);
  return check.toUpperCase() === (digit === 11 ? '0' : digit === 10 ? 'K' : String(digit));
}

/**
 * What the browser refuses of this test's forms (the shared person rules, decision 0069, in short): names are
 * required, a Chilean mobile is 9 digits after +56, a RUT must pass its check digit. Fields in the form's order.
 */
const refusedFields = (form: { nombres: string; prefix: string; phone: string; dni: string }): string[] =>
  [
    form.nombres.trim() === '' && 'nombres',
    form.prefix === '+56' && form.phone !== '' && !/^\d{9}$/.test(form.phone) && 'phone',
    form.dni !== '' && !rutChecks(form.dni) && 'dni',
  ].filter((field): field is string => field !== false);

function emits({ from, event }: StepEnv): AnyEventObject[] {
  if (event.type === 'editor.save' && from.matches('editing') && canEdit(from.context as never))
    return focusFirst(checkedErrors(from.context as never));
  if (event.type === 'xstate.error.actor.saveMemberUser') {
    const error = (event as AnyEventObject).error as { status: number; fieldErrors: Record<string, string[]> };
    return error.status === 422
      ? focusFirst(Object.fromEntries(Object.entries(error.fieldErrors).map(([key, v]) => [key === 'fono_celular' ? 'phone' : key, v])))
      : [];
  }
  return [];
}

function running(env: StepEnv, id: string | null) {
  for (const other of ['fetchMemberUser', 'saveMemberUser', 'requestCorrection'])
    expect(env.fakes.isRunning(other), other).toBe(other === id);
}

defineModelTests({
  name: 'member-editor',
  machine: memberEditorMachine,
  // The header and decision 0072: the record loads (Reintentar after a failure), Guardar checks in the
  // browser before asking, a refusal or failure keeps the dialog open on the form, a save or a cancel ends it.
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchMemberUser': 'editing',
        'xstate.error.actor.fetchMemberUser': 'failed',
        'editor.cancel': 'closed',
      },
      failed: { 'editor.retry': 'loading', 'editor.cancel': 'closed' },
      editing: {
        // Read only: a written note is sent to the leadership («Solicitar corrección»); a blank one is not.
        'editor.request': ({ context, stay }) => (!canEdit(context) && context.note.trim() !== '' ? 'requesting' : stay),
        // A record the reader may not change is only read: nothing is typed, nothing is sent.
        'editor.save': ({ context, stay }) => (canEdit(context) && refusedFields(context.form).length === 0 ? 'saving' : stay),
        'editor.cancel': 'closed',
      },
      saving: { 'xstate.done.actor.saveMemberUser': 'saved', 'xstate.error.actor.saveMemberUser': 'editing' },
      requesting: { 'xstate.done.actor.requestCorrection': 'requested', 'xstate.error.actor.requestCorrection': 'editing' },
      requested: { 'editor.cancel': 'closed' },
    },
  },
  traversal: {
    input: INPUT,
    events: [
      { type: 'editor.change', field: 'phone', value: '12' },
      { type: 'editor.change', field: 'phone', value: '987654321' },
      { type: 'editor.change', field: 'dni', value: '12.345.678-9' },
      { type: 'editor.change', field: 'nombres', value: ' ' },
      { type: 'editor.save' },
      { type: 'editor.note', value: 'El celular correcto es +56 9 9747 3752' },
      { type: 'editor.note', value: ' ' },
      { type: 'editor.request' },
      { type: 'editor.retry' },
      { type: 'editor.cancel' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchMemberUser', output: USER },
      { type: 'xstate.done.actor.fetchMemberUser', output: READ_ONLY },
      { type: 'xstate.error.actor.fetchMemberUser', error: failure(500, 'server.error') },
      { type: 'xstate.done.actor.saveMemberUser', output: SAVED },
      { type: 'xstate.error.actor.saveMemberUser', error: PHONE_REFUSED },
      { type: 'xstate.error.actor.saveMemberUser', error: RUT_REFUSED },
      { type: 'xstate.error.actor.saveMemberUser', error: failure(0, 'network') },
      { type: 'xstate.done.actor.requestCorrection', output: undefined },
      { type: 'xstate.error.actor.requestCorrection', error: NOTE_REFUSED },
      { type: 'xstate.error.actor.requestCorrection', error: failure(0, 'network') },
    ],
    serializeState: (s) =>
      JSON.stringify([s.value, s.context.user?.can_edit, s.context.note, s.context.form, s.context.errors, s.context.failed, s.status]),
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: { fetchMemberUser: fakes.promise(), saveMemberUser: fakes.promise(), requestCorrection: fakes.promise() },
      }),
      {
        input: INPUT as never,
        inspect,
      },
    ),
  states: {
    loading: (s, env) => {
      running(env, 'fetchMemberUser');
      expect(env.fakes.inputOf('fetchMemberUser')).toEqual({ listId: 1, memberId: 10 });
      expect(s.hasTag('busy')).toBe(true);
      // Each entry reads the record once (Reintentar reads it again); an ignored event lets the call run.
      const entered = env.event.type === 'xstate.init' || !env.from.matches('loading');
      expect(env.started, 'requests started').toEqual(entered ? ['fetchMemberUser'] : []);
    },
    failed: (s, env) => {
      running(env, null);
      expect(s.can({ type: 'editor.retry' })).toBe(true);
    },
    editing: (s, env) => {
      running(env, null);
      const form = ed(s).context.form;
      // Loaded: the person's record, the phone split into prefix and national number.
      if (env.event.type === 'xstate.done.actor.fetchMemberUser')
        expect(form).toEqual({ ...formOf(USER, '+56'), prefix: '+56', phone: '911112222', apellido_materno: '' });
      // Read only: Guardar and typing are refused, so the dialog offers neither.
      if (!canEdit(ed(s).context)) {
        expect(s.can({ type: 'editor.save' })).toBe(false);
        expect(s.can({ type: 'editor.change', field: 'nombres', value: 'Otra' })).toBe(false);
        expect(form).toEqual(formOf(READ_ONLY, '+56'));
        // «Solicitar corrección» is offered once something is written.
        expect(s.can({ type: 'editor.request' })).toBe(ed(s).context.note.trim() !== '');
        if (env.event.type === 'editor.note') expect(ed(s).context.note).toBe((env.event as AnyEventObject).value);
        // A refused or failed request keeps the note: the server's text, or "not sent", says why.
        if (env.event.type === 'xstate.error.actor.requestCorrection') {
          expect(ed(s).context.note).toBe(env.from.context.note);
          const error = (env.event as AnyEventObject).error as { status: number };
          expect(ed(s).context.errors).toEqual(error.status === 422 ? { form: { text: 'Escribe qué dato hay que corregir.' } } : {});
          expect(ed(s).context.failed).toBe(error.status !== 422);
        } else if (env.event.type === 'editor.note' || env.event.type === 'xstate.done.actor.fetchMemberUser')
          expect(ed(s).context.errors).toEqual({});
        // Refused events (typing in the record, Guardar) change nothing.
        else expect(ed(s).context.errors).toEqual(env.from.context.errors);
        return;
      }
      expect(s.can({ type: 'editor.save' })).toBe(true);
      expect(s.can({ type: 'editor.request' })).toBe(false);
      // A refused save keeps everything typed, and puts the server's text on the field it names.
      if (env.event.type.startsWith('xstate.error.actor.saveMemberUser')) {
        expect(form).toEqual(env.from.context.form);
        const error = (env.event as AnyEventObject).error as { status: number; fieldErrors: Record<string, string[]> };
        if (error.status === 422) {
          const [[field, [text]]] = Object.entries(error.fieldErrors) as [[string, string[]]];
          expect(ed(s).context.errors).toEqual({ [field === 'fono_celular' ? 'phone' : field]: { text } });
          expect(ed(s).context.failed).toBe(false);
        } else {
          expect(ed(s).context.errors).toEqual({});
          expect(ed(s).context.failed).toBe(true);
        }
      }
      // Saving what the shared rules refuse stays here, with their Spanish text on each field (nothing sent).
      if (env.event.type === 'editor.save') {
        expect(ed(s).context.errors).toEqual(checkedErrors(env.from.context as never));
        expect(Object.keys(ed(s).context.errors).length).toBeGreaterThan(0);
        expect(Object.keys(ed(s).context.errors), 'the refused fields').toEqual(refusedFields(env.from.context.form));
        expect(form).toEqual(env.from.context.form);
      }
      // Typing in a refused field clears its error only.
      if (env.event.type === 'editor.change') {
        const field = (env.event as AnyEventObject).field as string;
        expect(ed(s).context.errors[field]).toBeUndefined();
        expect(form[field as 'phone']).toBe((env.event as AnyEventObject).value);
      }
    },
    saving: (s, env) => {
      running(env, 'saveMemberUser');
      expect(env.fakes.inputOf('saveMemberUser')).toEqual({ listId: 1, memberId: 10, changes: changesOf(ed(s).context.form) });
      expect(checkedErrors(ed(s).context)).toEqual({});
      expect(refusedFields(ed(s).context.form), 'only a form the rules accept is sent').toEqual([]);
    },
    requesting: (s, env) => {
      running(env, 'requestCorrection');
      expect(env.fakes.inputOf('requestCorrection')).toEqual({ listId: 1, memberId: 10, note: ed(s).context.note });
      expect(ed(s).context.note.trim()).not.toBe('');
      expect(canEdit(ed(s).context)).toBe(false);
      expect(s.hasTag('busy')).toBe(true);
    },
    requested: (s, env) => {
      running(env, null);
      expect(s.status).toBe('active');
      expect(s.can({ type: 'editor.request' })).toBe(false);
    },
    saved: (s) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual({ user: SAVED });
    },
    closed: (s) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual({ user: null });
    },
  },
  events: {
    'editor.change': send,
    'editor.save': send,
    'editor.retry': send,
    'editor.note': send,
    'editor.request': send,
    'xstate.done.actor.requestCorrection': settle,
    'xstate.error.actor.requestCorrection': settle,
    'editor.cancel': send,
    'xstate.done.actor.fetchMemberUser': settle,
    'xstate.error.actor.fetchMemberUser': settle,
    'xstate.done.actor.saveMemberUser': settle,
    'xstate.error.actor.saveMemberUser': settle,
  },
  // Only focus moves: the list page says what happened (toasts) once the dialog ends.
  emits,
});

// The pure rules the editor sends with: the phone as prefix plus digits, blanks as null.
import { describe, it } from 'vitest';
describe('member-editor rules', () => {
  it('splits a stored number by the longest known prefix and composes it back', () => {
    expect(splitPhone('+56912345678', '+52')).toEqual({ prefix: '+56', phone: '912345678' });
    expect(splitPhone('+15551234567', '+56')).toEqual({ prefix: '+1', phone: '5551234567' });
    expect(splitPhone(null, '+52')).toEqual({ prefix: '+52', phone: '' });
    const form = { ...formOf(USER, '+56'), phone: ' 9 8765-4321 ', email: '  ', dni: '' };
    expect(changesOf(form)).toMatchObject({ fono_celular: '+56987654321', email: null, dni: null, tipo_documento_id: 1 });
  });

  it("offers the school's own document for a guardian without one: CURP in Mexico, RUT in Chile; none for staff", () => {
    const without = userToEdit({ dni: null, tipo_documento_id: null });
    expect(formOf(without, '+52').tipo_documento_id).toBe('2');
    expect(formOf(without, '+56').tipo_documento_id).toBe('1');
    expect(formOf(without, '+54').tipo_documento_id).toBe('');
    expect(formOf(userToEdit({ user_type: 'funcionario', dni: null, tipo_documento_id: null }), '+52').tipo_documento_id).toBe('');
    // A stored document stays as it is, wherever the school is.
    expect(formOf(USER, '+52').tipo_documento_id).toBe('1');
    // The type alone, with no number, saves no document.
    expect(changesOf(formOf(without, '+52'))).toMatchObject({ dni: null, tipo_documento_id: 2 });
    expect(checkedErrors({ user: without, defaultPrefix: '+52', form: formOf(without, '+52') })).toEqual({});
  });

  it('refuses in the browser what the server would: a short phone, a RUT with a wrong check digit', () => {
    const context = { user: USER, defaultPrefix: '+56' as const };
    expect(checkedErrors({ ...context, form: { ...formOf(USER, '+56'), phone: '12' } })).toEqual({
      phone: { text: PERSON_ERRORS.phoneShape },
    });
    expect(checkedErrors({ ...context, form: { ...formOf(USER, '+56'), dni: '12.345.678-9' } })).toEqual({
      dni: { text: PERSON_ERRORS.rutCheck },
    });
    expect(checkedErrors({ ...context, form: formOf(USER, '+56') })).toEqual({});
  });
});

describe('the phone and the surnames as the editor sends them', () => {
  it('a number typed with its "+" prefix is taken whole, not prefixed twice', () => {
    const form = formOf(USER, '+56');
    expect(changesOf({ ...form, prefix: '+56', phone: '+56 9 8765 4321' }).fono_celular).toBe('+56987654321');
    expect(changesOf({ ...form, prefix: '+56', phone: '+52 55 1234 5678' }).fono_celular).toBe('+525512345678');
  });

  it('sends the maternal surname, trimmed; blank clears it', () => {
    const form = formOf(userToEdit({ apellido_materno: 'Núñez' }), '+56');
    expect(form.apellido_materno).toBe('Núñez');
    expect(changesOf({ ...form, apellido_materno: '  Del Río ' }).apellido_materno).toBe('Del Río');
    expect(changesOf({ ...form, apellido_materno: ' ' }).apellido_materno).toBe('');
  });
});
