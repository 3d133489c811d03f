// The school-year roll-up of the data screens (server/db/schema/activity.ts, migration 0014_activity_rollup)
// against the raw computation from messages, recipients, deliveries and mailbox entries, on the seeded
// database and after each thing that changes them: sends (with "Enviarme una copia"), the delivery
// engine's outcomes (received, read, not received), a retry of the failed ones, colleagues reading, a purge of
// the author's copy from their inbox, deleted deliveries, recipients, messages and authors, and concurrent
// sends of two staff members to the same course (on PostgreSQL, real concurrency against the roll-up rows).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendResult } from '../../shared/compose-contract';
import { schoolYearMonths, schoolYearOf, type SchoolCountry } from '../../shared/school-year';
import type { Db } from '../../server/db/client';
import { isAuthorCopy } from '../../server/dashboard/period';
import { applyReports, refreshRecipients } from '../../server/reception/status';
import { fireScheduled } from '../../server/messages/fire-scheduled';
import { composeInput } from '../fixtures/compose';
import { one, rows, send } from './support/compose';
import { receipt, startRecordingServer } from './support/recording';
import { storeLabel } from './support/pg';
import { Client } from './support/server';

let server: Awaited<ReturnType<typeof startRecordingServer>>;
let db: Db;
let admin: Client;
let docente: Client;
const ids = { school: 0, course: 0 };

beforeAll(async () => {
  server = await startRecordingServer();
  db = server.db;
  admin = new Client(server.url);
  docente = new Client(server.url);
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  expect((await docente.login('docente@sanandres.cl')).status).toBe(200);
  ids.school = (await one<{ id: number }>(db, sql`select institution_id as id from users where email = 'administrador@sanandres.cl'`)).id;
  ids.course = (
    await one<{ id: number }>(
      db,
      sql`select c.id from courses c where c.institution_id = ${ids.school} and (select count(*) from students s where s.course_id = c.id) >= 8 order by c.id limit 1`,
    )
  ).id;
});
afterAll(async () => {
  await server?.close();
});

type Counts = Record<string, number>;
const pick = (row: Record<string, unknown>, keys: readonly string[]): Counts => Object.fromEntries(keys.map((k) => [k, Number(row[k])]));
const DAY_KEYS = ['messages', 'deliveries', 'app_known', 'app_read', 'inbox_known', 'inbox_read'] as const;
const REACH_KEYS = ['addressed', 'reached', 'read'] as const;

/** The roll-up's rows with anything in them, keyed. */
async function rolledUp(): Promise<{
  days: Map<string, Counts>;
  reach: Map<string, Counts>;
  guardians: Map<string, Counts>;
  authors: Map<string, Counts>;
}> {
  const days = await rows<Record<string, number> & { institution_id: number; day: string; author: number }>(
    db,
    sql`select institution_id, day::text as day, author_user_id as author, messages, deliveries, app_known, app_read, inbox_known, inbox_read
        from activity_days where (messages, deliveries, app_known, app_read, inbox_known, inbox_read) <> (0, 0, 0, 0, 0, 0)`,
  );
  const reach = await rows<Counts & { institution_id: number; school_year: number; author: number; kind: string; ref: number }>(
    db,
    sql`select institution_id, school_year, author_user_id as author, recipient_kind as kind, recipient_ref_id as ref, addressed, reached, read
        from activity_reach where (addressed, reached, read) <> (0, 0, 0)`,
  );
  const guardians = await rows<Counts & { institution_id: number; school_year: number; ref: number }>(
    db,
    sql`select institution_id, school_year, guardian_id as ref, addressed, reached, read
        from activity_guardians where (addressed, reached, read) <> (0, 0, 0)`,
  );
  const authors = await rows<{ institution_id: number; school_year: number; author: number; reached: number }>(
    db,
    sql`select institution_id, school_year, author_user_id as author, reached from activity_authors where reached <> 0`,
  );
  return {
    authors: new Map(authors.map((r) => [`${r.institution_id}|${r.school_year}|${r.author}`, pick(r, ['reached'])])),
    guardians: new Map(guardians.map((r) => [`${r.institution_id}|${r.school_year}|${r.ref}`, pick(r, REACH_KEYS)])),
    days: new Map(days.map((r) => [`${r.institution_id}|${r.day}|${r.author}`, pick(r, DAY_KEYS)])),
    reach: new Map(reach.map((r) => [`${r.institution_id}|${r.school_year}|${r.author}|${r.kind}|${r.ref}`, pick(r, REACH_KEYS)])),
  };
}

