// Unknown routes show the 404 error page (SPEC §2 "Error page").
import { test, expect } from '@playwright/test';
import { ErrorPage } from './pages/error-page';
import { AppShell } from './pages/app-shell';
import { LoginPage } from './pages/login-page';
import { USERS } from './support/env';
import { loginViaApi } from './support/session';
import { appUrl, redirectParam } from './support/server';

test.describe('página 404', () => {
  test('sin sesión, /no-existe muestra la página 404', async ({ page }) => {
    await page.goto('/no-existe');
    const error = new ErrorPage(page);
    await error.expectNotFound();

    await error.home.click();

    // /inbox needs a session: the visitor ends on the login form, with /inbox remembered.
    await new LoginPage(page).expectShown();
    expect(redirectParam(page)).toMatch(/^\/inbox\/?$/);
  });

  test('con sesión, /no-existe muestra la 404 e "Ir al inicio" lleva a Recibidos', async ({ page }) => {
    await loginViaApi(page, USERS.teacher);
    await page.goto('/no-existe');
    const error = new ErrorPage(page);
    await error.expectNotFound();

    await error.home.click();

    await new AppShell(page).expectInbox();
  });

  test('con sesión, "Regresar" vuelve a la página anterior', async ({ page }) => {
    await loginViaApi(page, USERS.teacher);
    const shell = new AppShell(page);
    await page.goto('/sent');
    await expect(shell.heading('pages.sent')).toBeVisible();
    await page.goto('/no-existe/tampoco');
    const error = new ErrorPage(page);
    await error.expectNotFound();

    await error.back.click();

    await expect(page).toHaveURL(appUrl('/sent'));
    await expect(shell.heading('pages.sent')).toBeVisible();
  });
});
