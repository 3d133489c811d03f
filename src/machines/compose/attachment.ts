// One attachment of the message being composed, spawned by the compose machine (id `attachment-<n>`).
// It waits in `pending` for `attachment.upload` (a new file) or `attachment.restore` (one already on the
// server, from a reopened draft or the local backup), so one logic serves both. The parent is the single entry point for
// the view: it forwards retry/delete here and learns every outcome from the events this actor sends
// it (`attachment.uploaded`, `attachment.uploadFailed`, `attachment.removed`, `attachment.deleteFailed`),
// so the compose rules read compose's own context. Progress stays here: the view reads it from this
// actor's snapshot.
import { assertEvent, assign, sendTo, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { deleteAttachment } from '../../services/compose/compose';
import { uploadAttachment } from '../../services/compose/upload';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import type { MessageKey } from '../../i18n';

export interface AttachmentInput {
  key: string;
  name: string;
  size: number;
  /**
   * Who hears the reports (the compose actor). Passed in rather than `sendParent`, so the machine's
   * transitions can also be computed without a parent (model tests plan paths with pure transitions).
   */
  parent: AnyActorRef;
}

export interface AttachmentContext extends AttachmentInput {
  /** The file being uploaded (kept for a retry); null once on the server. */
  file: File | null;
  summary: AttachmentSummary | null;
  loaded: number;
  total: number;
  /** i18n key of the last failure, until the next attempt. */
  errorKey: MessageKey | null;
}

export type AttachmentEvent =
  | { type: 'attachment.upload'; file: File }
  | { type: 'attachment.restore'; summary: AttachmentSummary }
  | { type: 'attachment.retry' }
  | { type: 'attachment.delete' }
  /** From the running upload (its `onProgress`). */
  | { type: 'upload.progress'; loaded: number; total: number };

/** What this actor tells the compose machine. */
export type AttachmentReport =
  | { type: 'attachment.uploaded'; key: string; attachment: AttachmentSummary }
  | { type: 'attachment.uploadFailed'; key: string; errorKey: MessageKey }
  | { type: 'attachment.removed'; key: string }
  | { type: 'attachment.deleteFailed'; key: string; errorKey: MessageKey };

/** SPEC §8 "failed to upload attachment", or the server's precise reason when it gave one. */
function uploadErrorKey(failure: ApiFailure): MessageKey {
  if (failure.code === 'attachment.too_large') return 'compose.attachment.tooLarge';
  if (failure.code === 'attachment.type') return 'compose.attachment.type';
  return 'compose.attachment.uploadFailed';
}

export const DELETE_FAILED_KEY: MessageKey = 'compose.attachment.deleteFailed';

/** The file being uploaded: `attachment.upload` brought it, and a retry sends the same one again. */
function fileOf(context: AttachmentContext): File {
  if (context.file === null) throw new Error('attachment: no file to upload');
  return context.file;
}

export const attachmentMachine = setup({
  types: {
    context: {} as AttachmentContext,
    events: {} as AttachmentEvent,
    input: {} as AttachmentInput,
  },
  actors: { uploadAttachment, deleteAttachment },
  actions: {
    takeFile: assign(({ event }) => {
      assertEvent(event, 'attachment.upload');
      return { file: event.file, loaded: 0, total: event.file.size };
    }),
    takeSummary: assign(({ event }) => {
      assertEvent(event, 'attachment.restore');
      return { summary: event.summary, loaded: event.summary.size, total: event.summary.size };
    }),
    progress: assign(({ event }) => {
      assertEvent(event, 'upload.progress');
      return { loaded: event.loaded, total: event.total };
    }),
    restart: assign(({ context }) => ({ loaded: 0, total: context.size, errorKey: null })),
    /** On `xstate.done.actor.uploadAttachment`. */
    keepSummary: assign((_, summary: AttachmentSummary) => ({ summary, loaded: summary.size, total: summary.size, file: null })),
    /** On `xstate.error.actor.uploadAttachment`. */
    keepUploadError: assign((_, failure: ApiFailure) => ({ errorKey: uploadErrorKey(failure) })),
    keepDeleteError: assign({ errorKey: DELETE_FAILED_KEY }),
    clearError: assign({ errorKey: null }),
    reportUploaded: sendTo(
      ({ context }) => context.parent,
      ({ context }, attachment: AttachmentSummary): AttachmentReport => ({ type: 'attachment.uploaded', key: context.key, attachment }),
    ),
    reportUploadFailed: sendTo(
      ({ context }) => context.parent,
      ({ context }): AttachmentReport => ({
        type: 'attachment.uploadFailed',
        key: context.key,
        errorKey: context.errorKey ?? 'compose.attachment.uploadFailed',
      }),
    ),
    reportRemoved: sendTo(
      ({ context }) => context.parent,
      ({ context }): AttachmentReport => ({ type: 'attachment.removed', key: context.key }),
    ),
    reportDeleteFailed: sendTo(
      ({ context }) => context.parent,
      ({ context }): AttachmentReport => ({ type: 'attachment.deleteFailed', key: context.key, errorKey: DELETE_FAILED_KEY }),
    ),
  },
}).createMachine({
  id: 'attachment',
  initial: 'pending',
  context: ({ input }) => ({ ...input, file: null, summary: null, loaded: 0, total: input.size, errorKey: null }),
  states: {
    pending: {
      on: {
        'attachment.upload': { target: 'uploading', actions: 'takeFile' },
        'attachment.restore': { target: 'uploaded', actions: 'takeSummary' },
      },
    },
    uploading: {
      invoke: {
        id: 'uploadAttachment',
        src: 'uploadAttachment',
        input: ({ context, self }) => ({
          file: fileOf(context),
          onProgress: (loaded: number, total: number) => self.send({ type: 'upload.progress', loaded, total }),
        }),
        onDone: {
          target: 'uploaded',
          actions: [
            { type: 'keepSummary', params: ({ event }) => event.output },
            { type: 'reportUploaded', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'failed',
          actions: [{ type: 'keepUploadError', params: ({ event }) => toApiFailure(event.error) }, 'reportUploadFailed'],
        },
      },
      on: {
        'upload.progress': { actions: 'progress' },
      },
    },
    failed: {
      on: {
        'attachment.retry': { target: 'uploading', actions: 'restart' },
      },
    },
    uploaded: {
      on: {
        'attachment.delete': { target: 'deleting', actions: 'clearError' },
      },
    },
    deleting: {
      invoke: {
        id: 'deleteAttachment',
        src: 'deleteAttachment',
        input: ({ context }) => ({ id: context.summary?.id ?? 0 }),
        onDone: { target: 'removed', actions: 'reportRemoved' },
        onError: { target: 'uploaded', actions: ['keepDeleteError', 'reportDeleteFailed'] },
      },
    },
    removed: { type: 'final' },
  },
});

export type AttachmentActorRef = ActorRefFrom<typeof attachmentMachine>;
export type AttachmentSnapshot = SnapshotFrom<typeof attachmentMachine>;

export type AttachmentStatus = 'pending' | 'uploading' | 'failed' | 'uploaded' | 'deleting' | 'removed';

// --- selectors (for `useSelector(attachmentRef, …)`) -------------------------------------------------

export const selectStatus = (snapshot: AttachmentSnapshot): AttachmentStatus => snapshot.value;
export const selectName = (snapshot: AttachmentSnapshot): string => snapshot.context.name;
export const selectSize = (snapshot: AttachmentSnapshot): number => snapshot.context.size;
export const selectLoaded = (snapshot: AttachmentSnapshot): number => snapshot.context.loaded;
export const selectTotal = (snapshot: AttachmentSnapshot): number => snapshot.context.total;
/** 0–100, rounded down; 100 once on the server. */
export const selectPercent = (snapshot: AttachmentSnapshot): number =>
  snapshot.matches('uploaded') || snapshot.matches('deleting')
    ? 100
    : snapshot.context.total > 0
      ? Math.min(100, Math.floor((snapshot.context.loaded / snapshot.context.total) * 100))
      : 0;
export const selectErrorKey = (snapshot: AttachmentSnapshot): MessageKey | null => snapshot.context.errorKey;
