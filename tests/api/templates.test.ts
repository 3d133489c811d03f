// Templates (shared/templates-contract.ts) against the real server: the list with its repositories and
// search, create / edit / delete of the user's own, copy, validation, 404 for what the user cannot touch
// (another user's, another school's, the read-only libraries), the Mexican word for guardian, and the seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ApiError } from '../../shared/contract';
import { smsText } from '../../shared/sms-text';
import { templateSmsSize } from '../../shared/template-size';
import {
  MERGE_FIELDS,
  PRODUCT_REPOSITORY,
  TEMPLATE_CONTENT_MAX,
  TEMPLATE_NAME_MAX,
  type Template,
  type TemplateRepositoryCode,
} from '../../shared/templates-contract';
import { templates } from '../../server/db/schema/templates';
import { HERMES_TEMPLATES, loadLibrary, SOCIOEMOTIONAL_TEMPLATES } from '../../server/templates/library';
import { libraryText, MX_LIBRARY } from '../../server/templates/library-text';
import { signedIn, startServer, type Client, type TestServer } from './support/server';

const NOT_FOUND = { code: 'not_found', message: 'El recurso solicitado no existe.' };

let server: TestServer;
/** A signed-in client per demo e-mail, signed in once. */
const as = signedIn(() => server);

const TEACHER = 'docente@sanandres.cl';
const ADMIN = 'administrador@sanandres.cl';
const TEACHER_MX = 'docente@benitojuarez.edu.mx';

