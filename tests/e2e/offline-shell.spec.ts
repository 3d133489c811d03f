// The app shell kept by the service worker: a returning user's login form comes from the browser's cache
// (index.html, the entry's scripts and styles, the login screen and its texts) without asking the server
// for any of them, and with no network at all; the API's answers are never kept. (Not by blocking the
// server's files with `route`: Playwright's request interception makes Chromium bypass service workers.)
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { LoginPage } from './pages/login-page';
import { USERS } from './support/env';
import { t } from './support/i18n';

/**
 * The first visit: the login form, then the worker installed, active and in control of the page. The
 * browser's HTTP cache is emptied after it (hashed assets are cached there for a year), so what the next
 * visit gets without the network can only come from the worker's cache.
 */
async function firstVisit(page: Page, context: BrowserContext): Promise<void> {
  await new LoginPage(page).goto();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

/** The paths the page's caches hold, every cache together. */
async function cachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

/** The page's own files (document, scripts, styles) a visit gets, and those the worker did not answer. */
function watchFiles(page: Page) {
  const served: string[] = [];
  const notFromWorker: string[] = [];
  const SHELL_TYPES = new Set(['document', 'script', 'stylesheet']);
  page.on('response', (response) => {
    if (!SHELL_TYPES.has(response.request().resourceType())) return;
    const path = new URL(response.url()).pathname;
    served.push(path);
    if (!response.fromServiceWorker()) notFromWorker.push(path);
  });
  return { served, notFromWorker };
}

test.describe('la aplicación guardada en el navegador', () => {
  test('la segunda visita muestra el formulario de ingreso sin pedir archivos al servidor', async ({ page, context }) => {
    await firstVisit(page, context);
    const kept = await cachedPaths(page);
    const files = watchFiles(page);

    await page.goto('/login');
    await new LoginPage(page).expectShown();
    // The page (index.html), the entry's scripts, the login screen's chunks and the styles: all answered
    // by the worker, from what it had kept before this visit.
    expect(files.served).toContain('/login');
    expect(files.served.filter((path) => path.endsWith('.js')).length).toBeGreaterThan(3);
    expect(files.served.some((path) => path.endsWith('.css'))).toBe(true);
    expect(files.notFromWorker).toEqual([]);
    expect(kept).toContain('/index.html');
    expect(files.served.filter((path) => path !== '/login' && !kept.includes(path))).toEqual([]);
  });

  test('sin conexión, la aplicación abre igual y muestra el formulario de ingreso', async ({ page, context }) => {
    await firstVisit(page, context);
    await context.setOffline(true);

    await page.goto('/login');
    await new LoginPage(page).expectShown();
    // A deep link too: the history fallback is served from the cache.
    await page.goto('/sent');
    await new LoginPage(page).expectShown();
    await context.setOffline(false);
  });

  test('nunca guarda respuestas de la API, ni después de ingresar', async ({ page, context }) => {
    await firstVisit(page, context);
    const login = new LoginPage(page);
    await login.login(USERS.admin);
    await new AppShell(page).expectInbox();
    // Opened again, now through the worker: the inbox's answers go to the server as always.
    await page.goto('/inbox');
    await new AppShell(page).expectInbox();

    const paths = await cachedPaths(page);
    expect(paths).toContain('/index.html');
    expect(paths.filter((path) => path.startsWith('/api/'))).toEqual([]);
    // Only the build's files: the shell, hashed assets and the icon.
    for (const path of paths) expect(path).toMatch(/^\/(?:index\.html|favicon\.svg|assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+)$/);
  });

  test('deja los demás archivos al navegador: `page.route` los sigue viendo con el worker al mando', async ({ page, context }) => {
    await firstVisit(page, context);
    await new LoginPage(page).login(USERS.admin);
    await new AppShell(page).expectInbox();
    const routed: string[] = [];
    await page.route(/\/assets\/templates-page-[^/]*\.js$/, async (route) => {
      routed.push(route.request().url());
      await route.continue();
    });

    await new AppShell(page).navLink('nav.templates').click();
    await expect(page.getByRole('heading', { level: 1, name: t('pages.templates') })).toBeVisible();
    expect(routed).toHaveLength(1);
  });
});
