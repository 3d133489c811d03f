// /connectivity/course/:id (SPEC §3 device status and "recipient data shown"): a course's students
// with their guardians, status, phone, e-mail and what to fix, and its call list, a child (dashboard/call-list.ts)
// that runs beside it: one failing panel does not blank the other. A course that is not the school's (404)
// is the not-found state, with no retry (nothing will change that); other failures offer Reintentar.
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { fetchCourseConnectivity } from '../../services/dashboard/connectivity';
import { toApiFailure, type ApiFailure } from '../../services/http/client';
import type { CourseConnectivity, MissedDelivery } from '../../../shared/dashboard-contract';
import { callListMachine, type CallListActor } from './call-list';
import { childPanelRegion } from '../app/child-panel';

export interface CourseConnectivityInput {
  courseId: number;
}

export interface CourseConnectivityContext {
  courseId: number;
  course: CourseConnectivity | null;
}

export type CourseConnectivityEvent = { type: 'course.retry' } | { type: 'course.restartCallList' };

export const courseConnectivityMachine = setup({
  types: {
    input: {} as CourseConnectivityInput,
    context: {} as CourseConnectivityContext,
    events: {} as CourseConnectivityEvent,
    children: {} as { callList: 'callList' },
  },
  actors: { fetchCourse: fetchCourseConnectivity, callList: callListMachine },
  actions: {
    assignCourse: assign((_, course: CourseConnectivity) => ({ course })),
  },
  guards: {
    isNotFound: (_, failure: ApiFailure) => failure.status === 404,
  },
}).createMachine({
  id: 'courseConnectivity',
  type: 'parallel',
  context: ({ input }) => ({ courseId: input.courseId, course: null }),
  states: {
    course: {
      initial: 'loading',
      states: {
        loading: {
          tags: 'busy',
          invoke: {
            id: 'fetchCourse',
            src: 'fetchCourse',
            input: ({ context }) => ({ courseId: context.courseId }),
            onDone: { target: 'shown', actions: { type: 'assignCourse', params: ({ event }) => event.output } },
            onError: [
              { guard: { type: 'isNotFound', params: ({ event }) => toApiFailure(event.error) }, target: 'notFound' },
              { target: 'failed' },
            ],
          },
        },
        shown: {},
        failed: {
          on: { 'course.retry': { target: 'loading' } },
        },
        notFound: {},
      },
    },
    callList: childPanelRegion<CourseConnectivityContext, CourseConnectivityEvent>()(
      'callList',
      ({ context }) => ({ courseId: context.courseId }),
      'course.restartCallList',
    ),
  },
});

export type CourseConnectivitySnapshot = SnapshotFrom<typeof courseConnectivityMachine>;
export type CourseConnectivityActor = ActorRefFrom<typeof courseConnectivityMachine>;

export const selectCourse = (s: CourseConnectivitySnapshot): CourseConnectivity | null => s.context.course;
export const selectCourseLoading = (s: CourseConnectivitySnapshot): boolean => s.matches({ course: 'loading' });
export const selectCourseFailed = (s: CourseConnectivitySnapshot): boolean => s.matches({ course: 'failed' });
export const selectNotFound = (s: CourseConnectivitySnapshot): boolean => s.matches({ course: 'notFound' });
export const selectCallListActor = (s: CourseConnectivitySnapshot): CallListActor | undefined => s.children.callList;
export const selectCallListCrashed = (s: CourseConnectivitySnapshot): boolean => s.matches({ callList: 'crashed' });

/** One message a guardian did not receive, with what failed on each channel (the contract has a row per channel). */
export interface MissedMessage {
  message_id: number;
  title: string;
  sent_at: string;
  author: string | null;
  can_view_reception: boolean;
  failures: Pick<MissedDelivery, 'channel' | 'status'>[];
}

/** A guardian's missed deliveries as messages, in the server's order (newest first). */
export function missedMessages(missed: readonly MissedDelivery[]): MissedMessage[] {
  const byId = new Map<number, MissedMessage>();
  for (const { channel, status, ...message } of missed) {
    const entry = byId.get(message.message_id) ?? { ...message, failures: [] };
    entry.failures.push({ channel, status });
    byId.set(message.message_id, entry);
  }
  return [...byId.values()];
}