async function list(client: Client, query = ''): Promise<Template[]> {
  const res = await client.get(`/api/templates${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Template[] }).data;
}
const send = (client: Client, method: 'PATCH' | 'DELETE', path: string, body?: unknown) =>
  client.fetch(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const create = (client: Client, body: unknown) => client.post('/api/templates', body);
async function created(client: Client, body: { name: string; content: string }): Promise<Template> {
  const res = await create(client, body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: Template }).data;
}
const errorsOf = async (res: Response) => {
  expect(res.status).toBe(422);
  const body = (await res.json()) as ApiError;
  expect(body.code).toBe('validation.failed');
  return body.errors;
};
const ownIdOf = async (email: string): Promise<number> => (await list(await as(email), '?repository=mis-plantillas'))[0]!.id;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('GET /api/templates', () => {
  it('is 401 without a session', async () => {
    const res = await server.client().get('/api/templates');
    expect(res.status).toBe(401);
  });

  it('lists the user’s own newest first, then Hermes and Socioemocional by name, with the contract’s shape', async () => {
    const data = await list(await as(TEACHER));
    const codes = data.map((t) => t.repository.code);
    // Grouped in the contract's order.
    expect(codes).toEqual([...codes].sort((a, b) => order(a) - order(b)));
    const own = data.filter((t) => t.repository.code === 'mis-plantillas');
    expect(own.map((t) => t.name)).toEqual(['Felicitaciones al curso', 'Tarea de matemática']);
    expect(own[0]).toEqual({
      id: expect.any(Number),
      name: 'Felicitaciones al curso',
      content: expect.stringContaining('{curso}'),
      repository: { code: 'mis-plantillas', name: 'Mis plantillas' },
      editable: true,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const hermes = data.filter((t) => t.repository.code === 'hermes');
    expect(hermes).toHaveLength(HERMES_TEMPLATES.length);
    expect(hermes.every((t) => !t.editable && t.repository.name === PRODUCT_REPOSITORY.name)).toBe(true);
    const names = hermes.map((t) => t.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
    expect(names).toContain('Reunión de apoderados');
    const socio = data.filter((t) => t.repository.code === 'socioemocional');
    expect(socio).toHaveLength(SOCIOEMOTIONAL_TEMPLATES.length);
    expect(socio.every((t) => !t.editable && t.repository.name === 'Socioemocional')).toBe(true);
  });

  it('shows nobody else’s own templates, of the same school or another', async () => {
    const adminOwn = await list(await as(ADMIN), '?repository=mis-plantillas');
    expect(adminOwn.map((t) => t.name)).toEqual(['Corte de agua']);
    const mine = await list(await as(TEACHER));
    expect(mine.map((t) => t.id)).not.toContain(adminOwn[0]!.id);
    expect(mine.map((t) => t.id)).not.toContain(await ownIdOf(TEACHER_MX));
  });

  it('filters by repository', async () => {
    const teacher = await as(TEACHER);
    for (const code of ['mis-plantillas', 'hermes', 'socioemocional'] as const) {
      const data = await list(teacher, `?repository=${code}`);
      expect(data.length).toBeGreaterThan(0);
      expect(data.every((t) => t.repository.code === code)).toBe(true);
    }
    expect((await list(teacher, '?repository=')).length).toBe((await list(teacher)).length);
  });

  it('searches name and content ignoring case and accents, in every repository', async () => {
    const teacher = await as(TEACHER);
    expect((await list(teacher, '?q=REUNION%20DE')).map((t) => t.name)).toEqual(['Reunión de apoderados']);
    // In the content only, with the accent typed where the text has none and the other way round.
    expect((await list(teacher, `?q=${encodeURIComponent('certificado medico')}`)).map((t) => t.name)).toEqual(['Inasistencia a clases']);
    expect((await list(teacher, `?q=${encodeURIComponent('  FRACCIÓNES ')}`)).map((t) => t.name)).toEqual(['Tarea de matemática']);
    expect((await list(teacher, `?q=${encodeURIComponent('Matemática')}&repository=mis-plantillas`)).map((t) => t.name)).toEqual([
      'Tarea de matemática',
    ]);
    expect((await list(teacher, '?q=matematica&repository=hermes')).map((t) => t.name)).toEqual([]);
    const emotional = await list(teacher, `?q=${encodeURIComponent('AUTOCUIDADO')}`);
    expect(emotional.map((t) => t.repository.code)).toEqual(['socioemocional', 'socioemocional']);
    // LIKE's wildcards are plain characters.
    expect(await list(teacher, '?q=%25')).toEqual([]);
  });

  it('refuses an unknown repository and an over-long search with field errors', async () => {
    const teacher = await as(TEACHER);
    expect(await errorsOf(await teacher.get('/api/templates?repository=otra'))).toEqual({
      repository: ['El tipo de plantilla debe ser mis-plantillas, hermes, socioemocional.'],
    });
    expect(await errorsOf(await teacher.get(`/api/templates?q=${'a'.repeat(201)}`))).toEqual({
      q: ['La búsqueda no puede superar los 200 caracteres.'],
    });
  });
});

const order = (code: TemplateRepositoryCode) => ['mis-plantillas', 'hermes', 'socioemocional'].indexOf(code);

describe('POST /api/templates', () => {
  it('creates an own template, first in the list, name on one line and both fields trimmed', async () => {
    const client = await as(ADMIN);
    const template = await created(client, { name: '  Aviso de\n reunión  ', content: '\n Hola {apoderado}, le esperamos.  \n' });
    expect(template).toMatchObject({
      name: 'Aviso de reunión',
      content: 'Hola {apoderado}, le esperamos.',
      repository: { code: 'mis-plantillas', name: 'Mis plantillas' },
      editable: true,
    });
    const first = (await list(client))[0]!;
    expect(first).toEqual(template);
    expect((await list(client, '?q=aviso%20de%20reunion')).map((t) => t.id)).toEqual([template.id]);
  });

  it('refuses missing, blank, non-text and over-long fields, each with its Spanish message', async () => {
    const client = await as(ADMIN);
    expect(await errorsOf(await create(client, {}))).toEqual({
      name: ['Debes escribir el nombre de la plantilla.'],
      content: ['Debes escribir el contenido de la plantilla.'],
    });
    expect(await errorsOf(await create(client, { name: ' \n ', content: '   ' }))).toEqual({
      name: ['Debes escribir el nombre de la plantilla.'],
      content: ['Debes escribir el contenido de la plantilla.'],
    });
    expect(await errorsOf(await create(client, { name: 12, content: ['x'] }))).toEqual({
      name: ['El nombre de la plantilla debe ser un texto.'],
      content: ['El contenido de la plantilla debe ser un texto.'],
    });
    expect(
      await errorsOf(await create(client, { name: 'n'.repeat(TEMPLATE_NAME_MAX + 1), content: 'c'.repeat(TEMPLATE_CONTENT_MAX + 1) })),
    ).toEqual({
      name: [`El nombre de la plantilla no puede superar los ${TEMPLATE_NAME_MAX} caracteres.`],
      content: [`El contenido de la plantilla no puede superar los ${TEMPLATE_CONTENT_MAX} caracteres.`],
    });
    expect(await errorsOf(await create(client, [1, 2]))).toEqual({ body: ['El cuerpo de la solicitud debe ser un objeto JSON.'] });
    expect(await errorsOf(await client.post('/api/templates', undefined))).toEqual({
      body: ['El cuerpo de la solicitud debe ser un objeto JSON.'],
    });
    // The limits themselves are allowed.
    await created(client, { name: 'n'.repeat(TEMPLATE_NAME_MAX), content: 'c'.repeat(TEMPLATE_CONTENT_MAX) });
  });

  it('refuses a name the user already has, ignoring case and accents, but not another user’s', async () => {
    const teacher = await as(TEACHER);
    expect(await errorsOf(await create(teacher, { name: 'TAREA DE MATEMATICA', content: 'Otra' }))).toEqual({
      name: ['Ya tienes una plantilla con este nombre. Elige otro.'],
    });
    // The administrator's "Corte de agua" is theirs: the teacher may use the name.
    await created(teacher, { name: 'Corte de agua', content: 'Mañana no hay agua.' });
  });

  it('refuses a request without the CSRF token', async () => {
    const res = await (await as(TEACHER)).post('/api/templates', { name: 'x', content: 'y' }, { csrf: false });
    expect(res.status).toBe(419);
  });
});

describe('PATCH and DELETE /api/templates/:id', () => {
  it('edits either field of an own template, keeps the other and moves it first', async () => {
    const client = await as(TEACHER_MX);
    const first = await created(client, { name: 'Recordatorio', content: 'Traer el libro.' });
    const second = await created(client, { name: 'Uniforme', content: 'Lunes con uniforme de gala.' });
    const res = await send(client, 'PATCH', `/api/templates/${first.id}`, { content: 'Traer el libro y el cuaderno.' });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Template };
    expect(data).toMatchObject({ id: first.id, name: 'Recordatorio', content: 'Traer el libro y el cuaderno.', editable: true });
    expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(second.updated_at));
    const own = await list(client, '?repository=mis-plantillas');
    expect(own.slice(0, 2).map((t) => t.id)).toEqual([first.id, second.id]);
    // A new case of its own name is fine; another own template's name is not.
    const renamed = await send(client, 'PATCH', `/api/templates/${first.id}`, { name: 'RECORDATORIO' });
    expect(((await renamed.json()) as { data: Template }).data.name).toBe('RECORDATORIO');
    expect(await errorsOf(await send(client, 'PATCH', `/api/templates/${first.id}`, { name: 'uniforme' }))).toEqual({
      name: ['Ya tienes una plantilla con este nombre. Elige otro.'],
    });
    expect(await errorsOf(await send(client, 'PATCH', `/api/templates/${first.id}`, { content: '' }))).toEqual({
      content: ['Debes escribir el contenido de la plantilla.'],
    });
    expect(await errorsOf(await send(client, 'PATCH', `/api/templates/${first.id}`, {}))).toEqual({
      name: ['Indica el nombre o el contenido que quieres cambiar.'],
      content: ['Indica el nombre o el contenido que quieres cambiar.'],
    });
  });

  it('deletes an own template; a second delete and an edit of it are 404', async () => {
    const client = await as(TEACHER);
    const template = await created(client, { name: 'Para borrar', content: 'Borrame.' });
    const res = await send(client, 'DELETE', `/api/templates/${template.id}`);
    expect(res.status).toBe(204);
    expect((await list(client)).map((t) => t.id)).not.toContain(template.id);
    for (const again of [
      await send(client, 'DELETE', `/api/templates/${template.id}`),
      await send(client, 'PATCH', `/api/templates/${template.id}`, { name: 'x' }),
    ]) {
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual(NOT_FOUND);
    }
  });

  it('answers 404 for another user’s template, of the same school or another, and leaves it as it was', async () => {
    const teacher = await as(TEACHER);
    for (const owner of [ADMIN, TEACHER_MX]) {
      const id = await ownIdOf(owner);
      const [before] = await server.db.select().from(templates).where(eq(templates.id, id));
      for (const res of [
        await send(teacher, 'PATCH', `/api/templates/${id}`, { name: 'Mía' }),
        await send(teacher, 'DELETE', `/api/templates/${id}`),
        await teacher.post(`/api/templates/${id}/copy`),
      ]) {
        expect(res.status, owner).toBe(404);
        expect(await res.json()).toEqual(NOT_FOUND);
      }
      const [after] = await server.db.select().from(templates).where(eq(templates.id, id));
      expect(after).toEqual(before);
    }
  });

  it('answers 404 to editing or deleting a Hermes or socio-emotional template: they are read-only', async () => {
    const teacher = await as(TEACHER);
    for (const repository of ['hermes', 'socioemocional'] as const) {
      const [template] = await list(teacher, `?repository=${repository}`);
      expect((await send(teacher, 'PATCH', `/api/templates/${template!.id}`, { name: 'Cambiada' })).status).toBe(404);
      expect((await send(teacher, 'DELETE', `/api/templates/${template!.id}`)).status).toBe(404);
      expect((await list(teacher, `?repository=${repository}`))[0]).toEqual(template);
    }
  });

  it('answers 404 for ids that are not ids', async () => {
    const teacher = await as(TEACHER);
    for (const id of ['0', 'abc', '99999999999', '2147483647']) {
      expect((await send(teacher, 'PATCH', `/api/templates/${id}`, { name: 'x' })).status, id).toBe(404);
      expect((await send(teacher, 'DELETE', `/api/templates/${id}`)).status, id).toBe(404);
      expect((await teacher.post(`/api/templates/${id}/copy`)).status, id).toBe(404);
    }
  });
});

describe('POST /api/templates/:id/copy', () => {
  it('copies a library template to Mis plantillas as "(copia)", then "(copia 2)", editable', async () => {
    const client = await as(ADMIN);
    const [source] = await list(client, '?q=salida%20pedagogica');
    expect(source!.repository.code).toBe('hermes');
    const res = await client.post(`/api/templates/${source!.id}/copy`);
    expect(res.status).toBe(201);
    const copy = ((await res.json()) as { data: Template }).data;
    expect(copy).toMatchObject({
      name: 'Salida pedagógica (copia)',
      content: source!.content,
      repository: { code: 'mis-plantillas', name: 'Mis plantillas' },
      editable: true,
    });
    expect(copy.id).not.toBe(source!.id);
    const again = ((await (await client.post(`/api/templates/${source!.id}/copy`)).json()) as { data: Template }).data;
    expect(again.name).toBe('Salida pedagógica (copia 2)');
    // The copy is the user's to change; the library's stays.
    expect((await send(client, 'PATCH', `/api/templates/${copy.id}`, { content: 'Cambiada' })).status).toBe(200);
    expect((await list(client, `?repository=hermes&q=salida`))[0]).toEqual(source);
  });

  it('copies an own template and keeps a long name within the limit', async () => {
    const client = await as(TEACHER);
    const long = await created(client, { name: `Plantilla ${'larga '.repeat(30)}`.slice(0, TEMPLATE_NAME_MAX), content: 'Texto' });
    const copy = ((await (await client.post(`/api/templates/${long.id}/copy`)).json()) as { data: Template }).data;
    expect(copy.name.length).toBeLessThanOrEqual(TEMPLATE_NAME_MAX);
    expect(copy.name.endsWith(' (copia)')).toBe(true);
    expect(copy.name.startsWith('Plantilla larga larga')).toBe(true);
  });
});

describe('the word for guardian by the school’s locale', () => {
  it('shows the product’s templates with "padre o tutor" at a Mexican school, keeping case and number', async () => {
    const mx = await as(TEACHER_MX);
    const hermes = await list(mx, '?repository=hermes');
    const meeting = hermes.find((t) => t.name === 'Reunión de padres o tutores')!;
    expect(meeting.content).toMatch(/^Estimado padre o tutor: le invitamos a la reunión de padres o tutores de \{curso\}/);
    expect(hermes.every((t) => !/apoderad/i.test(`${t.name} ${t.content}`))).toBe(true);
    // Found by the words the school reads, not by the stored Chilean ones.
    expect((await list(mx, `?q=${encodeURIComponent('reunión de PADRES')}`)).map((t) => t.id)).toEqual([meeting.id]);
    expect(await list(mx, '?q=reunion%20de%20apoderados')).toEqual([]);
    // Its own templates are shown as written.
    expect((await list(mx, '?repository=mis-plantillas')).map((t) => t.name)).toContain('Junta de grupo');
  });

  it('shows the library in Mexican Spanish at a Mexican school: no Chilean-only word, found and copied as shown', async () => {
    const mx = await as(TEACHER_MX);
    const shown = [...(await list(mx, '?repository=hermes')), ...(await list(mx, '?repository=socioemocional'))];
    const chilean =
      /apoderad|matr[ií]cul|\bcolegio|inspector[ií]a|profesor jefe|minsal|c[ée]dula de identidad|\bhrs\b|\bnotas\b|ropa de calle|salida pedag/i;
    expect(shown.filter((t) => chilean.test(`${t.name} ${t.content}`)).map((t) => t.name)).toEqual([]);
    expect(shown.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Boleta de calificaciones', 'Retardos frecuentes', 'Proceso de inscripción']),
    );
    const [grades] = await list(mx, `?q=${encodeURIComponent('boleta de calificaciones')}`);
    expect(grades!.content).toMatch(/^Estimado padre o tutor: la boleta de calificaciones de \{estudiante\}/);
    expect(await list(mx, '?q=informe%20de%20notas')).toEqual([]);
    const copy = ((await (await mx.post(`/api/templates/${grades!.id}/copy`)).json()) as { data: Template }).data;
    expect(copy).toMatchObject({ name: 'Boleta de calificaciones (copia)', content: grades!.content });
    // Every Mexican rendition stands for a template of the library.
    const names = new Set([...HERMES_TEMPLATES, ...SOCIOEMOTIONAL_TEMPLATES].map((t) => t.name));
    expect(Object.keys(MX_LIBRARY).filter((name) => !names.has(name))).toEqual([]);
  });

  it('keeps "apoderado" in Chile', async () => {
    const hermes = await list(await as(TEACHER), '?repository=hermes');
    expect(hermes.map((t) => t.name)).toContain('Reunión de apoderados');
  });

  it('copies a library template at a Mexican school with the text it showed', async () => {
    const mx = await as(TEACHER_MX);
    const [source] = await list(mx, '?q=reunion%20de%20padres');
    const copy = ((await (await mx.post(`/api/templates/${source!.id}/copy`)).json()) as { data: Template }).data;
    expect(copy).toMatchObject({ name: 'Reunión de padres o tutores (copia)', content: source!.content, editable: true });
  });
});

describe('seeded libraries', () => {
  /** Merge fields at a long real value, and each `___` blank filled with 8 characters (a date, an hour). */
  const filled = (content: string) =>
    content
      .replaceAll('___', 'x'.repeat(8))
      .replaceAll('{estudiante}', 'María Fernanda González Rodríguez'.slice(0, 30))
      .replaceAll('{curso}', 'Pre-kínder A (T)')
      .replaceAll('{apoderado}', 'x'.repeat(30));

  it('has at least 12 Hermes and 8 socio-emotional templates with distinct names', () => {
    expect(HERMES_TEMPLATES.length).toBeGreaterThanOrEqual(12);
    expect(SOCIOEMOTIONAL_TEMPLATES.length).toBeGreaterThanOrEqual(8);
    const names = [...HERMES_TEMPLATES, ...SOCIOEMOTIONAL_TEMPLATES].map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('fits each in one SMS with the signature, in Chile and in Mexico, with its merge fields filled', () => {
    for (const t of [...HERMES_TEMPLATES, ...SOCIOEMOTIONAL_TEMPLATES]) {
      for (const locale of ['es-CL', 'es-MX'] as const) {
        const sms = smsText(filled(libraryText(t, locale).content), 'CSA');
        expect(sms.unsupported, t.name).toEqual([]);
        expect(sms.units, `${t.name} (${locale})`).toBeLessThanOrEqual(sms.limit);
      }
      // Only the contract's merge fields.
      for (const field of t.content.match(/\{[^}]*\}/g) ?? []) expect(MERGE_FIELDS).toContain(field.slice(1, -1));
    }
    // Some use merge fields.
    expect(HERMES_TEMPLATES.filter((t) => t.content.includes('{estudiante}')).length).toBeGreaterThan(2);
  });

  it('gives each listed template an SMS size (shared/template-size.ts)', async () => {
    const [meeting] = await list(await as(TEACHER), '?q=reunion%20de%20apoderados');
    // "{curso}" is counted as typed (braces are GSM-7's escaped characters) until filled.
    expect(templateSmsSize(meeting!.content, 'CSA')).toEqual({
      units: [...meeting!.content].length + 2,
      limit: 154,
      segments: 1,
      unsupported: [],
      ok: true,
    });
  });

  it('loads the libraries the database lacks at start-up, once, beside what users wrote', async () => {
    const teacher = await as(TEACHER);
    const before = await list(teacher);
    const meeting = before.find((t) => t.name === 'Reunión de apoderados')!;
    await server.db.delete(templates).where(eq(templates.repository, 'socioemocional'));
    await server.db.delete(templates).where(eq(templates.id, meeting.id));
    expect(await list(teacher, '?repository=socioemocional')).toEqual([]);
    expect(await loadLibrary(server.db)).toBe(SOCIOEMOTIONAL_TEMPLATES.length + 1);
    expect(await loadLibrary(server.db)).toBe(0);
    const after = await list(teacher);
    const shape = (t: Template) => [t.repository.code, t.name, t.content, t.editable];
    expect(after.map(shape)).toEqual(before.map(shape));
  });
});
