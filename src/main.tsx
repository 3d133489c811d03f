import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate } from 'wouter/use-browser-location';
import { t } from './i18n';
import { connectServices } from './machines/app';
import { appActor } from './views/actors';
import { App } from './views/app';
import { showToast } from './views/layout/toaster';
import './index.css';

// The edge: UI effects the machines emit are performed here, once.
appActor.on('navigate', (e) => navigate(e.to, { replace: e.replace ?? false }));
appActor.on('toast', (e) => showToast(e.kind, e.message ?? t(e.key, e.params)));
connectServices(appActor);
appActor.start();

// SPEC §8: a failed lazy chunk (new deploy) reloads the page, at most once a minute.
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('hermes.chunkReload') ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem('hermes.chunkReload', String(Date.now()));
  location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
