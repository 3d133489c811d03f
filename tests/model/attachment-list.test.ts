import { createActor, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { DELETE_FAILED_KEY } from '../../src/machines/compose/attachment';
import {
  attachmentListMachine,
  selectEntries,
  type AttachmentListSnapshot,
  type ListEntry,
} from '../../src/machines/compose/attachment-list';
import type { AttachmentEntry } from '../../src/machines/compose/rules';
import type { AttachmentSummary } from '../../shared/messages-contract';
import { defineModelTests, send, type StepEnv } from './harness';
import { deletes, fakeAttachmentLogic, PLANNING_PARENT, recordingParent, uploads } from './doubles';
import { failure } from './fixtures';
import { attachmentSummary } from '../fixtures/messages';

const al = (snapshot: AnyMachineSnapshot) => snapshot as unknown as AttachmentListSnapshot;

const MB = 1024 * 1024;
/** Reopened with the form: already on the server. */
const SUM_A = attachmentSummary(41, { name: 'acta.pdf', size: MB });
const FILE_B = new File([new Uint8Array(2 * MB)], 'doc-42.pdf', { type: 'application/pdf' });
const SUM_B = attachmentSummary(42, { name: FILE_B.name, size: FILE_B.size });
/** A second new file (the fakes tell uploads apart by file name). */
const FILE_C = new File([new Uint8Array(MB)], 'doc-43.pdf', { type: 'application/pdf' });
const SUM_C = attachmentSummary(43, { name: FILE_C.name, size: FILE_C.size });
const SUMMARIES: Record<string, AttachmentSummary> = { [FILE_B.name]: SUM_B, [FILE_C.name]: SUM_C };
const SERVER_DOWN = failure(500, 'server.error');
/** The keys a path can make: the restored file, then at most two added ones (a key is never reused). */
const KEYS = ['attachment-1', 'attachment-2', 'attachment-3'];

/** What the list told compose, per step. */
const reports: AnyEventObject[] = [];

// --- oracles ----------------------------------------------------------------------------------------

const entriesOf = (snapshot: AnyMachineSnapshot) => snapshot.context.entries as ListEntry[];
const summaryOf = (snapshot: AnyMachineSnapshot): AttachmentEntry[] =>
  entriesOf(snapshot).map(({ key, size, status, attachment }) => ({ key, size, status, attachment }));

/** Every change of the entries is reported, once, with what compose's rules read. */
function expectedReports({ from, to }: StepEnv): AnyEventObject[] {
  const before = summaryOf(from);
  const after = summaryOf(to);
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ type: 'attachments.changed', entries: after }];
}

/**
 * The entries after these events, in the test's own words (SPEC §9 and the header): the reopened file is
 * on the server; a new file gets the next unused key and uploads; removing an uploaded file asks the server
 * (gone once it says so, back if it fails), while one not on the server just goes; only a failed upload
 * can be retried; an outcome counts only for an entry still waiting for it.
 */
function entriesAfter(history: readonly AnyEventObject[]): AttachmentEntry[] {
  let entries: AttachmentEntry[] = [{ key: 'attachment-1', size: MB, status: 'uploaded', attachment: SUM_A }];
  let made = 1;
  const is = (key: unknown, status: AttachmentEntry['status']) => entries.some((entry) => entry.key === key && entry.status === status);
  const set = (key: unknown, change: Partial<AttachmentEntry>) =>
    (entries = entries.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));
  const drop = (key: unknown) => (entries = entries.filter((entry) => entry.key !== key));
  for (const event of history) {
    const key = event.key as unknown;
    switch (event.type) {
      case 'attachments.add':
        for (const file of event.files as File[]) {
          made += 1;
          entries = [...entries, { key: `attachment-${made}`, size: file.size, status: 'uploading', attachment: null }];
        }
        break;
      case 'attachments.remove':
        if (is(key, 'uploaded')) set(key, { status: 'removing' });
        else if (is(key, 'uploading') || is(key, 'failed')) drop(key);
        break;
      case 'attachments.retry':
        if (is(key, 'failed')) set(key, { status: 'uploading' });
        break;
      case 'attachment.uploaded':
        if (is(key, 'uploading')) set(key, { status: 'uploaded', attachment: event.attachment as AttachmentSummary });
        break;
      case 'attachment.uploadFailed':
        if (is(key, 'uploading')) set(key, { status: 'failed' });
        break;
      case 'attachment.removed':
        if (is(key, 'removing')) drop(key);
        break;
      case 'attachment.deleteFailed':
        if (is(key, 'removing')) set(key, { status: 'uploaded' });
        break;
    }
  }
  return entries;
}

const CHILD_STATE = { uploading: 'uploading', uploaded: 'uploaded', failed: 'failed', removing: 'deleting' } as const;

function entryOf(env: StepEnv, key: string): ListEntry | undefined {
  return entriesOf(env.actor.getSnapshot() as AnyMachineSnapshot).find((entry) => entry.key === key);
}

/** A child's outcome is offered only where that child really waits for it. */
const reportsFor = (status: string) => (snapshot: AnyMachineSnapshot, key: unknown) =>
  entriesOf(snapshot).some((entry) => entry.key === key && entry.status === status);

