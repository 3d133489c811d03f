// Login, wrong password, deep links, open-redirect protection, logout (SPEC §2 guards, §4 session, §5).
import { test, expect } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { AppShell } from './pages/app-shell';
import { USERS, WRONG_PASSWORD } from './support/env';
import { BASE_URL, E2E_HOST, E2E_PORT, appUrl, redirectParam } from './support/server';

test.describe('sesión', () => {
  test('/ sin sesión lleva a /login y, al ingresar, a Recibidos', async ({ page }) => {
    await page.goto('/');
    const login = new LoginPage(page);
    await login.expectShown();

    await login.login(USERS.admin);

    await new AppShell(page).expectInbox();
  });

  test('contraseña incorrecta muestra la alerta y conserva el correo', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();

    await login.login(USERS.corpUtp, WRONG_PASSWORD);

    await expect(login.invalidCredentials).toBeVisible();
    await expect(login.email).toHaveValue(USERS.corpUtp);
    await expect(page).toHaveURL(appUrl('/login'));
    expect(page.url()).not.toContain(WRONG_PASSWORD);
  });

  test('un enlace directo sin sesión se recuerda y se abre después de ingresar', async ({ page }) => {
    await page.goto('/sent');
    const login = new LoginPage(page);
    await login.expectShown();
    expect(redirectParam(page)).toBe('/sent');

    await login.login(USERS.teacher);

    const shell = new AppShell(page);
    await expect(page).toHaveURL(appUrl('/sent'));
    await expect(shell.heading('pages.sent')).toBeVisible();
  });

  for (const target of ['//evil.example', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
    test(`redirect=${target} se ignora: se llega al inicio de la app`, async ({ page }) => {
      const external: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol.startsWith('http') && url.host !== `${E2E_HOST}:${E2E_PORT}`) external.push(request.url());
      });
      const login = new LoginPage(page);
      await login.goto(`redirect=${encodeURIComponent(target)}`);

      await login.login(USERS.teacherJuarez);

      await new AppShell(page).expectInbox();
      expect(new URL(page.url()).origin).toBe(BASE_URL);
      expect(external).toEqual([]);
    });
  }

  test('cerrar sesión vuelve a /login y las páginas piden ingresar otra vez', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.login(USERS.directora);
    const shell = new AppShell(page);
    await shell.expectInbox();

    await shell.logout();

    await login.expectShown();
    await page.goto('/inbox');
    await login.expectShown();
    expect(redirectParam(page)).toMatch(/^\/inbox\/?$/);
    await expect(shell.heading('pages.inbox')).toHaveCount(0);
  });
});
