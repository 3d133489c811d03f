// The school's signature in the browser: an administrator changes it on
// /settings/message-signature and compose's SMS counter follows at once (in-app, no reload); a save the
// server refuses keeps the previous signature on screen and in the database, and what was typed; a teacher
// who opens the address lands home with "No tienes acceso a esa sección". Liceo Valle del Elqui is used
// (its signature starts inactive, and no other spec counts its SMS); the signature is put back afterwards.
import { expect, test, type Page } from '@playwright/test';
import type { Signature } from '../../shared/signature-contract';
import { SIGNATURE_MESSAGES } from '../../shared/signature-rules';
import { smsText } from '../../shared/sms-text';
import { AppShell } from './pages/app-shell';
import { ComposePage } from './pages/compose-page';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { api, loginViaApi, xsrfToken } from './support/session';

const PATH = '/settings/message-signature';
const PHONE = { width: 390, height: 844 };

async function schoolSignature(page: Page): Promise<Signature> {
  const response = await page.request.get(api('/institutions-signatures'));
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Signature[] }).data[0]!;
}

async function putBack(page: Page, signature: Signature): Promise<void> {
  const response = await page.request.patch(api(`/institutions-signatures/${signature.id}`), {
    data: { signature: signature.signature, is_active: signature.is_active ? 1 : 0 },
    headers: { [XSRF_HEADER]: await xsrfToken(page) },
  });
  expect(response.status()).toBe(200);
}

function signatureScreen(page: Page) {
  return {
    field: page.getByLabel(t('signature.field'), { exact: true }),
    active: page.getByRole('switch', { name: t('signature.active') }),
    save: page.getByRole('button', { name: exactly(t('signature.save')) }),
    inUse: page.getByTestId('signature-in-use'),
    cost: page.getByTestId('signature-cost'),
    previewSms: page.getByTestId('signature-preview-sms'),
    tab: (key: 'settingsShell.quota' | 'settingsShell.signature') =>
      page.getByRole('navigation', { name: t('settingsShell.sections') }).getByRole('link', { name: t(key), exact: true }),
  };
}

test('an administrator changes the signature and compose’s SMS counter follows without a reload', async ({ page }) => {
  await loginViaApi(page, USERS.adminElqui);
  const before = await schoolSignature(page);
  expect(before.is_active).toBe(false);
  try {
    // Compose first: no active signature, the whole segment is the text's.
    const compose = new ComposePage(page);
    await compose.goto();
    const text = 'Mañana la salida es a las 13:00 horas por jornada de reflexión.';
    await compose.channel('sms').check();
    await compose.content.fill(text);
    const units = smsText(text, null).units;
    await expect(compose.smsCounter).toHaveText(t('compose.sms.counter', { units, limit: 160 }));

    // The settings page, on a phone: nothing scrolls sideways, the tabs are links, "Firma" is current.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.setViewportSize(PHONE);
    await page.goto(PATH);
    const screen = signatureScreen(page);
    await expect(page.getByRole('heading', { level: 1, name: t('settingsShell.heading') })).toBeVisible();
    await expect(screen.tab('settingsShell.signature')).toHaveAttribute('aria-current', 'page');
    await expect(screen.tab('settingsShell.quota')).toHaveAttribute('href', '/settings/message-quota');
    await expect(screen.tab('settingsShell.quota')).not.toHaveAttribute('aria-current', 'page');
    await expect(screen.field).toHaveValue(before.signature);
    await expect(screen.inUse).toHaveText(t('signature.currentInactive', { signature: before.signature }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

    // A text the rule refuses says so at once, in Spanish, and is not sent.
    await screen.field.fill('LB');
    await expect(page.getByRole('alert').filter({ hasText: SIGNATURE_MESSAGES.length })).toBeVisible();
    await screen.field.fill('LBV');
    // Keyboard: the switch takes Space.
    await screen.active.focus();
    await page.keyboard.press('Space');
    await expect(screen.active).toHaveAttribute('aria-checked', 'true');
    await expect(screen.cost).toHaveText(t('signature.cost', { count: 6, limit: 154 }));
    await expect(screen.previewSms).toContainText('LBV');
    await screen.save.click();
    await expect(new AppShell(page).toast('Firma actualizada correctamente')).toBeVisible();
    await expect(screen.inUse).toHaveText(t('signature.currentActive', { signature: 'LBV' }));
    expect(await schoolSignature(page)).toEqual({ ...before, signature: 'LBV', is_active: true });

    // Back to compose by the app's own link (no reload): the counter now leaves 6 characters to the signature.
    await page.setViewportSize({ width: 1280, height: 800 });
    const shell = new AppShell(page);
    await page.evaluate(() => Object.assign(window, { hermesSameDocument: true }));
    await shell.showNav();
    await shell.navLink('nav.new').click();
    await compose.expectReady();
    expect(await page.evaluate(() => 'hermesSameDocument' in window)).toBe(true);
    await compose.channel('sms').check();
    await compose.content.fill(text);
    await expect(compose.smsCounter).toHaveText(t('compose.sms.counter', { units, limit: 154 }));
  } finally {
    await putBack(page, before);
  }
});

test('a save the server refuses keeps the previous signature on screen and in the database, and what was typed', async ({ page }) => {
  await loginViaApi(page, USERS.adminElqui);
  const before = await schoolSignature(page);
  await page.route('**/api/institutions-signatures/*', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Error interno', code: 'server.error' }),
        })
      : route.fallback(),
  );
  await page.goto(PATH);
  const screen = signatureScreen(page);
  await expect(screen.field).toHaveValue(before.signature);
  await screen.field.fill('ZZZ');
  await screen.save.click();
  await expect(new AppShell(page).toast('Ha ocurrido un error al actualizar la firma')).toBeVisible();
  await expect(screen.field).toHaveValue('ZZZ');
  await expect(screen.inUse).toHaveText(
    t(before.is_active ? 'signature.currentActive' : 'signature.currentInactive', { signature: before.signature }),
  );
  await expect(page.getByText(t('signature.failed'), { exact: true })).toBeVisible();
  expect(await schoolSignature(page)).toEqual(before);
});

test('a teacher who opens the signature settings is sent home with "No tienes acceso a esa sección"', async ({ page }) => {
  await loginViaApi(page, USERS.teacherElqui);
  await page.goto(PATH);
  const shell = new AppShell(page);
  await expect(shell.toast('No tienes acceso a esa sección')).toBeVisible();
  await shell.expectInbox();
  await expect(page.getByLabel(t('signature.field'), { exact: true })).toHaveCount(0);
});
