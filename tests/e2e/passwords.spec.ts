// Passwords in the browser (decisions 0167, 0168): a forgotten password from /login, through the e-mail's
// link read from the server's outbox, to signing in with the new one; the change from the account bar; each
// new screen axe-clean and usable on a 390×844 phone. The person is a colleague of San Andrés whose password
// the demo does not know (seeded without one), so no other spec signs in as them or meets their changes.
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { generateSeed } from '../../server/seed/generate';
import { readOutbox, resetLinkIn } from '../fixtures/eml';
import { AppShell } from './pages/app-shell';
import { LoginPage } from './pages/login-page';
import { expectNoAxeViolations } from './support/axe';
import { t } from './support/i18n';
import { appUrl, serverDataDir } from './support/server';

test.describe.configure({ mode: 'serial' });

const colleague = generateSeed().users.find((user) => user.password === null && user.email.endsWith('@sanandres.cl'))!;
const FIRST = 'girasol tetera volcán 42';
const SECOND = 'lámpara río pingüino 77';
const PHONE = { width: 390, height: 844 };
const TOO_SHORT = 'La contraseña debe tener al menos 10 caracteres.';

const outbox = () => path.join(serverDataDir(), 'outbox');

/** The reset links the outbox holds for the colleague. */
const linksSent = async (): Promise<string[]> =>
  (await readOutbox(outbox()))
    .filter((mail) => mail.to.includes(colleague.email))
    .map(resetLinkIn)
    .filter((link): link is string => link !== null);

/** Asks for a link on /forgot-password as a visitor would and returns the path of the one it e-mails. */
async function askLink(page: Page): Promise<string> {
  const before = new Set(await linksSent());
  await page.getByLabel(t('passwords.forgot.email'), { exact: true }).fill(colleague.email);
  await page.getByRole('button', { name: t('passwords.forgot.submit'), exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: t('passwords.forgot.sentTitle') })).toBeVisible();
  const fresh = async () => (await linksSent()).filter((link) => !before.has(link));
  await expect.poll(async () => (await fresh()).length, { timeout: 15_000 }).toBe(1);
  return (await fresh())[0]!;
}

/** Nothing wider than the screen (WCAG 1.4.10). */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth, `${where}: scrolls sideways`).toBeLessThanOrEqual(clientWidth);
}

let firstLink = '';

test('a forgotten password: from /login to an e-mailed link, a new password, and signing in with it', async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await page.getByRole('link', { name: t('login.forgot'), exact: true }).click();
  await expect(page).toHaveURL(appUrl('/forgot-password'));
  await expect(page).toHaveTitle(`${t('pages.forgotPassword')} · ${t('app.name')}`);
  await expect(page.getByRole('heading', { level: 1, name: t('passwords.forgot.title') })).toBeVisible();
  await expectNoAxeViolations(page, '/forgot-password');

  // A malformed address is refused in place, with the focus on it.
  await page.getByLabel(t('passwords.forgot.email'), { exact: true }).fill('no es correo');
  await page.getByRole('button', { name: t('passwords.forgot.submit'), exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: t('passwords.forgot.errors.invalid') })).toBeVisible();
  await expect(page.getByLabel(t('passwords.forgot.email'), { exact: true })).toBeFocused();

  firstLink = await askLink(page);
  // The answer names the address as typed and says only "if it is an account".
  await expect(page.getByText(t('passwords.forgot.sent', { email: colleague.email }))).toBeVisible();
  await expectNoAxeViolations(page, '/forgot-password, sent');

  await page.goto(firstLink);
  await expect(page).toHaveTitle(`${t('pages.resetPassword')} · ${t('app.name')}`);
  await expect(page.getByText(t('passwords.reset.subtitle', { email: colleague.email }))).toBeVisible();
  await expectNoAxeViolations(page, '/reset-password');
  const password = page.getByLabel(t('passwords.reset.password'), { exact: true });
  const confirmation = page.getByLabel(t('passwords.reset.confirmation'), { exact: true });
  // The rule's reason while typing (the rule's chunk arrives with the form).
  await password.fill('corta');
  await expect(page.getByRole('alert').filter({ hasText: TOO_SHORT })).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page, '/reset-password with a refused password');
  await password.fill(FIRST);
  await expect(page.getByRole('alert').filter({ hasText: TOO_SHORT })).toHaveCount(0);
  await confirmation.fill(`${FIRST}!`);
  await page.getByRole('button', { name: t('passwords.reset.submit'), exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: t('passwords.fields.confirmationWrong') })).toBeVisible();
  await expect(confirmation).toBeFocused();
  await confirmation.fill(FIRST);
  await page.getByRole('button', { name: t('passwords.reset.submit'), exact: true }).click();

  // Done: to /login, told so, signed in by nobody.
  await login.expectShown();
  await expect(page.getByText(t('passwords.reset.done'))).toBeVisible();
  await login.login(colleague.email, FIRST);
  await new AppShell(page).expectInbox();

  // The link worked once.
  await page.context().clearCookies();
  await page.goto(firstLink);
  await expect(page.getByRole('alert').filter({ hasText: t('passwords.reset.problems.used') })).toBeVisible();
  await expectNoAxeViolations(page, '/reset-password, a used link');
});

