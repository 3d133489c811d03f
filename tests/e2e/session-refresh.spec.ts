// A 401 in the browser against the real server: a tab whose access token the server no longer takes (a phone
// woken after it expired, before the refresh timer fired) refreshes once, gets the page and stays; only when
// the refresh token is gone too does the user land on the login page for that page.
import { expect, test, type Page } from '@playwright/test';
import { API, COOKIE } from '../../shared/contract';
import { AppShell } from './pages/app-shell';
import { USERS } from './support/env';
import { appUrl, redirectParam } from './support/server';
import { api, loginViaApi } from './support/session';

/** Counts the refresh calls the page makes from now on. */
function countRefreshes(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === api(API.refresh)) count += 1;
  });
  return () => count;
}

test('the access token gone before the timer fired: one refresh, the page loads and the user stays', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/inbox');
  const shell = new AppShell(page);
  await shell.expectInbox();
  const refreshes = countRefreshes(page);
  // The server no longer sees an access token; the refresh token and the readable expiry cookies stay.
  await page.context().clearCookies({ name: COOKIE.session });

  await shell.showNav();
  const folder = page.waitForResponse((response) => new URL(response.url()).pathname === api('/messages') && response.ok());
  await shell.navLink('nav.sent').click();
  await folder;
  // Still signed in on the folder, after one refresh that set a new access token.
  await expect(page).toHaveURL(appUrl('/sent'));
  await expect(shell.heading('pages.sent')).toBeVisible();
  expect(refreshes()).toBe(1);
  expect((await page.context().cookies()).some((cookie) => cookie.name === COOKIE.session)).toBe(true);
});

test('both tokens gone: the refresh fails and the user is sent to log in again for the page', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/inbox');
  const shell = new AppShell(page);
  await shell.expectInbox();
  await page.context().clearCookies({ name: COOKIE.session });
  await page.context().clearCookies({ name: COOKIE.refresh });

  await shell.showNav();
  await shell.navLink('nav.sent').click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(redirectParam(page)).toBe('/sent');
});
