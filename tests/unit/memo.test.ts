// src/machines/app/memo.ts: a derived value remembered per owner (an actor's own data), never in one slot
// that every actor of a kind shares.
import { describe, expect, it } from 'vitest';
import { memoPerOwner } from '../../src/machines/app/memo';

describe('memoPerOwner', () => {
  const counted = () => {
    let runs = 0;
    const derive = memoPerOwner((owner: { n: number }, times: number) => {
      runs++;
      return { value: owner.n * times };
    });
    return { derive, runs: () => runs };
  };

  it('answers the same result for the same owner and inputs, computed once', () => {
    const { derive, runs } = counted();
    const owner = { n: 2 };
    const first = derive(owner, 3);
    expect(first).toEqual({ value: 6 });
    expect(derive(owner, 3)).toBe(first);
    expect(runs()).toBe(1);
  });

  it('recomputes when an input changes, and then remembers the new one', () => {
    const { derive, runs } = counted();
    const owner = { n: 2 };
    const first = derive(owner, 3);
    const second = derive(owner, 4);
    expect(second).not.toBe(first);
    expect(second).toEqual({ value: 8 });
    expect(derive(owner, 4)).toBe(second);
    expect(runs()).toBe(2);
  });

  it('keeps each owner’s entry while another owner is read in turn', () => {
    const { derive, runs } = counted();
    const a = { n: 2 };
    const b = { n: 5 };
    const ofA = derive(a, 3);
    const ofB = derive(b, 1);
    for (let turn = 0; turn < 3; turn++) {
      expect(derive(a, 3)).toBe(ofA);
      expect(derive(b, 1)).toBe(ofB);
    }
    expect([ofA.value, ofB.value, runs()]).toEqual([6, 5, 2]);
  });
});
