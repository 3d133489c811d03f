// The attachments of the message being composed (SPEC §9), spawned by compose as its child `attachments`.
// It owns the entries and their `attachment` children (id `attachment-<n>`): files from a reopened draft or
// the backup start as uploaded, new files start uploading. Compose sends it only what its rules allowed
// (`attachments.add|remove|retry`); after every change of the entries the list reports them to compose
// (`attachments.changed`, through the `parent` of its input), so compose's rules and backup read compose's
// own context. A failed upload or delete is a toast, which compose relays. Progress and each file's error
// stay in the `attachment` children, read by the view.
import {
  assertEvent,
  assign,
  emit,
  enqueueActions,
  sendTo,
  setup,
  stopChild,
  type ActorRefFrom,
  type AnyActorRef,
  type SnapshotFrom,
} from 'xstate';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import { attachmentMachine, type AttachmentActorRef, type AttachmentReport } from './attachment';
import type { AttachmentEntry, AttachmentEntryStatus } from './rules';
import type { ToastEvent } from '../app/effects';

export interface AttachmentListInput {
  /** Who hears the reports (compose); passed in, so transitions can be computed without a parent. */
  parent: AnyActorRef;
  /** What the form reopened with: already on the server. */
  restored: AttachmentSummary[];
}

/** An entry as the list keeps it: what compose hears, plus the name and the child (for the view). */
export interface ListEntry extends AttachmentEntry {
  name: string;
  ref: AttachmentActorRef;
}

export interface AttachmentListContext {
  parent: AnyActorRef;
  entries: ListEntry[];
  /** Number of the last child (`attachment-<n>`); never reused, so a late report cannot hit a new entry. */
  last: number;
}

export type AttachmentListEvent =
  | { type: 'attachments.add'; files: File[] }
  | { type: 'attachments.remove'; key: string }
  | { type: 'attachments.retry'; key: string }
  | AttachmentReport;

/** What the list tells compose after every change of its entries. */
export interface AttachmentListReport {
  type: 'attachments.changed';
  entries: AttachmentEntry[];
}

const keyOf = (n: number) => `attachment-${n}`;

/** The entries a form starts with, as compose holds them before the list has reported anything. */
export const restoredEntries = (restored: readonly AttachmentSummary[]): AttachmentEntry[] =>
  restored.map((attachment, index) => ({ key: keyOf(index + 1), size: attachment.size, status: 'uploaded', attachment }));

export const entryIs = (entries: readonly AttachmentEntry[], key: string, ...statuses: AttachmentEntryStatus[]): boolean =>
  entries.some((entry) => entry.key === key && statuses.includes(entry.status));

const update = (entries: ListEntry[], key: string, change: Partial<AttachmentEntry>): ListEntry[] =>
  entries.map((entry) => (entry.key === key ? { ...entry, ...change } : entry));

const keyOfEvent = (event: AttachmentListEvent): string => {
  assertEvent(event, ['attachments.remove', 'attachments.retry', 'attachment.removed']);
  return event.key;
};

