// One message in the families' app (family/message.ts): opened, then reported read when it was unread (a
// failed report does not hide it); the reply box only where the author allowed replies, checked as the
// server checks it (not empty, at most 4000 characters), shown at once in the conversation while it is sent,
// kept there as the guardian's own at the server's time, or back in the box when it fails; «Actualizar» brings the staff's new answers without hiding the message or the draft; replies closed (409), offline and the server's 422 said; a message that is not this guardian's is
// missing for good; «Enviar» while the reading is reported or the conversation refreshed is kept (shown at
// once, «Enviando…») and sent when that request ends, whatever its result; a 401 anywhere ends the screen and tells `session.expired`.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { FamilyMessageDetail } from '../../shared/family-contract';
import { FamilyFailureError } from '../../src/services/family/api';
import {
  familyMessageMachine,
  selectDraft,
  selectIsRefreshing,
  selectIsReplying,
  selectMessage,
  selectMessageFailure,
  selectMessagePhase,
  selectPendingReply,
  selectRefreshFailure,
  selectReplies,
  selectReplyFailureKind,
  selectReplyFailureMessage,
  selectReplyProblem,
} from '../../src/machines/family/message';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectMessagePhase>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string, message = '', fieldErrors: Record<string, string[]> = {}) =>
  new FamilyFailureError({ status, code, message, fieldErrors });
const OFFLINE = failure(0, 'network');
const SERVER = failure(500, 'server.error');
const MISSING = failure(404, 'not_found', 'No encontrado.');
const EXPIRED = failure(401, 'auth.unauthenticated');
const CLOSED = failure(409, 'message.replies_closed', 'Este mensaje no admite respuestas.');
const REFUSED = failure(422, 'validation.failed', 'Revisa los campos', { content: ['La respuesta no puede estar vacía.'] });

const message = (read: boolean, allowReplies: boolean): FamilyMessageDetail => ({
  id: 12,
  title: 'Reunión de apoderados',
  snippet: 'El jueves…',
  sender_name: 'Marta Díaz',
  school_name: 'Colegio San Andrés de Ñuñoa',
  sent_at: '2026-11-28T12:00:00.000Z',
  read,
  allow_replies: allowReplies,
  student_names: 'Tomás Soto',
  content: 'El jueves a las 19:00.',
  signature: null,
  read_at: read ? '2026-11-28T13:00:00.000Z' : null,
  attachments: [],
  thread: [],
});
const UNREAD_OPEN = message(false, true);
const READ_CLOSED = message(true, false);
/** Opened again later: the staff answered meanwhile. */
const ANSWERED: FamilyMessageDetail = {
  ...message(true, true),
  thread: [
    {
      id: 50,
      title: 'Re: Reunión de apoderados',
      content: 'Los esperamos.',
      sender_name: 'Marta Díaz',
      mine: false,
      sent_at: '2026-11-29T09:00:00.000Z',
    },
  ],
};
const REPLY_ANSWER = { id: 99, sent_at: '2026-11-29T10:00:00.000Z' };

/** What this test types, and what the box says of each, by hand. */
const LONG = 'a'.repeat(4001);
const DRAFTS = { '': 'required', '   ': 'required', [LONG]: 'tooLong', 'Gracias, asistiré.': null } as Record<string, string | null>;

const lastOf = (env: StepEnv, type: string) => [...env.history].reverse().find((e) => e.type === type) as AnyEventObject | undefined;

function emits({ event }: StepEnv): AnyEventObject[] {
  return event.type.startsWith('xstate.error.actor.') && (event as { error?: unknown }).error === EXPIRED
    ? [{ type: 'session.expired' }]
    : [];
}

/**
 * While the reading is reported or the conversation asked for again: typing and «Enviar» as in `ready`, but
 * a valid reply is kept (at once in the conversation, out of the box, «Enviando…») to be sent when that
 * request ends; while it waits, the box takes no typing.
 */
function expectQueuedReply(s: AnyMachineSnapshot, env: StepEnv) {
  const before = snap(env.from);
  const allowed = selectMessage(snap(s))!.allow_replies;
  const waiting = selectPendingReply(before) !== null;
  if (env.event.type === 'reply.change') expect(selectDraft(snap(s))).toBe(allowed && !waiting ? env.event.content : selectDraft(before));
  if (env.event.type === 'reply.send') {
    if (allowed && !waiting && DRAFTS[selectDraft(before)] === null) {
      expect(selectPendingReply(snap(s))).toBe(selectDraft(before));
      expect(selectDraft(snap(s))).toBe('');
    } else {
      expect(selectPendingReply(snap(s))).toBe(selectPendingReply(before));
      expect(selectReplyProblem(snap(s))).toBe(allowed && !waiting ? DRAFTS[selectDraft(before)] : selectReplyProblem(before));
    }
  }
  // The button says «Enviando…» and the box waits for as long as a reply waits.
  expect(selectIsReplying(snap(s))).toBe(selectPendingReply(snap(s)) !== null);
}

