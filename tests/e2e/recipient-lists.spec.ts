// Recipient lists in the browser, on the real server: build a list from the compose picker, edit
// a member's phone with a bad then a good value (the server's Spanish field error, the typed value kept,
// then the row updated) as an administrator, or read it with «Solicitar corrección» as a teacher, send to the list from compose ("Usar en mensaje nuevo"), delete it to the trash
// and restore it. Once on a desktop and once on a 390×844 phone.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ComposePage } from './pages/compose-page';
import { USERS } from './support/env';
import { exactly, t } from './support/i18n';
import { loginViaApi } from './support/session';

const uniqueName = (prefix: string): string => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const toast = (page: Page, text: string) => page.locator('[data-slot=toast]').filter({ hasText: text });

/** An administrator fixes a guardian's phone: the prefixes by country, a refused value, then a good one. */
async function editPhone(page: Page, row: Locator): Promise<void> {
  const dialog = page.getByRole('dialog', { name: t('recipientLists.editor.title') });
  await expect(dialog.getByLabel(t('recipientLists.editor.prefix'), { exact: true }).locator('option').first()).toHaveText('Chile +56');
  await expect(dialog.getByText(t('recipientLists.editor.note'))).toBeVisible();
  const phone = dialog.getByLabel(t('recipientLists.editor.phone'), { exact: true });
  await phone.fill('12');
  await dialog.getByRole('button', { name: exactly(t('recipientLists.editor.save')) }).click();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.locator('#member-phone-error')).not.toBeEmpty();
  await expect(phone).toHaveValue('12');
  // Keyboard focus goes from "Guardar cambios" to the refused field.
  await expect(phone).toBeFocused();
  await phone.fill('987654321');
  await dialog.getByRole('button', { name: exactly(t('recipientLists.editor.save')) }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, t('recipientLists.memberSaved'))).toBeVisible();
  await expect(row.locator('[data-slot=member-phone]')).toHaveText('+56 9 8765 4321');
}

async function listFlow(page: Page, email: string, mayEdit: boolean): Promise<void> {
  await loginViaApi(page, email);
  await page.goto('/recipient-lists');
  await expect(page.getByRole('heading', { level: 1, name: t('recipientLists.heading') })).toBeVisible();

  // Build the list from the same picker as compose.
  const name = uniqueName('Familias 3° Básico A');
  await page.getByRole('button', { name: exactly(t('recipientLists.create')) }).click();
  // Saving with nothing says what is missing, beside each field.
  await page.getByRole('button', { name: exactly(t('recipientLists.save')) }).click();
  await expect(page.getByText(t('recipientLists.error.nameRequired'))).toBeVisible();
  await expect(page.getByText(t('recipientLists.error.picksRequired'))).toBeVisible();
  await page.getByLabel(t('recipientLists.name'), { exact: true }).fill(name);
  const compose = new ComposePage(page);
  await page.getByRole('button', { name: exactly(t('recipientLists.pickMembers')) }).click();
  await compose.picker.expectOpen();
  await compose.picker.search.fill('3° Básico A');
  await compose.picker.item('3° Básico A').check();
  await compose.picker.confirm.click();
  await expect(compose.picker.dialog).toBeHidden();
  await expect(page.getByLabel(t('recipientLists.name'), { exact: true })).toHaveValue(name);
  await page.getByRole('button', { name: exactly(t('recipientLists.save')) }).click();
  await expect(toast(page, t('recipientLists.created'))).toBeVisible();
  await expect(page).toHaveURL(/\/recipient-list\/\d+$/);
  const listUrl = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);

  // Edit a member's phone: a bad value is refused in Spanish under the field and stays typed; a good one saves.
  // A guardian's row (students have no phone of their own).
  const row = page.locator('[data-slot=member-row][data-user-type=apoderado]').first();
  const who = (await row.locator('[data-slot=member-name]').textContent()) ?? '';
  const open = t(mayEdit ? 'recipientLists.editMember' : 'recipientLists.viewMember', { name: who });
  await row.getByRole('button', { name: exactly(open) }).click();
  if (mayEdit) await editPhone(page, row);
  else {
    // Only the school's leadership changes a family's data: a teacher reads it and is told whom to ask.
    const record = page.getByRole('dialog', { name: t('recipientLists.editor.readTitle') });
    await expect(record.getByText(t('recipientLists.editor.readOnly'))).toBeVisible();
    await expect(record.getByRole('textbox')).toHaveCount(1);
    await record.getByLabel(t('recipientLists.editor.requestNote'), { exact: true }).fill('El celular correcto es +56 9 9747 3752.');
    await record.getByRole('button', { name: exactly(t('recipientLists.editor.request')) }).click();
    await expect(record.getByText(t('recipientLists.editor.requested'))).toBeVisible();
    await record.getByRole('button', { name: exactly(t('recipientLists.editor.close')) }).click();
    await expect(record).toBeHidden();
  }

  // Send to the list from compose.
  await page.getByRole('button', { name: exactly(t('recipientLists.use')) }).click();
  await expect(page).toHaveURL(/\/new\?list=\d+$/);
  await compose.expectReady();
  await expect(compose.chip(name)).toBeVisible();
  const title = uniqueName('Aviso a la lista');
  await compose.title.fill(title);
  await compose.channel('e-mail').check();
  await compose.content.fill('Mañana la salida es a las 13:00.');
  await compose.send.click();
  await compose.confirm('send');
  await expect(toast(page, t('messages.sent'))).toBeVisible();

  // Delete it to the trash (after the question), and restore it.
  await page.goto(listUrl);
  await page.getByRole('button', { name: exactly(t('recipientLists.delete')) }).click();
  await page.getByRole('button', { name: exactly(t('recipientLists.deleteConfirm')) }).click();
  await expect(toast(page, t('recipientLists.deleted'))).toBeVisible();
  await expect(page).toHaveURL(/\/recipient-lists$/);
  await page.goto('/recipient-lists/trash');
  const trashed = page.locator('[data-slot=trash-row]').filter({ hasText: name });
  await expect(trashed).toBeVisible();
  await trashed.getByRole('button', { name: `${t('recipientLists.restore')}: ${name}` }).click();
  await expect(toast(page, t('recipientLists.restored'))).toBeVisible();
  await expect(trashed).toBeHidden();
  await page.goto('/recipient-lists');
  await expect(page.locator('[data-slot=recipient-list-row]').filter({ hasText: name })).toBeVisible();
}

test("build a list from the picker, fix a member's phone, send to it, delete and restore it", async ({ page }) => {
  // Five screens in one flow: past 30 s when the machine is busy.
  test.slow();
  await listFlow(page, USERS.admin, true);
});

test.describe('on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the same flow fits and works', async ({ page }) => {
    test.slow();
    await listFlow(page, USERS.teacherLatam, false);
    // Nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
