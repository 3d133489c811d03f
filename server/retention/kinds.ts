// What each retention kind removes, as SQL shared by the preview (a count) and the sweep (batches it deletes):
// the two can then never disagree about what "past retention" means. A message's date is the one its
// folders list it under (sent, else scheduled, else last edited); scheduled messages wait for their send.
import { sql, type SQL } from 'drizzle-orm';
import type { RetentionKind } from '../../shared/retention-contract';

const messageDate = sql.raw(`coalesce(m.sent_at, m.scheduled_at, m.updated_at)`);
const STAFF = sql.raw(`'funcionario'`);

/** A `select <id> from … where …` of the rows of `kind` in school `institutionId` written before `before`. */
export function rowsPast(kind: RetentionKind, institutionId: number, before: Date): { table: string; select: SQL } {
  const at = before.toISOString();
  switch (kind) {
    case 'mensajes':
      return {
        table: 'messages',
        select: sql`select m.id from messages m where m.institution_id = ${institutionId} and m.sender_kind = ${STAFF}
          and m.kind <> 'scheduled' and ${messageDate} < ${at}::timestamptz`,
      };
    case 'respuestas':
      return {
        table: 'messages',
        select: sql`select m.id from messages m where m.institution_id = ${institutionId} and m.sender_kind <> ${STAFF}
          and m.kind <> 'scheduled' and ${messageDate} < ${at}::timestamptz`,
      };
    case 'entregas':
      return {
        table: 'deliveries',
        select: sql`select d.id from deliveries d join messages m on m.id = d.message_id
          where m.institution_id = ${institutionId} and m.kind <> 'scheduled' and ${messageDate} < ${at}::timestamptz`,
      };
    case 'adjuntos':
      return {
        table: 'message_attachments',
        select: sql`select a.id from message_attachments a join messages m on m.id = a.message_id
          where m.institution_id = ${institutionId} and m.kind <> 'scheduled' and ${messageDate} < ${at}::timestamptz`,
      };
    case 'recibidos':
      // What a family texted, as this school got it; the text itself goes when no school keeps it (sweep.ts).
      return {
        table: 'inbound_message_targets',
        select: sql`select t.id from inbound_message_targets t join inbound_messages i on i.id = t.inbound_id
          where t.institution_id = ${institutionId} and i.received_at < ${at}::timestamptz`,
      };
    case 'auditoria':
      return {
        table: 'audit_events',
        select: sql`select e.id from audit_events e where e.institution_id = ${institutionId} and e.at < ${at}::timestamptz`,
      };
  }
}

/** Inbound texts no school holds any more (or none ever did: an opt-out word), before `before`. */
export const orphanInboundPast = (before: Date): SQL =>
  sql`select i.id from inbound_messages i where i.received_at < ${before.toISOString()}::timestamptz
    and not exists (select 1 from inbound_message_targets t where t.inbound_id = i.id)`;

/**
 * Opt-out and opt-in events before `before`, except the one that dates a phone's current opt-out (reception
 * names it): the opt-out itself stays as long as the phone does not opt back in.
 */
export const optOutEventsPast = (before: Date): SQL =>
  sql`select e.id from channel_opt_out_events e where e.at < ${before.toISOString()}::timestamptz
    and not exists (
      select 1 from channel_opt_outs o where o.channel = e.channel and o.phone = e.phone
        and e.id = (select max(l.id) from channel_opt_out_events l where l.channel = e.channel and l.phone = e.phone and l.kind = 'out'))`;

/** Audit entries of no school (an unknown e-mail's failed sign-in) or of a school that is gone. */
export const homelessAuditPast = (before: Date): SQL =>
  sql`select e.id from audit_events e where e.at < ${before.toISOString()}::timestamptz
    and (e.institution_id is null or not exists (select 1 from institutions s where s.id = e.institution_id))`;
