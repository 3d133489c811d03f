// On a phone's network every round trip before the first screen costs about as much as the latency: the
// login form loads the inbox's code while the user types, and "Ingresar" is answered with who signed in,
// so the inbox's rows need no call for the user or their policies first.
import { test, expect, type Page } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { FolderPage } from './pages/folder-page';
import { DEMO_PASSWORD, USERS } from './support/env';

/** The paths of the scripts `page` asks for, in the order it asks. */
function watchScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

/** The index in `scripts` of the first chunk named `name` (Vite names chunks `<name>-<hash>.js`). */
const chunkIndex = (scripts: string[], name: string): number =>
  scripts.findIndex((path) => new RegExp(`^/assets/${name}-[A-Za-z0-9_-]{8}\\.js$`).test(path));

test.describe('primera pantalla', () => {
  test('una visita en frío al formulario de ingreso no descarga el avisador: llega con el primer aviso', async ({ page }) => {
    const scripts = watchScripts(page);
    await new LoginPage(page).goto();
    // Everything the form loads for later (the layout, the inbox) included.
    await page.waitForLoadState('networkidle');
    expect(chunkIndex(scripts, 'login')).toBeGreaterThan(0);
    expect(scripts.filter((path) => /\/toaster-/.test(path))).toEqual([]);
  });

  test('el código del formulario de ingreso se pide antes que el resto de lo que pide la aplicación al partir', async ({ page }) => {
    const scripts = watchScripts(page);
    await new LoginPage(page).goto();
    await page.waitForLoadState('networkidle');
    // The entry (index.html's only script), then at once the login form's chunk: not after the other
    // screens' routes, nor after the app's first render.
    expect(chunkIndex(scripts, 'index')).toBe(0);
    expect(chunkIndex(scripts, 'login')).toBe(1);
    expect(chunkIndex(scripts, 'other-screens')).toBeGreaterThan(1);
  });

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