export const attachmentListMachine = setup({
  types: {
    input: {} as AttachmentListInput,
    context: {} as AttachmentListContext,
    events: {} as AttachmentListEvent,
    emitted: {} as ToastEvent,
  },
  actors: { attachment: attachmentMachine },
  actions: {
    /** Children wait in `pending` until told what they are (see compose/attachment.ts). */
    restoreChildren: enqueueActions(({ context, enqueue }) => {
      for (const entry of context.entries) {
        if (entry.attachment) enqueue.sendTo(entry.ref, { type: 'attachment.restore', summary: entry.attachment });
      }
    }),
    /** New files: one child each, uploading at once. */
    addFiles: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'attachments.add');
      const files = event.files.map((file, index) => ({ file, key: keyOf(context.last + index + 1) }));
      enqueue.assign(({ spawn, self }) => ({
        entries: [
          ...context.entries,
          ...files.map(
            ({ file, key }): ListEntry => ({
              key,
              name: file.name,
              size: file.size,
              status: 'uploading',
              attachment: null,
              ref: spawn('attachment', { id: key, input: { key, name: file.name, size: file.size, parent: self } }),
            }),
          ),
        ],
        last: context.last + files.length,
      }));
      for (const { file, key } of files) enqueue.sendTo(key, { type: 'attachment.upload', file });
    }),
    /** An upload in progress or failed has nothing on the server: the child just stops. */
    stopEntry: stopChild(({ event }) => keyOfEvent(event)),
    dropEntry: assign(({ context, event }) => ({ entries: context.entries.filter((entry) => entry.key !== keyOfEvent(event)) })),
    markRemoving: assign(({ context, event }) => ({ entries: update(context.entries, keyOfEvent(event), { status: 'removing' }) })),
    askDelete: sendTo(({ event }) => keyOfEvent(event), { type: 'attachment.delete' }),
    markRetrying: assign(({ context, event }) => ({ entries: update(context.entries, keyOfEvent(event), { status: 'uploading' }) })),
    askRetry: sendTo(({ event }) => keyOfEvent(event), { type: 'attachment.retry' }),
    entryUploaded: assign(({ context, event }) => {
      assertEvent(event, 'attachment.uploaded');
      return { entries: update(context.entries, event.key, { status: 'uploaded', attachment: event.attachment }) };
    }),
    entryUploadFailed: assign(({ context, event }) => {
      assertEvent(event, 'attachment.uploadFailed');
      return { entries: update(context.entries, event.key, { status: 'failed' }) };
    }),
    entryDeleteFailed: assign(({ context, event }) => {
      assertEvent(event, 'attachment.deleteFailed');
      return { entries: update(context.entries, event.key, { status: 'uploaded' }) };
    }),
    toastError: emit(({ event }) => {
      assertEvent(event, ['attachment.uploadFailed', 'attachment.deleteFailed']);
      return { type: 'toast' as const, kind: 'error' as const, key: event.errorKey };
    }),
    report: sendTo(
      ({ context }) => context.parent,
      ({ context }): AttachmentListReport => ({
        type: 'attachments.changed',
        entries: context.entries.map(({ key, size, status, attachment }) => ({ key, size, status, attachment })),
      }),
    ),
  },
  guards: {
    isUploaded: ({ context, event }) => entryIs(context.entries, keyOfEvent(event), 'uploaded'),
    isNotOnServer: ({ context, event }) => entryIs(context.entries, keyOfEvent(event), 'uploading', 'failed'),
    isFailedUpload: ({ context, event }) => entryIs(context.entries, keyOfEvent(event), 'failed'),
    /** A child's report about an entry still in the state it reports on. */
    isReportFor: ({ context, event }, status: AttachmentEntryStatus) =>
      'key' in event && typeof event.key === 'string' && entryIs(context.entries, event.key, status),
  },
}).createMachine({
  id: 'attachmentList',
  context: ({ input, spawn, self }) => ({
    parent: input.parent,
    entries: restoredEntries(input.restored).map((entry) => {
      const name = entry.attachment?.name ?? '';
      return {
        ...entry,
        name,
        ref: spawn('attachment', { id: entry.key, input: { key: entry.key, name, size: entry.size, parent: self } }),
      };
    }),
    last: input.restored.length,
  }),
  initial: 'listing',
  states: {
    // One mode: every change is an entry's, and each is reported as it happens.
    listing: {
      entry: 'restoreChildren',
      on: {
        'attachments.add': { actions: ['addFiles', 'report'] },
        'attachments.remove': [
          { guard: 'isUploaded', actions: ['markRemoving', 'askDelete', 'report'] },
          { guard: 'isNotOnServer', actions: ['stopEntry', 'dropEntry', 'report'] },
        ],
        'attachments.retry': { guard: 'isFailedUpload', actions: ['markRetrying', 'askRetry', 'report'] },
        'attachment.uploaded': { guard: { type: 'isReportFor', params: 'uploading' }, actions: ['entryUploaded', 'report'] },
        'attachment.uploadFailed': {
          guard: { type: 'isReportFor', params: 'uploading' },
          actions: ['entryUploadFailed', 'toastError', 'report'],
        },
        'attachment.removed': { guard: { type: 'isReportFor', params: 'removing' }, actions: ['stopEntry', 'dropEntry', 'report'] },
        'attachment.deleteFailed': {
          guard: { type: 'isReportFor', params: 'removing' },
          actions: ['entryDeleteFailed', 'toastError', 'report'],
        },
      },
    },
  },
});

export type AttachmentListActor = ActorRefFrom<typeof attachmentListMachine>;
export type AttachmentListSnapshot = SnapshotFrom<typeof attachmentListMachine>;

/** The entries with their children, for the view (the same array until one changes). */
export const selectEntries = (snapshot: AttachmentListSnapshot): ListEntry[] => snapshot.context.entries;