/** The same figures computed from the raw rows, with the live aggregates' rules (server/dashboard/activity.ts). */
async function raw(): Promise<{ days: Map<string, Counts>; reach: Map<string, Counts>; guardians: Map<string, Counts> }> {
  const counted = sql`
    select m.id, m.institution_id, m.author_user_id as author, (m.sent_at at time zone i.timezone)::date as day, i.country
    from messages m join institutions i on i.id = m.institution_id
    where m.kind = 'sent' and m.author_user_id is not null and m.sent_at is not null and not ${isAuthorCopy(sql`m`)}`;
  const days = await rows<Record<string, number> & { institution_id: number; day: string; author: number }>(
    db,
    sql`with m as (${counted})
        select m.institution_id, m.day::text as day, m.author, count(*)::int as messages, sum(d.n)::int as deliveries,
          sum(d.ak)::int as app_known, sum(d.ar)::int as app_read, sum(e.k)::int as inbox_known, sum(e.r)::int as inbox_read
        from m
        -- Where reading is known each person once: a colleague by their entry, not also their app delivery.
        cross join lateral (
          select count(*) filter (where d.address is not null) as n,
            count(*) filter (where d.address is not null and d.channel = 'app-mobile' and r.recipient_kind <> 'funcionario') as ak,
            count(*) filter (where d.address is not null and d.channel = 'app-mobile' and r.recipient_kind <> 'funcionario' and d.status = 'read') as ar
          from deliveries d join message_recipients r on r.id = d.recipient_id where d.message_id = m.id) d
        cross join lateral (
          select count(*) as k, count(read_at) as r from mailbox_entries
          where message_id = m.id and user_id <> m.author and coalesce(deleted_from, folder) = 'inbox') e
        group by 1, 2, 3`,
  );
  const people = await rows<
    { institution_id: number; country: SchoolCountry; month: string; author: number; kind: string; ref: number } & Counts
  >(
    db,
    sql`with m as (${counted})
        select m.institution_id, m.country, to_char(m.day, 'YYYY-MM') as month, m.author, r.recipient_kind as kind, r.recipient_ref_id as ref,
          count(*)::int as addressed, count(*) filter (where r.status in ('received', 'read'))::int as reached,
          count(*) filter (where r.status = 'read')::int as read
        from m join message_recipients r on r.message_id = m.id
        group by 1, 2, 3, 4, 5, 6`,
  );
  const reach = new Map<string, Counts>();
  const guardians = new Map<string, Counts>();
  const add = (into: Map<string, Counts>, key: string, p: Record<string, unknown>) => {
    const sum = into.get(key) ?? { addressed: 0, reached: 0, read: 0 };
    into.set(key, {
      addressed: sum.addressed! + Number(p.addressed),
      reached: sum.reached! + Number(p.reached),
      read: sum.read! + Number(p.read),
    });
  };
  for (const p of people) {
    const year = schoolYearOf(p.month, p.country);
    if (!schoolYearMonths(year, p.country).includes(p.month)) continue; // a Chilean summer month: no school year
    add(reach, `${p.institution_id}|${year}|${p.author}|${p.kind}|${p.ref}`, p);
    if (p.kind === 'apoderado') add(guardians, `${p.institution_id}|${year}|${p.ref}`, p);
  }
  return {
    guardians,
    days: new Map(days.map((r) => [`${r.institution_id}|${r.day}|${r.author}`, pick(r, DAY_KEYS)])),
    reach,
  };
}

