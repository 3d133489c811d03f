// One file of a message, downloaded on request: fetched with the bearer token and saved by the browser
// (services/family/api.ts downloadAttachment). One actor per file on the message screen, so two files can
// download at once and each says its own failure; asking again retries. A 401 tells the root
// `session.expired`.
import { emit, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { FamilyAttachment } from '../../../shared/family-contract';
import { downloadAttachment, toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import type { SessionExpired } from './inbox';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface DownloadContext {
  token: string;
  messageId: number;
  attachment: FamilyAttachment;
  failure: ScreenFailure | null;
}

type DownloadEvent = { type: 'attachment.download' };

export const familyDownloadMachine = setup({
  types: {
    context: {} as DownloadContext,
    events: {} as DownloadEvent,
    input: {} as { token: string; messageId: number; attachment: FamilyAttachment },
    emitted: {} as SessionExpired,
  },
  actors: { downloadAttachment },
  actions: {
    clearFailure: assign({ failure: null }),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
  },
}).createMachine({
  id: 'familyDownload',
  initial: 'idle',
  context: ({ input }) => ({ token: input.token, messageId: input.messageId, attachment: input.attachment, failure: null }),
  states: {
    idle: {
      on: { 'attachment.download': { target: 'downloading', actions: 'clearFailure' } },
    },
    downloading: {
      tags: 'busy',
      invoke: {
        id: 'downloadAttachment',
        src: 'downloadAttachment',
        input: ({ context }) => ({ token: context.token, messageId: context.messageId, attachment: context.attachment }),
        onDone: { target: 'idle' },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'idle', actions: { type: 'assignFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyDownloadActor = ActorRefFrom<typeof familyDownloadMachine>;
type FamilyDownloadSnapshot = SnapshotFrom<typeof familyDownloadMachine>;

export const selectIsDownloading = (s: FamilyDownloadSnapshot): boolean => s.hasTag('busy');
export const selectDownloadFailure = (s: FamilyDownloadSnapshot): ScreenFailure | null => s.context.failure;
