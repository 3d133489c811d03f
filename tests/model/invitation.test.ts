// /invitation/:token (staff/invitation.ts): the link's invitation is read; one that ran out, was used or
// revoked (410) or never existed (404) gets its page; the password is sent only when it is typed twice alike
// and, once the rule has arrived, passes it; the server's refusal keeps what was typed; accepted (the server
// set the session's cookies), the app starts again on the inbox.
import { createActor, type AnyEventObject } from 'xstate';
import { expect } from 'vitest';
import { invitationMachine, selectPasswordProblemText } from '../../src/machines/staff/invitation';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { failure, TIMES } from './fixtures';
import { TEACHER } from '../fixtures/users';
import { ACCESS_POLICY } from '../../shared/contract';

const INFO = {
  name: 'Pedro Nuevo',
  email: 'pedro.nuevo@sanandres.cl',
  school: 'Colegio San Andrés',
  expires_at: '2026-03-09T12:00:00.000Z',
};
const SHORT_REASON = 'La contraseña debe tener al menos 10 caracteres.';
/** The rule as this test states it: ten characters. */
const check = (password: string) => (password.length < 10 ? SHORT_REASON : null);
const GOOD = 'Sol de Elqui y pan amasado';
const ANSWER = { times: TIMES, user: TEACHER, policies: [ACCESS_POLICY] };
const RULE_REASON = 'Esa contraseña es muy común y fácil de adivinar.';
const gone = (code: string) => failure(410, code, 'Este enlace ya no sirve.');
const NOT_FOUND = failure(404, 'not_found', 'No encontrado');
const OFFLINE = failure(0, 'network', 'Failed to fetch');

/** Where a failed read or accept of the link leads, by its status and code. */
const goneTarget = (error: unknown, otherwise: string) => {
  const { status, code } = error as { status: number; code: string };
  if (status === 404) return 'notFound';
  if (status !== 410) return otherwise;
  return code === 'invitation.expired' ? 'expired' : code === 'invitation.used' ? 'used' : 'revoked';
};

const ruleLoaded = (history: readonly AnyEventObject[]) => history.some((event) => event.type === 'xstate.done.actor.loadPasswordRule');

interface Form {
  password: string;
  confirm: string;
  refusal: { text: string } | { key: string } | null;
}
/** Sent when typed twice alike and, with the rule here, passing it (a refusal of the server's stands until an edit). */
const ready = (c: Form, loaded: boolean) =>
  c.password !== '' && c.password === c.confirm && (!loaded || (check(c.password) === null && !(c.refusal && 'text' in c.refusal)));

function emits({ from, event, history }: StepEnv): AnyEventObject[] {
  const c = from.context as Form;
  const loaded = ruleLoaded(history.slice(0, -1));
  if (event.type === 'invitation.submit' && from.matches('editing') && !ready(c, loaded)) {
    const passwordWrong = c.password === '' || (c.refusal !== null && 'text' in c.refusal) || (loaded && check(c.password) !== null);
    return [{ type: 'focus', target: passwordWrong ? 'invitation-password' : 'invitation-confirm' }];
  }
  // Signed in by the server's cookies: the app starts again on the inbox.
  if (event.type === 'xstate.done.actor.acceptInvitation') return [{ type: 'navigate', to: '/inbox', reload: true }];
  if (event.type === 'xstate.error.actor.acceptInvitation' && goneTarget(event.error, 'editing') === 'editing')
    return [{ type: 'focus', target: 'invitation-password' }];
  return [];
}

