// /connectivity/course/:id (dashboard/course-connectivity.ts): the course loads (a failure offers Reintentar; a 404,
// another school's course, is the not-found state with nothing to retry) while its call list runs beside it
// as a child with the course id; the child crashing leaves the course as it is and is restarted afresh.
import { createActor, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import {
  courseConnectivityMachine,
  selectCallListActor,
  selectCallListCrashed,
  selectCourse,
  selectCourseFailed,
  selectCourseLoading,
  selectNotFound,
  type CourseConnectivitySnapshot,
} from '../../src/machines/dashboard/course-connectivity';
import { defineModelTests, send, settle, type StepEnv } from './harness';
import { listStandIn } from './doubles';
import { failure } from './fixtures';
import { courseConnectivity } from '../fixtures/dashboard';

const snap = (s: AnyMachineSnapshot) => s as unknown as CourseConnectivitySnapshot;
const COURSE = 12;
const BODY = courseConnectivity(COURSE);

const EVENTS: AnyEventObject[] = [{ type: 'course.retry' }, { type: 'course.restartCallList' }];
/** Another school's course: the server answers 404. */
const NOT_THE_SCHOOLS = failure(404, 'not_found', 'No encontrado');
const INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.fetchCourse', output: BODY },
  { type: 'xstate.error.actor.fetchCourse', error: NOT_THE_SCHOOLS },
  { type: 'xstate.error.actor.fetchCourse', error: failure(500, 'server.error') },
  { type: 'xstate.error.actor.callList', error: new Error('call list: a bug') },
];

const callListOf = (env: StepEnv) => selectCallListActor(snap(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | undefined;

defineModelTests({
  name: 'course-connectivity',
  machine: courseConnectivityMachine,
  // The header and SPEC §3: two regions, each changing only itself. The course loads, shows, or fails:
  // another school's course is not found for good, any other failure offers Reintentar. The call list
  // runs from the start; a crash of it is offered a restart.
  oracle: {
    initial: { course: 'loading', callList: 'running' },
    targets: {
      'course.loading': {
        'xstate.done.actor.fetchCourse': 'course.shown',
        'xstate.error.actor.fetchCourse': ({ event }) => (event.error === NOT_THE_SCHOOLS ? 'course.notFound' : 'course.failed'),
      },
      'course.failed': { 'course.retry': 'course.loading' },
      'callList.running': { 'xstate.error.actor.callList': 'callList.crashed' },
      'callList.crashed': { 'course.restartCallList': 'callList.running' },
    },
  },
  traversal: { events: EVENTS, internal: INTERNAL, limit: 2_000, input: { courseId: COURSE } },
  createActor: ({ fakes, path, inspect, machine }) =>
    createActor(machine.provide({ actors: { fetchCourse: fakes.promise(), callList: listStandIn as never } }), {
      input: path.input as never,
      inspect,
    }),
  states: {
    // The course and its call list live side by side: neither region's state stops the other.
    course: (snapshot) => expect(snapshot.matches('callList')).toBe(true),
    callList: (snapshot) => expect(snapshot.matches('course')).toBe(true),
    'course.loading': (snapshot, env) => {
      expect(selectCourseLoading(snap(snapshot))).toBe(true);
      expect(env.fakes.inputOf('fetchCourse')).toEqual({ courseId: COURSE });
      expect(selectCourse(snap(snapshot))).toBeNull();
      // Reintentar after a failure asks again, once; nothing else starts another request meanwhile.
      if (env.event.type !== 'xstate.init')
        expect(env.started, 'requests started').toEqual(env.from.matches({ course: 'failed' }) ? ['fetchCourse'] : []);
    },
    'course.shown': (snapshot, env) => {
      expect(selectCourse(snap(snapshot))).toBe(BODY);
      expect(selectCourseFailed(snap(snapshot))).toBe(false);
      expect(selectNotFound(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('fetchCourse')).toBe(false);
    },
    'course.failed': (snapshot, env) => {
      expect(selectCourseFailed(snap(snapshot))).toBe(true);
      expect(selectNotFound(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('fetchCourse')).toBe(false);
      expect(snapshot.can({ type: 'course.retry' })).toBe(true);
    },
    'course.notFound': (snapshot, env) => {
      expect(selectNotFound(snap(snapshot))).toBe(true);
      expect(selectCourseFailed(snap(snapshot))).toBe(false);
      expect(env.fakes.isRunning('fetchCourse')).toBe(false);
      expect(
        env.history.some((event) => event.type === 'xstate.error.actor.fetchCourse' && (event as AnyEventObject).error === NOT_THE_SCHOOLS),
      ).toBe(true);
      // Nothing will change another school's course: no retry.
      expect(snapshot.can({ type: 'course.retry' })).toBe(false);
    },
    'callList.running': (snapshot, env) => {
      expect(selectCallListCrashed(snap(snapshot))).toBe(false);
      const child = callListOf(env);
      expect(child).toBeDefined();
      // Started (or restarted) with the course's id.
      expect((child!.getSnapshot() as AnyMachineSnapshot).context.input).toEqual({ courseId: COURSE });
    },
    'callList.crashed': (snapshot, env) => {
      expect(selectCallListActor(snap(snapshot))).toBeUndefined();
      expect(selectCallListCrashed(snap(snapshot))).toBe(true);
      expect(snapshot.can({ type: 'course.restartCallList' })).toBe(true);
      // The crash leaves the course region as it was.
      if (env.event.type === 'xstate.error.actor.callList') {
        expect(snapshot.value).toEqual({ ...(env.from.value as object), callList: 'crashed' });
        expect(selectCourse(snap(snapshot))).toBe(env.from.context.course);
      }
    },
  },
  events: {
    'course.retry': send,
    'course.restartCallList': send,
    'xstate.done.actor.fetchCourse': settle,
    'xstate.error.actor.fetchCourse': settle,
    'xstate.error.actor.callList': (env) => callListOf(env)?.send({ type: 'test.crash' }),
  },
  emits: () => [],
});
