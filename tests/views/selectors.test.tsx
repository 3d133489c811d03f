// useSelectors: the facts come back by name, and the component renders again only when one of them changes,
// not when the actor's snapshot changes in a part it does not read.
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type ActorRefFrom, assign, createActor, type SnapshotFrom, setup } from 'xstate';
import { useSelectors } from '../../src/views/lib/selectors';

const counter = setup({
  types: {
    context: {} as { count: number; label: string; noise: number },
    events: {} as { type: 'count.add' } | { type: 'label.set'; label: string } | { type: 'noise.make' },
  },
}).createMachine({
  context: { count: 0, label: 'uno', noise: 0 },
  on: {
    'count.add': { actions: assign(({ context }) => ({ count: context.count + 1 })) },
    'label.set': { actions: assign(({ event }) => ({ label: event.label })) },
    'noise.make': { actions: assign(({ context }) => ({ noise: context.noise + 1 })) },
  },
});

type Snapshot = SnapshotFrom<typeof counter>;
const selectCount = (state: Snapshot) => state.context.count;
const selectLabel = (state: Snapshot) => state.context.label;

let renders = 0;

function Probe({ actor }: { actor: ActorRefFrom<typeof counter> }) {
  renders += 1;
  const { count, label } = useSelectors(actor, { count: selectCount, label: selectLabel });
  // Typed from the selectors: a number and a string.
  const doubled: number = count * 2;
  return <p>{`${label}:${doubled}`}</p>;
}

describe('useSelectors', () => {
  it('gives each fact by name and renders again only when one of them changes', () => {
    const actor = createActor(counter).start();
    render(<Probe actor={actor} />);
    expect(screen.getByText('uno:0')).toBeTruthy();
    const first = renders;

    act(() => actor.send({ type: 'noise.make' }));
    expect(renders, 'a change the component does not read').toBe(first);

    act(() => actor.send({ type: 'count.add' }));
    expect(screen.getByText('uno:2')).toBeTruthy();
    act(() => actor.send({ type: 'label.set', label: 'dos' }));
    expect(screen.getByText('dos:2')).toBeTruthy();
    expect(renders).toBe(first + 2);

    act(() => actor.send({ type: 'label.set', label: 'dos' }));
    expect(renders, 'the same value again').toBe(first + 2);
    actor.stop();
  });
});
