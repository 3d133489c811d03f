// A Mexican school's staff in compose, the connectivity dashboard and the inbox
// (docs/decisions/0137-one-vocabulary-per-locale.md): one vocabulary (grado, grupo, club, escuela, padre o
// tutor), numbers as Mexico writes them, no SMS hint in a school without SMS, and demo mail in Mexican
// Spanish that greets José Luis as "Estimado maestro".
import { expect, test, type Locator } from '@playwright/test';
import { USERS } from './support/env';
import { exactly, tMX } from './support/i18n';
import { loginViaApi } from './support/session';

/** Chilean words where Mexico says another (the failure names the Mexican one). */
const CHILEAN: readonly [RegExp, string][] = [
  [/apoderad[oa]s?/i, 'padre o tutor'],
  [/\bcursos?\b/i, 'grupo'],
  [/\bnivel(es)?\b/i, 'grado'],
  [/\belectiv[oa]s?\b/i, 'club'],
  [/\bcolegios?\b/i, 'escuela'],
  [/justificativo/i, 'justificante'],
  [/\bbuzo\b/i, 'uniforme deportivo'],
  [/centro de padres/i, 'asociación de padres de familia'],
];

/** What a person reads in `scope` (text, labels, placeholders), without merge-field codes ({curso}). */
async function expectMexican(scope: Locator, where: string): Promise<void> {
  await expect(scope).toBeVisible();
  const text = await scope.evaluate((root) => {
    const attrs = [...root.querySelectorAll('[placeholder], [aria-label], [title]')].map((el) =>
      ['placeholder', 'aria-label', 'title'].map((a) => el.getAttribute(a) ?? '').join(' '),
    );
    return `${root.textContent ?? ''}\n${attrs.join('\n')}`.replace(/\{[a-z]+\}/g, '').replace(/\s+/g, ' ');
  });
  const found = CHILEAN.filter(([word]) => word.test(text)).map(([word, mexican]) => `«${text.match(word)![0]}» (→ ${mexican})`);
  expect.soft(found, `${where} reads, in es-MX:\n${text}`).toEqual([]);
}

test.use({ locale: 'es-MX', timezoneId: 'America/Mexico_City' });

test('compose in a Mexican school: no SMS hint without SMS, a picker in grados, grupos and clubes', async ({ page }) => {
  await loginViaApi(page, USERS.teacherJuarez);
  await page.goto('/new');
  await expect(page.getByLabel(tMX('compose.field.title'), { exact: true })).toBeVisible();
  const attachments = page.getByRole('group', { name: tMX('compose.attachments.label') });
  await expect(attachments).toContainText(tMX('compose.attachments.limits'));
  await expect(attachments).not.toContainText('SMS');
  await expectMexican(page.locator('main'), '/new');

  await page
    .getByRole('button', { name: tMX('compose.field.addRecipients') })
    .first()
    .click();
  const picker = page.getByRole('dialog', { name: tMX('compose.picker.title') });
  await expect(picker).toBeVisible();
  await expect(picker.getByText(tMX('compose.picker.description'))).toBeVisible();
  await expect(picker.getByText(exactly(tMX('compose.picker.kind.level'))).first()).toBeVisible();
  await expect(picker.getByText(exactly(tMX('compose.picker.kind.course'))).first()).toBeVisible();
  expect(tMX('compose.picker.kind.course')).toBe('Grupo');
  await picker.getByRole('searchbox', { name: tMX('compose.picker.search') }).fill('ajedrez');
  await expect(picker.getByText(exactly(tMX('compose.picker.kind.elective'))).first()).toBeVisible();
  await expectMexican(picker, 'the recipient picker');
});

test('the connectivity dashboard of a Mexican school reads by grado and grupo', async ({ page }) => {
  await loginViaApi(page, USERS.adminJuarez);
  await page.goto('/dashboard/connectivity');
  const main = page.locator('main');
  await expect(main.getByRole('heading', { name: tMX('connectivity.table.title') })).toBeVisible();
  await expectMexican(main, '/dashboard/connectivity');
});

test('the Mexican demo inbox: a justificante that greets José Luis as a maestro', async ({ page }) => {
  await loginViaApi(page, USERS.teacherJuarez);
  await page.goto('/inbox');
  const main = page.locator('main');
  const row = main.getByText('Justificante de inasistencia').first();
  await expect(row).toBeVisible();
  await expectMexican(main, '/inbox');
  await row.click();
  await expect(main.getByText(/^Estimado maestro:/).first()).toBeVisible();
});
