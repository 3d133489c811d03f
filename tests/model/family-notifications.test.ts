// «Avisos» (family/notifications.ts): the children loaded, or failed (offline said apart) with retry; a
// switch saves that child alone and shows what the server answered; a switch to what it already is, or of a
// child not listed, does nothing; a failed save says so and keeps the switches as they were; a 401 ends
// the screen and tells `session.expired`, exactly once.
import { createActor, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import type { FamilyNotifications } from '../../shared/family-devices-contract';
import { FamilyFailureError } from '../../src/services/family/api';
import {
  familyNotificationsMachine,
  selectChildren,
  selectNotificationsFailure,
  selectNotificationsPhase,
  selectSaveFailure,
  selectSavingStudent,
} from '../../src/machines/family/notifications';
import { defineModelTests, send, settle, type StepEnv } from './harness';

type Snapshot = Parameters<typeof selectNotificationsPhase>[0];
const snap = (s: AnyMachineSnapshot) => s as unknown as Snapshot;

const failure = (status: number, code: string) => new FamilyFailureError({ status, code, message: '', fieldErrors: {} });
const OFFLINE = failure(0, 'network');
const SERVER = failure(500, 'server.error');
const EXPIRED = failure(401, 'auth.unauthenticated');

const child = (id: number, push: boolean) => ({
  student_id: id,
  name: `Hijo ${id}`,
  school: 'Colegio San Andrés de Ñuñoa',
  course: '3° Básico A',
  push,
});
const BOTH_ON: FamilyNotifications = { children: [child(1, true), child(2, true)] };
const FIRST_OFF: FamilyNotifications = { children: [child(1, false), child(2, true)] };

const pushesOf = (s: AnyMachineSnapshot) => selectChildren(snap(s)).map((c) => c.push);

function emits({ event }: StepEnv): AnyEventObject[] {
  const error = (event as { error?: unknown }).error;
  return event.type.startsWith('xstate.error.actor.') && error === EXPIRED ? [{ type: 'session.expired' }] : [];
}

defineModelTests({
  name: 'family-notifications',
  machine: familyNotificationsMachine,
  oracle: {
    initial: 'loading',
    targets: {
      loading: {
        'xstate.done.actor.fetchNotifications': 'ready',
        'xstate.error.actor.fetchNotifications': ({ event }) => (event.error === EXPIRED ? 'expired' : 'failed'),
      },
      ready: {
        'child.toggle': ({ context, event, stay }) =>
          context.children.some((c: { student_id: number; push: boolean }) => c.student_id === event.studentId && c.push !== event.push)
            ? 'saving'
            : stay,
      },
      saving: {
        'xstate.done.actor.saveNotification': 'ready',
        'xstate.error.actor.saveNotification': ({ event }) => (event.error === EXPIRED ? 'expired' : 'ready'),
      },
      failed: { 'notifications.retry': 'loading' },
    },
  },
  traversal: {
    input: { token: 'tok' },
    events: [
      { type: 'notifications.retry' },
      { type: 'child.toggle', studentId: 1, push: false },
      { type: 'child.toggle', studentId: 1, push: true },
      { type: 'child.toggle', studentId: 9, push: false },
    ],
    internal: [
      { type: 'xstate.done.actor.fetchNotifications', output: BOTH_ON },
      { type: 'xstate.error.actor.fetchNotifications', error: OFFLINE },
      { type: 'xstate.error.actor.fetchNotifications', error: SERVER },
      { type: 'xstate.error.actor.fetchNotifications', error: EXPIRED },
      { type: 'xstate.done.actor.saveNotification', output: FIRST_OFF },
      { type: 'xstate.error.actor.saveNotification', error: OFFLINE },
      { type: 'xstate.error.actor.saveNotification', error: EXPIRED },
    ],
    limit: 5000,
  },
  createActor: ({ fakes, inspect, machine, path }) =>
    createActor(machine.provide({ actors: { fetchNotifications: fakes.promise(), saveNotification: fakes.promise() } }), {
      input: path.input as { token: string },
      inspect,
    }),
  states: {
    loading: (s, env) => {
      expect(selectNotificationsPhase(snap(s))).toBe('loading');
      expect(s.hasTag('busy')).toBe(true);
      expect(env.fakes.inputOf('fetchNotifications')).toEqual({ token: 'tok' });
    },
    ready: (s, env) => {
      expect(selectNotificationsPhase(snap(s))).toBe('ready');
      expect(selectSavingStudent(snap(s))).toBeNull();
      if (env.event.type === 'xstate.done.actor.fetchNotifications') expect(pushesOf(s)).toEqual([true, true]);
      if (env.event.type === 'xstate.done.actor.saveNotification') {
        // What the server answered, not what was asked.
        expect(pushesOf(s)).toEqual([false, true]);
        expect(selectSaveFailure(snap(s))).toBeNull();
      }
      if (env.event.type === 'xstate.error.actor.saveNotification') {
        expect(pushesOf(s)).toEqual(pushesOf(env.from));
        expect(selectSaveFailure(snap(s))).toBe('offline');
      }
    },
    saving: (s, env) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(selectSaveFailure(snap(s))).toBeNull();
      if (env.from.matches('ready')) {
        const { studentId, push } = env.event as unknown as { studentId: number; push: boolean };
        expect(selectSavingStudent(snap(s))).toBe(studentId);
        expect(env.fakes.inputOf('saveNotification')).toEqual({ token: 'tok', studentId, push });
      } else {
        // Another switch meanwhile is not taken (the switches are disabled while one saves).
        expect(selectSavingStudent(snap(s))).toBe(selectSavingStudent(snap(env.from)));
      }
    },
    failed: (s, env) => {
      expect(selectNotificationsPhase(snap(s))).toBe('failed');
      // What the last failed load said, whatever was tried since that changed nothing.
      const last = [...env.history].reverse().find((e) => e.type === 'xstate.error.actor.fetchNotifications') as
        | { error?: unknown }
        | undefined;
      expect(selectNotificationsFailure(snap(s))).toBe(last?.error === OFFLINE ? 'offline' : 'error');
    },
    expired: (s) => {
      expect(selectNotificationsPhase(snap(s))).toBe('expired');
      expect(s.status).toBe('done');
    },
  },
  events: {
    'notifications.retry': send,
    'child.toggle': send,
    'xstate.done.actor.fetchNotifications': settle,
    'xstate.error.actor.fetchNotifications': settle,
    'xstate.done.actor.saveNotification': settle,
    'xstate.error.actor.saveNotification': settle,
  },
  emits,
});