async function expectAgreement(): Promise<void> {
  const [kept, computed] = [await rolledUp(), await raw()];
  expect(kept.days.size).toBeGreaterThan(0);
  expect(kept.reach.size).toBeGreaterThan(0);
  expect(kept.guardians.size).toBeGreaterThan(0);
  // Only the rows that differ, so a failure says where.
  const differing = (a: Map<string, Counts>, b: Map<string, Counts>) =>
    [...new Set([...a.keys(), ...b.keys()])]
      .filter((k) => JSON.stringify(a.get(k)) !== JSON.stringify(b.get(k)))
      .map((k) => ({ key: k, kept: a.get(k), raw: b.get(k) }));
  expect(differing(kept.days, computed.days)).toEqual([]);
  expect(differing(kept.reach, computed.reach)).toEqual([]);
  expect(differing(kept.guardians, computed.guardians)).toEqual([]);
  // Each author's people reached in a school year: their people rows with something reached.
  const authors = new Map<string, Counts>();
  for (const [key, counts] of computed.reach) {
    if (counts.reached! <= 0) continue;
    const author = key.split('|').slice(0, 3).join('|');
    authors.set(author, { reached: (authors.get(author)?.reached ?? 0) + 1 });
  }
  expect(kept.authors.size).toBeGreaterThan(0);
  expect(differing(kept.authors, authors)).toEqual([]);
}

const sendToCourse = async (client: Client, title: string, copy = false): Promise<number> => {
  const body = composeInput({
    title,
    channels: ['app-mobile', 'sms'],
    content: 'Aviso de prueba.',
    copy_to_sender: copy,
    recipients: [{ kind: 'course', id: ids.course, audience: 'apoderados' }],
  });
  // Once more with the same key on a reset (a keep-alive socket idled out during a comparison): the send is idempotent.
  const key = randomUUID();
  const res = await send(client, body, key).catch(() => send(client, body, key));
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: SendResult }).data.id;
};

const deliveriesOf = (messageId: number) =>
  rows<{ id: number; recipient_id: number; channel: string; address: string | null; status: string }>(
    db,
    sql`select id, recipient_id, channel, address, status from deliveries where message_id = ${messageId} order by id`,
  );

