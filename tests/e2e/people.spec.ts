// The school's students and guardians in the browser, against the real server: an administrator finds a student
// by name typed without accents, corrects a guardian's phone on the guardian's record, gives the student a
// suplente, marks them withdrawn and enrols them again, each change asked first; a teacher does not get the
// page; the list and a record pass axe at desktop size and at 390 px, without sideways scrolling.
import { expect, test, type Page } from '@playwright/test';
import type { PersonRecord, PersonSummary } from '../../shared/people-contract';
import { expectNoAxeViolations } from './support/axe';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { appUrl } from './support/server';
import { api, loginViaApi, xsrfToken } from './support/session';
import { expectFitsPhone } from './support/phone-fit';

const PATH = '/settings/people';
const PHONE = { width: 390, height: 844 };

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A student of the demo school with an accented name, a titular guardian with a phone and no suplente yet. */
async function studentToWorkOn(page: Page): Promise<{ student: PersonRecord; guardianId: number }> {
  for (const q of ['núñez', 'muñoz', 'peña', 'gonzález', 'hernández', 'martínez']) {
    const list = await page.request.get(api(`/people?kind=estudiante&status=enrolled&per_page=100&q=${encodeURIComponent(q)}`));
    expect(list.status(), await list.text()).toBe(200);
    const rows = ((await list.json()) as { data: PersonSummary[] }).data;
    for (const row of rows.filter((r) => /[áéíóúñ]/i.test(r.name))) {
      const response = await page.request.get(api(`/people/estudiante/${row.id}`));
      const student = ((await response.json()) as { data: PersonRecord }).data;
      const titular = student.guardians.find((g) => g.rol_adulto_id === 1 && g.fono_celular);
      if (titular && !student.guardians.some((g) => g.rol_adulto_id === 2)) return { student, guardianId: titular.id };
    }
  }
  throw new Error('no student of the demo school fits');
}

