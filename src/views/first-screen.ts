// Evaluated first in the entry (main.tsx): asks for the login form's chunk before the rest of the entry
// runs, so on a phone its download overlaps the entry's run instead of following the app's first render.
// Every visit needs it, whatever the address: the form, or the UI primitives every screen takes from it
// (vite.config.ts, the `login` group). The route's screen then uses the same download (routes.tsx).
import('./pages/session/login-page').catch(() => undefined);
