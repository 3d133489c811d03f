// axe over every screen of the route table (tests/e2e/support/screens.ts names them all, so a new screen is
// scanned too), at 1366 px and on a 390 px phone, plus the recipient picker and the sidebar drawer.
import { test, expect, type Page } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { ComposePage } from './pages/compose-page';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { loginViaApi } from './support/session';
import { SCREENS, addressOf, type MessageIds } from './support/screens';
import { messageIds, settled } from './support/visits';

const WIDE = { width: 1366, height: 800 };
const PHONE = { width: 390, height: 844 };

/** axe at 1366 px, then on a 390 px phone, without leaving the page. */
async function scanBothSizes(page: Page, where: string): Promise<void> {
  await page.setViewportSize(WIDE);
  await settled(page);
  await expectNoAxeViolations(page, `${where} at 1366 px`);
  await page.setViewportSize(PHONE);
  await settled(page);
  await expectNoAxeViolations(page, `${where} at 390 px`);
}

test('axe: the login page', async ({ page }) => {
  const login = SCREENS.find((screen) => screen.guest)!;
  await page.goto(login.path);
  await scanBothSizes(page, login.path);
});

test.describe('axe: every screen as the administrator', () => {
  let ids: MessageIds;
  test.beforeEach(async ({ page }) => {
    await loginViaApi(page, USERS.admin);
    ids ??= await messageIds(page);
  });

  for (const visit of SCREENS.filter((screen) => !screen.guest)) {
    test(visit.route, async ({ page }) => {
      const address = addressOf(visit, ids);
      await page.setViewportSize(WIDE);
      await page.goto(address);
      await scanBothSizes(page, address);
    });
  }

  test('the recipient picker and the sidebar drawer', async ({ page }) => {
    const compose = new ComposePage(page);
    await compose.goto();
    await compose.addRecipients.first().click();
    await compose.picker.expectOpen();
    await expect(compose.picker.dialog.getByRole('checkbox').first()).toBeVisible();
    await expectNoAxeViolations(page, 'recipient picker', '[role=dialog]');
    await compose.picker.cancel.click();
    await expect(compose.picker.dialog).toBeHidden();
    await page.setViewportSize(PHONE);
    await new AppShell(page).showNav();
    await expectNoAxeViolations(page, 'sidebar drawer on a phone');
  });
});
