// A person's right of access against the real server (shared/privacy-contract.ts): the administrators find
// the person a request names by each key (a name without accents, a RUT without dots, a phone as written, an
// e-mail), see everything held about a guardian who received messages, replied with a file, has an app
// session and an opt-out, and download it as a ZIP with its summary, JSON and CSVs; both are written to the
// audit log. A teacher is refused, another school's person is no one.
import { sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_API, PRIVACY_SECTIONS, type PrivacyInventory, type PrivacySearch } from '../../shared/privacy-contract';
import { PrivacyInventoryDataStruct, PrivacySearchStruct } from '../../shared/privacy-structs';
import { rowsOf } from '../../server/db/sql';
import { minuteIn } from '../../server/db/time';
import { exportSchoolOf, exportStream } from '../../server/privacy/export';
import { identityOf, inventoryOf } from '../../server/privacy/inventory';
import { AttachmentStore } from '../../server/storage/attachments';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

let server: TestServer;
const as = signedIn(() => server);
const ADMIN = 'administrador@sanandres.cl';
const TEACHER = 'docente@sanandres.cl';
const ELQUI_ADMIN = 'administrador@liceoelqui.cl';

const all = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => rowsOf<T>(await server.db.execute(query));
async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const [row] = await all<T>(query);
  if (!row) throw new Error('sin fila');
  return row;
}

interface Guardian {
  id: number;
  institution_id: number;
  first_names: string;
  last_name_father: string;
  dni: string;
  phone: string;
  email: string;
  received: number;
}
let guardian: Guardian;
let reply = 0;
const FILE = new TextEncoder().encode('certificado médico de prueba');

async function search(client: Client, q: string): Promise<PrivacySearch['data']> {
  const res = await client.get(`${PRIVACY_API.people}?${new URLSearchParams({ q })}`);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await res.json();
  expect(is(body, PrivacySearchStruct)).toBe(true);
  return (body as PrivacySearch).data;
}
const auditOf = (action: string) =>
  all<{ actor_user_id: number; subject_kind: string; subject_id: number; detail: unknown }>(
    sql`select actor_user_id, subject_kind, subject_id, detail from audit_events where action = ${action} order by id`,
  );

