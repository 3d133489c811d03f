// Objection: a blocked person gets nothing from the school, on any channel, from the block on. Deliveries to
// them are born failed `blocked` at the send (server/compose/send.ts), the engine looks again at each attempt
// (server/delivery/attempt.ts) and the deliveries still queued fail here, in the block's own transaction, with
// what they reserved given back, as an opt-out does (server/opt-outs/stop-queued.ts). An erased person counts
// as blocked everywhere too.
import { sql } from 'drizzle-orm';
import type { BlockRequester, PersonBlock, PrivacyPersonKind } from '../../shared/privacy-requests-contract';
import { BLOCKED } from '../../shared/delivery-progress';
import type { AuditActor } from '../audit/record';
import { recordAudit } from '../audit/record';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { stopQueuedDeliveries } from '../reception/stop-queued';
import { lockPerson, type PersonRef } from './person';

/** Fails the person's deliveries still queued and gives back what they reserved; returns how many. */
export async function stopQueuedOf(tx: Queryable, kind: PrivacyPersonKind, id: number): Promise<number> {
  // Locks in the order of server/opt-outs/stop-queued.ts: deliveries by id, quota rows, then the recipients.
  const locked = rowsOf<{ id: number }>(
    await tx.execute(sql`
      select d.id from deliveries d join message_recipients r on r.id = d.recipient_id
      where r.recipient_kind = ${kind} and r.recipient_ref_id = ${id} and d.status = 'queued'
      order by d.id for no key update of d`),
  );
  return stopQueuedDeliveries(
    tx,
    locked.map((r) => Number(r.id)),
    BLOCKED,
  );
}

export type BlockOutcome = { ok: true; block: PersonBlock } | { ok: false; reason: 'not_found' | 'erased' };

export async function blockPerson(db: Db, actor: AuditActor, person: PersonRef, requestedBy: BlockRequester): Promise<BlockOutcome> {
  return db.transaction(async (tx) => {
    const found = await lockPerson(tx, person);
    if (!found) return { ok: false, reason: 'not_found' };
    if (found.erased) return { ok: false, reason: 'erased' };
    // "before" reads the statement's snapshot: who had asked, if the person was blocked already.
    const result = await tx.execute(sql`
      with before as (select requested_by from person_blocks where person_kind = ${person.kind} and person_id = ${person.id})
      insert into person_blocks (institution_id, person_kind, person_id, blocked_by, requested_by)
      values (${person.institutionId}, ${person.kind}, ${person.id}, ${actor.actorUserId}, ${requestedBy})
      on conflict (person_kind, person_id) do update set requested_by = excluded.requested_by
      returning blocked_at, (select requested_by from before) as before`);
    const row = rowsOf<{ blocked_at: string | Date; before: BlockRequester | null }>(result)[0]!;
    const stopped = await stopQueuedOf(tx, person.kind, person.id);
    // A new block, or the same one now asked by someone else, is on the record; the same request again is not.
    if (row.before !== requestedBy) {
      await recordAudit(tx, actor, {
        action: 'person.blocked',
        subject: { kind: person.kind, id: person.id },
        detail: {
          solicitado_por: requestedBy,
          entregas_detenidas: stopped,
          ...(row.before === null ? {} : { solicitado_antes_por: row.before }),
        },
      });
    }
    return {
      ok: true,
      block: { tipo: person.kind, id: person.id, solicitado_por: requestedBy, bloqueado_el: new Date(row.blocked_at).toISOString() },
    };
  });
}

export type UnblockOutcome = { ok: true } | { ok: false; reason: 'not_found' | 'erased' };

export async function unblockPerson(db: Db, actor: AuditActor, person: PersonRef): Promise<UnblockOutcome> {
  return db.transaction(async (tx) => {
    const found = await lockPerson(tx, person);
    if (!found) return { ok: false, reason: 'not_found' };
    if (found.erased) return { ok: false, reason: 'erased' };
    const result = await tx.execute(sql`
      delete from person_blocks where person_kind = ${person.kind} and person_id = ${person.id} returning 1`);
    if (rowsOf(result).length > 0) {
      await recordAudit(tx, actor, { action: 'person.unblocked', subject: { kind: person.kind, id: person.id } });
    }
    return { ok: true };
  });
}
