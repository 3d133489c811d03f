// Evaluated first in the entry (main.tsx): asks for the login form's chunk before the rest of the entry
// runs, so on a phone its download overlaps the entry's run instead of following the app's first render.
// Every visit needs it, whatever the address: the form, or the UI primitives every screen takes from it
// (vite.config.ts, the `login` group). The route's screen then uses the same download (routes.tsx).
import('./pages/session/login-page').catch(() => undefined);

let shown: () => void = () => undefined;
/** Settles once the first screen past the splash has had its first frame (router.tsx says when). */
export const firstScreenShown = new Promise<void>((resolve) => (shown = resolve));
export const markFirstScreenShown = (): void => shown();
