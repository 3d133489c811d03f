// The rate limits that protect logins and the guardian app's SMS codes hold across servers: two apps on one
// database, each with its own routes (so nothing counted in one app's memory helps the other), take turns
// answering one client. On PostgreSQL the second app has its own connection pool, as a second process
// would; on PGlite, which one process owns, it shares the handle. Behind a trusted proxy each test speaks
// from its own client IP (X-Forwarded-For), so the tests do not count against each other.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../shared/demo';
import { createApp } from '../../server/app';
import type { Db } from '../../server/db/client';
import { capturedSms, codeSentTo } from './support/app-sms';
import { count, rows } from './support/compose';
import { Client, listen, makeDist, openSharedCopy, testConfig } from './support/server';

/**
 * The defaults (server/config.ts): the login's in docs/decisions/0003-login-errors-do-not-reveal-accounts.md,
 * the guardian app's codes per IP in the README's configuration table.
 */
const LOGIN_MAX_FAILURES = 5;
const CODES_PER_IP = 60;
const WRONG_CODES_PER_IP = 30;

const { sent: sms, delivery } = capturedSms();
let shared: Awaited<ReturnType<typeof openSharedCopy>>;
let db: Db;
/** The two servers' base URLs. */
let urls: [string, string];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  shared = await openSharedCopy();
  const { copy } = shared;
  db = copy.handle.db;
  const distDir = makeDist(copy.root);
  const serve = async (appDb: Db) => {
    const app = createApp({
      db: appDb,
      distDir,
      config: testConfig({ trustProxy: true, attachmentsDir: copy.attachmentsDir, outboxDir: path.join(copy.root, 'outbox') }),
      delivery,
    });
    const server = await listen(app);
    closers.push(server.close);
    return server.url;
  };
  urls = [await serve(shared.dbs[0]), await serve(shared.dbs[1])];
}, 60_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await shared?.dispose();
});

let nextIp = 1;
/** A client IP of its own for one test, as the trusted proxy reports it. */
const freshIp = () => `198.51.100.${nextIp++}`;

/** One browser per server, both behind the same proxy with the same client IP. */
function browsers(ip: string): [Client, Client] {
  return urls.map((url) => {
    const client = new Client(url);
    const fetch = client.fetch.bind(client);
    client.fetch = (pathname, init = {}) =>
      fetch(pathname, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'X-Forwarded-For': ip } });
    return client;
  }) as [Client, Client];
}

const wrongPassword = (client: Client, email: string, i: number) => client.login(email, `incorrecta-${i}`);

async function expectThrottled(res: Response, minS: number, maxS: number): Promise<string> {
  expect(res.status).toBe(429);
  const wait = Number(res.headers.get('retry-after'));
  expect(wait).toBeGreaterThanOrEqual(minS);
  expect(wait).toBeLessThanOrEqual(maxS);
  const body = (await res.json()) as { code: string; message: string };
  expect(body.code).toBe('auth.throttled');
  return body.message;
}

describe('login failures across servers', () => {
  it('failures spread over both servers add up: either one then refuses, with Retry-After', async () => {
    const [a, b] = browsers(freshIp());
    const email = 'utp@sanandres.cl';
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await wrongPassword(i % 2 ? b : a, email, i)).status).toBe(401);
    for (const client of [a, b]) {
      const message = await expectThrottled(await client.login(email), 50, 60);
      expect(message).toMatch(/^Demasiados intentos de inicio de sesión\. Inténtalo de nuevo en (5\d|60) segundos\.$/);
    }
    // Another account from the same IP, and the same account from another IP, are not affected.
    expect((await a.login('corp.utp@sanandres.cl')).status).toBe(200);
    expect((await browsers(freshIp())[1].login(email)).status).toBe(200);
  });

  it('a success on one server resets the count the other server sees', async () => {
    const [a, b] = browsers(freshIp());
    const email = 'docente@sanandres.cl';
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) expect((await wrongPassword(i % 2 ? b : a, email, i)).status).toBe(401);
    expect((await b.login(email)).status).toBe(200);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await wrongPassword(a, email, i)).status).toBe(401);
    await expectThrottled(await b.login(email), 50, 60);
  });

  it('refuses only while the failures are inside the window', async () => {
    const ip = freshIp();
    const [a, b] = browsers(ip);
    const email = 'administrador@sanandres.cl';
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await wrongPassword(a, email, i)).status).toBe(401);
    await expectThrottled(await b.login(email), 50, 60);
    // The oldest failure leaves the window first: one slot, so one more failure, then refused again.
    await db.execute(sql`update rate_limit_hits set at = at - interval '61 seconds'
      where scope = 'login' and key = ${`${email}|${ip}`} and at = (select min(at) from rate_limit_hits where scope = 'login' and key = ${`${email}|${ip}`})`);
    expect((await wrongPassword(b, email, 9)).status).toBe(401);
    await expectThrottled(await a.login(email), 1, 60);
    await db.execute(sql`update rate_limit_hits set at = at - interval '61 seconds' where scope = 'login' and key = ${`${email}|${ip}`}`);
    expect((await a.login(email)).status).toBe(200);
  });

  it('failures sent at once to both servers never get past the limit', async () => {
    const [a, b] = browsers(freshIp());
    const email = 'corp.utp@sanandres.cl';
    // The CSRF cookie first, so the attempts themselves race.
    await Promise.all([a.get('/api/csrf-cookie'), b.get('/api/csrf-cookie')]);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => wrongPassword(i % 2 ? b : a, email, i)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(LOGIN_MAX_FAILURES).fill(401), ...Array(12 - LOGIN_MAX_FAILURES).fill(429)]);
    await expectThrottled(await a.login(email, DEMO_PASSWORD), 50, 60);
  });
});

