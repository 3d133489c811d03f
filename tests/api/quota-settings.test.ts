// The quota server of the settings screen (shared/quota-contract.ts): `GET/PATCH /quota/settings`
// and `GET /quota/usage`, for the admin roles only, scoped to the school; the limit-below-used refusal with
// its figure, the limit history, the run-out projection on fixed clocks, the usage bars against sums taken
// from the database here, the Chilean and Mexican school years, and the seeded year of SMS use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ADMIN_ROLES, type RoleCode } from '../../shared/codes';
import { DEMO_LOGINS, DEMO_SCHOOLS } from '../../shared/demo';
import { QUOTA_API, SMS_LIMIT_MAX, type QuotaSettings, type QuotaUsage } from '../../shared/quota-contract';
import { monthIn } from '../../server/db/time';
import { rowsOf } from '../../server/db/sql';
import { institutionQuotas, smsMonthlyLimits, smsUsage } from '../../server/db/schema/compose';
import { institutions } from '../../server/db/schema/institutions';
import { readQuotaSettings, runsOutOn } from '../../server/quota/settings';
import { readQuotaUsage } from '../../server/quota/usage';
import { data, errorsOf } from './support/answers';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
const as = signedIn(() => server);
const ids = { sanAndres: 0, elqui: 0, juarez: 0 };
const zone = { sanAndres: '', elqui: '', juarez: '' };

beforeAll(async () => {
  server = await startServer();
  for (const key of Object.keys(ids) as (keyof typeof ids)[]) {
    const [row] = await server.db
      .select({ id: institutions.id, tz: institutions.timezone })
      .from(institutions)
      .where(eq(institutions.name, DEMO_SCHOOLS[key]));
    ids[key] = row!.id;
    zone[key] = row!.tz;
  }
});
afterAll(async () => {
  await server?.close();
});

const SETTINGS = `/api${QUOTA_API.settings}`;
const USAGE = `/api${QUOTA_API.usage}`;
const ADMIN = 'administrador@sanandres.cl';

const patch = (client: Client, body: unknown) =>
  client.fetch(SETTINGS, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

const thisMonth = (school: keyof typeof ids) => monthIn(new Date(), zone[school]);

async function usageRows(institutionId: number): Promise<Map<string, number>> {
  const rows = await server.db
    .select({ month: smsUsage.month, segments: smsUsage.segments })
    .from(smsUsage)
    .where(eq(smsUsage.institutionId, institutionId));
  return new Map(rows.map((r) => [r.month, r.segments]));
}

/** The limit of `month` as the contract defines it, from the tables: the latest change at or before it, else the current limit. */
async function limitOf(institutionId: number, month: string): Promise<number> {
  const [change] = await server.db
    .select({ limit: smsMonthlyLimits.smsLimit })
    .from(smsMonthlyLimits)
    .where(and(eq(smsMonthlyLimits.institutionId, institutionId), sql`${smsMonthlyLimits.month} <= ${month}`))
    .orderBy(sql`${smsMonthlyLimits.month} desc`)
    .limit(1);
  if (change) return change.limit;
  const [row] = await server.db
    .select({ limit: institutionQuotas.smsMonthlyLimit })
    .from(institutionQuotas)
    .where(eq(institutionQuotas.institutionId, institutionId));
  return row?.limit ?? 0;
}

async function setUsed(institutionId: number, month: string, segments: number): Promise<void> {
  await server.db
    .insert(smsUsage)
    .values({ institutionId, month, segments })
    .onConflictDoUpdate({ target: [smsUsage.institutionId, smsUsage.month], set: { segments } });
}

describe('who may read and change the quota', () => {
  it('answers 401 signed out, 403 with a Spanish reason to staff without an admin role, 200 to every admin role', async () => {
    const anonymous = server.client();
    await anonymous.get('/api/csrf-cookie');
    for (const res of [await anonymous.get(SETTINGS), await anonymous.get(USAGE), await patch(anonymous, { alert_percent: 20 })]) {
      expect(res.status).toBe(401);
    }
    const teacher = await as('docente@sanandres.cl');
    for (const res of [await teacher.get(SETTINGS), await teacher.get(USAGE), await patch(teacher, { sms_monthly_limit: 99_999 })]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        code: 'auth.forbidden',
        message: 'No tienes permiso para ver ni modificar la cuota de SMS de la institución.',
      });
    }
    // The teacher's PATCH changed nothing.
    expect((await data<QuotaSettings>(teacher.get('/api/quota'))).sms.limit).toBe(5000);
    const admins = DEMO_LOGINS.filter((l) => l.access && ADMIN_ROLES.includes(l.role as RoleCode) && l.school === DEMO_SCHOOLS.sanAndres);
    expect(admins.map((l) => l.role).sort()).toEqual([...ADMIN_ROLES].sort());
    for (const login of admins) {
      const client = await as(login.email);
      expect((await client.get(SETTINGS)).status, login.email).toBe(200);
      expect((await client.get(USAGE)).status, login.email).toBe(200);
    }
  });
});

