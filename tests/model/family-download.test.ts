// One file of a message (family/download.ts): idle until asked, downloading (busy, the same request not
// sent twice), back to idle when saved or failed (offline said apart), asked again to retry; a 401 ends it
// and tells `session.expired`, exactly once.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { FamilyAttachment } from '../../shared/family-contract';
import { FamilyFailureError } from '../../src/services/family/api';
import { familyDownloadMachine, selectDownloadFailure, selectIsDownloading } from '../../src/machines/family/download';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectIsDownloading>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const MISSING = failure(404, 'http');
const EXPIRED = failure(401, 'http');

const FILE: FamilyAttachment = { id: 31, name: 'autorización.pdf', size: 3000, content_type: 'application/pdf' };
const INPUT = { token: 'tok', messageId: 12, attachment: FILE };

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-download',
  machine: familyDownloadMachine,
  oracle: {
    initial: 'idle',
    targets: {
      idle: { 'attachment.download': 'downloading' },
      downloading: {
        'xstate.done.actor.downloadAttachment': 'idle',
        'xstate.error.actor.downloadAttachment': ({ event }) => (event.error === EXPIRED ? 'expired' : 'idle'),
      },
    },
  },
  traversal: {
    input: INPUT,
    events: [{ type: 'attachment.download' }],
    internal: [
      { type: 'xstate.done.actor.downloadAttachment' },
      { type: 'xstate.error.actor.downloadAttachment', error: OFFLINE },
      { type: 'xstate.error.actor.downloadAttachment', error: MISSING },
      { type: 'xstate.error.actor.downloadAttachment', error: EXPIRED },
    ],
    limit: 500,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { downloadAttachment: fakes.promise() } }), { input: path.input as typeof INPUT, inspect }),
  states: {
    idle: (s, env) => {
      expect(selectIsDownloading(snap(s))).toBe(false);
      // The last outcome: a failure is said until the next try; a saved file says nothing.
      const last = env.history.at(-1) as AnyEventObject | undefined;
      const expected = last?.type === 'xstate.error.actor.downloadAttachment' ? (last.error === OFFLINE ? 'offline' : 'missing') : null;
      if (last?.type !== 'attachment.download') expect(selectDownloadFailure(snap(s))).toBe(expected);
    },
    downloading: (s, env) => {
      expect(selectIsDownloading(snap(s))).toBe(true);
      expect(selectDownloadFailure(snap(s))).toBeNull();
      expect(env.fakes.inputOf('downloadAttachment')).toEqual(INPUT);
    },
    expired: (s) => {
      expect(s.status).toBe('done');
    },
  },
  events: {
    'attachment.download': send,
    'xstate.done.actor.downloadAttachment': settle,
    'xstate.error.actor.downloadAttachment': settle,
  },
  emits,
});