defineModelTests({
  name: 'invitation',
  machine: invitationMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchInvitation': 'editing',
        'xstate.error.actor.fetchInvitation': ({ event }) => goneTarget(event.error, 'failed'),
      },
      failed: { 'invitation.retry': 'loading' },
      editing: {
        'invitation.submit': ({ context, stay }) => (ready(context, context.check !== null) ? 'submitting' : stay),
      },
      submitting: {
        'xstate.done.actor.acceptInvitation': 'accepted',
        'xstate.error.actor.acceptInvitation': ({ event }) => goneTarget(event.error, 'editing'),
      },
    },
  },
  traversal: {
    input: { token: 'abc123' },
    events: [
      { type: 'invitation.password', value: GOOD },
      { type: 'invitation.password', value: 'corta' },
      { type: 'invitation.password', value: '' },
      { type: 'invitation.confirm', value: GOOD },
      { type: 'invitation.confirm', value: 'otra cosa distinta' },
      { type: 'invitation.submit' },
      { type: 'invitation.retry' },
    ],
    internal: [
      { type: 'xstate.done.actor.loadPasswordRule', output: { reasonFor: check } },
      { type: 'xstate.error.actor.loadPasswordRule', error: new Error('chunk failed') },
      { type: 'xstate.done.actor.fetchInvitation', output: INFO },
      { type: 'xstate.error.actor.fetchInvitation', error: gone('invitation.expired') },
      { type: 'xstate.error.actor.fetchInvitation', error: gone('invitation.used') },
      { type: 'xstate.error.actor.fetchInvitation', error: gone('invitation.revoked') },
      { type: 'xstate.error.actor.fetchInvitation', error: NOT_FOUND },
      { type: 'xstate.error.actor.fetchInvitation', error: OFFLINE },
      { type: 'xstate.done.actor.acceptInvitation', output: ANSWER },
      { type: 'xstate.error.actor.acceptInvitation', error: failure(422, 'validation.failed', 'Revisa', { password: [RULE_REASON] }) },
      { type: 'xstate.error.actor.acceptInvitation', error: gone('invitation.used') },
      { type: 'xstate.error.actor.acceptInvitation', error: gone('invitation.expired') },
      { type: 'xstate.error.actor.acceptInvitation', error: gone('invitation.revoked') },
      { type: 'xstate.error.actor.acceptInvitation', error: NOT_FOUND },
      { type: 'xstate.error.actor.acceptInvitation', error: OFFLINE },
    ],
    filterEvents: (s, event) => {
      // The rule's load ends once (done or failed).
      if (event.type.endsWith('.loadPasswordRule')) return s.context.ruleLoading;
      if (/^invitation\.(password|confirm|submit)$/.test(event.type)) return s.matches('editing');
      if (event.type === 'invitation.retry') return s.matches('failed');
      return true;
    },
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.password,
        s.context.confirm,
        s.context.check !== null,
        s.context.ruleLoading,
        s.context.tried,
        s.context.refusal,
        s.status,
      ]),
    limit: 20_000,
  },
  createActor: ({ fakes, inspect, machine }) =>
    createActor(
      machine.provide({
        actors: { fetchInvitation: fakes.promise(), acceptInvitation: fakes.promise(), loadPasswordRule: fakes.promise() },
      }),
      { input: { token: 'abc123' }, inspect },
    ),
  states: {
    loading: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchInvitation')).toEqual({ token: 'abc123' });
    },
    failed: (s) => expect(s.context.info).toBeNull(),
    expired: () => undefined,
    used: () => undefined,
    revoked: () => undefined,
    notFound: () => undefined,
    editing: (s, env) => {
      expect(s.context.info).toEqual(INFO);
      expect(env.fakes.isRunning('acceptInvitation')).toBe(false);
      // The rule's reason shows while typing, once the rule is here; the server's refusal until the next edit.
      const c = s.context as Form;
      const expected =
        c.refusal && 'text' in c.refusal ? RULE_REASON : ruleLoaded(env.history) && c.password !== '' ? check(c.password) : null;
      expect(selectPasswordProblemText(s as never)).toBe(expected);
      if (env.event.type === 'xstate.error.actor.acceptInvitation') {
        expect([c.password, c.confirm]).toEqual([env.from.context.password, env.from.context.confirm]);
        expect(c.refusal).toEqual(
          (env.event.error as { status: number }).status === 422 ? { text: RULE_REASON } : { key: 'invitation.submitFailed' },
        );
      }
    },
    submitting: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('acceptInvitation')).toEqual({ token: 'abc123', password: s.context.password });
      expect(s.context.password).toBe(s.context.confirm);
    },
    accepted: (s) => expect(s.status).toBe('done'),
  },
  events: {
    'invitation.password': send,
    'invitation.confirm': send,
    'invitation.submit': send,
    'invitation.retry': send,
    'xstate.done.actor.loadPasswordRule': settle,
    'xstate.error.actor.loadPasswordRule': settle,
    'xstate.done.actor.fetchInvitation': settle,
    'xstate.error.actor.fetchInvitation': settle,
    'xstate.done.actor.acceptInvitation': settle,
    'xstate.error.actor.acceptInvitation': settle,
  },
  emits,
});
