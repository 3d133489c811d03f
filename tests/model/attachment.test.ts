import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  attachmentMachine,
  DELETE_FAILED_KEY,
  selectErrorKey,
  selectLoaded,
  selectName,
  selectPercent,
  selectSize,
  selectStatus,
  selectTotal,
  type AttachmentSnapshot,
} from '../../src/machines/compose/attachment';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { PLANNING_PARENT, recordingParent } from './doubles';
import { failure } from './fixtures';
import { attachmentSummary } from '../fixtures/messages';

const at = (snapshot: AnyMachineSnapshot) => snapshot as unknown as AttachmentSnapshot;

const KEY = 'attachment-1';
const FILE = new File(['x'.repeat(1000)], 'acta.pdf', { type: 'application/pdf' });
const SUMMARY = attachmentSummary(77, { name: FILE.name, size: FILE.size });
const TOO_LARGE = failure(413, 'attachment.too_large', 'El archivo supera los 22 MB.');
const OFFLINE = failure(0, 'network', 'Failed to fetch');
const SERVER_DOWN = failure(500, 'server.error');

/** Reports the attachment sent to compose, per step. */
const reports: AnyEventObject[] = [];

const IO_IDS = ['uploadAttachment', 'deleteAttachment'];
function expectRunning(env: StepEnv, id: string | null) {
  for (const other of IO_IDS) expect(env.fakes.isRunning(other), `${other} running`).toBe(other === id);
}

/** The oracle for what compose hears, from the step alone. */
function expectedReports(env: StepEnv): AnyEventObject[] {
  switch (env.event.type) {
    case 'xstate.done.actor.uploadAttachment':
      return [{ type: 'attachment.uploaded', key: KEY, attachment: SUMMARY }];
    case 'xstate.error.actor.uploadAttachment':
      return [
        {
          type: 'attachment.uploadFailed',
          key: KEY,
          errorKey: env.event.error === TOO_LARGE ? 'compose.attachment.tooLarge' : 'compose.attachment.uploadFailed',
        },
      ];
    case 'xstate.done.actor.deleteAttachment':
      return [{ type: 'attachment.removed', key: KEY }];
    case 'xstate.error.actor.deleteAttachment':
      return [{ type: 'attachment.deleteFailed', key: KEY, errorKey: DELETE_FAILED_KEY }];
    default:
      return [];
  }
}

/**
 * The last call that settled on the path so far: what the file's error text is about while it rests
 * (a retry or a delete leaves `failed` / `uploaded` until their own call settles).
 */
function lastOutcome(env: StepEnv): (AnyEventObject & { error?: unknown }) | undefined {
  return env.history.findLast((event) => /^xstate\.(done|error)\.actor\./.test(event.type));
}

function common(snapshot: AnyMachineSnapshot, env: StepEnv) {
  expect(selectName(at(snapshot))).toBe('acta.pdf');
  expect(selectSize(at(snapshot))).toBe(1000);
  expect(reports.splice(0), 'reports to compose').toEqual(expectedReports(env));
}

