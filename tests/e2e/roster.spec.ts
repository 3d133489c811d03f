// The roster import in the browser, against the real server, on a school just created (an install without the
// demo, as the administrator found it): the administrator sends a Chilean CSV as Excel in Spanish saves it
// (`;`, a title row, a column of their own that Hermes does not know), says what that column is on step 2, sees a
// line refused in the preview, downloads the problems, discards, sends the fixed file (the columns are remembered),
// applies, and reads what was written; a teacher of the school then finds the new course in compose. Each step is
// axe-clean and fits a 390 px phone without sideways scrolling.
import { readFile } from 'node:fs/promises';
import { type APIResponse, expect, test, type Page } from '@playwright/test';
import { ComposePage } from './pages/compose-page';
import { expectNoAxeViolations } from './support/axe';
import { invitationToken } from './support/invitations';
import { startEmptyInstall, type EmptyInstall } from './support/empty-server';
import { API, COOKIE, XSRF_HEADER } from './support/env';
import { exactly, t, tMX } from './support/i18n';
import { expectFitsPhone } from './support/phone-fit';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

const ADMIN = { name: 'Marcela Fuentes Soto', email: 'marcela.fuentes@losaromos.cl', password: 'pizarra verde en el patio' };
const TEACHER = { name: 'Rodrigo Tapia Lagos', email: 'rodrigo.tapia@losaromos.cl', password: 'tiza blanca y cuaderno azul' };

const HEADER =
  'RUN;Nombres;Apellido paterno;Apellido materno;Curso;RUN apoderado;Nombres apoderado;Apellido paterno apoderado;Apellido materno apoderado;Relación;Titular o suplente;Celular apoderado;Correo apoderado;Observaciones';
/** Line 5's RUN with a wrong check digit (23.456.783-7 is right). */
const WRONG_RUN = '23.456.783-1';
const rows = (third: string) => [
  'Nómina 2027 Colegio Los Aromos;;;;;;;;;;;;;',
  HEADER,
  '23.456.781-0;Ana María;Soto;Pérez;1° Básico A;15.111.222-6;Carla Andrea;Pérez;Rojas;Madre;Titular;+56 9 8765 4321;carla.perez@correo.cl;',
  '23.456.782-9;Benjamín;Rojas;Díaz;1ro básico a;15.111.333-8;Pedro;Rojas;Muñoz;Padre;Titular;+56 9 8765 4322;;llega en furgón',
  `${third};Camila;Vera;Lagos;1° Básico A;15.111.444-K;Rosa;Lagos;Vera;Abuela;Titular;+56 9 8765 4323;;`,
  '23.456.784-5;Diego;Muñoz;Silva;2B;15.111.555-1;Elena;Silva;Reyes;Madre;Titular;+56 9 8765 4324;elena.silva@correo.cl;',
];
/** As Excel in Spanish saves a CSV: Windows-1252, `;`, CRLF. */
const csvFile = (name: string, third: string) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(`${rows(third).join('\r\n')}\r\n`, 'latin1'),
});

let install: EmptyInstall;
test.beforeAll(async () => {
  install = await startEmptyInstall();
});
test.afterAll(async () => {
  await install?.stop();
});

const url = (p: string) => `${install.url}${p}`;

/** The XSRF cookie's value for the install, fetched first when the context has none. */
async function xsrf(page: Page, base = install.url): Promise<string> {
  const find = async () => (await page.context().cookies(base)).find((cookie) => cookie.name === COOKIE.xsrf);
  if (!(await find())) await page.request.get(`${base}/api${API.csrf}`);
  const cookie = await find();
  if (!cookie) throw new Error('no XSRF cookie');
  return decodeURIComponent(cookie.value);
}

async function post(page: Page, p: string, data: unknown, base = install.url): Promise<APIResponse> {
  return page.request.post(`${base}/api${p}`, { data, headers: { [XSRF_HEADER]: await xsrf(page, base), Accept: 'application/json' } });
}

async function checkStep(page: Page, where: string): Promise<void> {
  await expectNoAxeViolations(page, where);
  await expectFitsPhone(page, where);
}

