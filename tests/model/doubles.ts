// Test doubles for the model suites of machines that report to a parent (attachment, attachment-list,
// recipient-picker, compose): a parent that records what it hears, and `attachment` children whose
// uploads and deletes the test settles.
import { createActor, fromCallback, fromPromise, type AnyActorRef, type AnyEventObject } from 'xstate';
import { attachmentMachine } from '../../src/machines/attachment';
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
    deleteAttachment: fromPromise<void, { id: number }>(({ input }) => new Promise((resolve, reject) => deletes.set(input.id, { resolve: resolve as never, reject }))),
  },
});
