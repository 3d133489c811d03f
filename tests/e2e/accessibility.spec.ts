// axe over every screen of the route table (tests/e2e/support/screens.ts names them all), at 1366 px and on
// a 390 px phone, plus the dialogs people work in: the recipient picker and the sidebar drawer.
import { test, expect } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { ComposePage } from './pages/compose-page';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { loginViaApi } from './support/session';
import { SCREENS, addressOf } from './support/screens';
import { messageIds, settled } from './support/visits';

for (const [size, viewport] of [
  ['1366 px', { width: 1366, height: 800 }],
  ['a 390 px phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`axe at ${size}`, () => {
    test.use({ viewport });

    test('every screen as the administrator, and the login page', async ({ page }) => {
      test.setTimeout(180_000);
      const login = SCREENS.find((screen) => screen.guest)!;
      await page.goto(login.path);
      await settled(page);
      await expectNoAxeViolations(page, login.path);

      await loginViaApi(page, USERS.admin);
      const ids = await messageIds(page);
      for (const visit of SCREENS.filter((screen) => !screen.guest)) {
        const address = addressOf(visit, ids);
        await page.goto(address);
        await settled(page);
        await expectNoAxeViolations(page, address);
      }
    });

    test('the recipient picker and the sidebar', async ({ page }) => {
      await loginViaApi(page, USERS.admin);
      const compose = new ComposePage(page);
      await compose.goto();
      await compose.addRecipients.first().click();
      await compose.picker.expectOpen();
      await expect(compose.picker.dialog.getByRole('checkbox').first()).toBeVisible();
      await expectNoAxeViolations(page, 'recipient picker', '[role=dialog]');
      await compose.picker.cancel.click();
      await expect(compose.picker.dialog).toBeHidden();
      if (viewport.width < 768) {
        await new AppShell(page).showNav();
        await expectNoAxeViolations(page, 'sidebar drawer', '[role=dialog]');
      }
    });
  });
}
