import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/contract';
import type { SchoolSettings } from '../../shared/school-contract';
import { rowsOf } from '../../server/db/sql';
import { signedIn, startServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});
const as = signedIn(() => server);

const patch = async (email: string, body: unknown) =>
  (await as(email)).fetch('/api/school', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('GET /api/school', () => {
  it('is 401 signed out and 403 for a teacher', async () => {
    expect((await server.client().get('/api/school')).status).toBe(401);
    const teacher = await (await as('docente@sanandres.cl')).get('/api/school');
    expect(teacher.status).toBe(403);
    expect(((await teacher.json()) as ApiError).message).toBe(
      'Solo la dirección y los administradores del colegio pueden ver y cambiar su configuración.',
    );
  });

  it("answers the administrator's own school", async () => {
    const res = await (await as('administrador@sanandres.cl')).get('/api/school');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: SchoolSettings }).data).toEqual({
      name: 'Colegio San Andrés de Ñuñoa',
      country: 'CL',
      timezone: 'America/Santiago',
      locale: 'es-CL',
      home_url: 'https://www.sanandres.cl',
      chat_enabled: true,
      chat_available: true,
      logo: null,
    });
    const mexico = await (await as('administrador@benitojuarez.edu.mx')).get('/api/school');
    expect(((await mexico.json()) as { data: SchoolSettings }).data).toMatchObject({ country: 'MX', chat_available: false });
  });
});

describe('PATCH /api/school', () => {
  it('refuses bad fields with their Spanish messages and changes nothing', async () => {
    const res = await patch('administrador@liceoelqui.cl', {
      name: '',
      timezone: 'America/Tijuana',
      home_url: 'liceo',
      chat_enabled: 'sí',
      domain: 'mx',
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ApiError).errors).toEqual({
      domain: ['Este campo no se puede cambiar aquí.'],
      chat_enabled: ['Indica si el chat de soporte está activado (sí o no).'],
      name: ['El nombre del colegio es obligatorio.'],
      timezone: ['Elige una zona horaria de Chile.'],
      home_url: ['El enlace de inicio debe ser una dirección web completa, como https://www.micolegio.cl.'],
    });
    const [row] = rowsOf<{ name: string }>(await server.db.execute(sql`select name from institutions where id = 2`));
    expect(row?.name).toBe('Liceo Bicentenario Valle del Elqui');
  });

  it('changes what is sent, and only in the own school', async () => {
    const res = await patch('administrador@liceoelqui.cl', { name: '  Liceo Valle del Elqui  ', home_url: 'https://liceoelqui.cl/inicio' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: SchoolSettings }).data).toMatchObject({
      name: 'Liceo Valle del Elqui',
      home_url: 'https://liceoelqui.cl/inicio',
      country: 'CL',
    });
    const names = rowsOf<{ name: string }>(await server.db.execute(sql`select name from institutions order by id`)).map((r) => r.name);
    expect(names).toEqual(['Colegio San Andrés de Ñuñoa', 'Liceo Valle del Elqui', 'Escuela Secundaria Técnica Benito Juárez']);
  });

  it('keeps the support chat to Chile, and a new country needs one of its zones and moves domain and prefix', async () => {
    const chat = await patch('administrador@benitojuarez.edu.mx', { chat_enabled: true });
    expect(chat.status).toBe(422);
    expect(((await chat.json()) as ApiError).errors).toEqual({
      chat_enabled: ['El chat de soporte solo está disponible para colegios de Chile.'],
    });

    const noZone = await patch('administrador@liceoelqui.cl', { country: 'MX' });
    expect(((await noZone.json()) as ApiError).errors).toEqual({ timezone: ['Elige una zona horaria de México.'] });

    const moved = await patch('administrador@liceoelqui.cl', { country: 'MX', timezone: 'America/Monterrey', locale: 'es-MX' });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { data: SchoolSettings }).data).toMatchObject({
      country: 'MX',
      chat_enabled: false,
      chat_available: false,
    });
    const [school] = rowsOf<{ domain: string; phone_prefix: string }>(
      await server.db.execute(sql`select domain, phone_prefix from institutions where id = 2`),
    );
    expect(school).toEqual({ domain: 'mx', phone_prefix: '+52' });
    const domains = rowsOf<{ domain: string }>(await server.db.execute(sql`select distinct domain from users where institution_id = 2`));
    expect(domains).toEqual([{ domain: 'mx' }]);
  });
});