/** The guardian app's API on a server, from a client IP. */
function app(server: 0 | 1, ip: string, pathname: string, json: unknown): Promise<Response> {
  return fetch(`${urls[server]}/api/app${pathname}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify(json),
  });
}

/** A phone nobody has, different for every call: the per-phone rule never applies to it. */
let nextPhone = 0;
const unknownPhone = () => `+569870${String(nextPhone++).padStart(5, '0')}`;

async function guardianPhones(n: number): Promise<string[]> {
  const found = await rows<{ phone: string }>(
    db,
    sql`select g.phone from guardians g
    where g.phone is not null and (select count(*) from guardians o where o.phone = g.phone) = 1 order by g.id limit ${n}`,
  );
  return found.map((r) => r.phone);
}

describe('guardian app codes per client IP', () => {
  it(`sends at most ${CODES_PER_IP} codes per IP every 10 minutes, whichever the phones, across servers`, async () => {
    const ip = freshIp();
    for (let i = 0; i < CODES_PER_IP; i++)
      expect((await app((i % 2) as 0 | 1, ip, '/session/code', { phone: unknownPhone() })).status).toBe(202);
    const [known] = await guardianPhones(1);
    const smsBefore = sms.length;
    const codesBefore = await count(db, sql`select count(*)::int as n from app_login_codes where phone = ${known!}`);
    for (const server of [0, 1] as const) {
      const message = await expectThrottled(await app(server, ip, '/session/code', { phone: known }), 590, 600);
      expect(message).toBe('Demasiadas solicitudes de código desde tu red. Inténtalo de nuevo en 10 minutos.');
    }
    // Refused before anything: no code recorded, no SMS paid for.
    expect(sms.length).toBe(smsBefore);
    expect(await count(db, sql`select count(*)::int as n from app_login_codes where phone = ${known!}`)).toBe(codesBefore);
    // Another IP asks as usual; this one again once its requests have left the window.
    expect((await app(1, freshIp(), '/session/code', { phone: unknownPhone() })).status).toBe(202);
    await db.execute(sql`update rate_limit_hits set at = at - interval '601 seconds' where key = ${ip}`);
    expect((await app(0, ip, '/session/code', { phone: known })).status).toBe(202);
  });

  it(`refuses an IP after ${WRONG_CODES_PER_IP} wrong codes in 10 minutes, whichever the phones, even the right code`, async () => {
    const [phone] = await guardianPhones(2).then((p) => p.slice(1));
    const before = sms.length;
    expect((await app(0, freshIp(), '/session/code', { phone })).status).toBe(202);
    const code = codeSentTo(sms, phone!, before);
    const wrong = code === '000000' ? '000001' : '000000';

    const ip = freshIp();
    for (let i = 0; i < WRONG_CODES_PER_IP; i++) {
      const guess = await app((i % 2) as 0 | 1, ip, '/session', { phone: unknownPhone(), code: wrong });
      expect(guess.status).toBe(401);
    }
    for (const server of [0, 1] as const) {
      const message = await expectThrottled(await app(server, ip, '/session', { phone, code }), 590, 600);
      expect(message).toBe('Demasiados códigos incorrectos desde tu red. Inténtalo de nuevo en 10 minutos.');
    }
    // The code was not spent by the refused attempts: from another IP it signs in.
    expect((await app(1, freshIp(), '/session', { phone, code })).status).toBe(200);
    await db.execute(sql`update rate_limit_hits set at = at - interval '601 seconds' where key = ${ip}`);
    expect((await app(0, ip, '/session', { phone: unknownPhone(), code: wrong })).status).toBe(401);
  });

  it('counts a right code as no wrong one', async () => {
    const ip = freshIp();
    for (let i = 0; i < WRONG_CODES_PER_IP - 1; i++)
      expect((await app(0, ip, '/session', { phone: unknownPhone(), code: '123456' })).status).toBe(401);
    const [, , phone] = await guardianPhones(3);
    const before = sms.length;
    expect((await app(1, freshIp(), '/session/code', { phone })).status).toBe(202);
    const code = codeSentTo(sms, phone!, before);
    expect((await app(1, ip, '/session', { phone, code })).status).toBe(200);
    // Still one wrong code left for this IP, then refused.
    expect((await app(0, ip, '/session', { phone: unknownPhone(), code: '123456' })).status).toBe(401);
    await expectThrottled(await app(1, ip, '/session', { phone: unknownPhone(), code: '123456' }), 590, 600);
  });
});
