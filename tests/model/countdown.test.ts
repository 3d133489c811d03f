import { createActor, type AnyMachineSnapshot } from 'xstate';
import { expect } from 'vitest';
import { countdownMachine, selectIsCounting, selectRemaining, type CountdownSnapshot } from '../../src/machines/app/countdown';
import { defineModelTests, elapse, send } from './harness';

const cd = (snapshot: AnyMachineSnapshot) => snapshot as unknown as CountdownSnapshot;
const INPUT = { seconds: 3, to: '/inbox/' };

defineModelTests({
  name: 'countdown',
  machine: countdownMachine,
  // SPEC §2: the 404 page counts the seconds down, then goes to /inbox/; the user may stop it.
  oracle: {
    initial: 'counting',
    targets: {
      counting: {
        // Each tick takes a second; the tick of the last second ends the count.
        'xstate.after.tick.countdown.counting': ({ context }) => (context.remaining === 1 ? 'done' : 'counting'),
        'countdown.cancel': 'cancelled',
      },
    },
  },
  traversal: {
    events: [{ type: 'countdown.cancel' }],
    internal: [{ type: 'xstate.after.tick.countdown.counting' }],
    input: INPUT,
    limit: 100,
  },
  createActor: ({ machine }) => createActor(machine, { input: INPUT }),
  states: {
    counting: (snapshot, env) => {
      expect(selectIsCounting(cd(snapshot))).toBe(true);
      expect(selectRemaining(cd(snapshot))).toBeGreaterThan(0);
      if (env.event.type === 'xstate.init') expect(selectRemaining(cd(snapshot))).toBe(INPUT.seconds);
      if (env.event.type.startsWith('xstate.after.')) expect(selectRemaining(cd(snapshot))).toBe(env.from.context.remaining - 1);
    },
    done: (snapshot) => {
      expect(snapshot.status).toBe('done');
      expect(selectRemaining(cd(snapshot))).toBe(0);
    },
    cancelled: (snapshot, env) => {
      expect(snapshot.status).toBe('done');
      expect(selectIsCounting(cd(snapshot))).toBe(false);
      if (env.event.type === 'countdown.cancel' && env.from.matches('counting')) {
        expect(selectRemaining(cd(snapshot))).toBe(env.from.context.remaining);
      }
    },
  },
  events: {
    'countdown.cancel': send,
    'xstate.after.tick.countdown.counting': elapse,
  },
  emits: ({ from, to }) => (from.matches('counting') && to.matches('done') ? [{ type: 'navigate', to: INPUT.to, replace: true }] : []),
});
