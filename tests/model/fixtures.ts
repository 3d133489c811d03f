// Shared test data. Times are relative to the harness clock T0.
import { sessionMachine } from '../../src/machines/session';
import type { SignedInUser } from '../../shared/contract';
import { ApiFailureError } from '../../src/services/http';
import { TEACHER } from '../fixtures/users';
import { T0, type Fakes } from './harness';

export const USER: SignedInUser = TEACHER;

export const ADMIN: SignedInUser = {
  ...USER,
  id: 1,
  email: 'administrador@sanandres.cl',
  roles: [{ codigo: 'colegio-administrador', nombre: 'Administrador' }],
  device: 'latam',
};

export const TIMES = { tokenExpiresAt: T0 + 1_800_000, refreshExpiresAt: T0 + 3_600_000 };

export function failure(status: number, code: string, message = code, fieldErrors: Record<string, string[]> = {}) {
  return new ApiFailureError({ status, code, message, fieldErrors });
}

/** The session machine with every I/O actor a controllable fake (session and app model tests). */
export const fakedSessionMachine = (fakes: Fakes) =>
  sessionMachine.provide({
    actors: {
      readSessionCookie: fakes.promise(),
      refreshToken: fakes.promise(),
      login: fakes.promise(),
      fetchUser: fakes.promise(),
      fetchPolicies: fakes.promise(),
      logout: fakes.promise(),
    },
  });
