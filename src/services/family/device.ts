// The guardian's session as this device keeps it. In localStorage, not a cookie: the app speaks to the
// API with a bearer token (the guardian API has no cookie session and no CSRF), a phone is one person's,
// and the guardian must stay signed in across visits and restarts of the browser, for the 90 days the
// token lives. The token is revoked on the server by «Cerrar sesión»; what this device keeps is checked
// by its struct on every start, so a stale shape is forgotten instead of trusted.
import { array, enums, is, number, optional, string, type } from 'superstruct';
import { fromPromise } from 'xstate';
import type { FamilySession } from '../../../shared/family-contract';
import { forgetOfflineCopies } from './offline';

const KEY = 'hermes.familia.session';

const SchoolStruct = type({ name: string(), locale: enums(['es-CL', 'es-MX']) });

const StoredStruct = type({
  token: string(),
  expires_at: string(),
  guardian: type({ id: number(), name: string(), school: SchoolStruct, schools: optional(array(SchoolStruct)) }),
});

export function keepSession(session: FamilySession): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(session));
  } catch {
    // Private mode or full storage: signed in for this visit only.
  }
}

export function forgetSession(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}

/** The session kept on this device, unless it is unreadable or expired at `now`. */
function keptSession(now: Date): FamilySession | null {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!is(stored, StoredStruct)) return null;
  if (Date.parse(stored.expires_at) <= now.getTime()) return null;
  // Kept before sessions listed their schools: its own school is the one it knew.
  return { ...stored, guardian: { ...stored.guardian, schools: stored.guardian.schools ?? [stored.guardian.school] } };
}

/**
 * The kept session as actor logic: the app starts by reading it. Without one (it expired, or was never
 * there), copies of messages a previous session left offline are deleted.
 */
export const restoreSession = fromPromise<FamilySession | null>(async () => {
  const session = keptSession(new Date());
  if (session === null) await forgetOfflineCopies();
  return session;
});
