// One file of a wall post (a picture, or a document to save), fetched only when asked: a picture when it
// comes near the screen (lazy, on a weak signal the ones never scrolled to cost nothing), a document on
// «Descargar». Its bytes are kept here; the view makes (and frees) the object URL it shows them through.
// Failed (the post's other files unaffected) with retry; a 401 tells `session.expired`.
import { assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import { fetchWallFile, type WallFileInput } from '../../services/family/wall';
import type { SessionExpired } from './inbox';
import { isUnauthorizedFailure } from './screen-rules';

interface WallFileContext extends WallFileInput {
  file: Blob | null;
}

type WallFileEvent = { type: 'file.load' } | { type: 'file.retry' };

export const familyWallFileMachine = setup({
  types: {
    context: {} as WallFileContext,
    events: {} as WallFileEvent,
    input: {} as WallFileInput,
    emitted: {} as SessionExpired,
  },
  actors: { fetchWallFile },
  actions: {
    assignFile: assign((_, file: Blob) => ({ file })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
  },
}).createMachine({
  id: 'familyWallFile',
  initial: 'waiting',
  context: ({ input }) => ({ ...input, file: null }),
  states: {
    waiting: {
      on: { 'file.load': { target: 'loading' } },
    },
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchWallFile',
        src: 'fetchWallFile',
        input: ({ context }) => ({ token: context.token, postId: context.postId, attachmentId: context.attachmentId }),
        onDone: { target: 'shown', actions: { type: 'assignFile', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'failed' },
        ],
      },
    },
    shown: {},
    failed: {
      on: { 'file.retry': { target: 'loading' } },
    },
    expired: {
      entry: 'tellExpired',
      type: 'final',
    },
  },
});

export type FamilyWallFileActor = ActorRefFrom<typeof familyWallFileMachine>;
type FamilyWallFileSnapshot = SnapshotFrom<typeof familyWallFileMachine>;

export function selectFilePhase(s: FamilyWallFileSnapshot): 'waiting' | 'loading' | 'shown' | 'failed' | 'expired' {
  if (s.matches('loading')) return 'loading';
  if (s.matches('shown')) return 'shown';
  if (s.matches('failed')) return 'failed';
  if (s.matches('expired')) return 'expired';
  return 'waiting';
}
/** The file's bytes once fetched, else null. */
export const selectFileBlob = (s: FamilyWallFileSnapshot): Blob | null => (s.matches('shown') ? s.context.file : null);
