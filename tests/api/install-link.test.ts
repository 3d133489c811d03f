// The families' app install link against the real server, its delivery engine and the provider simulator:
// the first SMS (or WhatsApp) to a guardian without the app carries "Instala la app: <public URL>/familia"
// where it fits in the one GSM-7 segment, then nothing for a month, then a reminder; an SMS with no room
// goes without it and leaves it due; a guardian with the app never gets it; the connectivity screen counts
// who was sent it and who signed in to the app since.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../server/app-api/tokens';
import { DASHBOARD_API, type Connectivity } from '../../shared/dashboard-contract';
import { smsText } from '../../shared/sms-text';
import { composeInput } from '../fixtures/compose';
import { count, one, rows, send } from './support/compose';
import { type Client, startServer, type TestServer } from './support/server';
import { appInUse } from './support/app-use';
import { eventually } from './support/wait';

const PUBLIC_URL = 'https://hermes.sanandres.cl';
const LINE = `Instala la app: ${PUBLIC_URL}/familia`;

let server: TestServer;
let admin: Client;
let signature: string | null;

beforeAll(async () => {
  server = await startServer({ delivery: true, config: { installLink: true, publicUrl: PUBLIC_URL } });
  admin = server.client();
  expect((await admin.login('administrador@sanandres.cl')).status).toBe(200);
  signature =
    (
      await rows<{ signature: string }>(
        server.db,
        sql`select s.signature from institution_signatures s join users u on u.institution_id = s.institution_id
            where u.email = 'administrador@sanandres.cl' and s.is_active`,
      )
    )[0]?.signature ?? null;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** A San Andrés guardian with a textable phone who never had the app, of none of `skip`. */
async function withoutApp(skip: number[] = []): Promise<number> {
  const g = await one<{ id: number }>(
    server.db,
    sql`select g.id from guardians g join users u on u.institution_id = g.institution_id and u.email = 'administrador@sanandres.cl'
        where g.sms_ok and g.sms_phone = g.phone and g.app_installed_at is null
          and not exists (select 1 from app_tokens t where t.person_kind = 'apoderado' and t.person_id = g.id)
          and not exists (select 1 from push_subscriptions p where p.guardian_id = g.id)
          and not exists (select 1 from app_install_links l where l.guardian_id = g.id)
          and not (g.id = any(${`{${[0, ...skip].join(',')}}`}::int[]))
        order by g.id limit 1`,
  );
  return Number(g.id);
}

/** Sends `content` to one guardian on `channel`, and gives back the text the provider received. */
async function sentText(guardianId: number, channel: 'sms' | 'whatsapp', content: string): Promise<string> {
  const res = await send(
    admin,
    composeInput({ title: 'Aviso', content, channels: [channel], recipients: [{ kind: 'guardian', id: guardianId }] }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  const id = ((await res.json()) as { data: { id: number } }).data.id;
  await eventually(
    'envío entregado al proveedor',
    () =>
      count(
        server.db,
        sql`select count(*)::int as n from deliveries d join provider_sim_messages s on s.reference = 'hermes-' || d.id || '-' || d.generation
            where d.message_id = ${id} and d.channel = ${channel}`,
      ),
    (n) => n === 1,
  );
  return (
    await one<{ body: string }>(
      server.db,
      sql`select s.body from deliveries d join provider_sim_messages s on s.reference = 'hermes-' || d.id || '-' || d.generation
          where d.message_id = ${id} and d.channel = ${channel}`,
    )
  ).body;
}

const linkOf = (guardianId: number) =>
  rows<{ first_sent_at: Date; last_sent_at: Date }>(
    server.db,
    sql`select first_sent_at, last_sent_at from app_install_links where guardian_id = ${guardianId}`,
  );
/** The link noted once the provider took the message (just after the simulator has it). */
const noted = (guardianId: number, after = 0) =>
  eventually(
    'enlace anotado',
    () => linkOf(guardianId),
    (links) => links.length === 1 && new Date(links[0]!.last_sent_at).getTime() > after,
  );

const connectivity = async () =>
  ((await (await admin.get(`/api${DASHBOARD_API.connectivity}`)).json()) as { data: Connectivity }).data.install_link;

describe('the install link', () => {
  it('rides the first SMS where it fits, then waits a month, then reminds once (WhatsApp too)', async () => {
    const before = await connectivity();
    const g = await withoutApp();
    const first = await sentText(g, 'sms', 'Mañana no hay clases.');
    // After the content, before the signature; still one segment, the one the quota was charged.
    expect(first).toBe(smsText(`Mañana no hay clases.\n\n${LINE}`, signature).text);
    expect(smsText(`Mañana no hay clases.\n\n${LINE}`, signature).ok).toBe(true);
    await noted(g);
    expect(await connectivity()).toEqual({ sent: before!.sent + 1, installed: before!.installed });

    expect(await sentText(g, 'sms', 'Recuerden la reunión.')).toBe(smsText('Recuerden la reunión.', signature).text);
    expect(await sentText(g, 'whatsapp', 'Recuerden la reunión.')).not.toContain(LINE);

    await server.db.execute(sql`update app_install_links set last_sent_at = now() - interval '32 days' where guardian_id = ${g}`);
    const reminder = await sentText(g, 'whatsapp', 'Salida pedagógica el viernes.');
    expect(reminder).toContain(`Salida pedagógica el viernes.\n\n${LINE}`);
    const [link] = await noted(g, Date.now() - 60_000);
    expect(Date.now() - new Date(link!.last_sent_at).getTime()).toBeLessThan(60_000);
    // The first time stays the first time: "installed since" counts from it.
    expect(new Date(link!.first_sent_at).getTime()).toBeLessThan(new Date(link!.last_sent_at).getTime());
  });

  it('goes once when several messages reach the guardian together (an SMS and a WhatsApp of one, and another)', async () => {
    const g = await withoutApp();
    const before = Date.now();
    // Sent back to back: the engine loads their deliveries before any of them is handed over.
    const sent = await Promise.all(
      [
        composeInput({
          title: 'Aviso',
          content: 'Reunión el lunes.',
          channels: ['sms', 'whatsapp'],
          recipients: [{ kind: 'guardian', id: g }],
        }),
        composeInput({ title: 'Aviso', content: 'Traer colación.', channels: ['whatsapp'], recipients: [{ kind: 'guardian', id: g }] }),
      ].map(async (input) => {
        const res = await send(admin, input);
        expect(res.status, await res.clone().text()).toBe(201);
        return ((await res.json()) as { data: { id: number } }).data.id;
      }),
    );
    const bodies = await eventually(
      'los tres envíos entregados al proveedor',
      () =>
        rows<{ body: string }>(
          server.db,
          sql`select s.body from deliveries d join provider_sim_messages s on s.reference = 'hermes-' || d.id || '-' || d.generation
              where d.message_id = any(${`{${sent.join(',')}}`}::int[])`,
        ),
      (found) => found.length === 3,
    );
    expect(bodies.filter((b) => b.body.includes(LINE))).toHaveLength(1);
    // Claimed by the database's clock, once.
    const links = await linkOf(g);
    expect(links).toHaveLength(1);
    expect(new Date(links[0]!.first_sent_at).getTime()).toBe(new Date(links[0]!.last_sent_at).getTime());
    expect(Math.abs(new Date(links[0]!.last_sent_at).getTime() - before)).toBeLessThan(60_000);
  });

  it('stays out of an SMS with no room left in its segment, and stays due', async () => {
    const g = await withoutApp();
    const limit = smsText('', signature).limit;
    const full = 'Aviso importante. '
      .repeat(20)
      .slice(0, limit - 10)
      .trim();
    expect(await sentText(g, 'sms', full)).toBe(smsText(full, signature).text);
    expect(await linkOf(g)).toHaveLength(0);
    expect(await sentText(g, 'sms', 'Aviso breve.')).toContain(LINE);
  });

  it('never goes to a guardian reachable through the app', async () => {
    const g = await withoutApp();
    await appInUse(server.db, { guardianIds: [g] });
    expect(await sentText(g, 'sms', 'Aviso para quien tiene la app.')).not.toContain(LINE);
    expect(await linkOf(g)).toHaveLength(0);
  });

  it('counts on the connectivity screen who signed in to the app after it', async () => {
    const g = await withoutApp();
    await sentText(g, 'sms', 'Aviso con enlace.');
    await noted(g);
    const before = (await connectivity())!;
    const { institution_id } = await one<{ institution_id: number }>(server.db, sql`select institution_id from guardians where id = ${g}`);
    await openSession(server.db, { id: g, institutionId: Number(institution_id) }, new Date());
    expect(await connectivity()).toEqual({ sent: before.sent, installed: before.installed + 1 });
  });
});
