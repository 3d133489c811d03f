// What the person page reads of a request answered: the inventory says whether the person is blocked (who
// asked, since when) and whether they were erased, both from the server; and the privacy search no longer
// finds an erased guardian, student or colleague by their old name, RUT, phone or e-mail.
import { sql } from 'drizzle-orm';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_API, type PrivacyInventory, type PrivacySearch } from '../../shared/privacy-contract';
import { ERASURE_CONFIRMATION } from '../../shared/privacy-requests-contract';
import { PrivacyInventoryDataStruct } from '../../shared/privacy-structs';
import { rowsOf } from '../../server/db/sql';
import { signedIn, startServer, type TestServer } from './support/server';

let server: TestServer;
const as = signedIn(() => server);
const ADMIN = 'administrador@sanandres.cl';
const SCHOOL = 'Colegio San Andrés de Ñuñoa';

interface Person {
  id: number;
  first_names: string;
  last_name_father: string;
  dni: string | null;
  phone: string | null;
  email: string | null;
}
async function one(query: ReturnType<typeof sql>): Promise<Person> {
  const [row] = rowsOf<Person>(await server.db.execute(query));
  if (!row) throw new Error('sin fila');
  return row;
}
const path = (kind: 'apoderado' | 'estudiante' | 'funcionario', id: number) => PRIVACY_API.person(kind, id);

async function inventory(kind: 'apoderado' | 'estudiante' | 'funcionario', id: number): Promise<PrivacyInventory> {
  const res = await (await as(ADMIN)).get(path(kind, id));
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(is(body, PrivacyInventoryDataStruct)).toBe(true);
  return (body as { data: PrivacyInventory }).data;
}
async function search(q: string): Promise<PrivacySearch['data']> {
  const res = await (await as(ADMIN)).get(`${PRIVACY_API.people}?${new URLSearchParams({ q })}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as PrivacySearch).data;
}
async function erase(kind: 'apoderado' | 'estudiante' | 'funcionario', id: number): Promise<void> {
  const res = await (await as(ADMIN)).post(`${path(kind, id)}/erasure`, { confirmacion: ERASURE_CONFIRMATION });
  expect(res.status, await res.clone().text()).toBe(200);
}
const ids = (matches: PrivacySearch['data'], kind: string) => matches.filter((m) => m.kind === kind).map((m) => m.id);

let guardian: Person;
let student: Person;
let colleague: Person;

beforeAll(async () => {
  server = await startServer();
  guardian = await one(sql`select g.id, g.first_names, g.last_name_father, g.dni, g.phone, g.email
    from guardians g join institutions i on i.id = g.institution_id
    where i.name = ${SCHOOL} and g.dni is not null and g.phone is not null and g.email is not null order by g.id desc limit 1`);
  student = await one(sql`select s.id, s.first_names, s.last_name_father, s.dni, null::text as phone, s.email
    from students s join institutions i on i.id = s.institution_id
    where i.name = ${SCHOOL} and s.dni is not null order by s.id desc limit 1`);
  colleague = await one(sql`select f.id, f.first_names, f.last_name_father, null::text as dni, f.phone, f.email
    from staff f join institutions i on i.id = f.institution_id left join users u on u.id = f.user_id
    where i.name = ${SCHOOL} and f.email is not null and (u.email is null or u.email not like 'administrador@%')
    order by f.id desc limit 1`);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the inventory says what was answered', () => {
  it('a person never blocked nor erased has neither', async () => {
    const data = await inventory('apoderado', guardian.id);
    expect(data.bloqueo).toBeNull();
    expect(data.eliminado_el).toBeNull();
  });

  it('a block shows who asked and since when, and goes when lifted', async () => {
    const client = await as(ADMIN);
    const put = await client.fetch(`${path('apoderado', guardian.id)}/block`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ solicitado_por: 'representante' }),
    });
    expect(put.status).toBe(200);
    const blocked = await inventory('apoderado', guardian.id);
    expect(blocked.bloqueo).toMatchObject({ solicitado_por: 'representante' });
    expect(Number.isNaN(Date.parse(blocked.bloqueo?.bloqueado_el ?? ''))).toBe(false);
    expect((await client.fetch(`${path('apoderado', guardian.id)}/block`, { method: 'DELETE' })).status).toBe(204);
    expect((await inventory('apoderado', guardian.id)).bloqueo).toBeNull();
  });
});

describe('an erased person', () => {
  const keysOf = (p: Person) =>
    [`${p.first_names.split(' ')[0]} ${p.last_name_father}`, p.dni, p.phone, p.email].filter((k): k is string => k !== null);

  it('is found before the erasure', async () => {
    for (const q of keysOf(guardian)) expect(ids(await search(q), 'apoderado'), q).toContain(guardian.id);
    expect(ids(await search(keysOf(student)[0]!), 'estudiante')).toContain(student.id);
    expect(ids(await search(colleague.email!), 'funcionario')).toContain(colleague.id);
  });

  it('says when it was erased, and the search skips them by any key or by the label', async () => {
    await erase('apoderado', guardian.id);
    await erase('estudiante', student.id);
    await erase('funcionario', colleague.id);
    for (const q of keysOf(guardian)) expect(ids(await search(q), 'apoderado'), q).not.toContain(guardian.id);
    for (const q of keysOf(student)) expect(ids(await search(q), 'estudiante'), q).not.toContain(student.id);
    for (const q of keysOf(colleague)) expect(ids(await search(q), 'funcionario'), q).not.toContain(colleague.id);
    expect(ids(await search('eliminado'), 'apoderado')).not.toContain(guardian.id);
    const data = await inventory('apoderado', guardian.id);
    expect(Number.isNaN(Date.parse(data.eliminado_el ?? ''))).toBe(false);
  });
});
