// Shared test data. Times are relative to the harness clock T0.
import type { SignedInUser } from '../../src/services/contract';
import { ApiFailureError } from '../../src/services/http';
import { TEACHER } from '../fixtures/users';
import { T0 } from './harness';

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
