// A visible countdown before an automatic navigation (the 404 page sends the user to /inbox/, SPEC §2).
// Spawned per page by the view; the user may cancel it.
import { assign, emit, setup, type SnapshotFrom } from 'xstate';
import type { NavigateEvent } from './effects';

export interface CountdownInput {
  seconds: number;
  to: string;
}

export interface CountdownContext {
  remaining: number;
  to: string;
}

export type CountdownEvent = { type: 'countdown.cancel' };

export const countdownMachine = setup({
  types: {
    input: {} as CountdownInput,
    context: {} as CountdownContext,
    events: {} as CountdownEvent,
    emitted: {} as NavigateEvent,
  },
  actions: {
    decrement: assign({ remaining: ({ context }) => context.remaining - 1 }),
    navigate: emit(({ context }) => ({ type: 'navigate' as const, to: context.to, replace: true })),
  },
  guards: {
    isLastSecond: ({ context }) => context.remaining <= 1,
  },
  delays: { tick: 1000 },
}).createMachine({
  id: 'countdown',
  initial: 'counting',
  context: ({ input }) => ({ remaining: Math.max(0, Math.floor(input.seconds)), to: input.to }),
  states: {
    counting: {
      after: {
        tick: [
          { guard: 'isLastSecond', target: 'done', actions: ['decrement', 'navigate'] },
          { target: 'counting', reenter: true, actions: 'decrement' },
        ],
      },
      on: { 'countdown.cancel': { target: 'cancelled' } },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

export type CountdownSnapshot = SnapshotFrom<typeof countdownMachine>;

export const selectRemaining = (snapshot: CountdownSnapshot): number => snapshot.context.remaining;
export const selectIsCounting = (snapshot: CountdownSnapshot): boolean => snapshot.matches('counting');