defineModelTests({
  name: 'attachment',
  machine: attachmentMachine,
  // The header and SPEC §8: one file, new (uploaded) or reopened (already on the server); a failed upload
  // can be retried, an uploaded file removed; "failed to delete attachment" keeps it.
  oracle: {
    initial: 'pending',
    targets: {
      pending: { 'attachment.upload': 'uploading', 'attachment.restore': 'uploaded' },
      // Progress moves the bar, not the state.
      uploading: { 'xstate.done.actor.uploadAttachment': 'uploaded', 'xstate.error.actor.uploadAttachment': 'failed' },
      failed: { 'attachment.retry': 'uploading' },
      uploaded: { 'attachment.delete': 'deleting' },
      // Removed for good only once the server deleted it; otherwise it is still attached.
      deleting: { 'xstate.done.actor.deleteAttachment': 'removed', 'xstate.error.actor.deleteAttachment': 'uploaded' },
    },
  },
  traversal: {
    input: { key: KEY, name: 'acta.pdf', size: 1000, parent: PLANNING_PARENT },
    events: [
      { type: 'attachment.upload', file: FILE },
      { type: 'attachment.restore', summary: SUMMARY },
      { type: 'attachment.retry' },
      { type: 'attachment.delete' },
      { type: 'upload.progress', loaded: 400, total: 1000 },
    ],
    internal: [
      { type: 'xstate.done.actor.uploadAttachment', output: SUMMARY },
      { type: 'xstate.error.actor.uploadAttachment', error: TOO_LARGE },
      { type: 'xstate.error.actor.uploadAttachment', error: OFFLINE },
      { type: 'xstate.done.actor.deleteAttachment', output: undefined },
      { type: 'xstate.error.actor.deleteAttachment', error: SERVER_DOWN },
    ],
    serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.errorKey, snapshot.context.loaded]),
    // Nothing happens to a removed attachment: compose drops it.
    stopWhen: (snapshot) => snapshot.status === 'done',
    limit: 2000,
  },
  createActor: ({ fakes, inspect, machine }) => {
    reports.length = 0;
    return createActor(machine.provide({ actors: { uploadAttachment: fakes.promise(), deleteAttachment: fakes.promise() } }), {
      input: { key: KEY, name: 'acta.pdf', size: 1000, parent: recordingParent(reports) },
      inspect,
    });
  },
  contextOf: (context) => {
    const { parent: _parent, file, ...rest } = context as Record<string, unknown>;
    return JSON.parse(JSON.stringify({ ...rest, file: file === null ? null : (file as File).name }));
  },
  states: {
    pending: (snapshot, env) => {
      common(snapshot, env);
      expect(selectStatus(at(snapshot))).toBe('pending');
      expect(selectPercent(at(snapshot))).toBe(0);
      expectRunning(env, null);
    },
    uploading: (snapshot, env) => {
      common(snapshot, env);
      expect(selectStatus(at(snapshot))).toBe('uploading');
      expect(selectErrorKey(at(snapshot))).toBeNull();
      // Each attempt (the first, or a retry) is one upload, started as the state is entered.
      if (env.event.type !== 'xstate.init') expect(env.started).toEqual(env.from.matches('uploading') ? [] : ['uploadAttachment']);
      // The upload gets the file and a progress callback that reaches this actor.
      const input = env.fakes.inputOf('uploadAttachment') as { file: File; onProgress: unknown };
      expect(input.file).toBe(FILE);
      expect(typeof input.onProgress).toBe('function');
      expectRunning(env, 'uploadAttachment');
      if (env.event.type === 'upload.progress') {
        expect(selectLoaded(at(snapshot))).toBe(400);
        expect(selectTotal(at(snapshot))).toBe(1000);
        expect(selectPercent(at(snapshot))).toBe(40);
      } else if (!env.from.matches('uploading')) {
        // A fresh attempt starts from zero.
        expect(selectPercent(at(snapshot))).toBe(0);
      } else {
        expect(selectPercent(at(snapshot))).toBe(selectPercent(at(env.from)));
      }
    },
    failed: (snapshot, env) => {
      common(snapshot, env);
      expect(selectStatus(at(snapshot))).toBe('failed');
      // SPEC §8 "failed to upload attachment", or the server's precise reason.
      expect(selectErrorKey(at(snapshot))).toBe(snapshot.context.errorKey);
      expect(['compose.attachment.tooLarge', 'compose.attachment.uploadFailed']).toContain(selectErrorKey(at(snapshot)));
      // The reason of the upload that failed last: too large when the server said so, else the general text.
      expect(selectErrorKey(at(snapshot))).toBe(
        lastOutcome(env)?.error === TOO_LARGE ? 'compose.attachment.tooLarge' : 'compose.attachment.uploadFailed',
      );
      expect(snapshot.context.file).toBe(FILE);
      expectRunning(env, null);
    },
    uploaded: (snapshot, env) => {
      common(snapshot, env);
      expect(selectStatus(at(snapshot))).toBe('uploaded');
      expect(snapshot.context.summary).toEqual(SUMMARY);
      expect(selectPercent(at(snapshot))).toBe(100);
      expect(selectErrorKey(at(snapshot))).toBe(
        env.event.type === 'xstate.error.actor.deleteAttachment'
          ? DELETE_FAILED_KEY
          : env.from.matches('uploaded')
            ? snapshot.context.errorKey
            : null,
      );
      // The delete error shows until the next attempt; an upload's own error is gone once it succeeded.
      expect(selectErrorKey(at(snapshot))).toBe(
        lastOutcome(env)?.type === 'xstate.error.actor.deleteAttachment' ? DELETE_FAILED_KEY : null,
      );
      expectRunning(env, null);
    },
    deleting: (snapshot, env) => {
      common(snapshot, env);
      expect(selectStatus(at(snapshot))).toBe('deleting');
      expect(env.fakes.inputOf('deleteAttachment')).toEqual({ id: SUMMARY.id });
      expect(env.started).toEqual(env.from.matches('deleting') ? [] : ['deleteAttachment']);
      expect(selectErrorKey(at(snapshot))).toBeNull();
      expectRunning(env, 'deleteAttachment');
    },
    removed: (snapshot, env) => {
      common(snapshot, env);
      expect(selectStatus(at(snapshot))).toBe('removed');
      expect(env.actor.getSnapshot().status).toBe('done');
      expectRunning(env, null);
    },
  },
  events: {
    'attachment.upload': send,
    'attachment.restore': send,
    'attachment.retry': send,
    'attachment.delete': send,
    // What the running upload's onProgress does.
    'upload.progress': (env) => {
      const call = env.fakes.isRunning('uploadAttachment')
        ? (env.fakes.inputOf('uploadAttachment') as { onProgress: (l: number, t: number) => void })
        : null;
      if (call) call.onProgress(env.event.loaded as number, env.event.total as number);
      else send(env);
    },
    'xstate.done.actor.uploadAttachment': settle,
    'xstate.error.actor.uploadAttachment': settle,
    'xstate.done.actor.deleteAttachment': settle,
    'xstate.error.actor.deleteAttachment': settle,
  },
  emits: () => [],
});
