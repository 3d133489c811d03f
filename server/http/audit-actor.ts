// The audit actor of a request: the signed-in user and their school (set by requireAuth) and the caller's
// address (set for every request in server/app.ts).
import type { Context } from 'hono';
import type { AppEnv } from './env';
import type { AuditActor } from '../audit/record';

export function auditActorOf(c: Context<AppEnv>): AuditActor {
  const auth = c.get('auth');
  return { institutionId: auth?.institutionId ?? null, actorUserId: auth?.userId ?? null, ip: c.get('ip') ?? null };
}
