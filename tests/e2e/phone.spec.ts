// On a 390×844 phone (and the toasts at 1366×800): every screen of the route table, as the
// administrator (who may enter them all), the reading and reception views, compose with the recipient
// picker open and the sidebar drawer: nothing scrolls sideways (WCAG 1.4.10), the header's controls
// ("Idioma", "Cerrar sesión", the menu) are inside the screen, each tab is titled after its screen, and a
// toast never covers the header's controls.
import { test, expect, type Page } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { ComposePage } from './pages/compose-page';
import { t } from './support/i18n';
import { USERS } from './support/env';
import { loginViaApi } from './support/session';
import { appUrl } from './support/server';
import { SCREENS, addressOf, type MessageIds, type ScreenVisit } from './support/screens';
import { messageIds, settled } from './support/visits';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 800 };

/** Nothing is wider than the screen: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    const width = root.clientWidth;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 0.5)
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`);
    return { scrollWidth: root.scrollWidth, clientWidth: width, culprits: wide };
  });
  expect(scrollWidth, `${where}: scrolls sideways (${culprits.join(' | ')})`).toBeLessThanOrEqual(clientWidth);
}

/** Every control of the header is wholly on screen. */
async function expectHeaderFits(page: Page, where: string): Promise<void> {
  const shell = new AppShell(page);
  const viewport = page.viewportSize()!;
  for (const [name, control] of [
    ['Idioma', shell.localeControl.first()],
    ['Cerrar sesión', shell.logoutControl.first()],
    ['Menú', shell.openNav],
  ] as const) {
    await expect(control, `${where}: ${name}`).toBeVisible();
    const box = (await control.boundingBox())!;
    expect(box.x, `${where}: ${name} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${where}: ${name} ends on screen`).toBeLessThanOrEqual(viewport.width);
  }
}

const landing = (visit: ScreenVisit, ids: MessageIds) => visit.landsOn ?? addressOf(visit, ids);

test.describe('a 390×844 phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('every screen as the administrator: no sideways scroll, the header fits, its own tab title', async ({ page }) => {
    test.setTimeout(120_000);
    await loginViaApi(page, USERS.admin);
    const ids = await messageIds(page);
    for (const visit of SCREENS.filter((screen) => !screen.guest)) {
      const where = `${visit.route} (${addressOf(visit, ids)})`;
      await page.goto(addressOf(visit, ids));
      await expect(page, where).toHaveURL(appUrl(landing(visit, ids)));
      await expect(page, where).toHaveTitle(`${t(visit.title)} · ${t('app.name')}`);
      await settled(page);
      await expectNoSidewaysScroll(page, where);
      await expectHeaderFits(page, where);
    }
  });

  test('the login page, compose with the picker open and the sidebar drawer', async ({ page }) => {
    const login = SCREENS.find((screen) => screen.guest)!;
    await page.goto(login.path);
    await expect(page).toHaveTitle(`${t(login.title)} · ${t('app.name')}`);
    await settled(page);
    await expectNoSidewaysScroll(page, 'login');

    await loginViaApi(page, USERS.admin);
    const compose = new ComposePage(page);
    await compose.goto();
    await compose.addRecipients.first().click();
    await compose.picker.expectOpen();
    await expect(compose.picker.dialog.getByRole('checkbox').first()).toBeVisible();
    await expectNoSidewaysScroll(page, 'compose, picker open');
    const dialog = (await compose.picker.dialog.boundingBox())!;
    expect(dialog.x).toBeGreaterThanOrEqual(0);
    expect(dialog.x + dialog.width).toBeLessThanOrEqual(PHONE.width);
    await compose.picker.cancel.click();
    await expect(compose.picker.dialog).toBeHidden();

    const shell = new AppShell(page);
    await shell.showNav();
    await expectNoSidewaysScroll(page, 'sidebar drawer');
  });

  test('a teacher who opens an admin-only address is told so as they land home, and the toast leaves the header free', async ({ page }) => {
    await loginViaApi(page, USERS.teacher);
    await page.goto('/settings/message-quota');
    const shell = new AppShell(page);
    const toast = shell.toast(t('error.noAccess'));
    // The toast lives 3 s; the pointer on it holds it (as for a reader) while the page is measured, which
    // on a busy machine takes longer than that.
    await expect(toast).toBeVisible();
    await toast.hover();
    await shell.expectInbox();
    await expect(toast).toBeVisible();
    await expectHeaderFits(page, 'inbox with a toast');
    await expectToastClearOfHeader(page);
  });
});

test.describe('a 1366×800 screen', () => {
  test.use({ viewport: LAPTOP });

  test('the refusal toast sits below the header, at the top right', async ({ page }) => {
    await loginViaApi(page, USERS.teacher);
    await page.goto('/dashboard/users');
    const shell = new AppShell(page);
    const toast = shell.toast(t('error.noAccess'));
    await expect(toast).toBeVisible();
    await toast.hover();
    await shell.expectInbox();
    await expect(toast).toBeVisible();
    await expectToastClearOfHeader(page);
    const box = (await toast.boundingBox())!;
    expect(box.x + box.width).toBeGreaterThan(LAPTOP.width / 2);
  });
});

/** No toast overlaps the header (where "Idioma" and "Cerrar sesión" are). */
async function expectToastClearOfHeader(page: Page): Promise<void> {
  const header = (await page.locator('[data-slot=top-bar]').boundingBox())!;
  for (const toast of await page.locator('[data-slot=toast]').all()) {
    const box = (await toast.boundingBox())!;
    expect(box.y, 'toast below the header').toBeGreaterThanOrEqual(header.y + header.height);
  }
}
