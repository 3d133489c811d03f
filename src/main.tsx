// First: the login form's chunk is asked for before anything else runs.
import { firstScreenShown } from './views/first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { appActor } from './views/actors';
import { App } from './views/app';
import { registerShellWorker, updateShellWorker } from './services/shell/register';
import { connectEdge } from './views/edge';
import './index.css';

// The edge subscribes before the actors start, so no effect is missed.
connectEdge(appActor);
appActor.start();

// SPEC §8: a failed lazy chunk (new deploy) reloads the page, at most once a minute.
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('hermes.chunkReload') ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem('hermes.chunkReload', String(Date.now()));
  // With the shell kept by the service worker, the reload must wait for the new build's worker.
  void updateShellWorker().finally(() => location.reload());
});

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerShellWorker(firstScreenShown);
