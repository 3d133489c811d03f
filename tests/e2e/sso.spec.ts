// Single sign-on in the browser, against a real OpenID provider this spec starts on 127.0.0.1 (never the
// internet): an administrator sets the school's provider on /settings/sso (axe-clean at 390 px, the
// secret never shown), and a signed-out teacher at /login gets «Ingresar con Google» after the form,
// goes through the provider and lands on the inbox, signed in. A refusal comes back to /login and says why.
import { expect, test, type Page } from '@playwright/test';
import { startProvider, type TestProvider } from '../fixtures/oidc';
import { expectNoAxeViolations } from './support/axe';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { BASE_URL, appUrl } from './support/server';
import { api, loginViaApi, xsrfToken } from './support/session';

const PHONE = { width: 390, height: 844 };

let provider: TestProvider;

test.beforeAll(async () => {
  provider = await startProvider(`${BASE_URL}/api/sso/callback`);
});
test.afterAll(async () => {
  await provider?.close();
});

const SETTINGS = () => ({
  provider: 'google',
  issuer: provider.issuer,
  client_id: provider.clientId,
  client_secret: provider.clientSecret,
  domain: 'sanandres.cl',
});

/** Puts the school back without single sign-on, whatever the test got to. */
async function switchOff(page: Page): Promise<void> {
  const response = await page.request.put(api('/sso/settings'), {
    data: { ...SETTINGS(), enabled: false },
    headers: { [XSRF_HEADER]: await xsrfToken(page) },
  });
  expect(response.status()).toBe(200);
}

test('an administrator sets the provider, and a teacher signs in through it to the inbox', async ({ page, browser }) => {
  await page.setViewportSize(PHONE);
  await loginViaApi(page, USERS.admin);
  try {
    await page.goto('/settings/sso');
    await expect(page.getByRole('heading', { level: 1, name: t('settingsShell.heading') })).toBeVisible();
    await expect(page.getByTestId('sso-redirect-uri')).toHaveText(`${BASE_URL}/api/sso/callback`);
    await expectNoAxeViolations(page, '/settings/sso');
    await page.getByLabel(t('ssoSettings.issuer')).fill(provider.issuer);
    await page.getByLabel(t('ssoSettings.clientId')).fill(provider.clientId);
    await page.getByLabel(t('ssoSettings.clientSecret')).fill(provider.clientSecret);
    await page.getByLabel(t('ssoSettings.domain')).fill('sanandres.cl');
    await page.getByRole('switch', { name: t('ssoSettings.enabled') }).click();
    await page.getByRole('button', { name: exactly(t('ssoSettings.save')) }).click();
    await expect(page.getByText(t('ssoSettings.toast.saved'))).toBeVisible();
    // Saved: the secret field is empty again and says one is stored; the page never holds the secret.
    await expect(page.getByLabel(t('ssoSettings.clientSecret'))).toHaveValue('');
    await expect(page.getByText(t('ssoSettings.secretStored'))).toBeVisible();
    expect(await page.content()).not.toContain(provider.clientSecret);
    // Nothing sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    const teacher = await browser.newContext({ viewport: PHONE, locale: 'es-CL' });
    try {
      const visitor = await teacher.newPage();
      await visitor.goto('/login');
      await expect(visitor.locator('#login-email')).toBeVisible();
      const google = visitor.getByRole('link', { name: t('sso.google') });
      await expect(google).toBeVisible();
      await expectNoAxeViolations(visitor, '/login con ingreso por Google');
      provider.signInAs({ sub: 'docente-sanandres', email: USERS.teacher, email_verified: true });
      await visitor.locator('#login-email').fill(USERS.teacher);
      await google.click();
      await expect(visitor).toHaveURL(appUrl('/inbox'));
      await expect(visitor.getByRole('heading', { level: 1, name: t('pages.inbox'), exact: true })).toBeVisible();

      // Someone the school never invited comes back to /login, told why.
      const stranger = await teacher.newPage();
      await teacher.clearCookies();
      provider.signInAs({ sub: 'nadie', email: 'nadie@sanandres.cl', email_verified: true });
      await stranger.goto('/login');
      await stranger.getByRole('link', { name: t('sso.google') }).click();
      await expect(stranger).toHaveURL(appUrl('/login'));
      await expect(stranger.getByRole('alert')).toHaveText(t('sso.refusals.unknown'));
    } finally {
      await teacher.close();
    }
  } finally {
    await switchOff(page);
  }
});

test('only the school’s administrator is offered the single sign-on tab; a director is not', async ({ page }) => {
  const tab = page
    .getByRole('navigation', { name: t('settingsShell.sections') })
    .getByRole('link', { name: t('settingsShell.sso'), exact: true });
  await loginViaApi(page, USERS.directora);
  await page.goto('/settings/message-quota');
  await expect(page.getByRole('link', { name: t('settingsShell.quota'), exact: true })).toBeVisible();
  await expect(tab).toHaveCount(0);
  await loginViaApi(page, USERS.admin);
  await page.goto('/settings/message-quota');
  await expect(tab).toBeVisible();
});
