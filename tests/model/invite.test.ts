// «Invitar personal» (staff/invite.ts): one person or many (pasted, or a CSV file read into the same text),
// sent only when every row is right (otherwise the problems show and the focus goes to the field); the
// answer's outcomes shown; a failed send keeps everything; closing tells the staff screen how many were invited.
import { createActor, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { inviteMachine } from '../../src/machines/staff/invite';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure } from './fixtures';
import { recordingParent, PLANNING_PARENT } from './doubles';

const GOOD_TEXT = 'Ana Rojas;ana.rojas@sanandres.cl;docente\nPedro Soto;pedro.soto@sanandres.cl;Jefe de UTP';
const BAD_TEXT = 'nombre;correo;rol\nAna Rojas;ana.rojas;jardinero';
const FILE = new File(['ignored'], 'personal.csv', { type: 'text/csv' });
const FILE_TEXT = 'Nombre,Correo,Rol\nLuisa Pérez,luisa.perez@sanandres.cl,profesora';
const OUTCOMES = [
  { index: 0, email: 'ana.rojas@sanandres.cl', outcome: 'invited', id: 50, expires_at: '2026-03-09T12:00:00.000Z', mail_sent: true },
  { index: 1, email: 'pedro.soto@sanandres.cl', outcome: 'member', id: 1 },
];
const REFUSED = failure(422, 'validation.failed', 'Revisa los campos', { people: ['Puedes invitar hasta 500 personas a la vez.'] });
const OFFLINE = failure(0, 'network', 'Failed to fetch');

/** What each sendable form sends, written out by hand. */
const PEOPLE: Record<string, unknown[]> = {
  [GOOD_TEXT]: [
    { name: 'Ana Rojas', email: 'ana.rojas@sanandres.cl', role: 'docente' },
    { name: 'Pedro Soto', email: 'pedro.soto@sanandres.cl', role: 'colegio-utp' },
  ],
  [FILE_TEXT]: [{ name: 'Luisa Pérez', email: 'luisa.perez@sanandres.cl', role: 'docente' }],
};

interface Form {
  mode: string;
  name: string;
  email: string;
  role: string;
  text: string;
}
/** Sendable: one person with a name and an e-mail address, or a text whose every row is right (this test's texts). */
const sendable = (c: Form) =>
  c.mode === 'one' ? c.name.trim() !== '' && /^\S+@\S+\.\S+$/.test(c.email.trim()) : c.text === GOOD_TEXT || c.text === FILE_TEXT;
const peopleOf = (c: Form) => (c.mode === 'one' ? [{ name: 'Ana Rojas', email: 'ana.rojas@sanandres.cl', role: c.role }] : PEOPLE[c.text]);
const firstField = (c: Form) => ({ type: 'focus', target: c.mode === 'one' ? 'invite-name' : 'invite-text' });

let heard: AnyEventObject[] = [];

/** The invitations the path's answers made, as the dialog must count them when it closes. */
const invitedSoFar = (history: readonly AnyEventObject[]) =>
  history
    .filter((event) => event.type === 'xstate.done.actor.inviteStaff')
    .reduce((sum, event) => sum + (event.output as Array<{ outcome: string }>).filter((o) => o.outcome === 'invited').length, 0);

function always(env: StepEnv) {
  const told = heard.splice(0);
  expect(told).toEqual(env.event.type === 'invite.close' ? [{ type: 'invite.closed', invited: invitedSoFar(env.history) }] : []);
}

