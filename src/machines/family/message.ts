// One message in the families' app: opened (the server reports it received), then reported read when it
// was unread (POST …/read: the staff's reception screen shows «leído» for this guardian). A failed report
// of reading does not hide the message; the next opening reports it again. When the author allowed replies,
// a reply box: checked here as the server checks it, sent, and added to the conversation below as the
// guardian's own. A 401 anywhere tells the root `session.expired`.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { FamilyMessageDetail } from '../../../shared/family-contract';
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
  /** Replies sent from this screen. */
  replies: number;
}

type MessageEvent = { type: 'message.retry' } | { type: 'reply.change'; content: string } | { type: 'reply.send' };

export const familyMessageMachine = setup({
  types: {
    context: {} as MessageContext,
    events: {} as MessageEvent,
    input: {} as { token: string; id: number },
    emitted: {} as SessionExpired,
  },
  actors: { fetchMessage, markRead, sendReply },
  actions: {
    assignMessage: assign((_, message: FamilyMessageDetail) => ({ message, failure: null })),
    assignRead: assign(({ context }) => ({ message: context.message && { ...context.message, read: true } })),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    changeDraft: assign(({ event }) => {
      assertEvent(event, 'reply.change');
      return { draft: event.content, replyProblem: null, replyFailure: null };
    }),
    showReplyProblem: assign(({ context }) => ({ replyProblem: replyProblem(context.draft) })),
    clearReplyFailure: assign({ replyFailure: null }),
    addReply: assign(({ context }, id: number) => ({
      message: context.message && {
        ...context.message,
        thread: [
          ...context.message.thread,
          // As the server will list it (the guardian's own answer); its time is the server's to say.
          { id, title: `Re: ${context.message.title}`, content: context.draft, sender_name: '', mine: true, sent_at: null },
        ],
      },
      draft: '',
      replies: context.replies + 1,
    })),
    assignReplyFailure: assign((_, failure: FamilyFailure) => ({ replyFailure: replyFailureOf(failure) })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnread: (_, message: FamilyMessageDetail) => !message.read,
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
    canReply: ({ context }) => context.message?.allow_replies === true,
    // A message that is not this guardian's stays missing however often it is asked for.
    canRetry: ({ context }) => context.failure !== 'missing',
    canSendReply: ({ context }) => context.message?.allow_replies === true && replyProblem(context.draft) === null,
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
        onDone: { target: 'ready', actions: 'assignRead' },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'ready' },
        ],
      },
      on: { 'reply.change': { guard: 'canReply', actions: 'changeDraft' } },
    },
    ready: {
      on: {
        'reply.change': { guard: 'canReply', actions: 'changeDraft' },
        'reply.send': [
          { guard: 'canSendReply', target: 'replying', actions: 'clearReplyFailure' },
          { guard: 'canReply', actions: 'showReplyProblem' },
        ],
      },
    },
    replying: {
      tags: 'busy',
      invoke: {
        id: 'sendReply',
        src: 'sendReply',
        input: ({ context }) => ({ token: context.token, id: context.id, content: context.draft }),
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
export const selectIsReplying = (s: FamilyMessageSnapshot): boolean => s.matches('replying');
export const selectReplies = (s: FamilyMessageSnapshot): number => s.context.replies;
