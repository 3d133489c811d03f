// The templates and recipient-list screens in Mexican Spanish: a Mexican school's staff (es-MX) go through /templates (its three
// tabs and the editor), /recipient-lists with "Nueva lista", its trash, /recipient-list/:id and the member
// editor, on a 390×844 phone. Every text they read is es-MX where es-MX differs: no Chilean-only term
// (apoderado, matrícula, curso, colegio, funcionario, RUT as the default, +56, "hrs.", inspectoría…), no
// English, no text key, real plurals, the school's prefix and document, dates in the school's zone (the
// browser runs in Santiago's on purpose).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DOCUMENT_TYPES } from '../../shared/recipient-lists-contract';
import { PRODUCT_REPOSITORY } from '../../shared/templates-contract';
import { formatDateTime } from '../../src/views/lib/format';
import { USERS } from './support/env';
import { exactly, tMX } from './support/i18n';
import { api, loginViaApi } from './support/session';

const SCHOOL_ZONE = 'America/Mexico_City';

/** Words a Mexican reader would not use, each with why (the failure names it). */
const CHILEAN_ONLY: readonly [RegExp, string][] = [
  [/apoderad[oa]s?/i, '"apoderado" (es-MX: padre o tutor)'],
  [/matr[ií]cul/i, '"matrícula/matriculado" (es-MX: inscripción/inscrito)'],
  [/\bcolegios?\b/i, '"colegio" (es-MX: escuela)'],
  [/\bcursos?\b/i, '"curso" (es-MX: grupo)'],
  [/funcionari[oa]s?/i, '"funcionario" (es-MX: personal)'],
  [/\bañad/i, '"añadir" (es-MX: agregar)'],
  [/\bRUT\b/, "RUT (Chile's document)"],
  [/\+56/, 'the Chilean prefix +56'],
  [/\bhrs\b/i, '"hrs." (es-MX: h)'],
  [/inspector[ií]a/i, '"inspectoría" (es-MX: prefectura)'],
  [/profesor jefe/i, '"profesor jefe" (es-MX: asesor de grupo)'],
  [/minsal/i, "Minsal (Chile's health ministry)"],
  [/c[ée]dula de identidad/i, '"cédula de identidad" (es-MX: identificación oficial)'],
  [/ropa de calle/i, '"ropa de calle" (es-MX: sin uniforme)'],
  [/\bnotas\b/i, '"notas" (es-MX: calificaciones)'],
  [/\.cl\b/i, 'a .cl address as an example'],
];
const ENGLISH =
  /\b(loading|save|saving|cancel|delete|members?|lists?|templates?|search|restore|trash|undefined|null|NaN|Invalid Date|true|false)\b/i;
const TEXT_KEY = /\b(recipientLists|templates|compose|pages|error|locale)\.[a-zA-Z]/;

/**
 * The text a person reads in `scope`: visible text, labels and placeholders, without the options of a
 * select (the document select keeps RUT for a Chilean family; its chosen value is checked apart) and
 * without what the school's people typed (names, e-mails: data, not the app's words).
 */
async function readableText(scope: Locator): Promise<string> {
  return scope.evaluate((root) => {
    const clone = root.cloneNode(true) as HTMLElement;
    for (const el of clone.querySelectorAll('option, select, [data-slot=member-email], [data-slot=member-name]')) el.remove();
    const attrs = [...root.querySelectorAll('[placeholder], [aria-label], [title]')].map((el) =>
      ['placeholder', 'aria-label', 'title'].map((a) => el.getAttribute(a) ?? '').join(' '),
    );
    // Merge-field codes ({curso}) are the contract's, the same in every country; their chips read in es-MX.
    return `${clone.textContent ?? ''}\n${attrs.join('\n')}`.replace(/\{[a-z]+\}/g, '').replace(/\s+/g, ' ');
  });
}

async function expectMexican(scope: Locator, where: string): Promise<void> {
  await expect(scope).toBeVisible();
  const text = await readableText(scope);
  const found = CHILEAN_ONLY.filter(([pattern]) => pattern.test(text)).map(([pattern, why]) => `${why}: «${text.match(pattern)![0]}»`);
  const english = text.match(ENGLISH);
  if (english) found.push(`English: «${english[0]}»`);
  const key = text.match(TEXT_KEY);
  if (key) found.push(`a text key: «${key[0]}…»`);
  expect.soft(found, `${where} reads, in es-MX:\n${text}`).toEqual([]);
}

