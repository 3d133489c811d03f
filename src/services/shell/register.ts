// Registers the app shell's service worker (dist/sw.js, built by build/shell.ts) once the page has loaded
// and its first screen has been shown: installing it downloads the whole shell, which must never compete
// with that screen (the page's `load` comes before it, as the screens' chunks do not hold it back). Only in
// a build: `npm run dev` has no worker. A browser without service workers, or one that refuses this one,
// simply keeps using the network.
export function registerShellWorker(firstScreenShown: Promise<void>): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
  Promise.all([loaded, firstScreenShown])
    .then(() => navigator.serviceWorker.register('/sw.js'))
    .catch(() => undefined);
}

/**
 * Before reloading for a chunk a deploy removed: asks the browser for the new worker and waits until it has
 * taken over (at most `timeoutMs`), or the reload would open the kept shell of the old build again. Without
 * a worker, or when there is no newer build, it returns at once.
 */
export async function updateShellWorker(timeoutMs = 5_000): Promise<void> {
  const container = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined;
  const registration = await container?.getRegistration().catch(() => undefined);
  if (!container || !registration) return;
  const tookOver = new Promise<void>((resolve) => container.addEventListener('controllerchange', () => resolve(), { once: true }));
  try {
    await registration.update();
  } catch {
    return;
  }
  if (!registration.installing && !registration.waiting) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([tookOver, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
