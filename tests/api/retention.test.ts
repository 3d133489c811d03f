// Per-school retention (server/retention/): the settings API, and the sweep removing exactly what is past
// each school's periods (a day before the limit goes, a day after stays), with their files, while the data
// screens' roll-up keeps the old period's figures; once across two processes.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/contract';
import { DASHBOARD_API } from '../../shared/dashboard-contract';
import { RETENTION_DEFAULTS, type RetentionKind, type RetentionSettings } from '../../shared/retention-contract';
import { startPeriodic } from '../../server/db/periodic';
import { createLogger } from '../../server/log';
import { monthsBefore, RETENTION_JOB } from '../../server/retention/settings';
import { sweepRetention } from '../../server/retention/sweep';
import { AttachmentStore } from '../../server/storage/attachments';
import { count, one, rows } from './support/compose';
import { onPostgres } from './support/pg';
import { openSharedCopy, signedIn, startServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});
const as = signedIn(() => server);
const DAY = 24 * 3600_000;

const put = async (email: string, body: unknown) =>
  (await as(email)).fetch('/api/retention', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const schoolOf = async (email: string) =>
  Number((await one<{ id: number }>(server.db, sql`select institution_id as id from users where email = ${email}`)).id);
const ALL_12: Record<RetentionKind, number> = { mensajes: 12, respuestas: 12, entregas: 12, adjuntos: 12, recibidos: 12, auditoria: 12 };

describe('GET and PUT /api/retention', () => {
  it('is 401 signed out and 403 for a teacher', async () => {
    expect((await server.client().get('/api/retention')).status).toBe(401);
    const teacher = await (await as('docente@sanandres.cl')).get('/api/retention');
    expect(teacher.status).toBe(403);
    expect(((await teacher.json()) as ApiError).message).toBe(
      'Solo la dirección y los administradores del colegio pueden ver y cambiar cuánto tiempo se guardan los datos.',
    );
    expect((await put('docente@sanandres.cl', { periodos: ALL_12 })).status).toBe(403);
  });

  it('answers the defaults and the next sweep, now', async () => {
    const before = Date.now();
    const res = await (await as('administrador@benitojuarez.edu.mx')).get('/api/retention');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: RetentionSettings };
    expect(data.periodos).toEqual(RETENTION_DEFAULTS);
    expect(data.personalizados).toBe(false);
    const at = new Date(data.proxima.fecha);
    expect(at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(data.proxima.tipos.mensajes.anteriores_a).toBe(monthsBefore(at, 60).toISOString());
    expect(data.proxima.tipos.auditoria.anteriores_a).toBe(monthsBefore(at, 24).toISOString());
  });

  it('refuses bad periods with Spanish field messages and changes nothing', async () => {
    const school = await schoolOf('administrador@liceoelqui.cl');
    const res = await put('administrador@liceoelqui.cl', {
      periodos: { mensajes: 24, respuestas: 36, entregas: 6, adjuntos: 121, recibidos: '24', auditoria: 12.5, otros: 12 },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({
      'periodos.otros': ['Este tipo de dato no existe.'],
      'periodos.entregas': ['Debe ser de al menos 12 meses: el año escolar en curso se guarda siempre completo.'],
      'periodos.adjuntos': ['No puede pasar de 120 meses (10 años).'],
      'periodos.recibidos': ['Indica un número entero de meses.'],
      'periodos.auditoria': ['Indica un número entero de meses.'],
      'periodos.respuestas': ['Las respuestas no pueden guardarse más tiempo que los mensajes a los que responden.'],
    });
    expect(((await (await put('administrador@liceoelqui.cl', {})).json()) as ApiError).errors).toEqual({
      periodos: ['Indica cuántos meses se guarda cada tipo de dato.'],
    });
    expect(await count(server.db, sql`select count(*) as n from retention_settings where institution_id = ${school}`)).toBe(0);
    expect(await count(server.db, sql`select count(*) as n from audit_events where action = 'retention.changed'`)).toBe(0);
  });

  it('refuses a reply’s parts kept longer than the reply, which would go with it before their date', async () => {
    const school = await schoolOf('administrador@sanandres.cl');
    const res = await put('administrador@sanandres.cl', {
      periodos: { mensajes: 36, respuestas: 12, entregas: 24, adjuntos: 24, recibidos: 24, auditoria: 12 },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({
      'periodos.entregas': [
        'Las entregas no pueden guardarse más tiempo que las respuestas: al eliminar una respuesta se eliminan también sus entregas.',
      ],
      'periodos.adjuntos': [
        'Los adjuntos no pueden guardarse más tiempo que las respuestas: al eliminar una respuesta se eliminan también sus adjuntos.',
      ],
      'periodos.recibidos': [
        'Los SMS y WhatsApp recibidos no pueden guardarse más tiempo que las respuestas: cada uno se guarda como una respuesta y se elimina con ella.',
      ],
    });
    expect(await count(server.db, sql`select count(*) as n from retention_settings where institution_id = ${school}`)).toBe(0);
  });

  it('changes every period and writes retention.changed with who and which', async () => {
    const school = await schoolOf('administrador@liceoelqui.cl');
    const periodos = { ...RETENTION_DEFAULTS, entregas: 36, auditoria: 36 };
    const res = await put('administrador@liceoelqui.cl', { periodos });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: RetentionSettings };
    expect(data).toMatchObject({ periodos, personalizados: true });
    const [entry] = await rows<{
      actor_user_id: number;
      subject_kind: string;
      subject_id: number;
      detail: Record<string, unknown>;
      ip: string;
    }>(
      server.db,
      sql`select actor_user_id, subject_kind, subject_id, detail, ip from audit_events where action = 'retention.changed' and institution_id = ${school}`,
    );
    expect(entry).toMatchObject({
      subject_kind: 'colegio',
      subject_id: school,
      detail: { campos: ['entregas', 'auditoria'], entregas: 36 },
    });
    expect(entry!.actor_user_id).toBe(
      Number((await one<{ id: number }>(server.db, sql`select id from users where email = 'administrador@liceoelqui.cl'`)).id),
    );
    expect(entry!.ip).toBeTruthy();
  });
});

describe('the sweep', () => {
  type Snapshot = Record<string, string>;
  /** The data screens' roll-up of a school, whole. */
  const rollupOf = async (school: number): Promise<Snapshot> => {
    const out: Snapshot = {};
    for (const table of ['activity_days', 'activity_reach', 'activity_guardians', 'activity_authors']) {
      const all = await rows<Record<string, unknown>>(
        server.db,
        sql`select * from ${sql.identifier(table)} where institution_id = ${school}`,
      );
      out[table] = JSON.stringify(all.map((r) => JSON.stringify(r)).sort());
    }
    return out;
  };

  /** Dates a staff message, a reply, an attachment (with its file), an inbound text and an audit entry of `school` at `at`. */
  async function plant(school: number, at: Date, tag: string, store: AttachmentStore) {
    const iso = at.toISOString();
    const [message] = await rows<{ id: number }>(
      server.db,
      sql`select m.id from messages m where m.institution_id = ${school} and m.sender_kind = 'funcionario' and m.kind = 'sent'
            and exists (select 1 from deliveries d where d.message_id = m.id)
            and not exists (select 1 from messages x where x.reply_to_id = m.id)
            and m.sent_at > now() - interval '11 months'
          order by m.id limit 1 offset ${tag === 'past' ? 0 : 1}`,
    );
    const [reply] = await rows<{ id: number }>(
      server.db,
      sql`select id from messages where institution_id = ${school} and sender_kind <> 'funcionario' and sent_at > now() - interval '11 months'
          order by id limit 1 offset ${tag === 'past' ? 0 : 1}`,
    );
    const messageId = Number(message!.id);
    const replyId = Number(reply!.id);
    await server.db.execute(
      sql`update messages set sent_at = ${iso}::timestamptz, updated_at = ${iso}::timestamptz where id in (${messageId}, ${replyId})`,
    );
    const key = `retention/${school}-${tag}.pdf`;
    mkdirSync(path.dirname(store.pathOf(key)), { recursive: true });
    writeFileSync(store.pathOf(key), 'pdf');
    await server.db.execute(sql`insert into message_attachments (message_id, institution_id, name, size, content_type, storage_key)
      values (${messageId}, ${school}, 'circular.pdf', 3, 'application/pdf', ${key})`);
    const [inbound] = await rows<{ id: number }>(
      server.db,
      sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, outcome)
          values ('sms', '+56911111111', 'prueba', ${key}, ${iso}::timestamptz, 'Gracias', 'school_inbox') returning id`,
    );
    await server.db.execute(
      sql`insert into inbound_message_targets (inbound_id, message_id, institution_id) values (${inbound!.id}, ${replyId}, ${school})`,
    );
    const [audit] = await rows<{ id: number }>(
      server.db,
      sql`insert into audit_events (institution_id, at, action) values (${school}, ${iso}::timestamptz, 'session.signed_in') returning id`,
    );
    return { messageId, replyId, key, inboundId: Number(inbound!.id), auditId: Number(audit!.id) };
  }

  it('removes exactly what is past each school’s periods, keeps the figures, and matches its preview', async () => {
    const store = new AttachmentStore(server.attachmentsDir);
    const sanAndres = await schoolOf('administrador@sanandres.cl');
    const elqui = await schoolOf('administrador@liceoelqui.cl');
    expect((await put('administrador@sanandres.cl', { periodos: ALL_12 })).status).toBe(200);
    const now = new Date();
    const limit = monthsBefore(now, 12);
    const past = await plant(sanAndres, new Date(limit.getTime() - DAY), 'past', store);
    const kept = await plant(sanAndres, new Date(limit.getTime() + DAY), 'kept', store);
    // Thirteen months old in a school that keeps them longer (24 to 60 months): all of it stays.
    const other = await plant(elqui, new Date(limit.getTime() - DAY), 'past', store);

    const rollupBefore = await rollupOf(sanAndres);
    // What the data screens answer for the removed messages' school year, before and after.
    const year = new Date(limit.getTime() - DAY).getUTCFullYear();
    const screens = async () => {
      const admin = await as('administrador@sanandres.cl');
      return Promise.all(
        [
          `${DASHBOARD_API.summary}?year=${year}`,
          `${DASHBOARD_API.users}?period=school-year&year=${year}`,
          `${DASHBOARD_API.rankingUsers}?period=school-year&year=${year}`,
        ].map(async (p) => {
          const res = await admin.get(`/api${p}`);
          expect(res.status, p).toBe(200);
          return res.text();
        }),
      );
    };
    const screensBefore = await screens();
    const preview = ((await (await (await as('administrador@sanandres.cl')).get('/api/retention')).json()) as { data: RetentionSettings })
      .data.proxima;
    const deliveriesPast = await count(
      server.db,
      sql`select count(*) as n from deliveries where message_id in (${past.messageId}, ${past.replyId})`,
    );
    expect(deliveriesPast).toBeGreaterThan(0);

    // The seed's previous school year is past 12 months: thousands of rows, so several batches of 500 each.
    const outcome = await sweepRetention(server.db, store, now);
    const removed = outcome.schools.find((s) => s.institutionId === sanAndres)!.removed;
    for (const kind of Object.keys(removed) as RetentionKind[]) expect(removed[kind], kind).toBe(preview.tipos[kind].cantidad);
    expect(removed.mensajes).toBeGreaterThanOrEqual(1);
    expect(removed.respuestas).toBeGreaterThanOrEqual(1);
    expect(removed.adjuntos).toBeGreaterThanOrEqual(1);
    expect(removed.entregas).toBeGreaterThanOrEqual(deliveriesPast);
    expect(removed.entregas).toBeGreaterThan(500);
    expect(removed.recibidos).toBeGreaterThanOrEqual(1);
    expect(removed.auditoria).toBeGreaterThanOrEqual(1);

    const exists = async (table: string, id: number) =>
      (await count(server.db, sql`select count(*) as n from ${sql.identifier(table)} where id = ${id}`)) === 1;
    for (const [set, present] of [
      [past, false],
      [kept, true],
      [other, true],
    ] as const) {
      expect(await exists('messages', set.messageId)).toBe(present);
      expect(await exists('messages', set.replyId)).toBe(present);
      expect(await exists('audit_events', set.auditId)).toBe(present);
      expect(existsSync(store.pathOf(set.key))).toBe(present);
      expect(await count(server.db, sql`select count(*) as n from inbound_message_targets where inbound_id = ${set.inboundId}`)).toBe(
        present ? 1 : 0,
      );
    }
    // The text no school holds any more stays until the longest inbound period of any school.
    expect(await exists('inbound_messages', past.inboundId)).toBe(true);
    for (const table of ['message_recipients', 'deliveries', 'mailbox_entries', 'message_attachments'])
      expect(
        await count(
          server.db,
          sql`select count(*) as n from ${sql.identifier(table)} where message_id in (${past.messageId}, ${past.replyId})`,
        ),
      ).toBe(0);
    expect(await rollupOf(sanAndres)).toEqual(rollupBefore);
    expect(await screens()).toEqual(screensBefore);

    const [applied] = await rows<{ detail: Record<string, number>; actor_user_id: number | null; ip: string | null }>(
      server.db,
      sql`select detail, actor_user_id, ip from audit_events where action = 'retention.applied' and institution_id = ${sanAndres}`,
    );
    expect(applied).toMatchObject({ actor_user_id: null, ip: null, detail: { ...removed, fecha: now.toISOString() } });
    expect(
      await count(server.db, sql`select count(*) as n from audit_events where action = 'retention.applied' and institution_id is not null`),
    ).toBe(outcome.schools.length);

    // A second sweep at the same moment finds nothing more.
    const again = await sweepRetention(server.db, store, now);
    expect(Object.values(again.schools.find((s) => s.institutionId === sanAndres)!.removed).every((n) => n === 0)).toBe(true);
  }, 120_000);

  it('with a different period per kind, removes what its preview counts for every kind', async () => {
    const store = new AttachmentStore(server.attachmentsDir);
    const elqui = await schoolOf('administrador@liceoelqui.cl');
    const periodos = { mensajes: 36, respuestas: 24, entregas: 12, adjuntos: 18, recibidos: 12, auditoria: 12 };
    expect((await put('administrador@liceoelqui.cl', { periodos })).status).toBe(200);
    // Twenty months old: its deliveries (12), files (18), text (12) and log entry (12) go; the message (36) and the reply (24) stay.
    const planted = await plant(elqui, new Date(monthsBefore(new Date(), 20).getTime() - DAY), 'kept', store);
    // The previous test's year and a day: the files (18) stay too.
    const thirteen = await rows<{ id: number; key: string }>(
      server.db,
      sql`select a.message_id as id, a.storage_key as key from message_attachments a where a.storage_key = ${`retention/${elqui}-past.pdf`}`,
    );
    expect(thirteen).toHaveLength(1);
    // The preview at the sweep's moment, with everything planted.
    const again = ((await (await (await as('administrador@liceoelqui.cl')).get('/api/retention')).json()) as { data: RetentionSettings })
      .data.proxima;

    const removed = (await sweepRetention(server.db, store, new Date(again.fecha))).schools.find((s) => s.institutionId === elqui)!.removed;
    for (const kind of Object.keys(removed) as RetentionKind[]) expect(removed[kind], kind).toBe(again.tipos[kind].cantidad);
    expect(removed.entregas).toBeGreaterThan(0);
    expect(removed.adjuntos).toBeGreaterThanOrEqual(1);
    expect(removed.recibidos).toBeGreaterThanOrEqual(1);
    expect(removed.auditoria).toBeGreaterThanOrEqual(1);

    const has = async (query: ReturnType<typeof sql>) => (await count(server.db, query)) > 0;
    expect(await count(server.db, sql`select count(*) as n from messages where id in (${planted.messageId}, ${planted.replyId})`)).toBe(2);
    expect(await has(sql`select count(*) as n from deliveries where message_id in (${planted.messageId}, ${planted.replyId})`)).toBe(false);
    expect(await has(sql`select count(*) as n from message_attachments where message_id = ${planted.messageId}`)).toBe(false);
    expect(existsSync(store.pathOf(planted.key))).toBe(false);
    expect(await has(sql`select count(*) as n from inbound_message_targets where inbound_id = ${planted.inboundId}`)).toBe(false);
    expect(await has(sql`select count(*) as n from audit_events where id = ${planted.auditId}`)).toBe(false);
    expect(await has(sql`select count(*) as n from message_attachments where message_id = ${thirteen[0]!.id}`)).toBe(true);
    expect(existsSync(store.pathOf(thirteen[0]!.key))).toBe(true);
  }, 120_000);

  // Two connections: PGlite has one, so nothing can change a row between the sweep's choice and its delete there.
  it.skipIf(!onPostgres)(
    'keeps a row that stops being past retention mid-batch, without waiting',
    async () => {
      const store = new AttachmentStore(server.attachmentsDir);
      const school = await schoolOf('administrador@benitojuarez.edu.mx');
      const now = new Date();
      const old = new Date(monthsBefore(now, 60).getTime() - DAY).toISOString();
      const picked = await rows<{ id: number }>(
        server.db,
        sql`select m.id from messages m where m.institution_id = ${school} and m.sender_kind = 'funcionario' and m.kind = 'sent'
            and m.reply_to_id is null and not exists (select 1 from messages x where x.reply_to_id = m.id)
          order by m.id limit 2`,
      );
      const [moved, stays] = picked.map((r) => Number(r.id)) as [number, number];
      await server.db.execute(sql`update messages set sent_at = ${old}::timestamptz where id in (${moved}, ${stays})`);
      let sweep: Promise<unknown> | undefined;
      // The message's date moves to today in a transaction still open while the sweep runs.
      await server.db.transaction(async (tx) => {
        await tx.execute(sql`update messages set sent_at = now() where id = ${moved}`);
        sweep = sweepRetention(server.db, store, now);
        await Promise.race([sweep, new Promise((resolve) => setTimeout(resolve, 3000))]);
      });
      await sweep;
      expect(await count(server.db, sql`select count(*) as n from messages where id = ${moved}`)).toBe(1);
      expect(await count(server.db, sql`select count(*) as n from messages where id = ${stays}`)).toBe(0);
    },
    120_000,
  );

  it('removes opt-out events and inbound texts of no school past the longest period, never the current opt-out', async () => {
    const store = new AttachmentStore(server.attachmentsDir);
    const now = new Date();
    const old = new Date(monthsBefore(now, 120).getTime() - DAY).toISOString();
    await server.db.execute(
      sql`insert into channel_opt_outs (channel, phone, opted_out_at) values ('sms', '+56922222222', ${old}::timestamptz)`,
    );
    const [current] = await rows<{ id: number }>(
      server.db,
      sql`insert into channel_opt_out_events (channel, phone, kind, body, provider, provider_id, at)
          values ('sms', '+56922222222', 'out', 'BAJA', 'prueba', 'r-1', ${old}::timestamptz) returning id`,
    );
    const [gone] = await rows<{ id: number }>(
      server.db,
      sql`insert into channel_opt_out_events (channel, phone, kind, body, provider, provider_id, at)
          values ('sms', '+56933333333', 'in', 'ALTA', 'prueba', 'r-2', ${old}::timestamptz) returning id`,
    );
    const [orphan] = await rows<{ id: number }>(
      server.db,
      sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, outcome)
          values ('sms', '+56933333333', 'prueba', 'r-3', ${old}::timestamptz, 'BAJA', 'opt_out') returning id`,
    );
    const outcome = await sweepRetention(server.db, store, now);
    expect(outcome.optOutEvents).toBeGreaterThanOrEqual(1);
    expect(outcome.inbound).toBeGreaterThanOrEqual(1);
    expect(await count(server.db, sql`select count(*) as n from channel_opt_out_events where id = ${current!.id}`)).toBe(1);
    expect(await count(server.db, sql`select count(*) as n from channel_opt_out_events where id = ${gone!.id}`)).toBe(0);
    expect(await count(server.db, sql`select count(*) as n from inbound_messages where id = ${orphan!.id}`)).toBe(0);
  });

  it('audit entries cannot be deleted outside the sweep', async () => {
    await expect(server.db.execute(sql`delete from audit_events where action = 'retention.applied'`)).rejects.toThrow();
  });
});

describe('the daily job across processes', () => {
  let shared: Awaited<ReturnType<typeof openSharedCopy>>;
  beforeAll(async () => {
    shared = await openSharedCopy();
  });
  afterAll(async () => {
    await shared?.dispose();
  });

  it('two processes ticking it run it once: one retention.applied per school', async () => {
    const logger = createLogger('silent');
    const store = new AttachmentStore(shared.copy.attachmentsDir);
    const timers = shared.dbs.map((db) =>
      startPeriodic({ db, logger, name: RETENTION_JOB, label: 'prueba', everyMs: 3600_000, run: () => sweepRetention(db, store) }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const t of timers) t.stop();
    const schools = await count(shared.dbs[0], sql`select count(*) as n from institutions`);
    expect(
      await count(
        shared.dbs[0],
        sql`select count(*) as n from audit_events where action = 'retention.applied' and institution_id is not null`,
      ),
    ).toBe(schools);
  });
});