defineModelTests({
  name: 'attachment-list',
  machine: attachmentListMachine,
  // One mode: every event changes entries, never the state (the entries are checked against
  // `entriesAfter`, the test's own account, in `listing`).
  oracle: { initial: 'listing', targets: {} },
  traversal: {
    input: { parent: PLANNING_PARENT, restored: [SUM_A] },
    events: [
      // `name` only tells the events apart in the graph (a File serializes to {}).
      { type: 'attachments.add', files: [FILE_B], name: FILE_B.name },
      { type: 'attachments.add', files: [FILE_C], name: FILE_C.name },
      ...KEYS.flatMap((key) => [
        { type: 'attachments.remove', key },
        { type: 'attachments.retry', key },
      ]),
    ],
    internal: KEYS.flatMap((key) => [
      { type: 'attachment.uploaded', key, attachment: SUM_B },
      { type: 'attachment.uploaded', key, attachment: SUM_C },
      { type: 'attachment.uploadFailed', key, errorKey: 'compose.attachment.uploadFailed' },
      { type: 'attachment.removed', key },
      { type: 'attachment.deleteFailed', key, errorKey: DELETE_FAILED_KEY },
    ]),
    filterEvents: (snapshot, event) => {
      const key = (event as { key?: unknown }).key;
      switch (event.type) {
        // Two entries at most, two new files in all: enough for a key never to be reused.
        case 'attachments.add':
          return (
            entriesOf(snapshot).length < 2 &&
            (snapshot.context.last as number) < KEYS.length &&
            !entriesOf(snapshot).some((entry) => entry.name === (event as { name?: string }).name)
          );
        // An upload answers with its own file.
        case 'attachment.uploaded':
          return (
            reportsFor('uploading')(snapshot, key) &&
            entriesOf(snapshot).some(
              (entry) => entry.key === key && SUMMARIES[entry.name] === (event as { attachment?: unknown }).attachment,
            )
          );
        case 'attachment.uploadFailed':
          return reportsFor('uploading')(snapshot, key);
        case 'attachment.removed':
        case 'attachment.deleteFailed':
          return reportsFor('removing')(snapshot, key);
        default:
          return true;
      }
    },
    serializeState: (snapshot) =>
      JSON.stringify([snapshot.context.last, summaryOf(snapshot).map((entry) => `${entry.key}:${entry.status}`)]),
    limit: 5000,
  },
  createActor: ({ inspect, machine }) => {
    reports.length = 0;
    uploads.clear();
    deletes.clear();
    return createActor(machine.provide({ actors: { attachment: fakeAttachmentLogic } }), {
      input: { parent: recordingParent(reports), restored: [SUM_A] },
      inspect,
    });
  },
  contextOf: (context) => {
    const { parent: _parent, entries, ...rest } = context as { parent: unknown; entries: ListEntry[] };
    return JSON.parse(JSON.stringify({ ...rest, entries: entries.map(({ ref: _ref, ...entry }) => entry) }));
  },
  states: {
    listing: (snapshot, env) => {
      const real = env.actor.getSnapshot() as AnyMachineSnapshot;
      const entries = selectEntries(al(snapshot));
      expect(reports.splice(0), 'reports to compose').toEqual(expectedReports(env));
      // One child per entry, under the entry's key, in the state the entry says; stopped ones are gone.
      const children = Object.keys(real.children).filter((id) => id.startsWith('attachment-'));
      expect(children.sort()).toEqual(entries.map((entry) => entry.key).sort());
      for (const entry of entries) {
        const child = real.children[entry.key] as AnyActorRef;
        expect(entry.ref, `${entry.key} ref`).toBe(child);
        expect(child.getSnapshot().value, `${entry.key} state`).toBe(CHILD_STATE[entry.status]);
        expect(entry.attachment === null, `${entry.key} on the server`).toBe(entry.status === 'uploading' || entry.status === 'failed');
      }
      // The reopened file starts as uploaded, the new one uploading its file.
      if (env.event.type === 'xstate.init')
        expect(summaryOf(snapshot)).toEqual([{ key: 'attachment-1', size: MB, status: 'uploaded', attachment: SUM_A }]);
      if (env.event.type === 'attachments.add') {
        const added = entries.at(-1);
        expect(added?.key).toBe(`attachment-${snapshot.context.last}`);
        expect(uploads.has(env.event.name as string), 'the upload started').toBe(true);
      }
      // What compose and the view read, against the test's own account of the events so far.
      expect(summaryOf(snapshot), 'entries after these events').toEqual(entriesAfter(env.history));
      // Keys are never reused.
      expect(new Set(entries.map((entry) => entry.key)).size).toBe(entries.length);
      for (const entry of entries)
        expect(Number(entry.key.slice('attachment-'.length))).toBeLessThanOrEqual(snapshot.context.last as number);
    },
  },
  events: {
    'attachments.add': (env) => {
      uploads.delete(env.event.name as string);
      send(env);
    },
    'attachments.remove': send,
    'attachments.retry': send,
    // The children's outcomes happen by settling their own upload or delete.
    'attachment.uploaded': (env) => {
      uploads.get(entryOf(env, env.event.key as string)?.name ?? '')?.resolve(env.event.attachment);
    },
    'attachment.uploadFailed': (env) => {
      uploads.get(entryOf(env, env.event.key as string)?.name ?? '')?.reject(SERVER_DOWN);
    },
    'attachment.removed': (env) => {
      deletes.get(entryOf(env, env.event.key as string)?.attachment?.id ?? -1)?.resolve(undefined);
    },
    'attachment.deleteFailed': (env) => {
      deletes.get(entryOf(env, env.event.key as string)?.attachment?.id ?? -1)?.reject(SERVER_DOWN);
    },
  },
  // A failed upload or delete is a toast (compose relays it); nothing else is.
  emits: ({ event }) =>
    event.type === 'attachment.uploadFailed' || event.type === 'attachment.deleteFailed'
      ? [{ type: 'toast', kind: 'error', key: event.errorKey as string }]
      : [],
});
