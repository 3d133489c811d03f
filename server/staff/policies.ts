// What an account's roles grant besides the roles themselves: its policies (`user_policies`, SPEC §6) and
// its `scope` (the signed-in user's modules, SPEC §3). One table for the seed and for the staff screen, so
// an invited colleague gets what a seeded one of the same role has, and a role change keeps them in step.
import { eq } from 'drizzle-orm';
import { ACCESS_POLICY } from '../../shared/contract';
import { ADMIN_ROLES, type ChannelCode, hasAnyRole } from '../../shared/codes';
import type { Queryable } from '../db/client';
import { institutionChannels, userChannelPermissions } from '../db/schema/compose';

/** Every staff account: sign in, send messages, keep templates. */
export const BASE_POLICIES: readonly string[] = [ACCESS_POLICY, 'hermes-enviar-mensajes', 'hermes-gestionar-plantillas'];
/** Admin roles besides: the data screens and the school's settings. */
export const ADMIN_POLICIES: readonly string[] = ['hermes-ver-estadisticas', 'hermes-configurar-institucion'];

export const scopeFor = (roles: readonly string[]): string[] =>
  hasAnyRole(roles, ADMIN_ROLES) ? ['mensajeria', 'plantillas', 'dashboard'] : ['mensajeria', 'plantillas'];

/** Teachers may write by app, e-mail and SMS; WhatsApp is for the leadership team (admin roles). */
const STAFF_CHANNELS: readonly ChannelCode[] = ['app-mobile', 'e-mail', 'sms'];

/** Whether an account with these roles may send by a channel its school contracted. */
export const mayUseChannel = (roles: readonly string[], channel: ChannelCode): boolean =>
  hasAnyRole(roles, ADMIN_ROLES) || STAFF_CHANNELS.includes(channel);

/**
 * A new account's channels (SPEC communication permission) as a seeded one of the same roles has them:
 * without these rows it could sign in and write, but every channel would be closed to it. A channel the
 * school has not contracted is stored off, as it would offer nothing.
 */
export async function grantSchoolChannels(tx: Queryable, institutionId: number, userId: number, roles: readonly string[]): Promise<void> {
  const contracted = await tx
    .select({ channel: institutionChannels.channel, enabled: institutionChannels.enabled })
    .from(institutionChannels)
    .where(eq(institutionChannels.institutionId, institutionId));
  if (contracted.length > 0)
    await tx
      .insert(userChannelPermissions)
      .values(contracted.map((c) => ({ userId, channel: c.channel, enabled: c.enabled && mayUseChannel(roles, c.channel) })));
}
