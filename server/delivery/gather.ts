// "Now, or in a moment with more": the engine's group commits and its refresh of owed recipients both start
// once `size` items wait, or `waitMs` after the first while more may come, or at once when nothing more
// will; one run at a time. Whoever adds items, or ends a run, pokes.
export interface Gatherer {
  poke(): void;
  stop(): void;
}

export function createGatherer(options: {
  size: number;
  waitMs: number;
  /** Items waiting for the next run. */
  waiting: () => number;
  running: () => boolean;
  /** Something in flight may add items soon (so a few may wait for them). */
  moreComing: () => boolean;
  /** Takes every waiting item. */
  run: () => void;
}): Gatherer {
  const { size, waitMs, waiting, running, moreComing, run } = options;
  let timer: NodeJS.Timeout | undefined;

  function start(): void {
    clearTimeout(timer);
    timer = undefined;
    run();
  }

  function poke(): void {
    if (running() || waiting() === 0) return;
    if (waiting() < size && moreComing()) {
      timer ??= setTimeout(() => {
        timer = undefined;
        if (!running() && waiting() > 0) start();
      }, waitMs);
      return;
    }
    start();
  }

  return {
    poke,
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