test('an administrator finds a student without accents, corrects a guardian’s phone, adds a suplente, withdraws and enrols them again', async ({
  page,
}) => {
  await loginViaApi(page, USERS.admin);
  const { student, guardianId } = await studentToWorkOn(page);
  const guardian = student.guardians.find((g) => g.id === guardianId)!;
  let suplenteId: number | null = null;
  try {
    // The settings' tab, then the name as typed on a phone: no accents, any case.
    await page.goto('/settings/message-quota');
    await page
      .getByRole('navigation', { name: t('settingsShell.sections') })
      .getByRole('link', { name: t('settingsShell.people') })
      .click();
    await expect(page).toHaveURL(appUrl(PATH));
    await expect(page.getByRole('heading', { level: 2, name: t('people.heading') })).toBeVisible();
    await expectNoAxeViolations(page, 'people list');
    // The whole name is searched as one text: the given names and the first surname, as read from a form.
    const typed = fold(`${student.nombres} ${student.apellido_paterno}`);
    const searched = page.waitForResponse((r) => r.url().includes('/api/people?') && new URL(r.url()).searchParams.get('q') === typed);
    await page.getByRole('searchbox', { name: t('people.search') }).fill(typed);
    await searched;
    await expect(page).toHaveURL(new RegExp(`\\?q=${encodeURIComponent(typed).replace(/%20/g, '\\+')}`));
    const row = page.locator('[data-slot="people-row"]').filter({ hasText: student.name });
    await expect(row).toBeVisible();
    // The search survives a reload: it lives in the address.
    await page.reload();
    await expect(page.getByRole('searchbox', { name: t('people.search') })).toHaveValue(typed);
    await row.getByRole('link').click();
    await expect(page).toHaveURL(appUrl(`${PATH}/estudiante/${student.id}`));
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(student.name) })).toBeVisible();
    await expectNoAxeViolations(page, 'student record');

    // The guardian's record, from the student's: a new phone, refused in the browser first when too short.
    await page.getByRole('link', { name: guardian.name, exact: true }).click();
    await expect(page).toHaveURL(appUrl(`${PATH}/apoderado/${guardianId}`));
    // The address changes a moment before the guardian's record replaces the student's (whose form has a phone
    // field too): typing waits for the guardian's heading.
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(guardian.name) })).toBeVisible();
    const phone = page.locator('#person-phone');
    await phone.fill('12');
    await page.getByRole('button', { name: exactly(t('people.record.save')) }).click();
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await expect(phone).toBeFocused();
    await phone.fill('9 8765 4321');
    await page.getByRole('button', { name: exactly(t('people.record.save')) }).click();
    await expect(page.getByText(t('people.toast.saved', { name: guardian.name }))).toBeVisible();
    const saved = await page.request.get(api(`/people/apoderado/${guardianId}`));
    expect(((await saved.json()) as { data: PersonRecord }).data.fono_celular).toBe('+56987654321');

    // Back to the student by the guardian's list of students: a suplente.
    await page.getByRole('link', { name: student.name, exact: true }).click();
    await expect(page).toHaveURL(appUrl(`${PATH}/estudiante/${student.id}`));
    await page.getByRole('button', { name: exactly(t('people.guardians.add')) }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('#guardian-rol_adulto_id')).toHaveValue('2');
    await dialog.locator('#guardian-nombres').fill('Tomás');
    await dialog.locator('#guardian-apellido_paterno').fill('Suplente');
    await dialog.locator('#guardian-relationship').fill('Tío');
    await dialog.locator('#guardian-phone').fill('9 5555 1234');
    await expectNoAxeViolations(page, 'add guardian dialog', '[data-slot="add-guardian"]');
    await dialog.getByRole('button', { name: exactly(t('people.addGuardian.save')) }).click();
    await expect(page.getByText(t('people.toast.guardianAdded', { name: 'Tomás' }))).toBeVisible();
    const suplente = page.locator('[data-slot="person-guardian"]').filter({ hasText: 'Tomás Suplente' });
    await expect(suplente).toContainText(t('people.guardians.role.2'));
    const withSuplente = ((await (await page.request.get(api(`/people/estudiante/${student.id}`))).json()) as { data: PersonRecord }).data;
    suplenteId = withSuplente.guardians.find((g) => g.rol_adulto_id === 2)?.id ?? null;
    expect(suplenteId).not.toBeNull();

    // Withdrawn, after a question that says what it means; then enrolled again.
    await page.getByRole('button', { name: exactly(t('people.standing.withdraw')) }).click();
    const question = page.getByRole('alertdialog');
    await expect(question.getByText(t('people.confirm.withdrawBody'))).toBeVisible();
    await expectNoAxeViolations(page, 'withdraw question', '[data-slot="person-question"]');
    await question.getByRole('button', { name: exactly(t('people.confirm.withdraw')) }).click();
    await expect(page.getByText(t('people.toast.withdrawn', { name: student.name }))).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 }).getByText(t('people.withdrawn'))).toBeVisible();
    await page.getByRole('button', { name: exactly(t('people.standing.enrol')) }).click();
    await expect(question.getByText(t('people.confirm.enrolBody'))).toBeVisible();
    await question.getByRole('button', { name: exactly(t('people.confirm.enrol')) }).click();
    await expect(page.getByText(t('people.toast.enrolled', { name: student.name }))).toBeVisible();
    await expect(page.getByRole('button', { name: exactly(t('people.standing.withdraw')) })).toBeVisible();
  } finally {
    // The demo school as it was for the other specs: the phone back, the suplente's link gone.
    const headers = { [XSRF_HEADER]: await xsrfToken(page), Accept: 'application/json' };
    await page.request.patch(api(`/people/apoderado/${guardianId}`), { data: { fono_celular: guardian.fono_celular }, headers });
    if (suplenteId !== null) await page.request.delete(api(`/people/estudiante/${student.id}/guardians/${suplenteId}`), { headers });
  }
});

test('a teacher does not get the people screens: the list’s and a record’s addresses send them home', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto(PATH);
  await expect(page).toHaveURL(appUrl('/inbox'));
  await page.goto(`${PATH}/estudiante/1`);
  await expect(page).toHaveURL(appUrl('/inbox'));
});

test('on a 390 px phone the list and a record fit, pass axe and work', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await loginViaApi(page, USERS.admin);
  await page.goto(`${PATH}?kind=estudiante`);
  const row = page.locator('[data-slot="people-row"]').first();
  await expect(row).toBeVisible();
  await expectNoAxeViolations(page, 'people list on a phone');
  await expectFitsPhone(page, 'people list');
  await row.getByRole('link').click();
  await expect(page.getByRole('button', { name: exactly(t('people.record.save')) })).toBeVisible();
  await expectNoAxeViolations(page, 'student record on a phone');
  await expectFitsPhone(page, 'student record');
});