defineModelTests({
  name: 'family-message',
  machine: familyMessageMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchMessage': ({ event }) => (event.output.read ? 'ready' : 'marking'),
        'xstate.error.actor.fetchMessage': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      marking: {
        'xstate.done.actor.markRead': ({ context }) => (context.pending === null ? 'ready' : 'replying'),
        'xstate.error.actor.markRead': ({ event, context }) =>
          event.error === EXPIRED ? 'expired' : context.pending === null ? 'ready' : 'replying',
      },
      ready: {
        'reply.send': ({ context, stay }) => (context.message?.allow_replies && DRAFTS[context.draft] === null ? 'replying' : stay),
        'message.refresh': 'refreshing',
      },
      refreshing: {
        'xstate.done.actor.refreshMessage': ({ context }) => (context.pending === null ? 'ready' : 'replying'),
        'xstate.error.actor.refreshMessage': ({ event, context }) =>
          event.error === EXPIRED ? 'expired' : context.pending === null ? 'ready' : 'replying',
      },
      replying: {
        'xstate.done.actor.sendReply': 'ready',
        'xstate.error.actor.sendReply': ({ event }) => (event.error === EXPIRED ? 'expired' : 'ready'),
      },
      failed: { 'message.retry': ({ context, stay }) => (context.failure === 'missing' ? stay : 'loading') },
    },
  },
  traversal: {
    input: { token: 'tok', id: 12 },
    events: [
      ...Object.keys(DRAFTS).map((content) => ({ type: 'reply.change', content })),
      { type: 'reply.send' },
      { type: 'message.retry' },
      { type: 'message.refresh' },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchMessage', output: UNREAD_OPEN },
      { type: 'xstate.done.actor.fetchMessage', output: READ_CLOSED },
      { type: 'xstate.error.actor.fetchMessage', error: OFFLINE },
      { type: 'xstate.error.actor.fetchMessage', error: MISSING },
      { type: 'xstate.error.actor.fetchMessage', error: EXPIRED },
      { type: 'xstate.done.actor.markRead', output: undefined },
      { type: 'xstate.error.actor.markRead', error: SERVER },
      { type: 'xstate.error.actor.markRead', error: EXPIRED },
      { type: 'xstate.done.actor.sendReply', output: REPLY_ANSWER },
      { type: 'xstate.done.actor.refreshMessage', output: ANSWERED },
      { type: 'xstate.error.actor.refreshMessage', error: OFFLINE },
      { type: 'xstate.error.actor.refreshMessage', error: EXPIRED },
      { type: 'xstate.error.actor.sendReply', error: CLOSED },
      { type: 'xstate.error.actor.sendReply', error: OFFLINE },
      { type: 'xstate.error.actor.sendReply', error: REFUSED },
      { type: 'xstate.error.actor.sendReply', error: EXPIRED },
    ],
    // One reply is enough to see it added; the count would grow the graph without end.
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        { ...(s.context as object), replies: Math.min((s.context as { replies: number }).replies, 1), message: null },
        (s.context as { message: FamilyMessageDetail | null }).message?.read,
        (s.context as { message: FamilyMessageDetail | null }).message?.allow_replies,
        (s.context as { message: FamilyMessageDetail | null }).message?.thread.length,
      ]),
    stopWhen: (s) => (s.context as { replies: number }).replies > 1,
    limit: 20000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { fetchMessage: fakes.promise(), markRead: fakes.promise(), sendReply: fakes.promise() } }), {
      input: path.input as { token: string; id: number },
      inspect,
    }),
  states: {
    loading: (s, env) => {
      expect(selectMessagePhase(snap(s))).toBe('loading');
      expect(env.fakes.inputOf('fetchMessage')).toEqual({ token: 'tok', id: 12 });
    },
    marking: (s, env) => {
      // Shown while its reading is reported.
      expect(selectMessagePhase(snap(s))).toBe('shown');
      expect(env.fakes.inputOf('markRead')).toEqual({ token: 'tok', id: 12 });
      expect(selectMessage(snap(s))?.read).toBe(false);
      expectQueuedReply(s, env);
    },
    ready: (s, env) => {
      expect(selectMessagePhase(snap(s))).toBe('shown');
      expect(selectIsReplying(snap(s))).toBe(false);
      // The message as last fetched, opened or refreshed.
      const opened = (
        [...env.history]
          .reverse()
          .find((e) => e.type === 'xstate.done.actor.fetchMessage' || e.type === 'xstate.done.actor.refreshMessage') as AnyEventObject
      ).output as FamilyMessageDetail;
      if (env.event.type === 'xstate.done.actor.markRead') expect(selectMessage(snap(s))?.read).toBe(true);
      if (env.event.type === 'xstate.error.actor.markRead') expect(selectMessage(snap(s))?.read).toBe(false);
      if (env.event.type === 'reply.change') {
        // Typing only where replies are allowed.
        expect(selectDraft(snap(s))).toBe(opened.allow_replies ? env.event.content : selectDraft(snap(env.from)));
      }
      if (env.event.type === 'reply.send' && opened.allow_replies) expect(selectReplyProblem(snap(s))).toBe(DRAFTS[selectDraft(snap(s))]);
      if (env.event.type === 'reply.send' && !opened.allow_replies) expect(selectReplyProblem(snap(s))).toBeNull();
      if (env.event.type === 'xstate.done.actor.sendReply') {
        const thread = selectMessage(snap(s))!.thread;
        expect(thread.at(-1)).toEqual({
          id: 99,
          title: 'Re: Reunión de apoderados',
          content: 'Gracias, asistiré.',
          sender_name: '',
          mine: true,
          sent_at: '2026-11-29T10:00:00.000Z',
        });
        expect(thread).toHaveLength(selectMessage(snap(env.from))!.thread.length + 1);
        expect(selectPendingReply(snap(s))).toBeNull();
        expect(selectDraft(snap(s))).toBe('');
        expect(selectReplies(snap(s))).toBe(selectReplies(snap(env.from)) + 1);
      }
      if (env.event.type === 'xstate.done.actor.refreshMessage') {
        expect(selectMessage(snap(s))).toEqual(ANSWERED);
        expect(selectRefreshFailure(snap(s))).toBeNull();
        expect(selectDraft(snap(s))).toBe(selectDraft(snap(env.from)));
      }
      if (env.event.type === 'xstate.error.actor.refreshMessage') {
        expect(selectMessage(snap(s))).toEqual(selectMessage(snap(env.from)));
        expect(selectRefreshFailure(snap(s))).toBe('offline');
      }
      if (env.event.type === 'message.refresh') throw new Error('«Actualizar» always asks the server');
      if (env.event.type === 'xstate.error.actor.sendReply') {
        const error = env.event.error;
        const expected = error === CLOSED ? 'closed' : error === OFFLINE ? 'offline' : 'server';
        expect(selectReplyFailureKind(snap(s))).toBe(expected);
        expect(selectReplyFailureMessage(snap(s))).toBe(error === REFUSED ? 'La respuesta no puede estar vacía.' : '');
        // What was written goes back to the box, to send again.
        expect(selectDraft(snap(s))).toBe('Gracias, asistiré.');
        expect(selectPendingReply(snap(s))).toBeNull();
        expect(selectMessage(snap(s))!.thread).toEqual(selectMessage(snap(env.from))!.thread);
      }
    },
    replying: (s, env) => {
      expect(selectIsReplying(snap(s))).toBe(true);
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('sendReply')).toEqual({ token: 'tok', id: 12, content: 'Gracias, asistiré.' });
      // At once in the conversation, out of the box.
      expect(selectPendingReply(snap(s))).toBe('Gracias, asistiré.');
      expect(selectDraft(snap(s))).toBe('');
      expect(selectReplyFailureKind(snap(s))).toBeNull();
      // Sent once the read report ends: the report was not given up for it.
      if (env.event.type === 'xstate.done.actor.markRead') expect(selectMessage(snap(s))?.read).toBe(true);
      if (env.event.type === 'xstate.done.actor.refreshMessage') expect(selectMessage(snap(s))!.thread).toEqual(ANSWERED.thread);
      if (env.event.type === 'xstate.error.actor.refreshMessage') expect(selectRefreshFailure(snap(s))).toBe('offline');
    },
    refreshing: (s, env) => {
      // Still shown, with its draft, while it is asked for again.
      expect(selectMessagePhase(snap(s))).toBe('shown');
      expect(selectIsRefreshing(snap(s))).toBe(true);
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('refreshMessage')).toEqual({ token: 'tok', id: 12 });
      expect(selectMessage(snap(s))).not.toBeNull();
      expectQueuedReply(s, env);
    },
    failed: (s, env) => {
      expect(selectMessagePhase(snap(s))).toBe('failed');
      const last = lastOf(env, 'xstate.error.actor.fetchMessage') as { error?: unknown } | undefined;
      expect(selectMessageFailure(snap(s))).toBe(last?.error === MISSING ? 'missing' : 'offline');
    },
    expired: (s) => {
      expect(selectMessagePhase(snap(s))).toBe('expired');
      expect(s.status).toBe('done');
    },
  },
  events: {
    'reply.change': send,
    'reply.send': send,
    'message.retry': send,
    'message.refresh': send,
    'xstate.done.actor.refreshMessage': settle,
    'xstate.error.actor.refreshMessage': settle,
    'xstate.done.actor.fetchMessage': settle,
    'xstate.error.actor.fetchMessage': settle,
    'xstate.done.actor.markRead': settle,
    'xstate.error.actor.markRead': settle,
    'xstate.done.actor.sendReply': settle,
    'xstate.error.actor.sendReply': settle,
  },
  emits,
});
