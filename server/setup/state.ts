// Whether the install still waits for its first school, asked by every page request while it does. Once a
// school exists none is ever deleted by the app, so the answer is kept from then on: an install that has
// schools pays one query in its whole life, and its pages and their bytes stay as they were.
import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/client';
import { hasSchool } from '../schools/schools';

export interface SetupState {
  needed(): Promise<boolean>;
}

export function setupState(db: Db): SetupState {
  let done = false;
  return {
    async needed() {
      if (done) return false;
      done = await hasSchool(db);
      return !done;
    },
  };
}

/** A page of the app, not a file: no dot in its last segment (`/inbox`, not `/assets/x.js` or `/sw.js`). */
const isAppPage = (path: string): boolean => !/\.[^/]*$/.test(path);

const SETUP_PATH = '/setup';

/**
 * In front of the built app: while setup is needed every page goes to /setup, which the server sends before
 * any of the SPA loads; afterwards /setup goes to /login. A redirect on the server costs the SPA nothing.
 */
export function setupGate(state: SetupState): MiddlewareHandler {
  return async (c, next) => {
    if (!isAppPage(c.req.path)) return await next();
    const onSetup = c.req.path.replace(/\/+$/, '').toLowerCase() === SETUP_PATH;
    const needed = await state.needed();
    if (needed && !onSetup) return c.redirect(SETUP_PATH, 302);
    if (!needed && onSetup) return c.redirect('/login', 302);
    await next();
  };
}
