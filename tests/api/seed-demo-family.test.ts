// The families' app demo (decision 0224): the seed's demo phone is a mother's in San Andrés and in the Liceo
// del Elqui, with a child in each and app messages from both; signing in with it through the API shows both
// schools, her children in two courses and both schools' messages. And `npm start`'s banner tells where.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FAMILIES, DEMO_SCHOOLS } from '../../shared/demo';
import type { FamilyChild, FamilyInboxPage, FamilySession } from '../../shared/family-contract';
import type { Db } from '../../server/db/client';
import { familiesBanner, simulatorSmsDir } from '../../server/demo-banner';
import { generateSeed } from '../../server/seed/generate';
import { capturedSms, codeSentTo, serveWithCapturedSms } from './support/app-sms';
import { rows } from './support/compose';

const { sent: sms, delivery } = capturedSms();
const phone = DEMO_FAMILIES[0]!.phone;

let db: Db;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, url, close } = await serveWithCapturedSms(delivery));
});

afterAll(async () => close());

function api(pathname: string, init: RequestInit & { token?: string; json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set('Content-Type', 'application/json');
  return fetch(`${url}/api/app${pathname}`, { ...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json) });
}

describe('the demo family in the seed', () => {
  it('is one person with the demo phone in San Andrés and the Elqui, a child in a course of each, app messages from both', async () => {
    const found = await rows<{ school: string; name: string; dni: string | null; courses: number; app: number }>(
      db,
      sql`select i.name as school, g.first_names || ' ' || g.last_name_father || ' ' || g.last_name_mother as name, g.dni,
            (select count(distinct s.course_id)::int from student_guardians sg join students s on s.id = sg.student_id
              where sg.guardian_id = g.id) as courses,
            (select count(*)::int from deliveries d where d.channel = 'app-mobile' and d.address = 'guardian:' || g.id
              and d.status in ('sent', 'received', 'read')) as app
          from guardians g join institutions i on i.id = g.institution_id where g.phone = ${phone} order by g.id`,
    );
    expect(found.map((f) => f.school)).toEqual([DEMO_SCHOOLS.sanAndres, DEMO_SCHOOLS.elqui]);
    expect(new Set(found.map((f) => f.name)).size).toBe(1);
    expect(new Set(found.map((f) => f.dni)).size).toBe(1);
    for (const f of found) {
      expect(f.courses, f.school).toBeGreaterThanOrEqual(1);
      expect(f.app, f.school).toBeGreaterThan(0);
    }
  });

  it('signs in with the demo phone and shows both schools, the children in two courses and both schools’ messages', async () => {
    expect((await api('/session/code', { method: 'POST', json: { phone } })).status).toBe(202);
    const res = await api('/session', { method: 'POST', json: { phone, code: codeSentTo(sms, phone) } });
    expect(res.status).toBe(200);
    const session = ((await res.json()) as { data: FamilySession }).data;
    expect(session.guardian.schools.map((s) => s.name).sort()).toEqual([DEMO_SCHOOLS.sanAndres, DEMO_SCHOOLS.elqui].sort());
    const children = ((await (await api('/children', { token: session.token })).json()) as { data: FamilyChild[] }).data;
    expect(new Set(children.map((c) => c.school_name))).toEqual(new Set([DEMO_SCHOOLS.sanAndres, DEMO_SCHOOLS.elqui]));
    expect(new Set(children.map((c) => `${c.school_name}/${c.course_name}`)).size).toBeGreaterThanOrEqual(2);
    const inboxPage = async (page: number) =>
      (await (await api(`/messages?page=${page}`, { token: session.token })).json()) as FamilyInboxPage;
    const schools = new Set<string>();
    const unread: number[] = [];
    const first = await inboxPage(1);
    expect(first.meta.total).toBeGreaterThan(0);
    for (let page = 1; page <= first.meta.last_page; page++) {
      for (const m of (await inboxPage(page)).data) {
        schools.add(m.school_name);
        if (!m.read) unread.push(m.id);
      }
    }
    expect(schools).toEqual(new Set([DEMO_SCHOOLS.sanAndres, DEMO_SCHOOLS.elqui]));
    // The badge's count is the whole inbox's unread, whichever page is asked; reading one takes one off.
    expect(unread.length).toBeGreaterThan(0);
    expect(first.meta.unread).toBe(unread.length);
    expect((await inboxPage(first.meta.last_page)).meta.unread).toBe(unread.length);
    expect((await api(`/messages/${unread.at(-1)}/read`, { method: 'POST', token: session.token })).status).toBe(200);
    expect((await inboxPage(1)).meta.unread).toBe(unread.length - 1);
  });

  it('gives the demo phone to the same two schools whatever the seed’s clock', () => {
    for (const now of [new Date('2026-03-02T12:00:00Z'), new Date('2026-10-15T09:00:00Z')]) {
      const data = generateSeed({ now });
      const schools = data.guardians.filter((g) => g.phone === phone).map((g) => data.institutions[g.institutionId - 1]!.name);
      expect(schools).toEqual([DEMO_SCHOOLS.sanAndres, DEMO_SCHOOLS.elqui]);
    }
  });
});

describe('the families’ part of the banner', () => {
  it('prints /familia, the demo phone, and the simulator’s folder when SMS has no provider', () => {
    const lines = familiesBanner('http://localhost:3000', { outboxDir: './data/outbox' }).join('\n');
    expect(lines).toContain('http://localhost:3000/familia');
    expect(lines).toContain('+56 9 9555 0123');
    expect(lines).toContain(path.resolve('data/outbox/sim'));
    expect(lines).toContain('npm run sim:reply -- <teléfono> "<texto>"');
    expect(simulatorSmsDir('/tmp/outbox')).toBe('/tmp/outbox/sim');
  });

  it('never points at the outbox with a real SMS provider', () => {
    const lines = familiesBanner('http://h', { outboxDir: './data/outbox', smsProvider: { url: 'https://sms', token: 't' } }).join('\n');
    expect(lines).not.toContain('outbox');
    expect(lines).not.toContain('sim:reply');
    expect(lines).toContain('+56 9 9555 0123');
  });
});
