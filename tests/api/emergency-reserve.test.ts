// The SMS quota's emergency reserve against the real server: a message not marked "Emergencia"
// must fit in limit − reserved − used, one marked may use the whole limit; the estimate and the send
// transaction (under the quota row lock) say the same at the boundary; drafts and scheduled messages keep
// the flag; `GET /quota` tells compose the reserve and the low-quota alert; and 50 concurrent sends, half
// of them emergencies, never let a normal one spend into the reserve nor the total pass the limit.
// The reserve share is set in the database directly (its PATCH, /quota/settings, is tested in quota-settings.test.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ComposeDraft, ComposeProblem, Estimate, RecipientPick } from '../../shared/compose-contract';
import type { Quota } from '../../shared/quota-contract';
import { SMS_SEGMENTS_PER_MESSAGE } from '../../shared/sms-text';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
const ids = { school: 0, month: '', guardian: 0, course: 0 };

/** One guardian with a mobile: exactly one SMS (SMS_SEGMENTS_PER_MESSAGE segments) per message. */
const onePhone = (): RecipientPick => ({ kind: 'guardian', id: ids.guardian });
const sms = (overrides: Parameters<typeof composeInput>[0] = {}) =>
  composeInput({ channels: ['sms'], content: 'Suspensión de clases por corte de agua.', recipients: [onePhone()], ...overrides });

/** This month's SMS usage of San Andrés set to `used`, its limit to `limit` and its reserve to `percent` %. */
async function setQuota(limit: number, percent: number, used: number, alert: number | null = 10): Promise<void> {
  await server.db.execute(sql`update institution_quotas set sms_monthly_limit = ${limit}, sms_reserve_percent = ${percent},
    sms_alert_percent = ${alert} where institution_id = ${ids.school}`);
  await server.db.execute(sql`insert into sms_usage (institution_id, month, segments) values (${ids.school}, ${ids.month}, ${used})
    on conflict (institution_id, month) do update set segments = excluded.segments`);
}

const used = async () =>
  Number(
    (
      await rows<{ segments: number }>(
        server.db,
        sql`select segments from sms_usage where institution_id = ${ids.school} and month = ${ids.month}`,
      )
    )[0]?.segments ?? 0,
  );

async function estimateOf(body: object): Promise<Estimate> {
  const res = await admin.post('/api/messages/estimate', body);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Estimate }).data;
}

async function quota(): Promise<Quota> {
  return ((await (await admin.get('/api/quota')).json()) as { data: Quota }).data;
}

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const school = await one<{ id: number; month: string }>(
    server.db,
    sql`select u.institution_id as id, to_char(now() at time zone i.timezone, 'YYYY-MM') as month
        from users u join institutions i on i.id = u.institution_id where u.email = 'administrador@sanandres.cl'`,
  );
  ids.school = school.id;
  ids.month = school.month;
  ids.guardian = (
    await one<{ id: number }>(
      server.db,
      sql`select id from guardians where institution_id = ${school.id} and phone is not null order by id limit 1`,
    )
  ).id;
  ids.course = (
    await one<{ id: number }>(
      server.db,
      sql`select c.id from courses c where c.institution_id = ${school.id}
          and (select count(*) from students s where s.course_id = c.id) >= 10 order by c.id limit 1`,
    )
  ).id;
});
afterAll(() => server.close());

