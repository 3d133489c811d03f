// Registers the app shell's service worker (dist/sw.js, built by build/shell.ts) once the page has loaded,
// so installing it never competes with the first screen. Only in a build: `npm run dev` has no worker.
// A browser without service workers, or one that refuses this one, simply keeps using the network.
export function registerShellWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
