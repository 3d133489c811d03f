// The worker is registered once the page has loaded and its first screen is shown, so installing it (it
// downloads the whole shell) never competes with that screen. The reload after a deploy (src/main.tsx, `vite:preloadError`) first lets the new build's service worker
// take over (src/services/shell/register.ts `updateShellWorker`), or it would reopen the old kept shell.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerShellWorker, updateShellWorker } from '../../src/services/shell/register';

/** A fake `navigator.serviceWorker` whose registration's update finds a newer worker or not. */
function fakeContainer(options: { registered: boolean; newer: boolean }) {
  const events = new EventTarget();
  const registration = {
    installing: null as object | null,
    waiting: null as object | null,
    update: vi.fn(async () => {
      if (options.newer) registration.installing = {};
    }),
  };
  const container = Object.assign(events, {
    getRegistration: async () => (options.registered ? registration : undefined),
  });
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  return { registration, takeOver: () => events.dispatchEvent(new Event('controllerchange')) };
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

/** Whether `promise` has settled after the pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  return done;
}

describe('updateShellWorker', () => {
  it('returns at once in a browser without a worker', async () => {
    expect(await settled(updateShellWorker())).toBe(true);
  });

  it('returns at once when no worker is registered', async () => {
    fakeContainer({ registered: false, newer: false });
    expect(await settled(updateShellWorker())).toBe(true);
  });

  it('asks for the new worker and returns at once when there is no newer build', async () => {
    const { registration } = fakeContainer({ registered: true, newer: false });
    expect(await settled(updateShellWorker())).toBe(true);
    expect(registration.update).toHaveBeenCalledTimes(1);
  });

  it('waits until a newer build’s worker has taken over', async () => {
    const { takeOver } = fakeContainer({ registered: true, newer: true });
    const update = updateShellWorker();
    expect(await settled(update)).toBe(false);
    takeOver();
    expect(await settled(update)).toBe(true);
  });

  it('gives up waiting after the timeout, so the page still reloads', async () => {
    vi.useFakeTimers();
    fakeContainer({ registered: true, newer: true });
    const update = updateShellWorker(5_000);
    expect(await settled(update)).toBe(false);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await settled(update)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(update)).toBe(true);
  });
});

describe('registerShellWorker', () => {
  it('registers the worker only once the page has loaded and its first screen has been shown', async () => {
    vi.stubEnv('PROD', true);
    const register = vi.fn(async () => ({}));
    Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
    let shown: () => void = () => undefined;
    const firstScreen = new Promise<void>((resolve) => (shown = resolve));
    // jsdom's page has loaded already: only the first screen is missing.
    expect(document.readyState).toBe('complete');
    registerShellWorker(firstScreen);
    await settled(Promise.resolve());
    expect(register).not.toHaveBeenCalled();
    shown();
    await settled(Promise.resolve());
    expect(register).toHaveBeenCalledExactlyOnceWith('/sw.js');
  });
});