test('an administrator imports a Chilean file with a refused line, downloads the problems, fixes it, applies; a teacher finds the course and has no import', async ({
  page,
  browser,
}) => {
  // The school as the setup page creates it, its administrator signed in; a teacher invited.
  const created = await post(page, '/setup', {
    code: install.code,
    school: {
      name: 'Colegio Los Aromos',
      country: 'CL',
      timezone: 'America/Santiago',
      locale: 'es-CL',
      homeUrl: 'https://www.losaromos.cl',
    },
    admin: ADMIN,
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const invited = await post(page, '/staff/invitations', { people: [{ name: TEACHER.name, email: TEACHER.email, role: 'docente' }] });
  expect(invited.status(), await invited.text()).toBe(200);

  // Step 1: the settings' tab, the file field, the templates (Chile's first), no history yet.
  await page.goto(url('/settings/message-quota'));
  await page
    .getByRole('navigation', { name: t('settingsShell.sections') })
    .getByRole('link', { name: t('settingsShell.roster') })
    .click();
  await expect(page).toHaveURL(url('/settings/roster'));
  await expect(page.getByRole('heading', { level: 2, name: t('roster.heading') })).toBeVisible();
  await expect(page.getByText(t('roster.history.empty'))).toBeVisible();
  const templates = page.locator('[data-slot="roster-templates"]').getByRole('link');
  await expect(templates.first()).toHaveText(t('roster.template.link', { country: t('roster.country.CL'), type: 'CSV' }));
  await checkStep(page, 'step 1');
  // The template downloads with the documented columns.
  const templateDownload = page.waitForEvent('download');
  await templates.first().click();
  const template = await readFile((await (await templateDownload).path()) as string, 'utf8');
  expect(template.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toMatch(/^RUN;Nombres;Apellido paterno;Apellido materno;Curso;/);

  // A file of another kind is refused by the field, before anything is sent.
  const fileInput = page.locator('#roster-file');
  await fileInput.setInputFiles({ name: 'nomina.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await expect(page.getByRole('alert').filter({ hasText: t('roster.file.refused.type') })).toBeVisible();
  await expect(fileInput).toHaveAttribute('aria-invalid', 'true');

  // The file with a wrong RUN: its own column «Observaciones» is asked about on step 2.
  await fileInput.setInputFiles(csvFile('nomina-2027.csv', WRONG_RUN));
  await expect(page.getByRole('heading', { name: t('roster.mapping.heading') })).toBeVisible();
  await expect(page.getByRole('heading', { name: t('roster.mapping.heading') })).toBeFocused();
  const notes = page.getByLabel(t('roster.mapping.column', { header: 'Observaciones' }), { exact: true });
  await expect(notes).toHaveValue('ignore');
  await expect(page.getByLabel(t('roster.mapping.column', { header: 'RUN' }), { exact: true })).toHaveValue('student_run');
  await checkStep(page, 'step 2 (columns)');
  await notes.selectOption('ignore');
  await page.getByRole('button', { name: exactly(t('roster.mapping.submit')) }).click();

  // Step 3: the preview says a line was refused, and offers the problems as a CSV.
  const preview = page.locator('[data-slot="roster-preview"]');
  await expect(page.getByRole('heading', { name: t('roster.preview.heading', { name: 'nomina-2027.csv' }) })).toBeVisible();
  await expect(preview.getByText(t('roster.preview.refusedText', { count: 1 }))).toBeVisible();
  await expect(preview.locator('[data-slot="roster-person"]').first()).toBeVisible();
  await checkStep(page, 'step 3 (preview with a refused line)');
  const downloading = page.waitForEvent('download');
  await preview.getByRole('link', { name: t('roster.preview.problems') }).click();
  const download = await downloading;
  const problems = await readFile((await download.path()) as string, 'utf8');
  // A spreadsheet's CSV: one line refused, line 5 (the title and the header counted), its column, and why.
  const [head, ...refused] = problems
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(head).toBe('Línea;Columna;Problema');
  expect(refused).toHaveLength(1);
  expect(refused[0]).toMatch(/^5;RUN;\S/);

  // Descartar asks first; nothing is written.
  await preview.getByRole('button', { name: exactly(t('roster.preview.discard')) }).click();
  const question = page.getByRole('alertdialog', { name: t('roster.discardDialog.title') });
  await expect(question).toBeVisible();
  await expectNoAxeViolations(page, 'discard question', '[data-slot="dialog-content"]');
  await question.getByRole('button', { name: exactly(t('roster.discardDialog.confirm')) }).click();
  await expect(page.getByRole('heading', { name: t('roster.step.file') })).toBeVisible();
  const history = page.locator('[data-slot="roster-history-row"]');
  await expect(history.first()).toContainText('nomina-2027.csv');
  await expect(history.first()).toContainText(t('roster.history.states.discarded'));

  // The fixed file: the columns are remembered, so straight to the preview, nothing refused.
  await page.locator('#roster-file').setInputFiles(csvFile('nomina-2027-corregida.csv', '23.456.783-7'));
  await expect(page.getByRole('heading', { name: t('roster.preview.heading', { name: 'nomina-2027-corregida.csv' }) })).toBeVisible();
  await expect(preview.locator('[data-slot="roster-refused"]')).toHaveCount(0);
  const counts = preview.locator('[data-slot="roster-counts"]');
  await expect(counts).toContainText(t('roster.preview.students'));
  // The people of one kind of change: the new ones.
  await page.getByLabel(t('roster.people.filter'), { exact: true }).selectOption('new');
  await expect(preview.locator('[data-slot="roster-person"]').filter({ hasText: 'Camila' }).first()).toBeVisible();
  await checkStep(page, 'step 3 (preview of the fixed file)');

  // Aplicar: what was written.
  await preview.getByRole('button', { name: exactly(t('roster.preview.apply')) }).click();
  await expect(page.getByRole('heading', { name: t('roster.applied.heading') })).toBeVisible();
  const applied = page.locator('[data-slot="roster-applied"]');
  await expect(applied).toContainText(t('roster.applied.studentsNew', { count: 4 }));
  await expect(applied).toContainText(t('roster.applied.coursesNew', { count: 2 }));
  await checkStep(page, 'applied');
  await page.getByRole('button', { name: exactly(t('roster.applied.again')) }).click();
  await expect(history.first()).toContainText(t('roster.history.states.applied'));

  // The teacher accepts the invitation and finds the new course in compose.
  const token = await invitationToken(install.outboxDir, TEACHER.email);
  const context = await browser.newContext({ viewport: PHONE });
  try {
    const teacher = await context.newPage();
    const accepted = await post(teacher, `/invitations/${token}/accept`, { password: TEACHER.password });
    expect(accepted.status(), await accepted.text()).toBe(200);
    await teacher.goto(url('/new'));
    const compose = new ComposePage(teacher);
    // (`expectReady` checks the demo server's address; this is the install's.)
    await expect(teacher).toHaveURL(url('/new'));
    await expect(compose.title).toBeEditable();
    await compose.pickCourse('1° Básico A');
    // The import is the administrators': the address sends a teacher home.
    await teacher.goto(url('/settings/roster'));
    await expect(teacher).toHaveURL(url('/inbox'));
  } finally {
    await context.close();
  }
});

test('a Mexican school imports its students by CURP, in its own words', async ({ page }) => {
  // A school of its own: setup creates one school per install.
  const mexico = await startEmptyInstall();
  try {
    const created = await post(
      page,
      '/setup',
      {
        code: mexico.code,
        school: {
          name: 'Escuela Primaria Benito Juárez',
          country: 'MX',
          timezone: 'America/Mexico_City',
          locale: 'es-MX',
          homeUrl: 'https://www.primariajuarez.edu.mx',
        },
        admin: { name: 'Lucía Hernández Ruiz', email: 'lucia.hernandez@primariajuarez.edu.mx', password: 'gis de colores en el pizarrón' },
      },
      mexico.url,
    );
    expect(created.status(), await created.text()).toBeLessThan(300);
    await page.goto(`${mexico.url}/settings/roster`);
    await expect(page.getByRole('heading', { level: 2, name: tMX('roster.heading') })).toBeVisible();
    // Mexico's templates first.
    await expect(page.locator('[data-slot="roster-templates"]').getByRole('link').first()).toHaveText(
      tMX('roster.template.link', { country: tMX('roster.country.MX'), type: 'CSV' }),
    );
    // The template's columns, UTF-8 with its mark: no columns to assign.
    const lines = [
      'CURP;Nombres;Apellido paterno;Apellido materno;Grado;Grupo;Fecha de nacimiento;Correo del alumno;CURP tutor;Nombres tutor;Apellido paterno tutor;Apellido materno tutor;Parentesco;Titular o suplente;Celular tutor;Correo tutor',
      'GOPA150312HDFNRN08;Andrés;González;Pérez;1° de Primaria;A;12/03/2015;;LOHM850101MDFPRR05;María;López;Hernández;Madre;Titular;55 1234 5678;maria.lopez@correo.mx',
    ];
    await page.locator('#roster-file').setInputFiles({
      name: 'inscripcion-2027.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8'),
    });
    await expect(page.getByRole('heading', { name: tMX('roster.preview.heading', { name: 'inscripcion-2027.csv' }) })).toBeVisible();
    const preview = page.locator('[data-slot="roster-preview"]');
    await expect(preview.locator('[data-slot="roster-counts"]')).toContainText(tMX('roster.preview.guardians'));
    await expect(preview.locator('[data-slot="roster-person"]').filter({ hasText: 'GOPA150312HDFNRN08' })).toBeVisible();
    await checkStep(page, 'Mexican preview');
    await preview.getByRole('button', { name: exactly(tMX('roster.preview.apply')) }).click();
    const applied = page.locator('[data-slot="roster-applied"]');
    await expect(applied).toContainText(tMX('roster.applied.studentsNew', { count: 1 }));
    await expect(applied).toContainText(tMX('roster.applied.guardiansNew', { count: 1 }));
    await expect(applied).toContainText(tMX('roster.applied.coursesNew', { count: 1 }));
  } finally {
    await mexico.stop();
  }
});