defineModelTests({
  name: 'invite',
  machine: inviteMachine,
  oracle: {
    initial: 'editing',
    targets: {
      editing: {
        'invite.file': 'reading',
        'invite.send': ({ context, stay }) => (sendable(context) ? 'sending' : stay),
      },
      reading: { 'xstate.done.actor.readTextFile': 'editing', 'xstate.error.actor.readTextFile': 'editing' },
      sending: { 'xstate.done.actor.inviteStaff': 'done', 'xstate.error.actor.inviteStaff': 'editing' },
      done: { 'invite.again': 'editing' },
    },
  },
  traversal: {
    input: { parent: PLANNING_PARENT },
    events: [
      { type: 'invite.mode', mode: 'many' },
      { type: 'invite.mode', mode: 'one' },
      { type: 'invite.name', value: 'Ana Rojas' },
      { type: 'invite.email', value: 'ana.rojas' },
      { type: 'invite.email', value: 'ana.rojas@sanandres.cl' },
      { type: 'invite.role', role: 'colegio-utp' },
      { type: 'invite.text', text: GOOD_TEXT },
      { type: 'invite.text', text: BAD_TEXT },
      { type: 'invite.file', file: FILE },
      { type: 'invite.send' },
      { type: 'invite.again' },
      { type: 'invite.close' },
    ],
    internal: [
      { type: 'xstate.done.actor.readTextFile', output: FILE_TEXT },
      { type: 'xstate.error.actor.readTextFile', error: new Error('unreadable') },
      { type: 'xstate.done.actor.inviteStaff', output: OUTCOMES },
      { type: 'xstate.error.actor.inviteStaff', error: REFUSED },
      { type: 'xstate.error.actor.inviteStaff', error: OFFLINE },
    ],
    // The one person's fields while inviting one, the text while inviting many.
    filterEvents: (s, event) => {
      const many = s.context.mode === 'many';
      if (/^invite\.(name|email|role)$/.test(event.type)) return !many;
      if (/^invite\.(text|file)$/.test(event.type)) return many;
      return true;
    },
    serializeState: (s) => {
      const c = s.context;
      return JSON.stringify([
        s.value,
        c.mode,
        c.mode === 'one' ? [c.name, c.email, c.role] : [c.text, c.fileName],
        c.checked,
        c.failure !== null,
        c.invited > 0,
      ]);
    },
    limit: 20_000,
  },
  createActor: ({ fakes, inspect, machine }) => {
    heard = [];
    return createActor(machine.provide({ actors: { inviteStaff: fakes.promise(), readTextFile: fakes.promise() } }), {
      input: { parent: recordingParent(heard) },
      inspect,
    });
  },
  states: {
    editing: (s, env) => {
      always(env);
      expect(env.fakes.isRunning('inviteStaff')).toBe(false);
      if (env.event.type === 'invite.send') expect(s.context.checked).toBe(true);
      if (env.event.type === 'xstate.error.actor.inviteStaff') {
        // Nothing typed is lost, and why it was not sent is said.
        const before = env.from.context as Form;
        expect([s.context.mode, s.context.name, s.context.email, s.context.role, s.context.text]).toEqual([
          before.mode,
          before.name,
          before.email,
          before.role,
          before.text,
        ]);
        expect(s.context.failure).toEqual(
          (env.event.error as { status: number }).status === 422
            ? { text: 'Puedes invitar hasta 500 personas a la vez.' }
            : { key: 'invite.failed' },
        );
      }
      if (env.event.type === 'xstate.done.actor.readTextFile')
        expect([s.context.text, s.context.fileName]).toEqual([FILE_TEXT, 'personal.csv']);
      if (env.event.type === 'xstate.error.actor.readTextFile') expect(s.context.failure).toEqual({ key: 'invite.fileUnreadable' });
      if (env.event.type === 'invite.again' && env.from.matches('done'))
        expect([s.context.name, s.context.email, s.context.text, s.context.outcomes, s.context.checked]).toEqual(['', '', '', null, false]);
    },
    reading: (s, env) => {
      always(env);
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('readTextFile')).toEqual({ file: FILE });
    },
    sending: (s, env) => {
      always(env);
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('inviteStaff')).toEqual({ people: peopleOf(s.context) });
    },
    done: (s, env) => {
      always(env);
      expect(s.context.outcomes).toEqual(OUTCOMES);
    },
  },
  events: {
    'invite.mode': send,
    'invite.name': send,
    'invite.email': send,
    'invite.role': send,
    'invite.text': send,
    'invite.file': send,
    'invite.send': send,
    'invite.again': send,
    'invite.close': send,
    'xstate.done.actor.readTextFile': settle,
    'xstate.error.actor.readTextFile': settle,
    'xstate.done.actor.inviteStaff': settle,
    'xstate.error.actor.inviteStaff': settle,
  },
  emits: ({ from, event }) => {
    const c = from.context as Form;
    if (event.type === 'invite.send' && from.matches('editing')) return sendable(c) ? [] : [firstField(c)];
    if (event.type === 'xstate.done.actor.inviteStaff') return [{ type: 'focus', target: 'invite-result' }];
    if (event.type === 'xstate.error.actor.inviteStaff') return [firstField(c)];
    if (event.type === 'invite.again' && from.matches('done')) return [firstField(c)];
    return [];
  },
  contextOf: (context) => {
    const { parent: _parent, ...rest } = context as { parent: unknown };
    return JSON.parse(JSON.stringify(rest)) as unknown;
  },
});
