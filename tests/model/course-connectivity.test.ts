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
const INTERNAL: AnyEventObject[] = [
  { type: 'xstate.done.actor.fetchCourse', output: BODY },
  { type: 'xstate.error.actor.fetchCourse', error: failure(404, 'not_found', 'No encontrado') },
  { type: 'xstate.error.actor.fetchCourse', error: failure(500, 'server.error') },
  { type: 'xstate.error.actor.callList', error: new Error('call list: a bug') },
];

const callListOf = (env: StepEnv) => selectCallListActor(snap(env.actor.getSnapshot() as AnyMachineSnapshot)) as AnyActorRef | undefined;

defineModelTests({
  name: 'course-connectivity',
  machine: courseConnectivityMachine,
  oracle: 'none yet',
  traversal: { events: EVENTS, internal: INTERNAL, limit: 2_000, input: { courseId: COURSE } },
  createActor: ({ fakes, path, inspect }) =>
    createActor(courseConnectivityMachine.provide({ actors: { fetchCourse: fakes.promise(), callList: listStandIn as never } }), { input: path.input as never, inspect }),
  states: {
    // The course and its call list live side by side: neither region's state stops the other.
    course: (snapshot) => expect(snapshot.matches('callList')).toBe(true),
    callList: (snapshot) => expect(snapshot.matches('course')).toBe(true),
    'course.loading': (snapshot, env) => {
      expect(selectCourseLoading(snap(snapshot))).toBe(true);
      expect(env.fakes.inputOf('fetchCourse')).toEqual({ courseId: COURSE });
      expect(selectCourse(snap(snapshot))).toBeNull();
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
      // Nothing will change another school's course: no retry.
      expect(snapshot.can({ type: 'course.retry' })).toBe(false);
    },
    'callList.running': (snapshot, env) => {
      expect(selectCallListCrashed(snap(snapshot))).toBe(false);
      const child = callListOf(env);
      expect(child).toBeDefined();
      // Started (or restarted) with the course's id.
      expect((child?.getSnapshot() as AnyMachineSnapshot).context.input).toEqual({ courseId: COURSE });
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
