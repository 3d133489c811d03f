// Passwords (shared/passwords-contract.ts): asking for a reset link, checking and using it, and a signed-in
// user's change. Parses and answers; the rules and SQL are server/passwords/.
import { Hono } from 'hono';
import { isEmail } from '../../shared/person-rules';
import { PASSWORD_MAX } from '../../shared/password-rules';
import { rateLimits, hit } from '../auth/rate-limit';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { requireAuth } from '../http/auth';
import { clientIp } from '../http/client-ip';
import type { AppEnv } from '../http/env';
import { apiError, invalid, MESSAGES, readJson } from '../http/errors';
import type { FieldErrors } from '../http/field-errors';
import type { Logger } from '../log';
import { changePassword } from '../passwords/change';
import { lazyMailer } from '../mail/transport';
import { checkResetLink, sendResetLink, redeemResetLink } from '../passwords/resets';

const RESET_MESSAGES = {
  emailRequired: 'El correo electrónico es obligatorio.',
  emailInvalid: 'El correo electrónico no es válido.',
  passwordRequired: 'La contraseña es obligatoria.',
  currentRequired: 'La contraseña actual es obligatoria.',
  invalid: 'Este enlace no es válido. Pide uno nuevo desde «¿Olvidaste tu contraseña?».',
  expired: 'Este enlace venció: funciona durante 1 hora. Pide uno nuevo desde «¿Olvidaste tu contraseña?».',
  used: 'Este enlace ya se usó. Si necesitas cambiar tu contraseña otra vez, pide uno nuevo.',
  throttled: (seconds: number) => {
    const minutes = Math.ceil(seconds / 60);
    return `Demasiadas solicitudes. Inténtalo de nuevo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`;
  },
} as const;

const body = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** A password field: present, a string, and not longer than anything the rule could accept (the rule says why). */
function passwordField(value: unknown, field: string, required: string, errors: FieldErrors): string {
  if (typeof value !== 'string' || value === '') errors[field] = [required];
  // The rule counts characters; a string far longer than its maximum is refused before zxcvbn reads it.
  else if (value.length > PASSWORD_MAX * 4) errors[field] = [`La contraseña puede tener como máximo ${PASSWORD_MAX} caracteres.`];
  return typeof value === 'string' ? value : '';
}

export function passwordRoutes(db: Db, config: ServerConfig, logger: Logger): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limits = rateLimits(config);
  const mailer = lazyMailer(config);

  app.post('/password-resets', async (c) => {
    const { email } = body(await readJson(c));
    if (typeof email !== 'string' || email.trim() === '') return invalid(c, { email: [RESET_MESSAGES.emailRequired] });
    const address = email.trim().toLowerCase();
    if (!isEmail(address)) return invalid(c, { email: [RESET_MESSAGES.emailInvalid] });
    const now = new Date();
    // Per IP first: a client spraying addresses stops there without using up anyone's own count.
    const wait = (await hit(db, limits.resetIp, clientIp(c, config.trustProxy), now)) || (await hit(db, limits.resetEmail, address, now));
    if (wait > 0) {
      c.header('Retry-After', String(wait));
      return apiError(c, 429, 'auth.throttled', RESET_MESSAGES.throttled(wait));
    }
    // After the answer, so its timing is the same whether or not the address has an account.
    void sendResetLink(db, mailer, config.publicUrl, address, now).catch((error: unknown) =>
      logger.error('No se pudo enviar el enlace para restablecer la contraseña', error),
    );
    return c.json({ data: { ok: true } }, 202);
  });

  const linkError = (c: Parameters<typeof invalid>[0], kind: 'invalid' | 'expired' | 'used') =>
    kind === 'invalid'
      ? apiError(c, 404, 'password_reset.invalid', RESET_MESSAGES.invalid)
      : apiError(c, 410, `password_reset.${kind}`, RESET_MESSAGES[kind]);

  app.get('/password-resets/:token', async (c) => {
    const link = await checkResetLink(db, c.req.param('token'));
    if (link.kind !== 'valid') return linkError(c, link.kind);
    return c.json({ data: link.owner });
  });

  app.post('/password-resets/:token', async (c) => {
    const errors: FieldErrors = {};
    const password = passwordField(body(await readJson(c)).password, 'password', RESET_MESSAGES.passwordRequired, errors);
    if (errors.password) return invalid(c, errors);
    const outcome = await redeemResetLink(db, c.req.param('token'), password);
    if (outcome.kind === 'refused') return invalid(c, { password: [outcome.reason] });
    if (outcome.kind !== 'done') return linkError(c, outcome.kind);
    return c.json({ data: { ok: true } });
  });

  app.put('/user/password', requireAuth(db), async (c) => {
    const input = body(await readJson(c));
    const errors: FieldErrors = {};
    const current = passwordField(input.current_password, 'current_password', RESET_MESSAGES.currentRequired, errors);
    const password = passwordField(input.password, 'password', RESET_MESSAGES.passwordRequired, errors);
    if (Object.keys(errors).length > 0) return invalid(c, errors);
    const outcome = await changePassword(db, limits.login, {
      userId: c.var.auth.userId,
      sessionId: c.var.auth.sessionId,
      ip: clientIp(c, config.trustProxy),
      current,
      password,
    });
    if (outcome.kind === 'gone') return apiError(c, 401, 'auth.unauthenticated', MESSAGES.unauthenticated);
    if (outcome.kind === 'throttled') {
      c.header('Retry-After', String(outcome.waitS));
      return apiError(c, 429, 'auth.throttled', MESSAGES.throttled(outcome.waitS));
    }
    if (outcome.kind === 'refused') return invalid(c, { [outcome.field]: [outcome.reason] });
    return c.json({ data: { ok: true } });
  });

  return app;
}
