// Sidebar links per role and device, and the admin-only route guard (SPEC §2, §6).
import { test, expect } from '@playwright/test';
import { AppShell, COMMON_NAV, type NavKey } from './pages/app-shell';
import { USERS } from './support/env';
import { loginViaApi } from './support/session';
import { appUrl } from './support/server';

const ADMIN_ONLY: readonly NavKey[] = ['nav.dashboard', 'nav.settings', 'nav.audit', 'nav.privacy'];

test.describe('menú lateral', () => {
  test('administrador (device latam) ve Datos, Configuración y Mural además de las carpetas', async ({ page }) => {
    await loginViaApi(page, USERS.admin);
    await page.goto('/inbox');
    const shell = new AppShell(page);
    await shell.showNav();

    for (const key of [...COMMON_NAV, ...ADMIN_ONLY, 'nav.news' as const]) {
      await expect(shell.navLink(key), key).toBeVisible();
    }
    await expect(shell.navLink('nav.dashboard')).toHaveAttribute('href', /\/dashboard/);
    await expect(shell.navLink('nav.settings')).toHaveAttribute('href', /\/settings\/message-quota$/);
    await expect(shell.navLink('nav.news')).toHaveAttribute('href', /\/mural\/news$/);
    await expect(shell.navLink('nav.new')).toHaveAttribute('href', /\/new$/);
  });

  test('docente (device cl) no ve Datos, Configuración ni Mural', async ({ page }) => {
    await loginViaApi(page, USERS.teacher);
    await page.goto('/inbox');
    const shell = new AppShell(page);
    await shell.showNav();

    for (const key of COMMON_NAV) {
      await expect(shell.navLink(key), key).toBeVisible();
    }
    for (const key of [...ADMIN_ONLY, 'nav.news' as const]) {
      await expect(shell.navLink(key), key).toHaveCount(0);
    }
  });

  test('un docente que escribe /settings/message-quota termina en Recibidos', async ({ page }) => {
    await loginViaApi(page, USERS.teacher);
    await page.goto('/settings/message-quota');

    const shell = new AppShell(page);
    await shell.expectInbox();
    await expect(shell.heading('pages.settingsQuota')).toHaveCount(0);
  });

  test('el administrador sí abre /settings/message-quota', async ({ page }) => {
    await loginViaApi(page, USERS.admin);
    await page.goto('/settings/message-quota');

    await expect(page).toHaveURL(appUrl('/settings/message-quota'));
    await expect(new AppShell(page).heading('pages.settingsQuota')).toBeVisible();
  });
});