describe('GET /quota/settings', () => {
  it('reads the limit, this month’s use, the reserve and the alert of the signed-in school only', async () => {
    const month = thisMonth('sanAndres');
    const used = (await usageRows(ids.sanAndres)).get(month)!;
    expect(used).toBeGreaterThan(0);
    const settings = await data<QuotaSettings>((await as(ADMIN)).get(SETTINGS));
    expect(settings).toEqual({
      month,
      timezone: 'America/Santiago',
      sms: {
        limit: 5000,
        used,
        remaining: 5000 - used,
        reserved: 0,
        reserve_percent: 0,
        alert_percent: 10,
        low: 5000 - used < 500,
        runs_out_on: runsOutOn(
          month,
          Number(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago', day: '2-digit' }).format(new Date())),
          used,
          5000 - used,
        ),
      },
      email: { remaining: null },
      whatsapp: { remaining: 2000 },
    });
    const elqui = await data<QuotaSettings>((await as('administrador@liceoelqui.cl')).get(SETTINGS));
    expect(elqui.sms.limit).toBe(1000);
    expect(elqui.sms.used).toBe((await usageRows(ids.elqui)).get(thisMonth('elqui')));
    expect(elqui.email.remaining).toBe(500);
  });
});

describe('PATCH /quota/settings', () => {
  it('refuses every bad value with a Spanish message on its field, and changes nothing', async () => {
    const admin = await as(ADMIN);
    const before = await data<QuotaSettings>(admin.get(SETTINGS));
    const limitMessage = 'El límite mensual debe ser un número entero entre 0 y 10.000.000.';
    for (const bad of [-1, 1.5, '100', null, true, SMS_LIMIT_MAX + 1]) {
      expect(await errorsOf(patch(admin, { sms_monthly_limit: bad })), String(bad)).toEqual({ sms_monthly_limit: [limitMessage] });
    }
    for (const bad of [-1, 51, 2.5, '10', null]) {
      expect(await errorsOf(patch(admin, { reserve_percent: bad })), String(bad)).toEqual({
        reserve_percent: ['La reserva de emergencia debe ser un porcentaje entero entre 0 y 50.'],
      });
    }
    for (const bad of [0, 51, 9.5, 'diez', false]) {
      expect(await errorsOf(patch(admin, { alert_percent: bad })), String(bad)).toEqual({
        alert_percent: ['La alerta debe ser un porcentaje entero entre 1 y 50, o ninguna.'],
      });
    }
    // Several at once: each field says its own.
    expect(Object.keys(await errorsOf(patch(admin, { sms_monthly_limit: -5, reserve_percent: 99, alert_percent: 0 }))).sort()).toEqual([
      'alert_percent',
      'reserve_percent',
      'sms_monthly_limit',
    ]);
    for (const empty of [{}, null, [], 'límite']) {
      expect(await errorsOf(patch(admin, empty))).toEqual({
        sms_monthly_limit: ['Indica al menos un valor para actualizar: límite mensual, reserva de emergencia o alerta.'],
      });
    }
    expect(await data<QuotaSettings>(admin.get(SETTINGS))).toEqual(before);
  });

  it('refuses a limit below this month’s use with the figure (es-CL thousands), and takes one equal to it', async () => {
    const admin = await as(ADMIN);
    const month = thisMonth('sanAndres');
    const seeded = (await usageRows(ids.sanAndres)).get(month)!;
    await setUsed(ids.sanAndres, month, 1234);
    try {
      expect(await errorsOf(patch(admin, { sms_monthly_limit: 1233, reserve_percent: 20 }))).toEqual({
        sms_monthly_limit: ['Este mes ya se usaron 1.234 SMS; el límite no puede ser menor.'],
      });
      // Nothing of the refused change was written, the reserve neither.
      const [row] = await server.db.select().from(institutionQuotas).where(eq(institutionQuotas.institutionId, ids.sanAndres));
      expect([row!.smsMonthlyLimit, row!.smsReservePercent]).toEqual([5000, 0]);
      const equal = await data<QuotaSettings>(patch(admin, { sms_monthly_limit: 1234 }));
      expect(equal.sms).toMatchObject({
        limit: 1234,
        used: 1234,
        remaining: 0,
        low: true,
        runs_out_on: expect.stringMatching(new RegExp(`^${month}-\\d\\d$`)),
      });
    } finally {
      await setUsed(ids.sanAndres, month, seeded);
      expect((await patch(admin, { sms_monthly_limit: 5000 })).status).toBe(200);
    }
  });

  it('changes the reserve and the alert (null switches it off), and records each limit as this month’s in the history', async () => {
    const admin = await as(ADMIN);
    const month = thisMonth('sanAndres');
    const set = await data<QuotaSettings>(patch(admin, { sms_monthly_limit: 6001, reserve_percent: 10, alert_percent: 25 }));
    expect(set.sms).toMatchObject({ limit: 6001, reserve_percent: 10, reserved: 600, alert_percent: 25 });
    expect(set.sms.low).toBe(set.sms.remaining * 100 < 6001 * 25);
    expect(await data<QuotaSettings>(admin.get(SETTINGS))).toEqual(set);
    const off = await data<QuotaSettings>(patch(admin, { alert_percent: null }));
    expect(off.sms).toMatchObject({ limit: 6001, reserve_percent: 10, alert_percent: null, low: false });
    await data(patch(admin, { sms_monthly_limit: 7000 }));
    const history = await server.db
      .select()
      .from(smsMonthlyLimits)
      .where(eq(smsMonthlyLimits.institutionId, ids.sanAndres))
      .orderBy(smsMonthlyLimits.month);
    // The seeded changes, then this month's, written once and updated in place.
    expect(history.filter((h) => h.month === month)).toEqual([{ institutionId: ids.sanAndres, month, smsLimit: 7000 }]);
    expect(history.filter((h) => h.month < month).map((h) => h.smsLimit)).toEqual([3000, 4000, 5000]);
    const usage = await data<QuotaUsage>(admin.get(USAGE));
    expect(usage.bars.find((b) => b.period === month)!.limit).toBe(7000);
    // Compose reads the same limit; the alert and reserve are this screen's.
    expect((await data<{ sms: { limit: number } }>(admin.get('/api/quota'))).sms.limit).toBe(7000);
    await data(patch(admin, { sms_monthly_limit: 5000, reserve_percent: 0, alert_percent: 10 }));
  });

  it('a first change of the limit keeps the months before it at the limit they had', async () => {
    // Elqui's seeded history is cleared: a school whose limit was never changed in Hermes.
    const admin = await as('administrador@liceoelqui.cl');
    const month = thisMonth('elqui');
    await server.db.delete(smsMonthlyLimits).where(eq(smsMonthlyLimits.institutionId, ids.elqui));
    const before = (await server.db.select().from(institutionQuotas).where(eq(institutionQuotas.institutionId, ids.elqui)))[0]!
      .smsMonthlyLimit;
    const usedNow = (await data<QuotaSettings>(admin.get(SETTINGS))).sms.used;
    await data(patch(admin, { sms_monthly_limit: Math.max(before, usedNow) + 1234 }));
    const bars = (await data<QuotaUsage>(admin.get(USAGE))).bars;
    const index = bars.findIndex((b) => b.period === month);
    expect(bars[index]!.limit).toBe(Math.max(before, usedNow) + 1234);
    // Every month before this one was under the old limit, not the new one.
    for (const bar of bars.slice(0, index)) expect(bar.limit).toBe(before);
    await data(patch(admin, { sms_monthly_limit: Math.max(before, usedNow) }));
  });

  it('creates the quota row of a school that has none, and leaves other schools alone', async () => {
    const juarez = await as('administrador@benitojuarez.edu.mx');
    await server.db.delete(institutionQuotas).where(eq(institutionQuotas.institutionId, ids.juarez));
    const none = await data<QuotaSettings>(juarez.get(SETTINGS));
    expect(none.sms).toEqual({
      limit: 0,
      used: 0,
      remaining: 0,
      reserved: 0,
      reserve_percent: 0,
      alert_percent: 10,
      low: false,
      runs_out_on: null,
    });
    expect(none.email).toEqual({ remaining: null });
    const created = await data<QuotaSettings>(patch(juarez, { sms_monthly_limit: 300, reserve_percent: 5 }));
    expect(created.sms).toMatchObject({ limit: 300, reserved: 15, used: 0, remaining: 300, runs_out_on: null });
    const [row] = await server.db.select().from(institutionQuotas).where(eq(institutionQuotas.institutionId, ids.juarez));
    expect(row).toEqual({
      institutionId: ids.juarez,
      smsMonthlyLimit: 300,
      emailBalance: null,
      whatsappBalance: null,
      smsReservePercent: 5,
      smsAlertPercent: 10,
    });
    const sanAndres = await server.db.select().from(institutionQuotas).where(eq(institutionQuotas.institutionId, ids.sanAndres));
    expect(sanAndres[0]!.smsMonthlyLimit).toBe(5000);
  });
});

describe('the run-out projection', () => {
  it('is the day the remaining runs out at this month’s pace (today included), null past the month’s end or with nothing used', () => {
    // 1,000 in 10 days is 100 a day: 2,000 left last 20 more days.
    expect(runsOutOn('2026-10', 10, 1000, 2000)).toBe('2026-10-30');
    expect(runsOutOn('2026-10', 10, 1000, 2050)).toBe('2026-10-31');
    expect(runsOutOn('2026-10', 10, 1000, 2101)).toBeNull();
    expect(runsOutOn('2026-02', 14, 1400, 1400)).toBe('2026-02-28');
    expect(runsOutOn('2028-02', 14, 1400, 1500)).toBe('2028-02-29');
    expect(runsOutOn('2026-10', 10, 1000, 0)).toBe('2026-10-10');
    expect(runsOutOn('2026-10', 10, 1000, 1)).toBe('2026-10-11');
    expect(runsOutOn('2026-10', 1, 0, 5000)).toBeNull();
  });

  it('counts the month and the days in the school’s zone, on fixed clocks', async () => {
    const db = server.db;
    await setUsed(ids.sanAndres, '2026-10', 1000);
    await db.update(institutionQuotas).set({ smsMonthlyLimit: 3000 }).where(eq(institutionQuotas.institutionId, ids.sanAndres));
    try {
      // 10 October at noon in Santiago: day 10, 100 a day, 2,000 left → the 30th.
      const noon = await readQuotaSettings(db, ids.sanAndres, new Date('2026-10-10T15:00:00Z'));
      expect(noon.month).toBe('2026-10');
      expect(noon.sms).toMatchObject({ limit: 3000, used: 1000, remaining: 2000, runs_out_on: '2026-10-30', low: false });
      // 1 November 01:30 UTC is still 31 October (22:30) in Santiago: the same month, day 31, and it lasts.
      const lateNight = await readQuotaSettings(db, ids.sanAndres, new Date('2026-11-01T01:30:00Z'));
      expect(lateNight.month).toBe('2026-10');
      expect(lateNight.sms.runs_out_on).toBeNull();
      // Day 2 at the same use: 500 a day → 4 more days.
      const early = await readQuotaSettings(db, ids.sanAndres, new Date('2026-10-02T12:00:00Z'));
      expect(early.sms.runs_out_on).toBe('2026-10-06');
      // A month with nothing used has no projection.
      const empty = await readQuotaSettings(db, ids.sanAndres, new Date('2031-05-10T12:00:00Z'));
      expect(empty.month).toBe('2031-05');
      expect(empty.sms).toMatchObject({ used: 0, runs_out_on: null });
    } finally {
      await db.delete(smsUsage).where(and(eq(smsUsage.institutionId, ids.sanAndres), eq(smsUsage.month, '2026-10')));
      await db.update(institutionQuotas).set({ smsMonthlyLimit: 5000 }).where(eq(institutionQuotas.institutionId, ids.sanAndres));
    }
  });
});

describe('GET /quota/usage', () => {
  it('refuses bad query values with Spanish messages', async () => {
    const admin = await as(ADMIN);
    expect(await errorsOf(admin.get(`${USAGE}?view=weekly`))).toEqual({
      view: ['La vista debe ser "monthly" (mensual) o "annual" (anual).'],
    });
    expect(await errorsOf(admin.get(`${USAGE}?calendar=lunar`))).toEqual({
      calendar: ['El calendario debe ser "civil" (enero a diciembre) o "school" (año escolar).'],
    });
    const max = new Date().getUTCFullYear() + 1;
    for (const year of ['abc', '1999', String(max + 1), '20261', '-2026', '2026.5']) {
      expect(await errorsOf(admin.get(`${USAGE}?year=${encodeURIComponent(year)}`)), year).toEqual({
        year: [`El año debe ser un número entero entre 2000 y ${max}.`],
      });
    }
  });

  it('gives the 12 civil months of a year with each month’s use and limit, as the tables hold them', async () => {
    const admin = await as(ADMIN);
    const year = Number(thisMonth('sanAndres').slice(0, 4));
    const used = await usageRows(ids.sanAndres);
    for (const y of [year, year - 1]) {
      const usage = await data<QuotaUsage>(admin.get(`${USAGE}?view=monthly&calendar=civil&year=${y}`));
      expect(usage).toMatchObject({ view: 'monthly', calendar: 'civil', year: y });
      const months = Array.from({ length: 12 }, (_, i) => `${y}-${String(i + 1).padStart(2, '0')}`);
      expect(usage.bars).toEqual(
        await Promise.all(months.map(async (m) => ({ period: m, used: used.get(m) ?? 0, limit: await limitOf(ids.sanAndres, m) }))),
      );
    }
    // The default is the year holding this month; the seeded months are there, and vary.
    const current = await data<QuotaUsage>(admin.get(USAGE));
    expect(current.year).toBe(year);
    const seeded = current.bars.filter((b) => b.used > 0);
    expect(seeded.length).toBeGreaterThanOrEqual(Number(thisMonth('sanAndres').slice(5)) - 1);
    // Real sums of the seeded SMS (server/seed/activity.ts): two months may happen to match, most do not.
    expect(new Set(seeded.map((b) => b.used)).size).toBeGreaterThan(seeded.length / 2);
    for (const b of current.bars) expect(b.used, b.period).toBeLessThanOrEqual(b.limit);
    // More in March than in the summer and the winter break (Chile).
    // The seed covers the 14 months before this one, which always hold a whole January–March and June–July.
    const month = thisMonth('sanAndres');
    const past = (m: string) => used.has(m) && m < month;
    const march = [year, year - 1].map((y) => `${y}-03`).find((m) => past(m) && past(m.replace('-03', '-01')));
    const july = [year, year - 1].map((y) => `${y}-07`).find((m) => past(m) && past(m.replace('-07', '-06')));
    expect(march && july, 'a seeded March and July').toBeTruthy();
    const of = (m: string) => used.get(m) ?? 0;
    expect(of(march!)).toBeGreaterThan(Math.max(of(march!.replace('-03', '-01')), of(march!.replace('-03', '-02'))));
    expect(of(july!)).toBeLessThan(of(july!.replace('-07', '-06')));
  });

  it('sums five years in the annual view, months and limits alike', async () => {
    const admin = await as(ADMIN);
    const year = Number(thisMonth('sanAndres').slice(0, 4));
    const used = await usageRows(ids.sanAndres);
    const annual = await data<QuotaUsage>(admin.get(`${USAGE}?view=annual`));
    expect(annual.bars.map((b) => b.period)).toEqual([4, 3, 2, 1, 0].map((k) => String(year - k)));
    for (const bar of annual.bars) {
      const months = Array.from({ length: 12 }, (_, i) => `${bar.period}-${String(i + 1).padStart(2, '0')}`);
      expect(bar.used, bar.period).toBe(months.reduce((s, m) => s + (used.get(m) ?? 0), 0));
      let limit = 0;
      for (const m of months) limit += await limitOf(ids.sanAndres, m);
      expect(bar.limit, bar.period).toBe(limit);
    }
    const school = await data<QuotaUsage>(admin.get(`${USAGE}?view=annual&calendar=school&year=${year}`));
    const last = school.bars.at(-1)!;
    expect(last.period).toBe(String(year));
    const months = Array.from({ length: 10 }, (_, i) => `${year}-${String(i + 3).padStart(2, '0')}`);
    expect(last.used).toBe(months.reduce((s, m) => s + (used.get(m) ?? 0), 0));
  });

  it('lays the year along the Chilean school year (March–December) and the Mexican one (August–July)', async () => {
    const admin = await as(ADMIN);
    const cl = await data<QuotaUsage>(admin.get(`${USAGE}?calendar=school&year=2026`));
    expect(cl.bars.map((b) => b.period)).toEqual(['03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((m) => `2026-${m}`));
    const used = await usageRows(ids.sanAndres);
    expect(cl.bars.map((b) => b.used)).toEqual(cl.bars.map((b) => used.get(b.period) ?? 0));

    // Benito Juárez has no SMS in the seed: give it a year of use here, and another school's row beside it.
    const juarez = await as('administrador@benitojuarez.edu.mx');
    const months = ['2025-07', '2025-08', '2025-12', '2026-01', '2026-07', '2026-08'];
    for (const [i, m] of months.entries()) await setUsed(ids.juarez, m, 100 * (i + 1));
    await server.db.insert(smsMonthlyLimits).values({ institutionId: ids.juarez, month: '2025-12', smsLimit: 900 }).onConflictDoNothing();
    const mx = await data<QuotaUsage>(juarez.get(`${USAGE}?calendar=school&year=2025`));
    expect(mx.bars.map((b) => b.period)).toEqual([
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
    ]);
    expect(mx.bars.map((b) => b.used)).toEqual([200, 0, 0, 0, 300, 400, 0, 0, 0, 0, 0, 500]);
    const current =
      (await server.db.select().from(institutionQuotas).where(eq(institutionQuotas.institutionId, ids.juarez)))[0]?.smsMonthlyLimit ?? 0;
    // Before the first recorded change: the limit the school had then (its first PATCH wrote it), else the current one.
    const [first] = await server.db
      .select()
      .from(smsMonthlyLimits)
      .where(and(eq(smsMonthlyLimits.institutionId, ids.juarez), eq(smsMonthlyLimits.month, '0000-01')));
    const earlier = first?.smsLimit ?? current;
    expect(mx.bars.map((b) => b.limit)).toEqual([earlier, earlier, earlier, earlier, 900, 900, 900, 900, 900, 900, 900, 900]);
    // The default school year holds this month: August onwards starts a new one in Mexico.
    const now = thisMonth('juarez');
    const expected = Number(now.slice(5)) >= 8 ? Number(now.slice(0, 4)) : Number(now.slice(0, 4)) - 1;
    expect((await data<QuotaUsage>(juarez.get(`${USAGE}?calendar=school`))).year).toBe(expected);
    // Fixed clocks: in Chile, January belongs to the school year just ended; in Mexico, July too.
    const chileJanuary = await readQuotaUsage(
      server.db,
      ids.sanAndres,
      { view: 'monthly', calendar: 'school', year: null },
      new Date('2027-01-15T12:00:00Z'),
    );
    expect(chileJanuary.year).toBe(2026);
    const mexicoJuly = await readQuotaUsage(
      server.db,
      ids.juarez,
      { view: 'monthly', calendar: 'school', year: null },
      new Date('2026-07-31T12:00:00Z'),
    );
    expect(mexicoJuly.year).toBe(2025);
    const mexicoAugust = await readQuotaUsage(
      server.db,
      ids.juarez,
      { view: 'monthly', calendar: 'school', year: null },
      new Date('2026-08-01T12:00:00Z'),
    );
    expect(mexicoAugust.year).toBe(2026);
    // None of it shows at San Andrés.
    expect((await data<QuotaUsage>(admin.get(`${USAGE}?year=2025`))).bars.map((b) => b.used)).toEqual(
      Array.from({ length: 12 }, (_, i) => used.get(`2025-${String(i + 1).padStart(2, '0')}`) ?? 0),
    );
  });

  it('ranks this month’s senders and courses from the deliveries, most first, at most 5, each school its own', async () => {
    for (const [school, email] of [
      ['sanAndres', ADMIN],
      ['elqui', 'administrador@liceoelqui.cl'],
    ] as const) {
      const usage = await data<QuotaUsage>((await as(email)).get(USAGE));
      const month = thisMonth(school);
      const [from, to] = [`${month}-01 00:00`, nextMonth(month)];
      const deliveries = rowsOf<{
        segments: number;
        message_id: number;
        author: number;
        name: string;
        kind: string;
        ref: number;
        user_school: number;
      }>(
        await server.db.execute(sql`
          select d.segments, d.message_id, m.author_user_id as author, u.name, r.recipient_kind as kind, r.recipient_ref_id as ref,
            u.institution_id as user_school
          from deliveries d join messages m on m.id = d.message_id join message_recipients r on r.id = d.recipient_id
          join users u on u.id = m.author_user_id
          where d.channel = 'sms' and m.institution_id = ${ids[school]}
            and coalesce(m.scheduled_at, m.sent_at) >= (${from}::timestamp at time zone ${zone[school]})
            and coalesce(m.scheduled_at, m.sent_at) < (${to}::timestamp at time zone ${zone[school]})`),
      );
      // Senders, counted here in JS from the rows.
      const senders = new Map<number, { user_id: number; name: string; segments: number; messages: Set<number> }>();
      for (const d of deliveries) {
        expect(d.user_school).toBe(ids[school]);
        if (Number(d.segments) === 0) continue;
        const s = senders.get(Number(d.author)) ?? { user_id: Number(d.author), name: d.name, segments: 0, messages: new Set<number>() };
        s.segments += Number(d.segments);
        s.messages.add(Number(d.message_id));
        senders.set(s.user_id, s);
      }
      const expectedSenders = [...senders.values()]
        .map((s) => ({ user_id: s.user_id, name: s.name, segments: s.segments, messages: s.messages.size }))
        .sort((a, b) => b.segments - a.segments || a.name.localeCompare(b.name, 'es') || a.user_id - b.user_id)
        .slice(0, 5);
      expect(usage.top_senders, school).toEqual(expectedSenders);
      expect(usage.top_senders.length, school).toBeGreaterThanOrEqual(2);
      // The seed's SMS of this month are all there is: the senders' segments are this month's use.
      const used = (await usageRows(ids[school])).get(month)!;
      expect(
        [...senders.values()].reduce((s, x) => s + x.segments, 0),
        school,
      ).toBe(used);

      // Courses: a guardian's delivery counts for each course of their children.
      const guardianCourses = rowsOf<{ guardian_id: number; course_id: number; name: string }>(
        await server.db.execute(sql`
          select sg.guardian_id, s.course_id, c.name from student_guardians sg join students s on s.id = sg.student_id
          join courses c on c.id = s.course_id where s.institution_id = ${ids[school]}`),
      );
      const coursesOf = new Map<number, Map<number, string>>();
      for (const g of guardianCourses) {
        const m = coursesOf.get(Number(g.guardian_id)) ?? new Map<number, string>();
        m.set(Number(g.course_id), g.name);
        coursesOf.set(Number(g.guardian_id), m);
      }
      const courses = new Map<number, { course_id: number; name: string; segments: number }>();
      for (const d of deliveries) {
        if (Number(d.segments) === 0 || d.kind !== 'apoderado') continue;
        for (const [id, name] of coursesOf.get(Number(d.ref)) ?? []) {
          const c = courses.get(id) ?? { course_id: id, name, segments: 0 };
          c.segments += Number(d.segments);
          courses.set(id, c);
        }
      }
      const expectedCourses = [...courses.values()]
        .sort((a, b) => b.segments - a.segments || a.name.localeCompare(b.name, 'es') || a.course_id - b.course_id)
        .slice(0, 5);
      expect(usage.top_courses, school).toEqual(expectedCourses);
      expect(usage.top_courses.length, school).toBe(5);
    }
  });
});

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01 00:00` : `${y}-${String(m + 1).padStart(2, '0')}-01 00:00`;
}