const toast = (page: Page, text: string) => page.locator('[data-slot=toast]').filter({ hasText: text });

test.use({ viewport: { width: 390, height: 844 }, locale: 'es-MX', timezoneId: 'America/Santiago' });

test("templates in es-MX: the three tabs, the product's texts in Mexican Spanish, the editor", async ({ page }) => {
  await loginViaApi(page, USERS.teacherJuarez);
  await page.goto('/templates');
  const main = page.locator('main');
  await expect(page.getByRole('heading', { level: 1, name: tMX('templates.heading') })).toBeVisible();
  await expect(main.locator('[data-slot=template-card]').first()).toBeVisible();
  await expectMexican(main, '/templates, Mis plantillas');

  await page.getByRole('tab', { name: PRODUCT_REPOSITORY.name, exact: true }).click();
  const cards = main.locator('[data-slot=template-card]');
  await expect(cards.filter({ hasText: 'Reunión de padres o tutores' })).toBeVisible();
  const count = await cards.count();
  expect(count).toBeGreaterThanOrEqual(12);
  await expect(main.getByText(tMX('templates.count', { count }), { exact: true })).toBeVisible();
  await expectMexican(main, `/templates, ${PRODUCT_REPOSITORY.name}`);

  await page.getByRole('tab', { name: tMX('templates.repository.socioemocional'), exact: true }).click();
  await expect(cards.filter({ hasText: 'Convivencia escolar' }).first()).toBeVisible();
  await expectMexican(main, '/templates, Socioemocional');

  // A new template starts empty; its merge fields read Alumno / Grupo / Padre o tutor.
  await page.getByRole('tab', { name: tMX('templates.repository.mis-plantillas'), exact: true }).click();
  await page.getByRole('button', { name: exactly(tMX('templates.new')) }).click();
  const editor = page.getByRole('dialog');
  await expect(editor.getByLabel(tMX('templates.editor.name'), { exact: true })).toHaveValue('');
  await expect(editor.getByLabel(tMX('templates.editor.content'), { exact: true })).toHaveValue('');
  await expect(
    editor.getByRole('button', { name: tMX('templates.mergeFields.insert', { field: tMX('templates.mergeFields.estudiante') }) }),
  ).toBeVisible();
  await expect(
    editor.getByRole('button', { name: tMX('templates.mergeFields.insert', { field: tMX('templates.mergeFields.curso') }) }),
  ).toBeVisible();
  // Saving it empty: Spanish field errors.
  await editor.getByRole('button', { name: exactly(tMX('templates.editor.save')) }).click();
  await expect(editor.getByText(tMX('templates.errors.nameRequired'))).toBeVisible();
  await expectMexican(editor, 'the template editor');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('recipient lists in es-MX: the lists, a new list, one list, the member editor, the trash', async ({ page }) => {
  await loginViaApi(page, USERS.adminJuarez);
  await page.goto('/recipient-lists');
  const main = page.locator('main');
  await expect(page.getByRole('heading', { level: 1, name: tMX('recipientLists.heading') })).toBeVisible();
  const row = main.locator('[data-slot=recipient-list-row]').filter({ hasText: 'Comité de padres de familia' });
  await expect(row).toBeVisible();
  // A real plural with its number, not the bare label.
  await expect(row).toContainText(/\d+ miembros/);
  await expect(main.getByText(tMX('recipientLists.total', { count: 1 }), { exact: true })).toBeVisible();
  await expectMexican(main, '/recipient-lists');

  // "Nueva lista", saved with nothing: Spanish errors, placeholder in Mexican Spanish.
  await page.getByRole('button', { name: exactly(tMX('recipientLists.create')) }).click();
  await page.getByRole('button', { name: exactly(tMX('recipientLists.save')) }).click();
  await expect(main.getByText(tMX('recipientLists.error.nameRequired'))).toBeVisible();
  await expect(main.getByText(tMX('recipientLists.error.picksRequired'))).toBeVisible();
  await expectMexican(main, 'the new list form');
  await page.getByRole('button', { name: exactly(tMX('recipientLists.cancel')) }).click();

  // One list.
  await row.click();
  await expect(page).toHaveURL(/\/recipient-list\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Comité de padres de familia');
  const members = main.locator('[data-slot=member-row]');
  await expect(members.first()).toBeVisible();
  const total = await members.count();
  await expect(main.getByText(tMX('recipientLists.members', { count: total }), { exact: true }).first()).toBeVisible();
  await expectMexican(main, '/recipient-list/:id');

  // The member editor: the school's prefix (+52) and document (CURP) for a guardian without one.
  const guardian = main.locator('[data-slot=member-row][data-user-type=apoderado]').first();
  const who = (await guardian.locator('[data-slot=member-name]').textContent()) ?? '';
  await guardian.getByRole('button', { name: exactly(tMX('recipientLists.editMember', { name: who })) }).click();
  const dialog = page.getByRole('dialog', { name: tMX('recipientLists.editor.title') });
  const phone = dialog.getByLabel(tMX('recipientLists.editor.phone'), { exact: true });
  await expect(phone).not.toHaveValue('');
  await expect(dialog.getByLabel(tMX('recipientLists.editor.prefix'), { exact: true })).toHaveValue('+52');
  // Mexico first, each prefix by its country's name.
  await expect(dialog.getByLabel(tMX('recipientLists.editor.prefix'), { exact: true }).locator('option').first()).toHaveText('México +52');
  const documentType = dialog.getByLabel(tMX('recipientLists.editor.tipo_documento_id'), { exact: true });
  await expect(documentType).toHaveValue(String(DOCUMENT_TYPES.curp));
  await expectMexican(dialog, 'the member editor');
  // Bad values: Spanish errors with Mexican examples; what was typed stays.
  await phone.fill('12');
  const dni = dialog.getByLabel(tMX('recipientLists.editor.dni'), { exact: true });
  await dni.fill('ABC');
  await dialog.getByRole('button', { name: exactly(tMX('recipientLists.editor.save')) }).click();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(dni).toHaveAttribute('aria-invalid', 'true');
  await expect(phone).toHaveValue('12');
  await expectMexican(dialog, 'the member editor with its errors');
  // Good ones: a Mexico City mobile and a valid CURP.
  await phone.fill('55 1234 5678');
  await dni.fill('HEGG560427MVZRRL04');
  await dialog.getByRole('button', { name: exactly(tMX('recipientLists.editor.save')) }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, tMX('recipientLists.memberSaved'))).toBeVisible();
  await expect(guardian.locator('[data-slot=member-phone]')).toHaveText('+52 55 1234 5678');

  // To the trash: who and when, in the school's zone (the browser is in Santiago's).
  await page.getByRole('button', { name: exactly(tMX('recipientLists.delete')) }).click();
  await page.getByRole('button', { name: exactly(tMX('recipientLists.deleteConfirm')) }).click();
  await expect(toast(page, tMX('recipientLists.deleted'))).toBeVisible();
  await page.goto('/recipient-lists/trash');
  await expect(page.getByRole('heading', { level: 1, name: tMX('recipientLists.trashHeading') })).toBeVisible();
  const trashed = main.locator('[data-slot=trash-row]').filter({ hasText: 'Comité de padres de familia' });
  await expect(trashed).toBeVisible();
  const response = await page.request.get(api('/recipient-lists/trash'));
  const { data } = (await response.json()) as { data: { name: string; deleted_at: string; deleted_by_name: string }[] };
  const deleted = data.find((list) => list.name === 'Comité de padres de familia')!;
  const when = formatDateTime(deleted.deleted_at, 'es-MX', SCHOOL_ZONE);
  expect(when).not.toBe(formatDateTime(deleted.deleted_at, 'es-MX', 'America/Santiago'));
  await expect(trashed).toContainText(tMX('recipientLists.deletedBy', { name: deleted.deleted_by_name, date: when }));
  await expect(trashed).toContainText(tMX('recipientLists.members', { count: total }));
  await expectMexican(main, '/recipient-lists/trash');
  await trashed.getByRole('button', { name: `${tMX('recipientLists.restore')}: Comité de padres de familia` }).click();
  await expect(toast(page, tMX('recipientLists.restored'))).toBeVisible();
  await expect(main.getByText(tMX('recipientLists.trashEmpty'))).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
