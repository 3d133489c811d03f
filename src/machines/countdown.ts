import { assign, emit, setup } from 'xstate';

// The 404 page's redirect to /inbox/ (SPEC §2): a visible countdown the user can stop,
// so someone reading the page is never yanked away mid-sentence.
export const countdownMachine = setup({
  types: {
    context: {} as { remaining: number; to: string },
    input: {} as { seconds: number; to: string },
    events: {} as { type: 'countdown.cancel' },
    emitted: {} as { type: 'navigate'; to: string; replace?: boolean },
  },
  delays: { tick: 1000 },
  guards: {
    isLastSecond: ({ context }) => context.remaining <= 1,
  },
}).createMachine({
  id: 'countdown',
  context: ({ input }) => ({ remaining: input.seconds, to: input.to }),
  initial: 'counting',
  states: {
    counting: {
      on: { 'countdown.cancel': 'cancelled' },
      after: {
        tick: [
          { guard: 'isLastSecond', target: 'done', actions: assign({ remaining: 0 }) },
          { target: 'counting', reenter: true, actions: assign({ remaining: ({ context }) => context.remaining - 1 }) },
        ],
      },
    },
    cancelled: {},
    done: {
      type: 'final',
      entry: emit(({ context }) => ({ type: 'navigate' as const, to: context.to, replace: true })),
    },
  },
});
