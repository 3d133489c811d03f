// One delivery's attempt, for the engine's pipeline (engine.ts): the claimed deliveries' rows loaded with
// what their messages carry (attachments, the recipients' merge-field values), and the hand-over of one
// delivery to its channel, cut at the attempt's deadline. No queue, no recording: the engine does both.
import { sql } from 'drizzle-orm';
import type { PersonKind } from '../../shared/codes';
import { fillFields, fitSmsValues, hasFields, type MergeValues } from '../../shared/merge-fields';
import { smsText, withSignature } from '../../shared/sms-text';
import { intList } from '../db/arrays';
import type { Db } from '../db/client';
import { rowsOf } from '../db/sql';
import type { Logger } from '../log';
import { valuesByRecipient } from '../recipients/merge-values';
import { pushMutedSql } from '../push/mutes';
import { optedOutSql } from '../recipients/opt-outs';
import { BLOCKED, OPTED_OUT } from '../../shared/delivery-progress';
import { blockedSql } from '../recipients/blocks';
import { claimInstallLink, installLinkDueSql, withInstallLink } from '../app-api/install-link';
import { logoCache } from '../school-logo/logo';
import type { AttachmentStore } from '../storage/attachments';
import { deliveryKey, type Adapters, type Outgoing, type OutgoingPush, type SendResult } from './channel';

/** A json column: parsed by both drivers, but a text is read as JSON should one hand it over as such. */
const jsonOf = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export interface DeliveryRow {
  id: number;
  generation: number;
  status: string;
  channel: Outgoing['channel'];
  address: string | null;
  attempts: number;
  recipient_id: number;
  message_id: number;
  title: string;
  content: string;
  signature: string | null;
  sender_name: string;
  institution_name: string;
  institution_id: number;
  /** The school's logo version, when it has one (e-mails carry it). */
  logo_hash: string | null;
  student_names: string | null;
  /** The person the recipient is (a guardian's id for the install link). */
  recipient_id_ref: number;
  recipient_kind: PersonKind;
  emergency: boolean;
  /** SMS and WhatsApp to a guardian without the app: this one may carry the install link (server/app-api/install-link.ts). */
  install_link_due: boolean | null;
  /** App deliveries to a guardian: every child it concerns has pushes off (server/push/mutes.ts). */
  push_muted: boolean | null;
  /** App deliveries to a guardian: their push subscriptions (null on every other delivery). */
  push_subscriptions: OutgoingPush['subscriptions'] | string | null;
  /** SMS and WhatsApp: the phone texted "BAJA" on this channel since the message was written (server/opt-outs/). */
  opted_out: boolean | null;
  blocked: boolean;
}

interface AttemptOptions {
  db: Db;
  adapters: Adapters;
  store: AttachmentStore;
  logger: Logger;
  /** Longest one attempt may take before it counts as a transient error (lease.ts). */
  attemptDeadlineMs: number;
  /** The families' app's address for the install link (null: no link). */
  installLinkUrl?: string | null;
}