beforeAll(async () => {
  server = await startServer();
  // The San Andrés guardian with the most messages received who has a RUT, a phone and an e-mail.
  guardian = await one<Guardian>(sql`
    select g.id, g.institution_id, g.first_names, g.last_name_father, g.dni, g.phone, g.email,
      (select count(*)::int from message_recipients mr where mr.recipient_kind = 'apoderado' and mr.recipient_ref_id = g.id) as received
    from guardians g join institutions i on i.id = g.institution_id
    where i.name = 'Colegio San Andrés de Ñuñoa' and g.dni is not null and g.phone is not null and g.email is not null
    order by received desc, g.id limit 1`);
  const inst = guardian.institution_id;
  const [original] = await all<{ id: number }>(sql`select mr.message_id as id from message_recipients mr
    where mr.recipient_kind = 'apoderado' and mr.recipient_ref_id = ${guardian.id} order by mr.message_id limit 1`);
  // A reply with a file, an app session, an opt-out with its word, a corrected e-mail.
  const [written] = await all<{ id: number }>(sql`insert into messages (institution_id, sender_kind, sender_ref_id, sender_name, title,
      content, kind, sent_at, reply_to_id, search)
    values (${inst}, 'apoderado', ${guardian.id}, 'x', 'Re: reunión', 'Confirmo asistencia', 'sent', now(), ${original?.id ?? null}, 're reunion')
    returning id`);
  reply = written!.id;
  await server.db.execute(sql`insert into message_attachments (message_id, institution_id, name, size, content_type, content)
    values (${reply}, ${inst}, 'certificado.txt', ${FILE.length}, 'text/plain', ${Buffer.from(FILE)})`);
  await server.db.execute(sql`insert into app_tokens (institution_id, person_kind, person_id, phone, token_hash, expires_at)
    values (${inst}, 'apoderado', ${guardian.id}, ${guardian.phone}, 'privacy-test-token', now() + interval '30 days')`);
  await server.db.execute(sql`insert into channel_opt_outs (channel, phone, opted_out_at) values ('sms', ${guardian.phone}, now())
    on conflict do nothing`);
  await server.db.execute(sql`insert into channel_opt_out_events (channel, phone, kind, body, provider, provider_id, at)
    values ('sms', ${guardian.phone}, 'out', 'BAJA', 'sim', 'privacy-test-1', now())`);
  await server.db.execute(sql`insert into contact_changes (institution_id, person_kind, person_id, field, old_value, new_value)
    values (${inst}, 'apoderado', ${guardian.id}, 'email', 'antes@ejemplo.cl', ${guardian.email})`);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('finding the person a request names', () => {
  it('finds the guardian by a name without accents or capitals', async () => {
    const q = `${guardian.first_names.split(' ')[0]} ${guardian.last_name_father}`
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toUpperCase();
    const found = await search(await as(ADMIN), q);
    expect(found).toContainEqual(expect.objectContaining({ kind: 'apoderado', id: guardian.id, dni: guardian.dni }));
    expect(found.find((p) => p.id === guardian.id && p.kind === 'apoderado')?.hint).toBeTruthy();
  });

  it('finds them by RUT with or without dots and dash', async () => {
    const bare = guardian.dni.replace(/[^0-9kK]/g, '');
    for (const q of [guardian.dni, bare]) {
      expect(await search(await as(ADMIN), q)).toContainEqual(expect.objectContaining({ kind: 'apoderado', id: guardian.id }));
    }
  });

  it('finds them by phone as written: E.164, national with spaces, its digits', async () => {
    const national = guardian.phone.replace(/^\+56/, '');
    const spaced = `${national.slice(0, 1)} ${national.slice(1, 5)} ${national.slice(5)}`;
    for (const q of [guardian.phone, spaced, `+56 ${spaced}`]) {
      expect(await search(await as(ADMIN), q), q).toContainEqual(expect.objectContaining({ kind: 'apoderado', id: guardian.id }));
    }
  });

  it('finds them by e-mail, any case', async () => {
    expect(await search(await as(ADMIN), guardian.email.toUpperCase())).toContainEqual(
      expect.objectContaining({ kind: 'apoderado', id: guardian.id }),
    );
  });

  it('finds colleagues and students too, with their position or course', async () => {
    const found = await search(await as(ADMIN), 'a');
    expect(found).toEqual([]);
    const staff = await one<{ id: number; name: string }>(sql`select id, first_names || ' ' || last_name_father as name from staff
      where institution_id = ${guardian.institution_id} and position_id is not null order by id limit 1`);
    const colleague = (await search(await as(ADMIN), staff.name)).find((p) => p.kind === 'funcionario' && p.id === staff.id);
    expect(colleague?.hint).toBeTruthy();
    const student = await one<{
      id: number;
      dni: string;
    }>(sql`select s.id, s.dni from students s join student_guardians sg on sg.student_id = s.id
      where sg.guardian_id = ${guardian.id} and s.dni is not null limit 1`);
    expect(await search(await as(ADMIN), student.dni)).toContainEqual(expect.objectContaining({ kind: 'estudiante', id: student.id }));
  });

  it('writes each search that showed someone as a bulk view: how many, never the words asked', async () => {
    const before = (await auditOf('person.contacts_viewed')).length;
    await search(await as(ADMIN), guardian.email);
    const entries = await auditOf('person.contacts_viewed');
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)?.detail).toEqual({ view: 'privacy_search', people: 1 });
    expect(JSON.stringify(entries)).not.toContain(guardian.email);
    await search(await as(ADMIN), 'zzzz-nadie-zzzz');
    expect(await auditOf('person.contacts_viewed')).toHaveLength(before + 1);
  });

  it('never answers another school’s people', async () => {
    expect((await search(await as(ELQUI_ADMIN), guardian.dni)).filter((p) => p.id === guardian.id && p.kind === 'apoderado')).toEqual([]);
  });
});

