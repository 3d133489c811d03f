// The families' app install link (decision 0219): the first SMS or WhatsApp the school sends a guardian who
// never signed in to the app carries a line with the app's address, and after that at most one a month,
// until they sign in. An SMS is one GSM-7 segment, counted and charged before sending
// (shared/sms-text.ts, decision 0045): the line goes only where it fits in what is left of that segment,
// so it never adds a segment, a cost or a refusal; a message without room leaves it to the next one.
// WhatsApp has no such limit and always has room.
import { sql, type SQL } from 'drizzle-orm';
import { smsText, withSignature } from '../../shared/sms-text';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { appReachableText } from '../recipients/app-reach';

/** A guardian who got the link is reminded at most this often. */
const INSTALL_LINK_EVERY = '1 month';

/** Where the families' app is served (server/http/static.ts): the address the line gives. */
export const installLinkUrl = (publicUrl: string): string => `${publicUrl}/familia`;

/** The line itself: GSM-7 only (no accent), in words both locales read. */
const installLinkLine = (url: string): string => `Instala la app: ${url}`;

/**
 * SQL over a message recipient aliased `r`: a guardian who never signed in to the app, is not reachable
 * through it, and was not sent the link in the last month.
 */
export const installLinkDueSql = (r: string): SQL =>
  sql.raw(`(${r}.recipient_kind = 'apoderado' and exists (
    select 1 from guardians lg where lg.id = ${r}.recipient_ref_id and lg.app_installed_at is null and not ${appReachableText('lg')}
      and not exists (select 1 from app_install_links l where l.guardian_id = lg.id
        and l.last_sent_at > now() - interval '${INSTALL_LINK_EVERY}')))`);

/**
 * The text of an SMS or WhatsApp with the link line after the content (and before the signature); null
 * when the SMS has no room left for it in its one segment.
 */
export function withInstallLink(channel: 'sms' | 'whatsapp', content: string, signature: string | null, url: string): string | null {
  const linked = `${content}\n\n${installLinkLine(url)}`;
  if (channel === 'whatsapp') return withSignature(linked, signature);
  const sms = smsText(linked, signature);
  return sms.ok ? sms.text : null;
}

/**
 * Claims the link for the guardian before the message is handed over: true when this message is the one to
 * carry it (never sent, or last sent over a month ago, by the database's clock as `installLinkDueSql`), and
 * the claim is recorded in the same statement, so two messages to the guardian sent at once (in one batch, on
 * two workers, an SMS and a WhatsApp of one message) carry it once. A send that then fails spends that
 * month's link (decision 0219). The first time stays the first time: "installed since" counts from it.
 */
export async function claimInstallLink(db: Queryable, guardianId: number): Promise<boolean> {
  const claimed = rowsOf<{ guardian_id: number }>(
    await db.execute(sql`
      insert into app_install_links (guardian_id, institution_id, first_sent_at, last_sent_at)
      select g.id, g.institution_id, now(), now() from guardians g where g.id = ${guardianId}
      on conflict (guardian_id) do update set last_sent_at = excluded.last_sent_at
        where app_install_links.last_sent_at <= excluded.last_sent_at - ${sql.raw(`interval '${INSTALL_LINK_EVERY}'`)}
      returning guardian_id`),
  );
  return claimed.length === 1;
}

/** The school's guardians sent the link, and those of them who signed in to the app since the first one. */
export async function installLinkFigures(db: Queryable, institutionId: number): Promise<{ sent: number; installed: number }> {
  const [row] = rowsOf<{ sent: number; installed: number }>(
    await db.execute(sql`
      select count(*)::int as sent, count(*) filter (where g.app_installed_at >= l.first_sent_at)::int as installed
      from app_install_links l join guardians g on g.id = l.guardian_id
      where l.institution_id = ${institutionId}`),
  );
  return { sent: Number(row?.sent ?? 0), installed: Number(row?.installed ?? 0) };
}
