// The demo's Sent folders against the raw rows under them: every seeded sent message has the deliveries a
// real send writes, and each folder row's status and counters are what those rows say, by this test's own
// plain counting (not the server's SQL).
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { listFolder } from '../../server/messages/queries';
import { MAILBOX_USERS } from '../../server/seed/messages';
import { withSeededCopy } from './support/seeded';

interface Delivery {
  message_id: number;
  recipient_id: number;
  channel: string;
  status: string;
  error: string | null;
  address: string | null;
}

const BAD = ['not_received', 'error', 'failed'];
const ARRIVED = ['received', 'read'];

/** The folder row as the rules say it should read, counted from the message's deliveries. */
function expected(rows: Delivery[]) {
  const count = (status: string) => rows.filter((d) => d.status === status).length;
  const byRecipient = new Map<number, Delivery[]>();
  for (const d of rows) byRecipient.set(d.recipient_id, [...(byRecipient.get(d.recipient_id) ?? []), d]);
  // Someone tried on some channel and reached on none, with nothing of theirs still under way.
  const unreached = [...byRecipient.values()].filter(
    (ds) =>
      ds.some((d) => d.address !== null) &&
      !ds.some((d) => ARRIVED.includes(d.status)) &&
      !ds.some((d) => d.status === 'queued' || d.status === 'sent'),
  ).length;
  const inFlight = rows.filter((d) => d.status === 'queued' || (d.status === 'sent' && d.channel !== 'app-mobile')).length;
  return {
    total: rows.length,
    queued: count('queued'),
    sent: count('sent'),
    received: count('received'),
    read: count('read'),
    not_received: count('not_received'),
    error: count('error'),
    failed: count('failed'),
    no_address: rows.filter((d) => d.error === 'missing_address').length,
    retryable: rows.filter((d) => BAD.includes(d.status) && d.error !== 'missing_address').length,
    unreached,
    state: inFlight > 0 ? 'sending' : unreached > 0 ? 'partially_failed' : 'sent',
  };
}

describe('the seeded Sent folders', () => {
  const { rows, db } = withSeededCopy();

  it('gives every sent message of a Sent folder deliveries, and each row the status and counters of its rows', async () => {
    const users = await rows<{ id: number; email: string }>(sql`select id, email from users order by id`);
    let checked = 0;
    let partial = 0;
    for (const email of MAILBOX_USERS) {
      const user = users.find((u) => u.email === email)!;
      const page = await listFolder(db(), { userId: Number(user.id), folder: 'sent', q: '', limit: 100, cursor: null });
      expect(page.items.length, email).toBeGreaterThan(0);
      const ids = page.items.map((m) => m.id);
      const all = await rows<Delivery>(sql`
        select message_id, recipient_id, channel, status, error, address from deliveries
        where message_id = any(${`{${ids.join(',')}}`}::int[])`);
      for (const item of page.items) {
        const own = all.filter((d) => Number(d.message_id) === item.id).map((d) => ({ ...d, recipient_id: Number(d.recipient_id) }));
        expect(own.length, `${email} ${item.id} «${item.title}» has no deliveries`).toBeGreaterThan(0);
        expect(item.progress, `${email} ${item.id}`).toEqual(expected(own));
        // "Con fallos" always has something to send again.
        if (item.progress!.state === 'partially_failed') expect(item.progress!.retryable).toBeGreaterThan(0);
        checked++;
        if (item.progress!.state === 'partially_failed') partial++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(MAILBOX_USERS.length * 30);
    // Realistic outcomes: most messages reach everyone they could; a few leave someone out.
    expect(partial).toBeGreaterThan(0);
    expect(partial / checked).toBeLessThan(0.35);
  });

  it('names the children a guardian is reached for, as a send does', async () => {
    const [row] = await rows<{ n: number; missing: number }>(sql`
      select count(*)::int as n, count(*) filter (where r.student_names is null)::int as missing
      from message_recipients r join messages m on m.id = r.message_id
      where r.recipient_kind = 'apoderado' and m.sender_kind = 'funcionario'
        and exists (select 1 from student_guardians sg where sg.guardian_id = r.recipient_ref_id)`);
    expect(Number(row!.n)).toBeGreaterThan(1000);
    expect(Number(row!.missing)).toBe(0);
  });
});
