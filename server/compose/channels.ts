// The channels of compose: what the school contracted (SPEC `enabled_by_institution`), what the signed-in
// user may send through (their communication permission), and both together, which checkCompose holds a
// message's channels to. `GET /channels` and `GET /communication-permission/user` show the first two.
import { eq } from 'drizzle-orm';
import type { Channel, CommunicationPermission } from '../../shared/compose-contract';
import { type ChannelCode, CHANNEL_CODES, CHANNEL_ID } from '../../shared/codes';
import { readTogether, type Queryable } from '../db/client';
import { institutionChannels, userChannelPermissions } from '../db/schema/compose';

const channelFlags = (rows: { channel: ChannelCode; enabled: boolean }[]) =>
  Object.fromEntries(CHANNEL_CODES.map((code) => [code, rows.some((r) => r.channel === code && r.enabled)])) as Record<
    ChannelCode,
    boolean
  >;

/** Per channel: contracted by the school (SPEC `enabled_by_institution`). A missing row means no. */
export async function schoolChannels(db: Queryable, institutionId: number): Promise<Record<ChannelCode, boolean>> {
  return channelFlags(
    await db
      .select({ channel: institutionChannels.channel, enabled: institutionChannels.enabled })
      .from(institutionChannels)
      .where(eq(institutionChannels.institutionId, institutionId)),
  );
}

/** Per channel: permitted to the user (SPEC communication permission). A missing row means no. */
export async function userChannels(db: Queryable, userId: number): Promise<Record<ChannelCode, boolean>> {
  return channelFlags(
    await db
      .select({ channel: userChannelPermissions.channel, enabled: userChannelPermissions.enabled })
      .from(userChannelPermissions)
      .where(eq(userChannelPermissions.userId, userId)),
  );
}

export function toChannels(institution: Record<ChannelCode, boolean>): Channel[] {
  return CHANNEL_CODES.map((code) => ({ id: CHANNEL_ID[code], code, enabled_by_institution: institution[code] }));
}

export function toPermission(user: Record<ChannelCode, boolean>): CommunicationPermission {
  return { institution_channel_permissions: CHANNEL_CODES.map((code) => ({ channel_id: CHANNEL_ID[code], enabled: user[code] })) };
}

/** Channels the user may send by: contracted by the school AND permitted to the user. */
export async function allowedChannels(db: Queryable, institutionId: number, userId: number): Promise<Set<ChannelCode>> {
  const [school, user] = await readTogether(db, [() => schoolChannels(db, institutionId), () => userChannels(db, userId)]);
  return new Set(CHANNEL_CODES.filter((code) => school[code] && user[code]));
}
