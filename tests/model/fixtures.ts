// Shared test data. Times are relative to the harness clock T0.
import type { SignedInUser } from '../../src/services/contract';
import { ApiFailureError } from '../../src/services/http';
import { T0 } from './harness';

export const USER: SignedInUser = {
  id: 7,
  email: 'docente@sanandres.cl',
  roles: [{ codigo: 'docente', nombre: 'Docente' }],
  person: { name: 'Ana Pérez' },
  institution: { id: 1, desc: 'Colegio San Andrés de Ñuñoa', locale: 'es-CL', timezone: 'America/Santiago', country: 'CL' },
  device: 'cl',
  options: { url: { home: 'https://sanandres.cl' } },
  scope: [],
  domain: 'cl',
};

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