test('changing the password from the account bar keeps this session and ends the others', async ({ page, browser }) => {
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await new LoginPage(otherPage).goto();
  await new LoginPage(otherPage).login(colleague.email, FIRST);
  await new AppShell(otherPage).expectInbox();

  const login = new LoginPage(page);
  await login.goto();
  await login.login(colleague.email, FIRST);
  const shell = new AppShell(page);
  await shell.expectInbox();
  await page.getByRole('button', { name: t('account.changePassword'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t('passwords.change.title') });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'Cambiar contraseña', '[data-slot="dialog-content"]');

  await dialog.getByLabel(t('passwords.change.current'), { exact: true }).fill('no es la actual');
  await dialog.getByLabel(t('passwords.change.password'), { exact: true }).fill(SECOND);
  await dialog.getByLabel(t('passwords.change.confirmation'), { exact: true }).fill(SECOND);
  await dialog.getByRole('button', { name: t('passwords.change.submit'), exact: true }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'La contraseña actual no es correcta.' })).toBeVisible();
  await expect(dialog.getByLabel(t('passwords.change.current'), { exact: true })).toBeFocused();

  await dialog.getByLabel(t('passwords.change.current'), { exact: true }).fill(FIRST);
  await dialog.getByRole('button', { name: t('passwords.change.submit'), exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(shell.toast(t('passwords.change.done'))).toBeVisible();

  // This session goes on; the other browser's has ended.
  await page.reload();
  await shell.expectInbox();
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login/);
  await other.close();

  await page.context().clearCookies();
  await login.goto();
  await login.login(colleague.email, SECOND);
  await shell.expectInbox();
});

test.describe('a 390×844 phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the forgotten password, the new password and the change dialog fit', async ({ page }) => {
    await page.goto('/forgot-password');
    await expect(page.getByRole('heading', { level: 1, name: t('passwords.forgot.title') })).toBeVisible();
    await expectNoSidewaysScroll(page, '/forgot-password');
    const link = await askLink(page);
    await expectNoSidewaysScroll(page, '/forgot-password, sent');
    await page.goto(link);
    await expect(page.getByLabel(t('passwords.reset.password'), { exact: true })).toBeVisible();
    await page.getByLabel(t('passwords.reset.password'), { exact: true }).fill('corta');
    await expect(page.getByRole('alert').filter({ hasText: TOO_SHORT })).toBeVisible();
    await expectNoSidewaysScroll(page, '/reset-password');
    const submit = page.getByRole('button', { name: t('passwords.reset.submit'), exact: true });
    const box = (await submit.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

    const login = new LoginPage(page);
    await login.goto();
    await login.login(colleague.email, SECOND);
    await new AppShell(page).expectInbox();
    const entry = page.getByRole('button', { name: t('account.changePassword'), exact: true });
    const logout = new AppShell(page).logoutControl.first();
    for (const control of [entry, logout]) {
      const b = (await control.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
    }
    await entry.click();
    const dialog = page.getByRole('dialog', { name: t('passwords.change.title') });
    await expect(dialog).toBeVisible();
    const d = (await dialog.boundingBox())!;
    expect(d.x).toBeGreaterThanOrEqual(0);
    expect(d.x + d.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoSidewaysScroll(page, 'the change dialog');
    await dialog.getByRole('button', { name: t('passwords.change.cancel'), exact: true }).click();
    await expect(dialog).toBeHidden();
  });
});