describe('everything held about a guardian', () => {
  let inventory: PrivacyInventory;
  beforeAll(async () => {
    const res = await (await as(ADMIN)).get(PRIVACY_API.person('apoderado', guardian.id));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(is(body, PrivacyInventoryDataStruct)).toBe(true);
    inventory = (body as { data: PrivacyInventory }).data;
  });

  it('names them and lists every section', async () => {
    expect(inventory.person).toMatchObject({
      kind: 'apoderado',
      id: guardian.id,
      dni: guardian.dni,
      phone: guardian.phone,
      email: guardian.email,
    });
    expect(Object.keys(inventory.sections).sort()).toEqual([...PRIVACY_SECTIONS].sort());
  });

  it('holds what they received, its deliveries, what they wrote, their session, opt-out and history', async () => {
    const s = inventory.sections;
    expect(guardian.received).toBeGreaterThan(0);
    expect(s.mensajes_recibidos).toHaveLength(guardian.received);
    const deliveries = await one<{
      n: number;
    }>(sql`select count(*)::int as n from deliveries d join message_recipients mr on mr.id = d.recipient_id
      where mr.recipient_kind = 'apoderado' and mr.recipient_ref_id = ${guardian.id}`);
    expect(s.entregas).toHaveLength(deliveries.n);
    expect(s.mensajes_escritos).toContainEqual(expect.objectContaining({ mensaje_id: reply, texto: 'Confirmo asistencia' }));
    expect(s.adjuntos).toContainEqual(expect.objectContaining({ mensaje_id: reply, nombre: 'certificado.txt' }));
    expect(s.sesiones_app.length).toBeGreaterThan(0);
    expect(s.bajas_canal).toContainEqual(expect.objectContaining({ canal: 'sms' }));
    expect(s.eventos_baja).toContainEqual(expect.objectContaining({ canal: 'sms', tipo: 'out', texto: 'BAJA' }));
    expect(s.cambios_contacto).toContainEqual(expect.objectContaining({ campo: 'email', antes: 'antes@ejemplo.cl' }));
    expect(s.vinculos.length).toBeGreaterThan(0);
    // Their session's secret is never shown.
    expect(JSON.stringify(inventory)).not.toContain('privacy-test-token');
  });

  it('is written to the audit log with ids only', async () => {
    const entries = await auditOf('person.data_viewed');
    expect(entries.at(-1)).toMatchObject({ subject_kind: 'apoderado', subject_id: guardian.id });
    expect(JSON.stringify(entries)).not.toContain(guardian.dni);
  });
});

