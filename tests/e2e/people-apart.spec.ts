// Telling namesakes apart in the recipient picker on a 390×844 phone: two students whose short names are
// the same ("Maximiliano Pizarro") are both found, each row showing its course; a guardian row names the
// child and the child's course, in full, not cut off.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ComposePage } from './pages/compose-page';
import { USERS } from './support/env';
import { exactly, t } from './support/i18n';
import { api, loginViaApi } from './support/session';
import type { Recipients } from '../../shared/compose-contract';

const PHONE = { width: 390, height: 844 };

async function recipients(page: Page): Promise<Recipients> {
  const response = await page.request.get(api('/recipients'));
  expect(response.ok(), 'GET /recipients').toBeTruthy();
  return ((await response.json()) as { data: Recipients }).data;
}

/** The text a row's checkbox is described by first: the line under the name. */
async function detailOf(dialog: Locator, name: string): Promise<Locator> {
  const box = dialog.getByRole('checkbox', { name: exactly(name) }).first();
  const [id] = ((await box.getAttribute('aria-describedby')) ?? '').split(/\s+/);
  return dialog.locator(`[id="${id}"]`);
}

/** Shown whole: nothing of it is cut by an ellipsis or hidden by overflow. */
async function expectWhole(detail: Locator): Promise<void> {
  await expect(detail).toBeVisible();
  expect(await detail.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
}

test('on a phone, namesakes are found with their courses, and a guardian row names the child and course whole', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await loginViaApi(page, USERS.admin);
  const compose = new ComposePage(page);
  await compose.goto();
  const data = await recipients(page);
  const courses = data.courses.filter((course) => course.grupo_type === 'curso');

  // Two students of two courses with the same first name and father's surname.
  const byShort = new Map<string, { name: string; course: string }[]>();
  for (const course of courses) {
    for (const student of course.estudiantes) {
      const words = student.name.split(' ');
      const short = `${words[0]} ${words[words.length - 2]}`;
      byShort.set(short, [...(byShort.get(short) ?? []), { name: student.name, course: course.nombre }]);
    }
  }
  const [short, namesakes] = [...byShort].find(([, found]) => new Set(found.map((s) => s.course)).size >= 2) ?? [];
  expect(namesakes, 'two students of one short name in two courses').toBeTruthy();

  await compose.addRecipients.first().click();
  await compose.picker.expectOpen();
  const dialog = compose.picker.dialog;
  await compose.picker.search.fill(short!);
  for (const student of namesakes!.slice(0, 2)) {
    const detail = await detailOf(dialog, student.name);
    await expect(detail).toHaveText(student.course);
    await expectWhole(detail);
  }

  // A titular whose child has a long name: "Titular de <child> · <course>" under the guardian's name, whole.
  const course = courses.find((c) => c.apoderados.length > 0)!;
  // Listed once in the whole school (one child), so the row searched is that child's.
  const rowsOf = (id: number) => data.courses.flatMap((c) => c.apoderados).filter((g) => g.id === id).length;
  const guardian = [...course.apoderados]
    .filter((g) => g.rol_adulto_id === 1 && rowsOf(g.id) === 1)
    .sort(
      (a, b) =>
        course.estudiantes.find((s) => s.id === b.student_id)!.name.length -
        course.estudiantes.find((s) => s.id === a.student_id)!.name.length,
    )[0]!;
  const child = course.estudiantes.find((s) => s.id === guardian.student_id)!;
  await compose.picker.search.fill(guardian.ficha_apoderado.name);
  const detail = await detailOf(dialog, guardian.ficha_apoderado.name);
  await expect(detail).toContainText(
    `${t('compose.picker.guardianOf', { role: t('compose.picker.role.1'), student: child.name })} · ${course.nombre}`,
  );
  await expectWhole(detail);
  const width = await page.evaluate(() => (document.scrollingElement as HTMLElement).scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
});
