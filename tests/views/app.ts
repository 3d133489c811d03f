// The app as main.tsx assembles it, for view tests: the edge wired once, then the root started (no session
// cookie in jsdom, so the session settles in loggedOut without a request). Pages open their actors under
// it. Screens rendered alone get every text namespace, as their route would load theirs.
import { loadTexts, NAMESPACES } from '../../src/i18n';
import { appActor } from '../../src/views/actors';
import { connectEdge } from '../../src/views/edge';

let started = false;

export async function startApp(): Promise<void> {
  if (!started) {
    started = true;
    connectEdge(appActor);
    appActor.start();
  }
  await loadTexts(NAMESPACES);
}
