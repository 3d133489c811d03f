// On a phone's network every round trip before the first screen costs about as much as the latency: the
// login form loads the inbox's code while the user types, and "Ingresar" is answered with who signed in,
// so the inbox's rows need no call for the user or their policies first.
import { test, expect } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { FolderPage } from './pages/folder-page';
import { DEMO_PASSWORD, USERS } from './support/env';

test.describe('primera pantalla', () => {
  test('tras «Ingresar» Recibidos no descarga código: el formulario ya lo trajo mientras se escribía', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    // What the form loads for later is done once the network is quiet.
    await page.waitForLoadState('networkidle');
    await login.fill(USERS.admin, DEMO_PASSWORD);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await login.submit.click();
    await expect(new FolderPage(page, 'inbox').list.getByRole('listitem').first()).toBeVisible();
    expect(scripts).toEqual([]);
  });

  test('tras «Ingresar» la primera fila llega sin pedir el usuario ni sus permisos', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.fill(USERS.admin, DEMO_PASSWORD);
    const api: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) api.push(`${request.method()} ${path}`);
    });
    await login.submit.click();
    const inbox = new FolderPage(page, 'inbox');
    await expect(inbox.list.getByRole('listitem').first()).toBeVisible();
    expect(api).toContain('POST /api/login');
    expect(api).toContain('GET /api/messages');
    expect(api).not.toContain('GET /api/user');
    expect(api).not.toContain('GET /api/institution-policies');
  });
});
