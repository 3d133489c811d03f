// «No es mi teléfono»: whoever holds this phone says the number is not theirs (a reused or mistyped number,
// a phone passed on). Every app session of every guardian record with that number — in every school, not
// only the one signed in — ends at once, and their push subscriptions go, so the phone stops receiving and
// the records stop counting as reachable by app (server/recipients/app-reach.ts). Decision 0217.
import { sql } from 'drizzle-orm';
import type { PhoneSessionsEnded } from '../../shared/family-devices-contract';
import { intList } from '../db/arrays';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';

/** The guardian records sharing the phone of these (themselves included; a record with no phone is alone). */
export async function guardiansOfPhone(db: Queryable, guardianIds: readonly number[]): Promise<number[]> {
  const ids = intList([...guardianIds]);
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`
      select g.id from guardians g where g.id = any(${ids}::int[])
      union
      select o.id from guardians g join guardians o on o.phone = g.phone where g.id = any(${ids}::int[]) and g.phone is not null`),
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** Ends the sessions of these guardian records (kept expired, like a sign-out) and removes their subscriptions. */
export async function endPhoneSessions(db: Db, guardianIds: readonly number[], now: Date): Promise<PhoneSessionsEnded> {
  const ids = intList([...guardianIds]);
  return db.transaction(async (tx) => {
    const sessions = rowsOf<{ id: number }>(
      await tx.execute(sql`
        update app_tokens set expires_at = ${now.toISOString()}::timestamptz
        where person_kind = 'apoderado' and expires_at > ${now.toISOString()}::timestamptz
          and (person_id = any(${ids}::int[])
            -- A session opened on a row that has since moved to another number still reaches this phone's rows.
            or phone in (select phone from guardians where id = any(${ids}::int[]) and phone is not null))
        returning id`),
    );
    const subscriptions = rowsOf<{ id: number }>(
      await tx.execute(sql`delete from push_subscriptions where guardian_id = any(${ids}::int[]) returning id`),
    );
    return { sessions: sessions.length, subscriptions: subscriptions.length };
  });
}
