// The families' «Avisos»: one switch per child (with school and course) saying whether their messages make
// the phone ring. Loaded from the server; a switch saves that child alone and shows what the server then
// has, so a refused or failed change never looks saved (the failure is said, the switch stays as it was).
// Emergencies always ring, whatever the switches say (the screen says so). A 401 ends the session.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { FamilyChildNotices, FamilyNotifications } from '../../../shared/family-devices-contract';
import { toFamilyFailure, type FamilyFailure } from '../../services/family/api';
import { fetchNotifications, saveNotification } from '../../services/family/devices';
import { isUnauthorizedFailure, screenFailureOf, type ScreenFailure } from './screen-rules';

interface NotificationsContext {
  token: string;
  children: FamilyChildNotices[];
  /** The child whose switch is being saved. */
  saving: { studentId: number; push: boolean } | null;
  failure: ScreenFailure | null;
  /** The last switch could not be saved. */
  saveFailure: ScreenFailure | null;
}

type NotificationsEvent = { type: 'notifications.retry' } | { type: 'child.toggle'; studentId: number; push: boolean };

export const familyNotificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    input: {} as { token: string },
    emitted: {} as { type: 'session.expired' },
  },
  actors: { fetchNotifications, saveNotification },
  actions: {
    showChildren: assign((_, answer: FamilyNotifications) => ({ children: answer.children, failure: null, saving: null })),
    assignFailure: assign((_, failure: FamilyFailure) => ({ failure: screenFailureOf(failure) })),
    assignSaving: assign(({ event }) => {
      assertEvent(event, 'child.toggle');
      return { saving: { studentId: event.studentId, push: event.push }, saveFailure: null };
    }),
    assignSaveFailure: assign((_, failure: FamilyFailure) => ({ saveFailure: screenFailureOf(failure), saving: null })),
    tellExpired: emit({ type: 'session.expired' } as const),
  },
  guards: {
    isUnauthorized: (_, failure: FamilyFailure) => isUnauthorizedFailure(failure),
    isListedChild: ({ context, event }) => {
      assertEvent(event, 'child.toggle');
      return context.children.some((c) => c.student_id === event.studentId && c.push !== event.push);
    },
  },
}).createMachine({
  id: 'familyNotifications',
  initial: 'loading',
  context: ({ input }) => ({ token: input.token, children: [], saving: null, failure: null, saveFailure: null }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'fetchNotifications',
        src: 'fetchNotifications',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'ready', actions: { type: 'showChildren', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    ready: {
      on: { 'child.toggle': { guard: 'isListedChild', target: 'saving', actions: 'assignSaving' } },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveNotification',
        src: 'saveNotification',
        input: ({ context }) => ({ token: context.token, studentId: context.saving!.studentId, push: context.saving!.push }),
        onDone: { target: 'ready', actions: { type: 'showChildren', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => toFamilyFailure(event.error) }, target: 'expired' },
          { target: 'ready', actions: { type: 'assignSaveFailure', params: ({ event }) => toFamilyFailure(event.error) } },
        ],
      },
    },
    failed: {
      on: { 'notifications.retry': { target: 'loading' } },
    },
    expired: { entry: 'tellExpired', type: 'final' },
  },
});

export type FamilyNotificationsActor = ActorRefFrom<typeof familyNotificationsMachine>;
type NotificationsSnapshot = SnapshotFrom<typeof familyNotificationsMachine>;

type NotificationsPhase = 'loading' | 'ready' | 'failed' | 'expired';

export function selectNotificationsPhase(s: NotificationsSnapshot): NotificationsPhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('expired')) return 'expired';
  return 'ready';
}
/** The children: the same array until an answer arrives. */
export const selectChildren = (s: NotificationsSnapshot): readonly FamilyChildNotices[] => s.context.children;
export const selectSavingStudent = (s: NotificationsSnapshot): number | null => s.context.saving?.studentId ?? null;
export const selectNotificationsFailure = (s: NotificationsSnapshot): ScreenFailure | null => s.context.failure;
export const selectSaveFailure = (s: NotificationsSnapshot): ScreenFailure | null => s.context.saveFailure;
