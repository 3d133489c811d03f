// Error bodies follow the contract: `{ message, code }` (+ `errors` on 422). Messages are Spanish because
// users may read them; the SPA maps `code` to its own texts.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError, ErrorCode } from '../../shared/contract';
import type { FieldErrors } from './field-errors';

export const MESSAGES = {
  unauthenticated: 'No autenticado.',
  forbidden: 'No tienes permiso para realizar esta acción.',
  invalidCredentials: 'Estas credenciales no coinciden con nuestros registros.',
  policyMissing: 'Tu cuenta no tiene acceso a Hermes. Pide acceso al administrador de tu colegio.',
  refreshExpired: 'Tu sesión expiró. Inicia sesión nuevamente.',
  csrf: 'La sesión de la página expiró. Recarga la página e inténtalo de nuevo.',
  validation: 'Los datos enviados no son válidos.',
  notFound: 'El recurso solicitado no existe.',
  server: 'Ha ocurrido un error al realizar la solicitud.',
  tooLarge: 'La solicitud es demasiado grande.',
  throttled: (seconds: number) =>
    `Demasiados intentos de inicio de sesión. Inténtalo de nuevo en ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}.`,
} as const;

/** 419 ("page expired", as Laravel answers a stale CSRF token) is the contract's CSRF status. */
export type ApiStatus = ContentfulStatusCode | 419;

export function apiError(c: Context, status: ApiStatus, code: ErrorCode, message: string, errors?: FieldErrors): Response {
  const body: ApiError = errors ? { message, code, errors } : { message, code };
  return c.json(body, status as ContentfulStatusCode);
}

export const notFound = (c: Context) => apiError(c, 404, 'not_found', MESSAGES.notFound);

/** 422 with the per-field Spanish messages (Laravel style), the answer to any bad input. */
export const invalid = (c: Context, errors: FieldErrors) => apiError(c, 422, 'validation.failed', MESSAGES.validation, errors);

/** The JSON body, or null when there is none or it does not parse (the caller's checks then say what is missing). */
export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return null;
  }
}
