// Locale switch es-CL → es-MX, kept in the i18n_redirected cookie (SPEC §1: 365 days, lax).
import { test, expect } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { t, tMX } from './support/i18n';
import { COOKIE, USERS } from './support/env';
import { loginViaApi } from './support/session';

const DAY_S = 24 * 60 * 60;

test('cambiar a es-MX sobrevive a recargar la página', async ({ page, context }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/inbox');
  const shell = new AppShell(page);
  await shell.expectInbox();
  await expect(page.getByText(t('pages.inboxBody'))).toBeVisible();

  await shell.switchLocale(t('locale.es-MX'));

  const mxBody = page.getByText(tMX('pages.inboxBody'));
  await expect(mxBody).toBeVisible();
  expect(tMX('pages.inboxBody')).toContain('padres o tutores');

  const cookie = (await context.cookies()).find((c) => c.name === COOKIE.locale);
  expect(cookie, `${COOKIE.locale} cookie`).toBeDefined();
  expect(cookie?.value).toBe('es-MX');
  expect(cookie?.sameSite).toBe('Lax');
  expect(cookie?.path).toBe('/');
  const daysLeft = ((cookie?.expires ?? 0) - Date.now() / 1000) / DAY_S;
  expect(daysLeft).toBeGreaterThan(364);
  expect(daysLeft).toBeLessThanOrEqual(366);

  await page.reload();

  await expect(mxBody).toBeVisible();
  await expect(page.getByText(t('pages.inboxBody'))).toHaveCount(0);
});

test('una escuela mexicana empieza en es-MX; la elección del usuario gana y queda en la cookie', async ({ page, context }) => {
  await loginViaApi(page, USERS.teacherJuarez);
  await page.goto('/inbox');
  // Nobody chose yet: the school's locale, and nothing written to the cookie.
  await expect(page.getByText(tMX('pages.inboxBody'))).toBeVisible();
  const shell = new AppShell(page);
  await expect(shell.localeControl.first()).toHaveValue('es-MX');
  expect((await context.cookies()).find((c) => c.name === COOKIE.locale)).toBeUndefined();

  await shell.switchLocale(tMX('locale.es-CL'));
  await expect(page.getByText(t('pages.inboxBody'))).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === COOKIE.locale)?.value).toBe('es-CL');

  await page.reload();
  await expect(page.getByText(t('pages.inboxBody'))).toBeVisible();
  await expect(page.getByText(tMX('pages.inboxBody'))).toHaveCount(0);
});

test('una escuela chilena sigue en es-CL sin que nadie elija', async ({ page, context }) => {
  await loginViaApi(page, USERS.teacherElqui);
  await page.goto('/inbox');
  await expect(page.getByText(t('pages.inboxBody'))).toBeVisible();
  await expect(new AppShell(page).localeControl.first()).toHaveValue('es-CL');
  expect((await context.cookies()).find((c) => c.name === COOKIE.locale)).toBeUndefined();
});
