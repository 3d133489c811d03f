// One message in the families' app: opened (the server reports it received), then reported read when it
// was unread (POST …/read: the staff's reception screen shows «leído» for this guardian). A failed report
// of reading does not hide the message; the next opening reports it again. When the author allowed replies,
// a reply box: checked here as the server checks it, then at once in the conversation below as the
// guardian's own, «Enviando…» until the server has it; if it fails, the text goes back to the box, nothing
// lost. «Enviar» while the reading is reported or the conversation is asked for again (seconds on a weak
// signal) is not lost: the reply goes at once into the conversation, «Enviando…», and is sent as soon as
// that request ends, whatever its result. «Actualizar conversación» asks for the message again (the staff's new answers) without hiding it or
// the draft. A 401 anywhere tells the root `session.expired`.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { FamilyMessageDetail, FamilyReplyAnswer } from '../../../shared/family-contract';
import { fetchMessage, markRead, sendReply, toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import type { SessionExpired } from './inbox';
import {
  isUnauthorizedFailure,
  replyFailureOf,
  replyProblem,
  screenFailureOf,
  type ReplyFailure,
  type ReplyProblem,
  type ScreenFailure,
} from './screen-rules';

interface MessageContext {
  token: string;
  id: number;
  message: FamilyMessageDetail | null;
  failure: ScreenFailure | null;
  draft: string;
  replyProblem: ReplyProblem | null;
  replyFailure: ReplyFailure | null;
  /** The reply on its way: shown in the conversation, back in the box if it fails. */
  pending: string | null;
  /** «Actualizar conversación» failed; the message shown stays. */
  refreshFailure: ScreenFailure | null;
  /** Replies sent from this screen. */
  replies: number;
}

type MessageEvent =
  | { type: 'message.retry' }
  | { type: 'message.refresh' }
  | { type: 'reply.change'; content: string }
  | { type: 'reply.send' };

export const familyMessageMachine = setup({
  types: {
    context: {} as MessageContext,
    events: {} as MessageEvent,
    input: {} as { token: string; id: number },
    emitted: {} as SessionExpired,
  },
  actors: { fetchMessage, markRead, sendReply },
  actions: {
    assignMessage: assign((_, message: FamilyMessageDetail) => ({ message, failure: null, refreshFailure: null })),
    assignRefreshFailure: assign((_, failure: FamilyFailure) => ({ refreshFailure: screenFailureOf(failure) })),
    clearRefreshFailure: assign({ refreshFailure: null }),
    assignRead: assign(({ context }) => ({ message: context.message && { ...context.message, read: true } })),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    changeDraft: assign(({ event }) => {
      assertEvent(event, 'reply.change');
      return { draft: event.content, replyProblem: null, replyFailure: null };
    }),
    showReplyProblem: assign(({ context }) => ({ replyProblem: replyProblem(context.draft) })),
    startReply: assign(({ context }) => ({ pending: context.draft, draft: '', replyFailure: null })),
    addReply: assign(({ context }, answer: FamilyReplyAnswer) => ({
      message: context.message && {
        ...context.message,
        thread: [
          ...context.message.thread,
          // As the server lists it (the guardian's own answer, at the server's time); their name is theirs.
          {
            id: answer.id,
            title: `Re: ${context.message.title}`,
            content: context.pending ?? '',
            sender_name: '',
            mine: true,
            sent_at: answer.sent_at,
          },
        ],
      },
      pending: null,
      replies: context.replies + 1,
    })),
    // Back in the box as it was (the box takes no typing while it is on its way).
    assignReplyFailure: assign(({ context }, failure: FamilyFailure) => ({
      replyFailure: replyFailureOf(failure),
      draft: context.pending ?? '',
      pending: null,
    })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnread: (_, message: FamilyMessageDetail) => !message.read,
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
    canReply: ({ context }) => context.message?.allow_replies === true,
    // A message that is not this guardian's stays missing however often it is asked for.
    canRetry: ({ context }) => context.failure !== 'missing',
    // Not while a reply waits to be sent: the box shows it in the conversation and gets it back on failure.
    canChangeDraft: ({ context }) => context.message?.allow_replies === true && context.pending === null,
    hasPendingReply: ({ context }) => context.pending !== null,
    canSendReply: ({ context }) =>
      context.message?.allow_replies === true && context.pending === null && replyProblem(context.draft) === null,
  },
}).createMachine({
  id: 'familyMessage',
  initial: 'loading',
  context: ({ input }) => ({
    token: input.token,
    id: input.id,
    message: null,
    failure: null,
    draft: '',
    replyProblem: null,
    replyFailure: null,
    pending: null,
    refreshFailure: null,
    replies: 0,
  }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchMessage',
        src: 'fetchMessage',
        input: ({ context }) => ({ token: context.token, id: context.id }),
        onDone: [
          {
            guard: { type: 'isUnread', params: ({ event }) => event.output },
            target: 'marking',
            actions: { type: 'assignMessage', params: ({ event }) => event.output },
          },
          { target: 'ready', actions: { type: 'assignMessage', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    // The message is shown while its reading is reported.
    marking: {
      invoke: {
        id: 'markRead',
        src: 'markRead',
        input: ({ context }) => ({ token: context.token, id: context.id }),
        onDone: [
          { guard: 'hasPendingReply', target: 'replying', actions: 'assignRead' },
          { target: 'ready', actions: 'assignRead' },
        ],
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { guard: 'hasPendingReply', target: 'replying' },
          { target: 'ready' },
        ],
      },
      on: {
        'reply.change': { guard: 'canChangeDraft', actions: 'changeDraft' },
        // Kept to send once the report ends (it is not cancelled: the staff still see «leído»).
        'reply.send': [
          { guard: 'canSendReply', actions: 'startReply' },
          { guard: 'canChangeDraft', actions: 'showReplyProblem' },
        ],
      },
    },
    ready: {
      on: {
        'reply.change': { guard: 'canReply', actions: 'changeDraft' },
        'reply.send': [
          { guard: 'canSendReply', target: 'replying', actions: 'startReply' },
          { guard: 'canReply', actions: 'showReplyProblem' },
        ],
        'message.refresh': { target: 'refreshing', actions: 'clearRefreshFailure' },
      },
    },
    // The message stays shown, and the draft stays as typed, while it is asked for again.
    refreshing: {
      tags: 'busy',
      invoke: {
        id: 'refreshMessage',
        src: 'fetchMessage',
        input: ({ context }) => ({ token: context.token, id: context.id }),
        onDone: [
          { guard: 'hasPendingReply', target: 'replying', actions: { type: 'assignMessage', params: ({ event }) => event.output } },
          { target: 'ready', actions: { type: 'assignMessage', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          {
            guard: 'hasPendingReply',
            target: 'replying',
            actions: { type: 'assignRefreshFailure', params: ({ event }) => toFamilyFailure(event.error) },
          },
          { target: 'ready', actions: { type: 'assignRefreshFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
      on: {
        'reply.change': { guard: 'canChangeDraft', actions: 'changeDraft' },
        // Kept to send once the conversation is back.
        'reply.send': [
          { guard: 'canSendReply', actions: 'startReply' },
          { guard: 'canChangeDraft', actions: 'showReplyProblem' },
        ],
      },
    },
    replying: {
      tags: 'busy',
      invoke: {
        id: 'sendReply',
        src: 'sendReply',
        input: ({ context }) => ({ token: context.token, id: context.id, content: context.pending ?? '' }),
        onDone: { target: 'ready', actions: { type: 'addReply', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'ready', actions: { type: 'assignReplyFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    failed: {
      on: { 'message.retry': { guard: 'canRetry', target: 'loading' } },
    },
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyMessageActor = ActorRefFrom<typeof familyMessageMachine>;
type FamilyMessageSnapshot = SnapshotFrom<typeof familyMessageMachine>;

type MessagePhase = 'loading' | 'shown' | 'failed' | 'expired';

export function selectMessagePhase(s: FamilyMessageSnapshot): MessagePhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('expired')) return 'expired';
  return 'shown';
}
export const selectMessage = (s: FamilyMessageSnapshot): FamilyMessageDetail | null => s.context.message;
export const selectMessageFailure = (s: FamilyMessageSnapshot): ScreenFailure | null => s.context.failure;
export const selectDraft = (s: FamilyMessageSnapshot): string => s.context.draft;
export const selectReplyProblem = (s: FamilyMessageSnapshot): ReplyProblem | null => s.context.replyProblem;
export const selectReplyFailureKind = (s: FamilyMessageSnapshot): ReplyFailure['kind'] | null => s.context.replyFailure?.kind ?? null;
export const selectReplyFailureMessage = (s: FamilyMessageSnapshot): string =>
  s.context.replyFailure?.kind === 'server' ? s.context.replyFailure.message : '';
/** A reply on its way, or waiting for the read report or the refresh to end before it is sent. */
export const selectIsReplying = (s: FamilyMessageSnapshot): boolean => s.matches('replying') || s.context.pending !== null;
/** The reply on its way (shown at the end of the conversation), or null. */
export const selectPendingReply = (s: FamilyMessageSnapshot): string | null => s.context.pending;
export const selectIsRefreshing = (s: FamilyMessageSnapshot): boolean => s.matches('refreshing');
export const selectRefreshFailure = (s: FamilyMessageSnapshot): ScreenFailure | null => s.context.refreshFailure;
export const selectReplies = (s: FamilyMessageSnapshot): number => s.context.replies;
