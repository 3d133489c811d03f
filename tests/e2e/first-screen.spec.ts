// On a phone's network every round trip before the first screen costs about as much as the latency: the
// login form loads the inbox's code while the user types, and "Ingresar" is answered with who signed in,
// so the inbox's rows need no call for the user or their policies first.
import { test, expect, type Request } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { FolderPage } from './pages/folder-page';
import { DEMO_PASSWORD, USERS } from './support/env';

/** A request for one of the SPA's chunks whose file name starts with `name` (`folder-page-<hash>.js`). */
const chunk = (name: string) => (request: Request) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(new URL(request.url()).pathname);

test.describe('primera pantalla', () => {
  test('el formulario de ingreso ya trae el código de Recibidos, sin que nadie ingrese', async ({ page }) => {
    const layout = page.waitForRequest(chunk('app-layout'));
    const folder = page.waitForRequest(chunk('folder-page'));
    const login = new LoginPage(page);
    await login.goto();
    // Nothing clicked, nothing typed.
    await Promise.all([layout, folder]);
    await expect(page).toHaveURL(/\/login$/);
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
