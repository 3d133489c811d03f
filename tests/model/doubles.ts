// Test doubles for the model suites of machines that report to a parent (attachment, attachment-list,
// recipient-picker, compose): a parent that records what it hears, and `attachment` children whose
// uploads and deletes the test settles; and, for the hosts of a list (folder, templates, template picker),
// a stand-in for the hosted list.
import {
  assign,
  createActor,
  fromCallback,
  fromPromise,
  initialTransition,
  setup,
  transition,
  type AnyActorRef,
  type AnyEventObject,
} from 'xstate';
import { attachmentMachine } from '../../src/machines/compose/attachment';
import { attachmentListMachine } from '../../src/machines/compose/attachment-list';
import { composeMachine } from '../../src/machines/compose/compose';
import { recipientPickerMachine } from '../../src/machines/compose/recipient-picker';
import type { Fakes } from './harness';
import type { AttachmentSummary } from '../../shared/messages-contract';

/** Only used to plan paths (pure transitions send nothing). */
export const PLANNING_PARENT = { id: 'compose' } as unknown as AnyActorRef;

/** A started parent that appends every event it receives to `into`. */
export function recordingParent(into: AnyEventObject[]): AnyActorRef {
  return createActor(
    fromCallback<AnyEventObject>(({ receive }) => {
      receive((event) => into.push(event));
    }),
  ).start();
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
/** Running uploads by file name, deletes by attachment id: the test settles them. */
export const uploads = new Map<string, Pending>();
export const deletes = new Map<number, Pending>();

/** The real attachment machine over the uploads and deletes above. */
export const fakeAttachmentLogic = attachmentMachine.provide({
  actors: {
    uploadAttachment: fromPromise<AttachmentSummary, { file: File }>(
      ({ input }) => new Promise((resolve, reject) => uploads.set(input.file.name, { resolve: resolve as never, reject })),
    ),
    deleteAttachment: fromPromise<void, { id: number }>(
      ({ input }) => new Promise((resolve, reject) => deletes.set(input.id, { resolve: resolve as never, reject })),
    ),
  },
});

/**
 * Stands in for a hosted list (list/list.ts has its own model test): shows the rows a path gives it
 * (`test.show`), crashes on request, and ignores what its host tells it, so the host's own reaction is all
 * a step changes. What the host told it is read from the deliveries.
 */
export const listStandIn = setup({
  types: {
    input: {} as unknown,
    context: {} as { items: unknown[]; input: unknown },
    events: {} as { type: 'test.show'; items: unknown[] } | { type: 'test.crash' },
  },
  actions: {
    crash: () => {
      throw new Error('list: a bug');
    },
  },
}).createMachine({
  id: 'listStandIn',
  context: ({ input }) => ({ items: [], input }),
  on: {
    'test.show': { actions: assign({ items: ({ event }) => event.items }) },
    'test.crash': { actions: 'crash' },
  },
});

/** The list's snapshot showing `items`, as the host's `xstate.snapshot.list` carries it; `rows` titles paths. */
export function showingRows(rows: string, items: unknown[]) {
  const [initial] = initialTransition(listStandIn, {});
  const [shown] = transition(listStandIn, initial, { type: 'test.show', items });
  return { type: 'xstate.snapshot.list', rows, snapshot: shown };
}

/**
 * Compose with its real children (the picker and the attachment list over fakeAttachmentLogic); its load
 * (`loadCompose`), its estimate and the picker's `loadRecipients` are `fakes`' to settle.
 */
export const composeWithRealChildren = (fakes: Fakes) =>
  composeMachine.provide({
    actors: {
      fetchComposeStart: fakes.promise(),
      estimate: fakes.promise(),
      recipientPicker: recipientPickerMachine.provide({ actors: { fetchRecipients: fakes.promise() } }),
      attachmentList: attachmentListMachine.provide({ actors: { attachment: fakeAttachmentLogic } }),
    },
  });
