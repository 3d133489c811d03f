// A panel that shows one answer of the server: asked on entry (busy), shown when it comes, or failed with
// Reintentar, the last answer staying on screen meanwhile (the context keeps it until the next one). The
// staff table, the rankings and the activity summary are such panels; what they ask and keep differs.
import type { EventObject } from 'xstate';

/** The answer of a done call, as the action that keeps it takes it. */
const outputOf = <T>({ event }: { event: { output: T } }) => event.output;

/**
 * The `loading`, `shown` and `failed` states of such a panel, for the host's context and events (given
 * first, so the retry event is checked against the host's): `loading` invokes `src` (also its id) with
 * `input`, and its answer goes to the action `keep`; `retry` asks again from `failed`.
 */
export const loadStates =
  <Context, Event extends EventObject>() =>
  <Src extends string, Keep extends string, Input>(
    src: Src,
    input: ({ context }: { context: Context }) => Input,
    keep: Keep,
    retry: Event['type'],
  ) =>
    ({
      loading: {
        tags: 'busy',
        invoke: {
          id: src,
          src,
          input,
          onDone: { target: 'shown', actions: { type: keep, params: outputOf } },
          onError: { target: 'failed' },
        },
      },
      shown: {},
      failed: {
        on: { [retry]: { target: 'loading' } },
      },
    }) as const;