describe('the ZIP of it', () => {
  it('unzips into a summary, the JSON, the CSVs and their file', async () => {
    const res = await (await as(ADMIN)).get(PRIVACY_API.exportOf('apoderado', guardian.id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="datos-apoderado-\d+-\d{4}-\d{2}-\d{2}\.zip"/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const summary = strFromU8(files['LEEME.txt']!);
    expect(summary).toContain('Sus datos personales en Hermes');
    expect(summary).toContain(guardian.dni);
    expect(summary).toContain(`Mensajes recibidos (${guardian.received} registro`);
    const json = JSON.parse(strFromU8(files['datos.json']!)) as PrivacyInventory;
    expect(json.person.id).toBe(guardian.id);
    expect(json.sections.mensajes_recibidos).toHaveLength(guardian.received);
    // strFromU8 drops the BOM as TextDecoder does: look at the bytes for it.
    expect([...files['mensajes_recibidos.csv']!.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = strFromU8(files['mensajes_recibidos.csv']!);
    expect(csv.startsWith('"mensaje_id";')).toBe(true);
    expect(csv.trim().split('\r\n')).toHaveLength(guardian.received + 1);
    expect(files['entregas.csv']).toBeDefined();
    const attached = Object.keys(files).find((name) => name.startsWith('adjuntos/'));
    expect(attached).toMatch(/^adjuntos\/\d+-certificado\.txt$/);
    expect(strFromU8(files[attached!]!)).toBe('certificado médico de prueba');
  });

  it('is written to the audit log', async () => {
    const entries = await auditOf('person.exported');
    expect(entries.at(-1)).toMatchObject({ subject_kind: 'apoderado', subject_id: guardian.id });
  });
});

describe('who may ask', () => {
  it('refuses a teacher on every route', async () => {
    const teacher = await as(TEACHER);
    for (const path of [
      `${PRIVACY_API.people}?q=ana`,
      PRIVACY_API.person('apoderado', guardian.id),
      PRIVACY_API.exportOf('apoderado', guardian.id),
    ]) {
      expect((await teacher.get(path)).status, path).toBe(403);
    }
  });

  it('answers 404 for another school’s person, an unknown kind or a bad id', async () => {
    const elqui = await as(ELQUI_ADMIN);
    for (const path of [PRIVACY_API.person('apoderado', guardian.id), PRIVACY_API.exportOf('apoderado', guardian.id)]) {
      expect((await elqui.get(path)).status, path).toBe(404);
    }
    const admin = await as(ADMIN);
    for (const path of ['/api/privacy/people/alumno/1', '/api/privacy/people/apoderado/abc', '/api/privacy/people/apoderado/999999999']) {
      expect((await admin.get(path)).status, path).toBe(404);
    }
  });

  it('refuses a search that is too long', async () => {
    expect((await (await as(ADMIN)).get(`${PRIVACY_API.people}?q=${'a'.repeat(101)}`)).status).toBe(422);
  });
});

// A number two schools' families share: what it wrote to the other school is that school's, never shown here.
describe('a phone shared with another school’s family', () => {
  beforeAll(async () => {
    const elqui = await one<{ id: number }>(sql`select id from institutions where name ilike '%Elqui%' order by id limit 1`);
    const [family] = await all<{
      id: number;
    }>(sql`insert into guardians (institution_id, first_names, last_name_father, last_name_mother, phone)
      values (${elqui.id}, 'Compartido', 'Teléfono', '', ${guardian.phone}) returning id`);
    const [message] = await all<{ id: number }>(sql`insert into messages (institution_id, sender_kind, sender_ref_id, sender_name, title,
        content, kind, sent_at, search)
      values (${elqui.id}, 'apoderado', ${family!.id}, 'x', 'SMS', 'Hola Elqui', 'sent', now(), 'hola elqui') returning id`);
    const [elquiText] = await all<{
      id: number;
    }>(sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, claimed_at, outcome)
      values ('sms', ${guardian.phone}, 'sim', 'privacy-shared-1', now(), 'Hola Elqui', now(), 'school_inbox') returning id`);
    await server.db.execute(sql`insert into inbound_message_targets (inbound_id, message_id, institution_id, guardian_id)
      values (${elquiText!.id}, ${message!.id}, ${elqui.id}, ${family!.id})`);
    // Words no school's message came of (an opt-out) are the number's, so still its owner's here.
    await server.db.execute(sql`insert into inbound_messages (channel, phone, provider, provider_id, received_at, body, claimed_at, outcome)
      values ('sms', ${guardian.phone}, 'sim', 'privacy-shared-2', now(), 'BAJA sin destino', now(), 'opt_out')`);
  });

  it('shows neither on the page nor in the ZIP what the number wrote to the other school', async () => {
    const admin = await as(ADMIN);
    const page = await admin.get(PRIVACY_API.person('apoderado', guardian.id));
    const { data } = (await page.json()) as { data: PrivacyInventory };
    const texts = data.sections.mensajes_entrantes.map((row) => row.texto);
    expect(texts).not.toContain('Hola Elqui');
    expect(texts).toContain('BAJA sin destino');
    const files = unzipSync(new Uint8Array(await (await admin.get(PRIVACY_API.exportOf('apoderado', guardian.id))).arrayBuffer()));
    for (const [name, bytes] of Object.entries(files)) expect(strFromU8(bytes), name).not.toContain('Hola Elqui');
  });
});

// The ZIP is made as it is read: having read its first bytes, the export has not read a large file it holds.
describe('the ZIP as a stream', () => {
  const SIZE = 8 * 1024 * 1024;
  it('reads an attachment only as far as the download has gone', async () => {
    const store = new CountingStore(server.attachmentsDir);
    const key = await store.save(new Uint8Array(SIZE).fill(7));
    await server.db.execute(sql`insert into message_attachments (message_id, institution_id, name, size, content_type, storage_key)
      values (${reply}, ${guardian.institution_id}, 'grande.bin', ${SIZE}, 'application/octet-stream', ${key})`);
    const person = await identityOf(server.db, guardian.institution_id, 'apoderado', guardian.id);
    const inventory = await inventoryOf(server.db, guardian.institution_id, person!);
    const school = await exportSchoolOf(server.db, guardian.institution_id);
    const reader = exportStream(server.db, store, inventory, school).getReader();
    expect((await reader.read()).done).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(store.read).toBeLessThan(SIZE / 8);
    // Read on, the whole file goes through.
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
    }
    expect(store.read).toBe(SIZE);
    expect(total).toBeGreaterThan(SIZE);
  });
});

describe('the summary and the CSVs in the school’s words and time', () => {
  it('gives a Chilean school’s time in its zone', async () => {
    const files = unzipSync(
      new Uint8Array(await (await (await as(ADMIN)).get(PRIVACY_API.exportOf('apoderado', guardian.id))).arrayBuffer()),
    );
    const summary = strFromU8(files['LEEME.txt']!);
    const readAt = new Date((JSON.parse(strFromU8(files['datos.json']!)) as PrivacyInventory).read_at);
    expect(summary).not.toContain('UTC');
    expect(summary).toContain(`a las ${minuteIn(readAt, 'America/Santiago').slice(11)}`);
    expect(summary).toContain('planilla');
    expect(summary).toContain('Apoderado');
  });

  it('speaks a Mexican school’s vocabulary in the summary, section names and CSV headers', async () => {
    const person = await identityOf(server.db, guardian.institution_id, 'apoderado', guardian.id);
    const real = await inventoryOf(server.db, guardian.institution_id, person!);
    // The people's own words (messages, names of courses) are theirs: only Hermes' words are looked at.
    const inventory: PrivacyInventory = {
      ...real,
      person: { ...real.person, name: 'Ana Pérez' },
      sections: Object.fromEntries(
        Object.entries(real.sections).map(([section, rows]) => [
          section,
          rows.map((row) => Object.fromEntries(Object.keys(row).map((key) => [key, 'x']))),
        ]),
      ) as PrivacyInventory['sections'],
    };
    inventory.sections.vinculos = [{ estudiante_id: 'x', nombre: 'x', curso: 'x', rol: 'x', parentesco: 'x' }];
    inventory.sections.mensajes_recibidos = [{ mensaje_id: 1, grupo: 'x', estudiantes: 'x' }];
    inventory.sections.adjuntos = [];
    const school = { name: 'Escuela Benito Juárez', country: 'MX', timezone: 'America/Mexico_City' } as const;
    const files = unzipSync(
      new Uint8Array(
        await new Response(exportStream(server.db, new CountingStore(server.attachmentsDir), inventory, school)).arrayBuffer(),
      ),
    );
    const summary = strFromU8(files['LEEME.txt']!);
    const headers = strFromU8(files['mensajes_recibidos.csv']!).split('\r\n')[0]!;
    for (const text of [summary, headers]) {
      for (const word of [/apoderad/i, /\bcursos?\b/i, /funcionari/i, /\bplanilla\b/i, /\bRUT\b/, /estudiante/i, /colegio/i, /UTC/]) {
        expect(text, String(word)).not.toMatch(word);
      }
    }
    expect(summary).toContain('Padre o tutor');
    expect(summary).toContain('hoja de cálculo');
    expect(summary).toContain('Alumnos o padres o tutores vinculados');
    expect(summary).toContain(`a las ${minuteIn(new Date(inventory.read_at), school.timezone).slice(11)}`);
    expect(headers).toContain('"alumnos"');
  });
});

/** The attachments' store, counting the bytes the export has taken from it. */
class CountingStore extends AttachmentStore {
  read = 0;
  override async open(key: string) {
    const opened = await super.open(key);
    if (!opened) return null;
    const counted = opened.stream.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          this.read += chunk.length;
          controller.enqueue(chunk);
        },
      }),
    );
    return { ...opened, stream: counted };
  }
}
