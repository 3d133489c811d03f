import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';

type Readable = Pick<AnyActorRef, 'subscribe' | 'getSnapshot'>;
/** As `useSelector` reads it. */
type SnapshotOf<TActor> = TActor extends { getSnapshot(): infer TSnapshot } ? TSnapshot : undefined;

/** One named selector per fact the view shows, each answering a primitive (or a reference the context keeps). */
export type Selectors<TActor extends Readable, TFacts> = {
  [K in keyof TFacts]: (snapshot: SnapshotOf<TActor>) => TFacts[K];
};

/**
 * The facts a component reads from one actor, by name: `const { picks, exact } = useSelectors(picker,
 * { picks: selectPickCount, exact: selectPeopleExact })`. One subscription; the component renders again
 * only when one of the facts changes (each compared with `Object.is`, as `useSelector` compares one), so
 * a view reads several primitives without a line of `useSelector` for each.
 */
export function useSelectors<TActor extends Readable, TFacts extends Record<string, unknown>>(
  actor: TActor,
  selectors: Selectors<TActor, TFacts>,
): TFacts {
  const select = (snapshot: SnapshotOf<TActor>): TFacts => {
    const facts: Partial<TFacts> = {};
    for (const key in selectors) facts[key] = selectors[key](snapshot);
    return facts as TFacts;
  };
  return useSelector(actor, select, sameFacts);
}

function sameFacts<TFacts extends Record<string, unknown>>(a: TFacts, b: TFacts): boolean {
  for (const key in a) if (!Object.is(a[key], b[key])) return false;
  return true;
}
