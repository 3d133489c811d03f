// A panel of a screen that is a child actor in a region of its own (the activity summary beside the staff
// table, the usage chart beside the quota form, the call list beside a course): a bug in it, not a failed
// request (that is its own `failed`), leaves the rest of the screen standing, shown as `crashed` until
// the user restarts it, when it starts afresh.
import type { EventObject } from 'xstate';

/**
 * The region of a child panel, for the host's context and events (given first, so the restart event is
 * checked against the host's): `running` invokes it (id and src `src`) with the host's own transitions
 * there (`on`); `crashed` waits for `restart`.
 */
export const childPanelRegion =
  <Context, Event extends EventObject>() =>
  <Src extends string, Input, const On extends object = object>(
    src: Src,
    input: ({ context }: { context: Context }) => Input,
    restart: Event['type'],
    on?: On,
  ) =>
    ({
      initial: 'running',
      states: {
        running: {
          invoke: { id: src, src, input, onError: { target: 'crashed' } },
          ...(on && { on }),
        },
        crashed: {
          on: { [restart]: { target: 'running' } },
        },
      },
    }) as const;
