// Where a block or an erasure (server/privacy-requests/) takes effect, as SQL every reader shares: the send's
// deliveries (server/compose/), the engine's attempt (server/delivery/attempt.ts) and reception. Beside the
// opt-outs' (./opt-outs.ts), below the feature that writes the blocks, so every reader may import it.
import { sql, type SQL } from 'drizzle-orm';

/** SQL true when the person (`kind`, `id`: SQL of a recipient kind and ref) is blocked or erased now. */
export const blockedSql = (kind: SQL, id: SQL): SQL =>
  sql`(exists (select 1 from person_blocks pb where pb.person_kind = ${kind} and pb.person_id = ${id})
    or (${kind} = 'apoderado' and exists (select 1 from guardians eg where eg.id = ${id} and eg.erased_at is not null))
    or (${kind} = 'estudiante' and exists (select 1 from students es where es.id = ${id} and es.erased_at is not null))
    or (${kind} = 'funcionario' and exists (select 1 from staff est where est.id = ${id} and est.erased_at is not null)))`;

/** SQL of the date the person was blocked, null when they are not. */
export const blockedAtSql = (kind: SQL, id: SQL): SQL =>
  sql`(select pb.blocked_at from person_blocks pb where pb.person_kind = ${kind} and pb.person_id = ${id})`;
