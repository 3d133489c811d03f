// An inbound SMS or WhatsApp that is an opt-out or opt-in word (./words.ts): recorded for that channel and
// phone in one transaction, then answered with one short confirmation (./texts.ts). The inbound handler asks
// this first and threads the message as a reply only when it answers false.
//
// - "BAJA" stops the channel to the phone at once, in every school of the deployment (the sender is the
//   deployment's), what is queued to it included (./stop-queued.ts); a phone already opted out keeps its
//   first date, and is confirmed again (they asked).
// - "ALTA" re-joins only a phone that opted out of that channel; from any other phone it is an ordinary reply
//   ("¿Fiebre alta o baja?" — "Alta"), and answers false.
// - A webhook the provider repeats (its message id seen before) changes nothing and confirms nothing.
import { sql } from 'drizzle-orm';
import type { Locale } from '../../shared/contract';
import { transactionRetrying, type Db, type Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import type { InboundMessage } from '../inbound/contract';
import type { Logger } from '../log';
import { stopQueued } from './stop-queued';
import { confirmationText, type OptChannel } from './texts';
import { optWordOf, type OptWord } from './words';

export interface OptOutDeps {
  /** Sends the confirmation on the channel the word came by (wired to the channel adapters). */
  confirm(channel: OptChannel, phone: string, text: string): Promise<void>;
  logger?: Logger;
}

/** What the inbound handler calls: true when the message was an opt-out / opt-in word and is handled. */
export type OptOutHandler = (message: InboundMessage) => Promise<boolean>;

type Recorded = 'applied' | 'repeated' | 'not_opted_out';

/** Rolls back an opt-in from a phone that had not opted out: it is a reply, and leaves nothing written. */
class NotOptedOut extends Error {}

async function record(db: Db, message: InboundMessage, word: OptWord, logger?: Logger): Promise<Recorded> {
  try {
    return await transactionRetrying(
      db,
      async (tx) => {
        const inserted = await tx.execute(sql`
        insert into channel_opt_out_events (channel, phone, kind, body, provider, provider_id, at)
        values (${message.channel}, ${message.from}, ${word}, ${message.body}, ${message.provider}, ${message.providerId},
          ${message.receivedAt.toISOString()}::timestamptz)
        on conflict (provider, provider_id) do nothing
        returning id`);
        if (rowsOf(inserted).length === 0) return 'repeated';
        if (word === 'out') {
          await tx.execute(sql`
          insert into channel_opt_outs (channel, phone, opted_out_at)
          values (${message.channel}, ${message.from}, ${message.receivedAt.toISOString()}::timestamptz)
          on conflict (channel, phone) do nothing`);
          await stopQueued(tx, message.channel, message.from);
          return 'applied';
        }
        const removed = await tx.execute(sql`
        delete from channel_opt_outs where channel = ${message.channel} and phone = ${message.from} returning phone`);
        if (rowsOf(removed).length === 0) throw new NotOptedOut();
        return 'applied';
      },
      logger,
    );
  } catch (err) {
    if (err instanceof NotOptedOut) return 'not_opted_out';
    throw err;
  }
}

/** The schools whose people have this phone (guardians, staff), named and in which words, oldest first. */
async function schoolsOf(db: Queryable, phone: string): Promise<{ names: string[]; locale: Locale }> {
  const result = await db.execute(sql`
    select i.name, i.locale from institutions i
    where exists (select 1 from guardians g where g.institution_id = i.id and g.phone = ${phone})
      or exists (select 1 from staff s where s.institution_id = i.id and s.phone = ${phone})
    order by i.id`);
  const rows = rowsOf<{ name: string; locale: Locale }>(result);
  return { names: rows.map((r) => r.name), locale: rows[0]?.locale ?? 'es-CL' };
}

export function createOptOutHandler(db: Db, deps: OptOutDeps): OptOutHandler {
  return async (message) => {
    const word = optWordOf(message.body);
    if (word === null) return false;
    const recorded = await record(db, message, word, deps.logger);
    if (recorded === 'not_opted_out') return false;
    if (recorded === 'repeated') return true;
    // After the commit: the opt-out stands even when the confirmation cannot be sent.
    try {
      const { names, locale } = await schoolsOf(db, message.from);
      await deps.confirm(message.channel, message.from, confirmationText(word, message.channel, names, locale));
    } catch (err) {
      deps.logger?.error(`Baja por ${message.channel}: no se pudo enviar la confirmación`, err);
    }
    return true;
  };
}
