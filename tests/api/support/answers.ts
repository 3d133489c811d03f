// Reading the API's answers in tests: the `data` of a 200, the per-field errors of a 422.
import { expect } from 'vitest';
import type { ApiError } from '../../../shared/contract';

/** The `data` of a 200 answer (the body shown when it is not a 200). */
export async function data<T>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  const body = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(200);
  return (body as { data: T }).data;
}

/** The per-field Spanish messages of a 422 `validation.failed` answer. */
export async function errorsOf(res: Response | Promise<Response>): Promise<Record<string, string[]>> {
  const r = await res;
  expect(r.status).toBe(422);
  const body = (await r.json()) as ApiError;
  expect(body.code).toBe('validation.failed');
  return body.errors!;
}
