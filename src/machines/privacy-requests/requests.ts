// The requests a person makes about their data, answered from their privacy page (the school's
// administrators): block every message to them, saying who asked (the person, their guardian, a
// representative), or lift the block; and erase them, after reading what goes and typing the word the server
// asks for. What the person is now (blocked since, erased) comes from the server's inventory as input; an
// erasure done ends the machine, and the page reads the person again.
import { assertEvent, assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { PrivacyBlockState } from '../../../shared/privacy-contract';
import type { BlockRequester, ErasureCounts, ErasureResult, PersonBlock } from '../../../shared/privacy-requests-contract';
import { serverMessage, toApiFailure, type ApiFailure } from '../../services/http/client';
import type { PrivacyPersonKey } from '../../services/privacy/privacy';
import {
  deletePersonBlock,
  type ErasurePreviewView,
  fetchErasurePreview,
  postErasure,
  putPersonBlock,
} from '../../services/privacy-requests/privacy-requests';

export interface PrivacyRequestsInput {
  key: PrivacyPersonKey;
  block: PrivacyBlockState | null;
  erasedAt: string | null;
}

export interface PrivacyRequestsContext extends PrivacyRequestsInput {
  /** Who asked for the block being answered; null until chosen. */
  requester: BlockRequester | null;
  /** What an erasure removes, read as its dialog opens. */
  preview: ErasureCounts | null;
  /** Why the erasure may not be done (the school's last administrator, oneself), in the server's words; null when it may. */
  impediment: string | null;
  /** What the administrator typed to confirm the erasure. */
  confirmation: string;
  failure: ApiFailure | null;
}

export type PrivacyRequestsEvent =
  | { type: 'block.start' }
  | { type: 'block.choose'; requester: BlockRequester }
  | { type: 'block.confirm' }
  | { type: 'block.cancel' }
  | { type: 'block.lift' }
  | { type: 'erasure.start' }
  | { type: 'erasure.type'; text: string }
  | { type: 'erasure.confirm' }
  | { type: 'erasure.cancel' };

export const privacyRequestsMachine = setup({
  types: {
    input: {} as PrivacyRequestsInput,
    context: {} as PrivacyRequestsContext,
    events: {} as PrivacyRequestsEvent,
    output: {} as { erasedAt: string },
  },
  actors: { putPersonBlock, deletePersonBlock, fetchErasurePreview, postErasure },
  actions: {
    startBlock: assign({ requester: null, failure: null }),
    chooseRequester: assign({
      requester: ({ event }) => {
        assertEvent(event, 'block.choose');
        return event.requester;
      },
    }),
    assignBlock: assign((_, block: PersonBlock) => ({ block: { solicitado_por: block.solicitado_por, bloqueado_el: block.bloqueado_el } })),
    clearBlock: assign({ block: null }),
    clearFailure: assign({ failure: null }),
    assignFailure: assign((_, failure: ApiFailure) => ({ failure })),
    assignPreview: assign((_, view: ErasurePreviewView) => ({ preview: view.counts, impediment: view.impediment, confirmation: '' })),
    typeConfirmation: assign({
      confirmation: ({ event }) => {
        assertEvent(event, 'erasure.type');
        return event.text;
      },
    }),
    closeErasure: assign({ preview: null, impediment: null, confirmation: '', failure: null }),
    assignErased: assign((_, result: ErasureResult) => ({ erasedAt: result.eliminado_el })),
  },
  guards: {
    canBlock: ({ context }) => context.block === null && context.erasedAt === null,
    isBlocked: ({ context }) => context.block !== null && context.erasedAt === null,
    canErase: ({ context }) => context.erasedAt === null,
    hasRequester: ({ context }) => context.requester !== null,
    canConfirmErasure: ({ context }) => context.impediment === null && context.confirmation.trim() !== '',
  },
}).createMachine({
  id: 'privacyRequests',
  initial: 'idle',
  context: ({ input }) => ({ ...input, requester: null, preview: null, impediment: null, confirmation: '', failure: null }),
  output: ({ context }) => ({ erasedAt: context.erasedAt ?? '' }),
  states: {
    idle: {
      on: {
        'block.start': { guard: 'canBlock', target: 'choosingRequester', actions: 'startBlock' },
        'block.lift': { guard: 'isBlocked', target: 'lifting', actions: 'clearFailure' },
        'erasure.start': { guard: 'canErase', target: 'previewing', actions: 'clearFailure' },
      },
    },
    choosingRequester: {
      on: {
        'block.choose': { actions: 'chooseRequester' },
        'block.confirm': { guard: 'hasRequester', target: 'blocking' },
        'block.cancel': { target: 'idle', actions: 'clearFailure' },
      },
    },
    blocking: {
      tags: 'busy',
      invoke: {
        id: 'putPersonBlock',
        src: 'putPersonBlock',
        input: ({ context }) => ({ key: context.key, requester: context.requester ?? 'persona' }),
        onDone: { target: 'idle', actions: [{ type: 'assignBlock', params: ({ event }) => event.output }, 'clearFailure'] },
        onError: { target: 'choosingRequester', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    lifting: {
      tags: 'busy',
      invoke: {
        id: 'deletePersonBlock',
        src: 'deletePersonBlock',
        input: ({ context }) => context.key,
        onDone: { target: 'idle', actions: 'clearBlock' },
        onError: { target: 'idle', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    previewing: {
      tags: 'busy',
      invoke: {
        id: 'fetchErasurePreview',
        src: 'fetchErasurePreview',
        input: ({ context }) => context.key,
        onDone: { target: 'confirmingErasure', actions: { type: 'assignPreview', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    confirmingErasure: {
      on: {
        'erasure.type': { actions: 'typeConfirmation' },
        'erasure.confirm': { guard: 'canConfirmErasure', target: 'erasing', actions: 'clearFailure' },
        'erasure.cancel': { target: 'idle', actions: 'closeErasure' },
      },
    },
    erasing: {
      tags: 'busy',
      invoke: {
        id: 'postErasure',
        src: 'postErasure',
        input: ({ context }) => ({ key: context.key, confirmation: context.confirmation.trim() }),
        onDone: { target: 'erased', actions: { type: 'assignErased', params: ({ event }) => event.output } },
        onError: { target: 'confirmingErasure', actions: { type: 'assignFailure', params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    // Done: the page reads the person again and shows them erased.
    erased: { type: 'final' },
  },
});

export type PrivacyRequestsActor = ActorRefFrom<typeof privacyRequestsMachine>;
export type PrivacyRequestsSnapshot = SnapshotFrom<typeof privacyRequestsMachine>;

export const selectRequestsBusy = (s: PrivacyRequestsSnapshot): boolean => s.hasTag('busy');
export const selectBlockedAt = (s: PrivacyRequestsSnapshot): string | null => s.context.block?.bloqueado_el ?? null;
export const selectBlockRequester = (s: PrivacyRequestsSnapshot): BlockRequester | null => s.context.block?.solicitado_por ?? null;
export const selectErasedAt = (s: PrivacyRequestsSnapshot): string | null => s.context.erasedAt;
export const selectChosenRequester = (s: PrivacyRequestsSnapshot): BlockRequester | null => s.context.requester;
export const selectChoosingRequester = (s: PrivacyRequestsSnapshot): boolean => s.matches('choosingRequester') || s.matches('blocking');
export const selectErasureOpen = (s: PrivacyRequestsSnapshot): boolean => s.matches('confirmingErasure') || s.matches('erasing');
export const selectErasing = (s: PrivacyRequestsSnapshot): boolean => s.matches('erasing');
export const selectConfirmation = (s: PrivacyRequestsSnapshot): string => s.context.confirmation;
export const selectPreview = (s: PrivacyRequestsSnapshot): ErasureCounts | null => s.context.preview;
export const selectImpediment = (s: PrivacyRequestsSnapshot): string | null => s.context.impediment;
export const selectCanBlock = (s: PrivacyRequestsSnapshot): boolean => s.can({ type: 'block.start' });
export const selectCanLift = (s: PrivacyRequestsSnapshot): boolean => s.can({ type: 'block.lift' });
export const selectCanErase = (s: PrivacyRequestsSnapshot): boolean => s.can({ type: 'erasure.start' });
export const selectCanConfirmBlock = (s: PrivacyRequestsSnapshot): boolean => s.can({ type: 'block.confirm' });
export const selectCanConfirmErasure = (s: PrivacyRequestsSnapshot): boolean => s.can({ type: 'erasure.confirm' });
export const selectFailed = (s: PrivacyRequestsSnapshot): boolean => s.context.failure !== null;
/** The server's Spanish words for the last failure (a field's first, then the answer's), null when it wrote none. */
export const selectFailureText = (s: PrivacyRequestsSnapshot): string | null => {
  const failure = s.context.failure;
  if (failure === null) return null;
  const field = failure.fieldErrors.confirmacion?.[0] ?? failure.fieldErrors.solicitado_por?.[0];
  return field ?? serverMessage(failure);
};
