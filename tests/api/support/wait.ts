// The engine, the simulator and the sweeps work in the background: tests poll the database until what they
// expect holds, and fail with the last value seen.

/** Polls `read` until `check` holds; throws, naming `what` and the last value, after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  read: () => T | Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last = await read();
  while (!check(last)) {
    if (Date.now() > until) throw new Error(`${what}: no se cumplió a tiempo (último valor ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    last = await read();
  }
  return last;
}
