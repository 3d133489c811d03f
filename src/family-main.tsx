// The families' app's entry (familia/index.html): its own small bundle, none of the staff's code.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerFamilyWorker } from './services/family/offline';
import { familySession } from './views/family/actors';
import { FamilyApp } from './views/family/app';
import './family.css';

// The worker's scope is /familia/: the server answers /familia with a 308 to /familia/ (decision 0223);
// where it does not (Vite's dev server), the address is given its slash here, so this page is the
// worker's to answer from the next reload on (the manifest's start_url has it already).
if (window.location.pathname === '/familia') {
  window.history.replaceState(window.history.state, '', `/familia/${window.location.search}${window.location.hash}`);
}
familySession.start();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from familia/index.html');
createRoot(root).render(
  <StrictMode>
    <FamilyApp session={familySession} />
  </StrictMode>,
);
// After `load`: installing the worker downloads the whole app again, which must not compete with it.
registerFamilyWorker();
