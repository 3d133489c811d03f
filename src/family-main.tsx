// The families' app's entry (familia/index.html): its own small bundle, none of the staff's code.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerFamilyWorker } from './services/family/offline';
import { familySession } from './views/family/actors';
import { FamilyApp } from './views/family/app';
import './family.css';

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