export function createAttempts({ db, adapters, store, logger, attemptDeadlineMs, installLinkUrl = null }: AttemptOptions) {
  // The logos' bytes stay in the process; the rows' hashes say when one changed.
  const logos = logoCache(db);

  async function loadRows(ids: number[]): Promise<Map<number, DeliveryRow>> {
    const result = await db.execute(sql`
      select d.id, d.generation, d.status, d.channel, d.address, d.attempts, d.recipient_id, m.id as message_id, m.title, m.content,
        m.signature, m.sender_name, i.name as institution_name, i.id as institution_id, l.hash as logo_hash,
        r.student_names, m.emergency, r.recipient_ref_id as recipient_id_ref, r.recipient_kind,
        case when d.channel = 'app-mobile' and r.recipient_kind = 'apoderado' then (
          select coalesce(json_agg(json_build_object('endpoint', s.endpoint, 'p256dh', s.p256dh, 'auth', s.auth) order by s.id), '[]')
          from push_subscriptions s
          where s.guardian_id = r.recipient_ref_id and s.institution_id = m.institution_id and d.address = 'guardian:' || s.guardian_id
        ) end as push_subscriptions,
        case when d.channel = 'app-mobile' and r.recipient_kind = 'apoderado' then ${pushMutedSql('r')} end as push_muted,
        case when d.channel in ('sms', 'whatsapp') then ${optedOutSql(sql`d.channel`, sql`d.address`)} end as opted_out,
        ${blockedSql(sql`r.recipient_kind`, sql`r.recipient_ref_id`)} as blocked,
        ${installLinkUrl === null ? sql`null::boolean` : sql`case when d.channel in ('sms', 'whatsapp') then ${installLinkDueSql('r')} end`} as install_link_due
      from deliveries d join messages m on m.id = d.message_id join institutions i on i.id = m.institution_id
        join message_recipients r on r.id = d.recipient_id
        left join school_logos l on l.institution_id = i.id
      where d.id = any(${intList(ids)}::int[])`);
    return new Map(rowsOf<DeliveryRow>(result).map((r) => [Number(r.id), r]));
  }

  async function loadAttachments(messageIds: number[]): Promise<Map<number, Outgoing['attachments']>> {
    const byMessage = new Map<number, Outgoing['attachments']>();
    if (messageIds.length === 0) return byMessage;
    const result = await db.execute(sql`
      select message_id, name, content_type, storage_key, content from message_attachments
      where message_id = any(${intList(messageIds)}::int[]) order by id`);
    for (const a of rowsOf<{
      message_id: number;
      name: string;
      content_type: string;
      storage_key: string | null;
      content: Uint8Array | null;
    }>(result)) {
      const list = byMessage.get(Number(a.message_id)) ?? [];
      list.push({
        filename: a.name,
        contentType: a.content_type,
        ...(a.storage_key ? { path: store.pathOf(a.storage_key) } : { content: Buffer.from(a.content ?? new Uint8Array()) }),
      });
      byMessage.set(Number(a.message_id), list);
    }
    return byMessage;
  }

  // An SMS carries exactly the GSM-7 text validation counted (one segment, what the quota was charged);
  // the other channels have no such limit and carry the text as written. Merge fields are filled with the
  // recipient's values first (validation counted each at its longest value among the recipients).
  const textOf = (row: DeliveryRow, values: MergeValues) =>
    row.channel === 'sms'
      ? smsText(fillFields(row.content, fitSmsValues(row.content, row.signature, values)), row.signature).text
      : withSignature(fillFields(row.content, values), row.signature);

  /** The text with the install link's line, when this delivery is due one and (an SMS) has room; else null. */
  const linkedTextOf = (row: DeliveryRow, values: MergeValues): string | null => {
    if (installLinkUrl === null || row.install_link_due !== true || (row.channel !== 'sms' && row.channel !== 'whatsapp')) return null;
    const content =
      row.channel === 'sms' ? fillFields(row.content, fitSmsValues(row.content, row.signature, values)) : fillFields(row.content, values);
    return withInstallLink(row.channel, content, row.signature, installLinkUrl);
  };

  /**
   * The linked text when this delivery is due the line and has room for it, and claimed it (only then: a
   * claim spent on an SMS that cannot carry it would leave the guardian without it for a month); else null.
   * The claim is what makes it go once (the due flag was read with the batch); one that fails to be
   * recorded sends the message without it.
   */
  const claimedLinkText = async (row: DeliveryRow, values: MergeValues): Promise<string | null> => {
    const linked = linkedTextOf(row, values);
    if (linked === null) return null;
    const claimed = await claimInstallLink(db, Number(row.recipient_id_ref)).catch((err: unknown) => {
      logger.error('Enlace a la app: no se pudo reservar el envío', err);
      return false;
    });
    return claimed ? linked : null;
  };

  /** The merge fields' values of the batch's recipients whose message uses them: one query per batch. */
  async function loadValues(rows: readonly DeliveryRow[]): Promise<Map<number, MergeValues>> {
    const ids = new Set(rows.filter((r) => hasFields(r.title, r.content)).map((r) => Number(r.recipient_id)));
    return valuesByRecipient(db, [...ids]);
  }

  async function attempt(row: DeliveryRow, attachments: Outgoing['attachments'], values: MergeValues): Promise<SendResult> {
    // Blocked (or erased) after the message was written: nothing more reaches them, on any channel.
    if (row.blocked) return { ok: false, kind: 'permanent', error: BLOCKED };
    if (!row.address) return { ok: false, kind: 'permanent', error: 'missing_address' };
    // Opted out after the message was written (a scheduled one, a queue behind): it stops at once all the same.
    if (row.opted_out === true) return { ok: false, kind: 'permanent', error: OPTED_OUT };
    const logo = row.channel === 'e-mail' && row.logo_hash ? await logos.get(Number(row.institution_id), row.logo_hash) : null;
    const linked = await claimedLinkText(row, values);
    const outgoing: Outgoing = {
      deliveryId: Number(row.id),
      key: deliveryKey(Number(row.id), Number(row.generation)),
      channel: row.channel,
      address: row.address,
      messageId: Number(row.message_id),
      title: fillFields(row.title, values),
      text: linked ?? textOf(row, values),
      senderName: row.sender_name,
      institutionName: row.institution_name,
      recipientKind: row.recipient_kind,
      attachments: row.channel === 'e-mail' ? attachments : [],
      logo: logo && { content: logo.content, contentType: logo.contentType },
      ...(row.push_subscriptions
        ? {
            push: {
              subscriptions: jsonOf(row.push_subscriptions),
              studentNames: row.student_names,
              emergency: row.emergency === true,
              muted: row.push_muted === true,
            },
          }
        : {}),
    };
    // The deadline: past it the attempt is a transient error, retried later with the same key. The signal
    // aborts what can be aborted (a provider's request); an SMTP transfer may still finish meanwhile, and its
    // retry then carries the same Message-ID.
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<SendResult>((resolve) => {
      timer = setTimeout(() => {
        deadline.abort();
        logger.info(`Canal ${row.channel}: el envío ${row.id} no terminó en ${attemptDeadlineMs / 1000} s; se reintentará`);
        resolve({ ok: false, kind: 'transient', error: 'unreachable' });
      }, attemptDeadlineMs);
    });
    // An adapter is not supposed to throw; if one does, the engine treats it like a network fault.
    const sending = Promise.resolve().then(() => adapters[row.channel].send(outgoing, deadline.signal));
    let result: SendResult;
    try {
      result = await Promise.race([sending, overrun]);
    } finally {
      clearTimeout(timer);
    }
    return result;
  }

  return { loadRows, loadAttachments, loadValues, attempt };
}
