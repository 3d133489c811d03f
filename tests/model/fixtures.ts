// Model-harness helpers: token times relative to the harness clock T0, API failures, and a session machine
// over fakes. Plain API data (users, messages…) lives in tests/fixtures.
import { sessionMachine } from '../../src/machines/session/session';
import { ApiFailureError } from '../../src/services/http/client';
import { T0, type Fakes } from './harness';

export const TIMES = { tokenExpiresAt: T0 + 1_800_000, refreshExpiresAt: T0 + 3_600_000 };

export function failure(status: number, code: string, message = code, fieldErrors: Record<string, string[]> = {}) {
  return new ApiFailureError({ status, code, message, fieldErrors });
}

/** The session machine with every I/O actor a controllable fake (session and app model tests). */
export const fakedSessionMachine = (fakes: Fakes, logic: typeof sessionMachine = sessionMachine) =>
  logic.provide({
    actors: {
      readSessionCookie: fakes.promise(),
      refreshToken: fakes.promise(),
      login: fakes.promise(),
      fetchUser: fakes.promise(),
      logout: fakes.promise(),
    },
  });
