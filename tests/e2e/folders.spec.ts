// Folders in the browser: reading drops the unread counter, delete → trash → restore, accent-less search.
// Each test uses its own demo user: the server and its database are shared by the parallel workers.
import { expect, test, type Page } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { appUrl } from './support/server';
import { loginViaApi } from './support/session';
import { t } from './support/i18n';

const unreadBadge = (shell: AppShell) => shell.navLink('nav.inbox').locator('[aria-label$="sin leer"]');

async function openFolder(page: Page, email: string, path: string) {
  await loginViaApi(page, email);
  await page.goto(path);
  const list = page.getByRole('list');
  await expect(list.getByRole('listitem').first()).toBeVisible();
  return list;
}

test('reading an unread inbox message marks it read and the counter drops', async ({ page }) => {
  const list = await openFolder(page, 'docente@liceoelqui.cl', '/inbox');
  const shell = new AppShell(page);
  const before = Number(await unreadBadge(shell).innerText());
  expect(before).toBeGreaterThan(0);

  const unreadRow = list.locator('[data-unread]').first();
  const title = (await unreadRow.locator('[data-slot=message-title]').innerText()).trim();
  await unreadRow.getByRole('link').click();
  await expect(page).toHaveURL(/\/inbox\/message\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(unreadBadge(shell)).toHaveText(String(before - 1));

  await page.getByRole('link', { name: t('messages.back', { folder: t('pages.inbox') }) }).click();
  await expect(page.getByRole('listitem').filter({ hasText: title }).first()).not.toHaveAttribute('data-unread');
});

test('delete moves a message to the trash and restore brings it back', async ({ page }) => {
  const list = await openFolder(page, 'administrador@liceoelqui.cl', '/sent');
  const row = list.getByRole('listitem').first();
  const title = (await row.locator('[data-slot=message-title]').innerText()).trim();
  await row.getByRole('checkbox').check();
  await page.getByRole('button', { name: t('folders.delete'), exact: true }).click();
  await expect(page.getByText(t('messages.deleted', { count: 1 }))).toBeVisible();
  await expect(list.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);

  await new AppShell(page).navLink('nav.trash').click();
  await expect(page).toHaveURL(appUrl('/trash'));
  const trashed = page.getByRole('listitem').filter({ hasText: title }).first();
  await expect(trashed).toBeVisible();
  await trashed.getByRole('checkbox').check();
  await page.getByRole('button', { name: t('folders.restore'), exact: true }).click();
  await expect(page.getByText(t('messages.restored', { count: 1 }))).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);

  await new AppShell(page).navLink('nav.sent').click();
  await expect(page.getByRole('listitem').filter({ hasText: title }).first()).toBeVisible();
});

test('an accent-less search finds an accented title', async ({ page }) => {
  await openFolder(page, 'docente@sanandres.cl', '/inbox');
  await page.getByRole('searchbox').fill('autorizacion salida pedagogica');
  const hit = page.getByRole('listitem').filter({ hasText: 'Autorización salida pedagógica' }).first();
  await expect(hit).toBeVisible();
  await page.getByRole('searchbox').fill('zzz-nada-coincide');
  await expect(page.getByText(t('folders.emptySearch', { q: 'zzz-nada-coincide' }))).toBeVisible();
});
