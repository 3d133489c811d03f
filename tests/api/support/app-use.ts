// Guardians with the app "in use": what makes them reachable through it (server/recipients/app-reach.ts),
// as the seed writes it. Fixtures that mark guardians `app_installed_at` call this afterwards.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../../server/db/client';

/** A session of the app used just now for every guardian (of `institutionId`, or given) marked installed. */
export async function appInUse(db: Queryable, scope: { institutionId: number } | { guardianIds: number[] }): Promise<void> {
  const where =
    'institutionId' in scope
      ? sql`g.institution_id = ${scope.institutionId} and g.app_installed_at is not null`
      : sql`g.id = any(${`{${scope.guardianIds.join(',')}}`}::int[])`;
  await db.execute(sql`
    insert into app_tokens (institution_id, person_kind, person_id, token_hash, created_at, last_used_at, expires_at)
    select g.institution_id, 'apoderado', g.id, 'test:' || g.id || ':' || gen_random_uuid(), now(), now(), now() + interval '90 days'
    from guardians g where ${where}`);
}
