// One definition of the SMS left (shared/quota-rules.ts): compose (`GET /quota`, the estimate) and the quota
// settings screen (`GET /quota/settings`) say the same figure at the same moment, before and after a send and
// a schedule of this month; and an estimate for a message scheduled in another month says which month its
// figure is of, so compose does not call it "this month".
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Estimate } from '../../shared/compose-contract';
import type { Quota, QuotaSettings } from '../../shared/quota-contract';
import { addMonths } from '../../shared/school-year';
import { composeInput } from '../fixtures/compose';
import { one, send } from './support/compose';
import { startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
let admin: Client;
const ids = { school: 0, month: '', guardian: 0, timezone: '' };

const sms = (overrides: Parameters<typeof composeInput>[0] = {}) =>
  composeInput({ channels: ['sms'], content: 'Mañana no hay clases.', recipients: [{ kind: 'guardian', id: ids.guardian }], ...overrides });

const data = async <T>(res: Response): Promise<T> => ((await res.json()) as { data: T }).data;

/** The three figures of SMS left: compose's quota, the settings screen's, and an estimate of a message sent now. */
async function figures(): Promise<{ compose: number; settings: number; estimate: number }> {
  const quota = await data<Quota>(await admin.get('/api/quota'));
  const settings = await data<QuotaSettings>(await admin.get('/api/quota/settings'));
  const estimate = await data<Estimate>(await admin.post('/api/messages/estimate', sms()));
  return { compose: quota.sms.remaining, settings: settings.sms.remaining, estimate: estimate.sms!.remaining };
}

beforeAll(async () => {
  server = await startServer();
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  const school = await one<{ id: number; month: string; timezone: string }>(
    server.db,
    sql`select u.institution_id as id, to_char(now() at time zone i.timezone, 'YYYY-MM') as month, i.timezone
        from users u join institutions i on i.id = u.institution_id where u.email = 'administrador@sanandres.cl'`,
  );
  Object.assign(ids, { school: Number(school.id), month: school.month, timezone: school.timezone });
  ids.guardian = (
    await one<{ id: number }>(
      server.db,
      sql`select id from guardians where institution_id = ${school.id} and phone is not null order by id limit 1`,
    )
  ).id;
});
afterAll(() => server.close());

describe('SMS left', () => {
  it('is the same figure in compose, its estimate and the settings screen, before and after a send', async () => {
    const before = await figures();
    const [limit, used] = [
      await one<{ n: number }>(server.db, sql`select sms_monthly_limit as n from institution_quotas where institution_id = ${ids.school}`),
      await one<{ n: number }>(
        server.db,
        sql`select coalesce(sum(segments), 0)::int as n from sms_usage where institution_id = ${ids.school} and month = ${ids.month}`,
      ),
    ];
    // Limit minus what the month used (scheduled messages of the month included), the reserve part of it.
    const expected = Number(limit.n) - Number(used.n);
    expect(before).toEqual({ compose: expected, settings: expected, estimate: expected });
    expect((await send(admin, sms({ emergency: true }))).status).toBe(201);
    const after = await figures();
    expect(after).toEqual({ compose: expected - 1, settings: expected - 1, estimate: expected - 1 });
  });

  it('of a message scheduled in another month is that month’s, and the estimate says which month', async () => {
    const next = addMonths(ids.month, 1);
    // The 15th of next month at noon UTC: in the school's next month whatever its zone.
    const at = `${next}-15T12:00:00.000Z`;
    const estimate = await data<Estimate>(await admin.post('/api/messages/estimate', sms({ scheduled_at: at })));
    const limit = await one<{ n: number }>(
      server.db,
      sql`select sms_monthly_limit as n from institution_quotas where institution_id = ${ids.school}`,
    );
    const usedNext = await one<{ n: number }>(
      server.db,
      sql`select coalesce(sum(segments), 0)::int as n from sms_usage where institution_id = ${ids.school} and month = ${next}`,
    );
    expect(estimate.sms).toMatchObject({ month: next, remaining: Number(limit.n) - Number(usedNext.n) });
    const now = await data<Estimate>(await admin.post('/api/messages/estimate', sms()));
    expect(now.sms?.month).toBe(ids.month);
  });
});
