// A lazy screen of the families' app whose chunk a deploy removed: the page reloads once to open the new
// build; a second failure within a minute is thrown instead of reloading in a loop; offline it never reloads
// (the browser's offline page would replace the app) and keeps the one reload for when it is back online.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadOrReload } from '../../src/views/family/lazy-screen';

const gone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

beforeEach(() => {
  sessionStorage.clear();
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 30, 12), toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('a lazy screen', () => {
  it('is the module when it loads, without reloading', async () => {
    const reload = vi.fn();
    await expect(loadOrReload(async () => 'pantalla', reload)).resolves.toBe('pantalla');
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page once when its chunk is gone, and throws on a second failure within a minute', async () => {
    const reload = vi.fn();
    void loadOrReload(gone, reload);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    vi.setSystemTime(Date.now() + 30_000);
    await expect(loadOrReload(gone, reload)).rejects.toThrow(TypeError);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again when the last reload is more than a minute old', async () => {
    const reload = vi.fn();
    void loadOrReload(gone, reload);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    vi.setSystemTime(Date.now() + 61_000);
    void loadOrReload(gone, reload);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(2));
  });

  it('does not reload offline: the failure is thrown, and the reload is kept for when the signal is back', async () => {
    const reload = vi.fn();
    const offline = () => false;
    await expect(loadOrReload(gone, reload, offline)).rejects.toThrow(TypeError);
    await expect(loadOrReload(gone, reload, offline)).rejects.toThrow(TypeError);
    expect(reload).not.toHaveBeenCalled();
    void loadOrReload(gone, reload, () => true);
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('reads navigator.onLine when not told', async () => {
    const reload = vi.fn();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await expect(loadOrReload(gone, reload)).rejects.toThrow(TypeError);
    expect(reload).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