describe(`the activity roll-up (${storeLabel()})`, () => {
  let sent = 0;

  it('agrees with the raw rows on the seeded database (rebuilt once by the seed, its triggers paused)', async () => {
    await expectAgreement();
  });

  it('agrees after a send with a copy to its author, then the engine’s outcomes, reads and a retry', async () => {
    sent = await sendToCourse(admin, 'Roll-up 1', true);
    const recipients = await rows<{ id: number }>(db, sql`select id from message_recipients where message_id = ${sent}`);
    await refreshRecipients(
      db,
      recipients.map((r) => Number(r.id)),
    );
    await expectAgreement();
    const addressed = (await deliveriesOf(sent)).filter((d) => d.address !== null);
    const app = addressed.filter((d) => d.channel === 'app-mobile');
    const sms = addressed.filter((d) => d.channel === 'sms');
    expect(app.length + sms.length).toBeGreaterThan(3);
    // Outcomes as the engine applies them (deliveries, then their recipients, one transaction per batch).
    await applyReports(db, [
      ...app.map((d, i) => receipt(d, i % 3 === 0 ? 'read' : i % 3 === 1 ? 'received' : 'not_received')),
      ...sms.map((d, i) => receipt(d, i % 2 === 0 ? 'received' : 'error', i % 2 === 0 ? null : 'rejected')),
    ]);
    await expectAgreement();
    // A read arriving after "received" (the app's read receipt).
    const later = app.filter((_, i) => i % 3 === 1);
    if (later.length > 0)
      await applyReports(
        db,
        later.map((d) => receipt(d, 'read')),
      );
    await expectAgreement();
    // "Reintentar fallidos" as server/reception/reception.ts retryFailed writes it: the failed deliveries back to
    // queued in a new round, their recipients pending again.
    const retried = await rows<{ id: number }>(
      db,
      sql`update deliveries set status = 'queued', error = null, generation = generation + 1, last_retry_at = now()
          where message_id = ${sent} and status in ('not_received', 'error') returning recipient_id as id`,
    );
    expect(retried.length).toBeGreaterThan(0);
    await db.execute(
      sql`update message_recipients set status = 'pending' where id in (${sql.join(
        retried.map((r) => sql`${r.id}`),
        sql`, `,
      )}) and status <> 'received' and status <> 'read'`,
    );
    await expectAgreement();
    // The new round's outcomes.
    await applyReports(
      db,
      (await deliveriesOf(sent)).filter((d) => d.status === 'queued').map((d) => receipt(d, 'received')),
    );
    await expectAgreement();
  });

  it('agrees after a draft is sent, and after a message is scheduled and fired', async () => {
    const body = composeInput({
      title: 'Roll-up de un borrador',
      channels: ['app-mobile', 'e-mail'],
      content: 'Aviso de prueba.',
      recipients: [{ kind: 'course', id: ids.course, audience: 'apoderados' }],
    });
    const draft = await admin.post('/api/messages/drafts', body);
    expect(draft.status, await draft.clone().text()).toBe(201);
    const draftId = ((await draft.json()) as { data: { id: number } }).data.id;
    const fromDraft = await send(admin, { ...body, draft_id: draftId });
    expect(fromDraft.status, await fromDraft.clone().text()).toBe(201);
    await expectAgreement();

    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await send(
      admin,
      { ...body, title: 'Roll-up programado', copy_to_sender: true, scheduled_at: at },
      randomUUID(),
      '/api/messages/schedule',
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const scheduled = ((await res.json()) as { data: SendResult }).data.id;
    await expectAgreement();
    await db.execute(sql`update messages set scheduled_at = now() - interval '1 minute' where id = ${scheduled}`);
    expect(await fireScheduled(db, scheduled)).toBe(true);
    await expectAgreement();
  });

  it('agrees after colleagues read, the author purges their copy, and rows are deleted', async () => {
    // A message to colleagues (staff of the school with a login), read by one of them.
    const staffBody = composeInput({
      title: 'Roll-up colegas',
      channels: ['e-mail'],
      copy_to_sender: true,
      recipients: [{ kind: 'course', id: ids.course, audience: 'apoderados' }],
    });
    const staffKey = randomUUID();
    const staffRes = await send(docente, staffBody, staffKey).catch(() => send(docente, staffBody, staffKey));
    expect(staffRes.status).toBe(201);
    const docenteMessage = ((await staffRes.json()) as { data: SendResult }).data.id;
    await db.execute(sql`
      insert into mailbox_entries (user_id, institution_id, message_id, folder, sort_at, counterpart, counterpart_search)
      select u.id, ${ids.school}, ${docenteMessage}, 'inbox', now(), 'Docente', 'docente' from users u
      where u.email = 'administrador@sanandres.cl'`);
    await db.execute(
      sql`update mailbox_entries set read_at = now() where message_id = ${docenteMessage} and user_id <> (select author_user_id from messages where id = ${docenteMessage})`,
    );
    await expectAgreement();
    // The colleague moves it to the trash (from the inbox: still counts), then purges it.
    await db.execute(
      sql`update mailbox_entries set deleted_from = folder, folder = 'trash', deleted_at = now() where message_id = ${docenteMessage} and folder = 'inbox'`,
    );
    await expectAgreement();
    // Purge of the authors' copies from their inboxes: the copy rows stay and still are not activity.
    const purged = await rows<{ id: number }>(
      db,
      sql`delete from mailbox_entries e using messages m where e.message_id = m.id and m.copy_to_sender and e.user_id = m.author_user_id
            and e.folder = 'inbox' and m.id > ${sent} - 1 returning e.id`,
    );
    expect(purged.length).toBeGreaterThanOrEqual(2);
    await expectAgreement();
    // Deletes: one delivery, one recipient (its deliveries go with it), a whole message, an author.
    const [first] = await deliveriesOf(sent);
    await db.execute(sql`delete from deliveries where id = ${first!.id}`);
    const [recipient] = await rows<{ id: number }>(
      db,
      sql`select id from message_recipients where message_id = ${sent} order by id desc limit 1`,
    );
    await db.execute(sql`delete from message_recipients where id = ${recipient!.id}`);
    await expectAgreement();
    await db.execute(sql`delete from messages where id = ${docenteMessage}`);
    await expectAgreement();
    await db.execute(sql`update messages set author_user_id = null where id = ${sent}`);
    await expectAgreement();
  });

  // Its own test, so neither stays near the 30 s limit on a loaded machine.
  it('agrees when a colleague reads a message by app, then their recipient and a whole message are deleted', async () => {
    // A colleague by app (the send path writes their `user:<id>` delivery) reading it in Hermes: known once,
    // by the entry. Then their recipient is deleted (its delivery goes with it, by cascade), and a whole message
    // with a colleague's app delivery.
    const adminStaff = await one<{ id: number }>(
      db,
      sql`select st.id from staff st join users u on u.id = st.user_id where u.email = 'administrador@sanandres.cl'`,
    );
    const toColleague = async (title: string): Promise<number> => {
      const body = composeInput({
        title,
        channels: ['app-mobile'],
        content: 'Aviso a colega.',
        copy_to_sender: false,
        recipients: [
          { kind: 'staff', id: adminStaff.id },
          { kind: 'course', id: ids.course, audience: 'apoderados' },
        ],
      });
      const key = randomUUID();
      const res = await send(docente, body, key).catch(() => send(docente, body, key));
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { data: SendResult }).data.id;
    };
    const colleagueMessages = [await toColleague('Roll-up colega app 1'), await toColleague('Roll-up colega app 2')];
    for (const id of colleagueMessages) {
      expect((await deliveriesOf(id)).filter((d) => d.channel === 'app-mobile' && d.address?.startsWith('user:'))).toHaveLength(1);
      expect((await admin.post(`/api/messages/${id}/read`)).status).toBeLessThan(300);
    }
    expect((await deliveriesOf(colleagueMessages[0]!)).find((d) => d.address?.startsWith('user:'))!.status).toBe('read');
    await expectAgreement();
    await db.execute(sql`delete from message_recipients where message_id = ${colleagueMessages[0]!} and recipient_kind = 'funcionario'`);
    await expectAgreement();
    await db.execute(sql`delete from messages where id = ${colleagueMessages[1]!}`);
    await expectAgreement();
  });

  it('agrees after concurrent sends of two staff members to the same course', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => sendToCourse(i % 2 === 0 ? admin : docente, `Roll-up simultáneo ${i}`, i % 4 === 0)),
    );
    expect(new Set(results).size).toBe(8);
    await expectAgreement();
    // And their outcomes, applied concurrently as several workers would.
    const all = (await Promise.all(results.map(deliveriesOf))).flat().filter((d) => d.address !== null);
    const batches = [0, 1, 2, 3].map((k) => all.filter((_, i) => i % 4 === k));
    await Promise.all(
      batches.map((batch, k) =>
        applyReports(
          db,
          batch.map((d) => receipt(d, k === 0 ? 'read' : k === 3 ? 'not_received' : 'received')),
        ),
      ),
    );
    await expectAgreement();
  });

  it('is rebuilt by activity_rebuild to what the triggers kept, and a paused transaction leaves it alone', async () => {
    const kept = await rolledUp();
    await db.execute(sql`select activity_rebuild(array[${ids.school}]::int[])`);
    const rebuilt = await rolledUp();
    for (const table of ['days', 'reach', 'guardians', 'authors'] as const) {
      expect([...rebuilt[table]].sort(), table).toEqual([...kept[table]].sort());
    }
    // With the triggers paused (server/db/activity-rollup.ts), a send's rows change nothing until the rebuild.
    const before = await one<{ n: number }>(
      db,
      sql`select coalesce(sum(messages), 0)::int as n from activity_days where institution_id = ${ids.school}`,
    );
    await db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('hermes.activity_rollup', 'paused', true)`);
      await tx.execute(sql`
        insert into messages (institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, title, content, channels, kind, sent_at, search)
        select institution_id, author_user_id, sender_kind, sender_ref_id, sender_name, 'Pausado', 'x', channels, 'sent', now(), 'pausado'
        from messages where institution_id = ${ids.school} and kind = 'sent' and author_user_id is not null order by id desc limit 1`);
      const during = await one<{ n: number }>(
        tx as unknown as Db,
        sql`select coalesce(sum(messages), 0)::int as n from activity_days where institution_id = ${ids.school}`,
      );
      expect(during.n).toBe(before.n);
    });
    await db.execute(sql`select activity_rebuild(array[${ids.school}]::int[])`);
    await expectAgreement();
  });
});
