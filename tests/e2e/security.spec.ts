// Security headers as the browser receives them and no CSP violations in the login → inbox flow
// (SPEC §9: CSP restricted to self, no-referrer, nosniff).
import { test, expect, type Response } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { AppShell } from './pages/app-shell';
import { USERS } from './support/env';

function expectSecurityHeaders(response: Response | null, label: string): void {
  expect(response, `${label}: document response`).not.toBeNull();
  const headers = response?.headers() ?? {};
  const csp = headers['content-security-policy'];
  expect(csp, `${label}: Content-Security-Policy`).toBeTruthy();
  expect(csp).toMatch(/default-src 'self'/);
  expect(csp).not.toMatch(/'unsafe-eval'/);
  expect(headers['referrer-policy'], `${label}: Referrer-Policy`).toBe('no-referrer');
  expect(headers['x-content-type-options'], `${label}: X-Content-Type-Options`).toBe('nosniff');
}

test('cabeceras de seguridad en los documentos y sin violaciones de CSP al ingresar', async ({ page }) => {
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) cspErrors.push(message.text());
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  const loginResponse = await page.goto('/login');
  expectSecurityHeaders(loginResponse, '/login');

  const login = new LoginPage(page);
  await login.expectShown();
  await login.login(USERS.utp);
  const shell = new AppShell(page);
  await shell.expectInbox();

  const inboxResponse = await page.reload();
  expectSecurityHeaders(inboxResponse, '/inbox');
  await shell.expectInbox();

  expect(cspErrors, 'CSP violations in the console').toEqual([]);
  expect(pageErrors, 'uncaught page errors').toEqual([]);
});
