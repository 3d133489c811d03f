// Reaching families from compose in the browser, as a teacher would try it: a Chilean school's at 1366×800
// and a Mexican school's on a 390×844 phone. A student's name in the picker finds their family as one pick
// (the role control saying who receives), the real server reaches the student's titular and suplente, and the
// people count agrees from the picker to the estimate, the chips and the sent message; a message nobody could
// get is said so and «Enviar» is not offered; the toast says the message was handed over.
import { expect, test, type Page } from '@playwright/test';
import { ComposePage } from './pages/compose-page';
import { USERS } from './support/env';
import { exactly, t, tMX } from './support/i18n';
import { api, loginViaApi } from './support/session';
import type { Recipients } from '../../shared/compose-contract';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 800 };

const uniqueTitle = (prefix: string): string => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/**
 * A student of the signed-in user's school with a titular and a suplente who both have an e-mail, and a
 * name no other student of the school has: their name, course, and their guardians' number (2).
 */
async function familyOfTwo(page: Page): Promise<{ name: string; course: string }> {
  const response = await page.request.get(api('/recipients'));
  expect(response.ok(), 'GET /recipients').toBeTruthy();
  const { data } = (await response.json()) as { data: Recipients };
  const names = new Map<string, number>();
  for (const course of data.courses) for (const student of course.estudiantes) names.set(student.name, (names.get(student.name) ?? 0) + 1);
  for (const course of data.courses.filter((c) => c.grupo_type === 'curso')) {
    for (const student of course.estudiantes) {
      const guardians = course.apoderados.filter((guardian) => guardian.student_id === student.id);
      const both = new Set(guardians.map((guardian) => guardian.rol_adulto_id)).size === 2;
      // Listed once: in their course and in no elective (names counts both).
      if (guardians.length === 2 && both && guardians.every((g) => g.ficha_apoderado.email) && names.get(student.name) === 1) {
        return { name: student.name, course: course.nombre };
      }
    }
  }
  throw new Error('no student with a titular and a suplente, both with e-mail, in the seed');
}

async function openCompose(page: Page, email: string): Promise<ComposePage> {
  await loginViaApi(page, email);
  const compose = new ComposePage(page);
  await compose.goto();
  return compose;
}

test("a Chilean teacher writes to a student's family by the student's name; the counts agree up to the sent message", async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  const compose = await openCompose(page, USERS.teacherElqui);
  const student = await familyOfTwo(page);
  const title = uniqueTitle('Citación');
  await compose.title.fill(title);

  await compose.addRecipients.first().click();
  await compose.picker.expectOpen();
  // The role control says what it does to what is marked.
  const who = compose.picker.dialog.getByRole('combobox', { name: t('compose.picker.audience.label'), exact: true });
  // The help is written twice: under the title on a wide screen, folded under "Ayuda y colores" on a phone.
  await expect(compose.picker.dialog.getByText(t('compose.picker.audience.help.all')).filter({ visible: true })).toBeVisible();
  await compose.picker.search.fill(student.name);
  // «Todos»: the student and, beside her, her family.
  await expect(compose.picker.item(student.name)).toBeVisible();
  await expect(compose.picker.item(t('compose.picker.familyOf.apoderados', { student: student.name }))).toBeVisible();
  await who.selectOption('apoderados');
  await expect(compose.picker.dialog.getByText(t('compose.picker.audience.help.apoderados')).filter({ visible: true })).toBeVisible();
  await expect(compose.picker.item(student.name)).toHaveCount(0);
  await compose.picker.item(t('compose.picker.familyOf.apoderados', { student: student.name })).check();
  await expect(compose.picker.dialog.getByText(t('compose.picker.selected', { count: 2 }))).toBeVisible();
  await compose.picker.confirm.click();
  await expect(compose.picker.dialog).toBeHidden();
  await expect(compose.chip(t('compose.picker.familyOf.apoderados', { student: `${student.name} (${student.course})` }))).toBeVisible();

  await compose.channel('e-mail').check();
  await compose.content.fill('Les pedimos pasar por la oficina el lunes a las 8:00.');
  await compose.send.click();
  expect(await compose.reachCount()).toBe(2);
  // The chips now say the estimate's count, without «(aprox.)».
  await expect(page.locator('[data-slot=recipients-people]')).toHaveText(t('compose.picker.selectedExact', { count: 2 }));
  await compose.confirm('send');

  // Handed over, and the sent message counts people and deliveries apart.
  await expect(page.locator('[data-slot=toast]').filter({ hasText: exactly(t('messages.sent')) })).toBeVisible();
  await expect(page).toHaveURL(/\/sent\/message\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.locator('[data-slot=reach-summary]')).toHaveText(
    `${t('messages.reachedPeople', { count: 2 })} · ${t('messages.deliveryCount', { count: 2 })}`,
  );
});

test('a message nobody could get is said so and «Enviar» is not offered until the channels change', async ({ page }) => {
  await page.setViewportSize(LAPTOP);
  const compose = await openCompose(page, USERS.adminElqui);
  const student = await familyOfTwo(page);
  await compose.title.fill(uniqueTitle('Aviso'));
  // The student herself, by the app alone: students have no app yet.
  await compose.addRecipients.first().click();
  await compose.picker.expectOpen();
  await compose.picker.search.fill(student.name);
  await compose.picker.item(student.name).check();
  await compose.picker.confirm.click();
  await compose.channel('app-mobile').check();
  await compose.content.fill('Mañana no hay clases.');
  await compose.send.click();

  const nobody = page
    .locator('[data-slot=estimate]')
    .getByRole('alert')
    .filter({ hasText: t('compose.errors.nobodyReachable', { count: 1 }) });
  await expect(nobody).toBeVisible();
  await expect(compose.confirmation).toHaveCount(0);
  await expect(compose.send).toBeDisabled();
  expect(await compose.errorOf(compose.send)).toBe(t('compose.errors.nobodyReachable', { count: 1 }));

  // Another channel: offered again.
  await compose.channel('e-mail').check();
  await expect(compose.send).toBeEnabled();
  await expect(nobody).toHaveCount(0);
});

test("a Mexican teacher on a phone finds a student's parents by the student's name", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const compose = await openCompose(page, USERS.teacherJuarez);
  const student = await familyOfTwo(page);
  await compose.addRecipients.first().click();
  const dialog = page.getByRole('dialog', { name: tMX('compose.picker.title') });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: tMX('compose.picker.audience.label'), exact: true }).selectOption('apoderados');
  // On a phone the help is folded under "Ayuda y colores".
  await dialog.getByText(tMX('compose.picker.helpToggle'), { exact: true }).click();
  await expect(dialog.getByText(tMX('compose.picker.audience.help.apoderados')).filter({ visible: true })).toBeVisible();
  await dialog.getByRole('searchbox', { name: tMX('compose.picker.search') }).fill(student.name);
  const family = dialog.getByRole('checkbox', { name: exactly(tMX('compose.picker.familyOf.apoderados', { student: student.name })) });
  await family.check();
  await expect(dialog.getByText(tMX('compose.picker.selected', { count: 2 }))).toBeVisible();
  await dialog.getByRole('button', { name: exactly(tMX('compose.picker.confirm')) }).click();
  await expect(dialog).toBeHidden();
  const chip = page.getByRole('list', { name: tMX('compose.field.recipients'), exact: true }).getByRole('listitem');
  await expect(chip).toContainText(tMX('compose.picker.familyOf.apoderados', { student: `${student.name} (${student.course})` }));
  // Nothing runs off the phone's screen.
  const width = await page.evaluate(() => (document.scrollingElement as HTMLElement).scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
});