describe('the emergency reserve at the boundary', () => {
  // Limit 100, reserve 10 % = 10 segments: a normal message may bring usage up to 90, an emergency to 100.
  const LIMIT = 100;
  const PERCENT = 10;
  const RESERVED = 10;
  const seg = SMS_SEGMENTS_PER_MESSAGE;

  const cases: { name: string; used: number; emergency: boolean; problems: ComposeProblem[] }[] = [
    { name: 'a normal SMS that exactly fits beside the reserve goes', used: LIMIT - RESERVED - seg, emergency: false, problems: [] },
    {
      name: 'a normal SMS one over, into the reserve, is refused as reserve-only',
      used: LIMIT - RESERVED - seg + 1,
      emergency: false,
      problems: ['sms.reserve_only_emergency'],
    },
    {
      name: 'an emergency SMS one over the normal share goes (the reserve is for it)',
      used: LIMIT - RESERVED - seg + 1,
      emergency: true,
      problems: [],
    },
    { name: 'an emergency SMS that exactly fits the limit goes', used: LIMIT - seg, emergency: true, problems: [] },
    {
      name: 'an emergency SMS one over the limit is refused as over the quota',
      used: LIMIT - seg + 1,
      emergency: true,
      problems: ['sms.quota_exceeded'],
    },
    {
      name: 'a normal SMS over the limit itself is refused as over the quota, not as reserve-only',
      used: LIMIT - seg + 1,
      emergency: false,
      problems: ['sms.quota_exceeded'],
    },
  ];

  for (const c of cases) {
    it(`${c.name} (estimate and send agree)`, async () => {
      await setQuota(LIMIT, PERCENT, c.used);
      const body = sms({ emergency: c.emergency, title: c.name.slice(0, 60) });
      const estimate = await estimateOf(body);
      expect(estimate.sms).toEqual({
        segments_per_message: seg,
        total: seg,
        remaining: LIMIT - c.used,
        limit: LIMIT,
        reserved: RESERVED,
        month: ids.month,
      });
      expect(estimate.problems).toEqual(c.problems);
      const res = await send(admin, body);
      if (c.problems.length === 0) {
        expect(res.status).toBe(201);
        expect(await used()).toBe(c.used + seg);
      } else {
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({ code: 'compose.quota', errors: { quota: c.problems } });
        expect(await used()).toBe(c.used);
      }
    });
  }

  it('without a reserve a normal SMS may use the whole limit', async () => {
    await setQuota(LIMIT, 0, LIMIT - seg);
    expect((await estimateOf(sms())).problems).toEqual([]);
    expect((await send(admin, sms())).status).toBe(201);
    expect(await used()).toBe(LIMIT);
  });

  it('a message marked emergency is stored as such; the flag is refused when it is not true or false', async () => {
    await setQuota(LIMIT, PERCENT, 0);
    const res = await send(admin, sms({ emergency: true }));
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { data: { id: number } }).data.id;
    expect((await one<{ emergency: boolean }>(server.db, sql`select emergency from messages where id = ${id}`)).emergency).toBe(true);
    const plain = await send(admin, sms());
    const plainId = ((await plain.json()) as { data: { id: number } }).data.id;
    expect((await one<{ emergency: boolean }>(server.db, sql`select emergency from messages where id = ${plainId}`)).emergency).toBe(false);
    const bad = await admin.post('/api/messages/estimate', sms({ emergency: 'sí' as unknown as boolean }));
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { errors: Record<string, string[]> }).errors.emergency).toEqual([
      'El campo emergency debe ser verdadero o falso.',
    ]);
  });

  it('a scheduled message is checked against the reserve of its month when scheduled, and keeps the flag', async () => {
    await setQuota(LIMIT, PERCENT, LIMIT - RESERVED);
    // Tomorrow may be next month; only a schedule within this month is read against this usage.
    const at = new Date(Date.now() + 10 * 60_000).toISOString();
    const sameMonth = (
      await one<{ same: boolean }>(
        server.db,
        sql`select to_char(${at}::timestamptz at time zone i.timezone, 'YYYY-MM') = ${ids.month} as same from institutions i where i.id = ${ids.school}`,
      )
    ).same;
    const refused = await send(admin, sms({ scheduled_at: at }), undefined, '/api/messages/schedule');
    if (sameMonth) {
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ errors: { quota: ['sms.reserve_only_emergency'] } });
    }
    const ok = await send(admin, sms({ scheduled_at: at, emergency: true }), undefined, '/api/messages/schedule');
    expect(ok.status).toBe(201);
    const id = ((await ok.json()) as { data: { id: number } }).data.id;
    expect(await one<{ emergency: boolean; kind: string }>(server.db, sql`select emergency, kind from messages where id = ${id}`)).toEqual({
      emergency: true,
      kind: 'scheduled',
    });
  });
});

