// Logging in without the UI: the same calls the SPA makes (SPEC §7), through the context's request
// client so the session cookies land in the browser context.
import { expect, type Page } from '@playwright/test';
import { API, COOKIE, DEMO_PASSWORD, XSRF_HEADER } from './env';

/** An API path under the SPA's base (`VITE_API_BASE`, `/api` in the e2e build). */
export const api = (path: string): string => `/api${path}`;

export async function xsrfToken(page: Page): Promise<string> {
  const existing = (await page.context().cookies()).find((cookie) => cookie.name === COOKIE.xsrf);
  if (existing) return decodeURIComponent(existing.value);
  const response = await page.request.get(api(API.csrf));
  expect(response.ok(), `GET ${api(API.csrf)} → ${response.status()}`).toBeTruthy();
  const cookie = (await page.context().cookies()).find((c) => c.name === COOKIE.xsrf);
  if (!cookie) throw new Error(`${api(API.csrf)} did not set ${COOKIE.xsrf}`);
  return decodeURIComponent(cookie.value);
}

/** POST /api/login with the XSRF header; afterwards the context holds the session cookies. */
export async function loginViaApi(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  const token = await xsrfToken(page);
  const response = await page.request.post(api(API.login), {
    data: { email, password },
    headers: { [XSRF_HEADER]: token, Accept: 'application/json' },
  });
  expect(response.status(), `POST ${api(API.login)} for ${email}: ${await response.text()}`).toBe(200);
}
