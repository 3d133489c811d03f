// The app as main.tsx assembles it, for view tests: the edge wired once, then the root started (no session
// cookie in jsdom, so the session settles in loggedOut without a request). Pages open their actors under it.
import { appActor } from '../../src/views/actors';
import { connectEdge } from '../../src/views/edge';

let started = false;

export function startApp(): void {
  if (started) return;
  started = true;
  connectEdge(appActor);
  appActor.start();
}
