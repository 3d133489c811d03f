// The delivery-progress poller: one request at a time, backing off after failures, stopping when told or
// when there is nothing left to follow, and aborting what is in flight when stopped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_POLL_WAIT_MS, pollEvery } from '../../src/services/http/poll';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('pollEvery', () => {
  it('asks every interval until the tick says there is nothing left', async () => {
    const answers = [true, true, false];
    const tick = vi.fn(async () => answers.shift() ?? true);
    pollEvery(tick, 2000, MAX_POLL_WAIT_MS);
    expect(tick).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(tick).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(tick).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(tick).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it('doubles the wait after each failure up to the cap, and comes back after a success', async () => {
    let fail = 5;
    const at: number[] = [];
    const start = Date.now();
    const tick = vi.fn(async () => {
      at.push(Date.now() - start);
      if (fail-- > 0) throw new Error('sin red');
      return true;
    });
    pollEvery(tick, 2000, 20_000);
    await vi.advanceTimersByTimeAsync(2000 + 4000 + 8000 + 16000 + 20000 + 20000 + 2000);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps).toEqual([4000, 8000, 16000, 20000, 20000, 2000]);
  });

  it('stopping clears the timer and aborts a request in flight', async () => {
    let signal: AbortSignal | null = null;
    const tick = vi.fn((s: AbortSignal) => {
      signal = s;
      return new Promise<boolean>(() => {});
    });
    const stop = pollEvery(tick, 1000, MAX_POLL_WAIT_MS);
    await vi.advanceTimersByTimeAsync(1000);
    expect(tick).toHaveBeenCalledTimes(1);
    stop();
    expect(signal!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tick).toHaveBeenCalledTimes(1);
  });
});
