// A quiet poller for screens that follow deliveries: one request at a time, every `every` ms; a failure
// doubles the wait (up to `maxWait`) and a success brings it back. Returns the stop function, which also
// aborts a request in flight.

/** Longest pause between polls after repeated failures. */
export const MAX_POLL_WAIT_MS = 30_000;

export function pollEvery(tick: (signal: AbortSignal) => Promise<boolean>, every: number, maxWait: number): () => void {
  const controller = new AbortController();
  let wait = every;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = async () => {
    timer = null;
    let again = true;
    try {
      again = await tick(controller.signal);
      wait = every;
    } catch {
      wait = Math.min(wait * 2, maxWait);
    }
    if (again && !controller.signal.aborted) timer = setTimeout(run, wait);
  };
  timer = setTimeout(run, wait);
  return () => {
    controller.abort();
    if (timer !== null) clearTimeout(timer);
  };
}