describe('drafts keep the flag', () => {
  it('saves, answers and updates `emergency`; absent is false', async () => {
    const create = await admin.post('/api/messages/drafts', sms({ emergency: true }));
    expect(create.status).toBe(201);
    const draft = ((await create.json()) as { data: ComposeDraft }).data;
    expect(draft.emergency).toBe(true);
    const reopened = ((await (await admin.get(`/api/messages/drafts/${draft.id}`)).json()) as { data: ComposeDraft }).data;
    expect(reopened.emergency).toBe(true);
    const { emergency: _, ...withoutFlag } = sms();
    const updated = await admin.fetch(`/api/messages/drafts/${draft.id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(withoutFlag),
    });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { data: ComposeDraft }).data.emergency).toBe(false);
  });

  it('sending a draft marked emergency uses the reserve; the same draft unmarked may not', async () => {
    await setQuota(100, 10, 90);
    const draft = ((await (await admin.post('/api/messages/drafts', sms({ emergency: true }))).json()) as { data: ComposeDraft }).data;
    const refused = await send(admin, { ...sms(), draft_id: draft.id });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ errors: { quota: ['sms.reserve_only_emergency'] } });
    expect(await used()).toBe(90);
    const res = await send(admin, { ...sms({ emergency: true }), draft_id: draft.id });
    expect(res.status).toBe(201);
    expect(await used()).toBe(90 + SMS_SEGMENTS_PER_MESSAGE);
  });
});

describe('GET /quota tells compose the reserve and the alert', () => {
  it('answers reserved = floor(limit × reserve %) and low when less than the alert share is left', async () => {
    await setQuota(5000, 10, 5000 - 501, 10);
    expect((await quota()).sms).toEqual({ limit: 5000, used: 4499, remaining: 501, reserved: 500, low: false });
    await setQuota(5000, 10, 5000 - 499, 10);
    expect((await quota()).sms).toEqual({ limit: 5000, used: 4501, remaining: 499, reserved: 500, low: true });
    // Exactly the share left is not "less than".
    await setQuota(5000, 10, 4500, 10);
    expect((await quota()).sms.low).toBe(false);
    // No alert share: never low.
    await setQuota(5000, 10, 4999, null);
    expect((await quota()).sms.low).toBe(false);
    await setQuota(333, 15, 0, 10);
    expect((await quota()).sms.reserved).toBe(49);
  });
});

describe('50 concurrent sends near the limit with a reserve', () => {
  beforeEach(async () => {
    // Which transaction spent what: the usage after each change, and which message each transaction wrote.
    await server.db.execute(sql`create table if not exists test_spend (txid bigint, segments int, at serial)`);
    await server.db.execute(sql`create table if not exists test_sent (txid bigint, emergency boolean)`);
    await server.db.execute(sql`truncate test_spend, test_sent`);
    for (const statement of [
      `create or replace function test_log_spend() returns trigger language plpgsql as $$
       begin insert into test_spend (txid, segments) values (txid_current(), new.segments); return new; end $$`,
      `create or replace function test_log_sent() returns trigger language plpgsql as $$
       begin insert into test_sent values (txid_current(), new.emergency); return new; end $$`,
      'drop trigger if exists test_spend on sms_usage',
      'create trigger test_spend after insert or update on sms_usage for each row execute function test_log_spend()',
      'drop trigger if exists test_sent on messages',
      'create trigger test_sent after insert on messages for each row execute function test_log_sent()',
    ])
      await server.db.execute(sql.raw(statement));
  });
  afterAll(async () => {
    await server.db.execute(sql.raw('drop trigger if exists test_spend on sms_usage'));
    await server.db.execute(sql.raw('drop trigger if exists test_sent on messages'));
  });

  it('normal sends never spend into the reserve, and the total never passes the limit', async () => {
    const pick: RecipientPick = { kind: 'course', id: ids.course, audience: 'apoderados' };
    const perMessage = (await estimateOf(sms({ recipients: [pick] }))).sms!.total;
    expect(perMessage).toBeGreaterThan(0);
    // Room for 10 messages, 4 of them kept for emergencies: normal ones may bring usage to 6 × perMessage.
    const limit = perMessage * 10;
    const percent = 40;
    await setQuota(limit, percent, 0);
    const reserved = Math.floor((limit * percent) / 100);
    expect(reserved).toBe(perMessage * 4);

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => send(admin, sms({ recipients: [pick], emergency: i % 2 === 0, title: `Carrera ${i}` }))),
    );
    const statuses = answers.map((r, i) => ({ status: r.status, emergency: i % 2 === 0 }));
    const problems = await Promise.all(
      answers.map(async (r) => (r.status === 409 ? ((await r.json()) as { errors: { quota: string[] } }).errors.quota : [])),
    );
    expect(statuses.every((s) => s.status === 201 || s.status === 409)).toBe(true);
    const accepted = statuses.filter((s) => s.status === 201);
    const acceptedNormal = accepted.filter((s) => !s.emergency).length;
    // 25 emergencies for 10 places: the limit is reached whatever the order, and never passed.
    expect(accepted).toHaveLength(10);
    expect(acceptedNormal).toBeLessThanOrEqual(6);
    expect(await used()).toBe(limit);
    // A refused normal one says why: into the reserve, or past the limit.
    statuses.forEach((s, i) => {
      if (s.status === 409)
        expect(problems[i]).toEqual([
          expect.stringMatching(s.emergency ? /^sms\.quota_exceeded$/ : /^sms\.(reserve_only_emergency|quota_exceeded)$/),
        ]);
    });

    // Each committed send's usage after it, in commit order: no normal one ever left usage above limit − reserved.
    const spends = await rows<{ segments: number; emergency: boolean }>(
      server.db,
      sql`select p.segments, s.emergency from test_spend p join test_sent s on s.txid = p.txid order by p.at`,
    );
    // Only committed transactions' rows remain (a refused send rolled its own back).
    expect(spends).toHaveLength(10);
    expect(spends.map((s) => s.segments)).toEqual(Array.from({ length: 10 }, (_, i) => perMessage * (i + 1)));
    for (const spend of spends) if (!spend.emergency) expect(spend.segments).toBeLessThanOrEqual(limit - reserved);
    expect(spends.filter((s) => !s.emergency)).toHaveLength(acceptedNormal);
    expect(await count(server.db, sql`select count(*)::int as n from messages where title like 'Carrera %' and emergency`)).toBe(
      accepted.length - acceptedNormal,
    );
  });
});
