// The SMS quota screen in the browser against the real server: an administrator sees this month
// and the seeded months in the chart, whose table matches what the API reads from the database; the chart
// switches to the annual view; a limit set to what is already used makes compose refuse an SMS with SPEC
// §8's "monthly SMS quota exceeded" (the limit is put back afterwards); a teacher is sent home with "No
// tienes acceso a esa sección"; on a 390×844 phone nothing scrolls sideways.
import { expect, test, type Page } from '@playwright/test';
import type { QuotaSettings, QuotaUsage } from '../../shared/quota-contract';
import { QUOTA_API } from '../../shared/quota-contract';
import { ComposePage } from './pages/compose-page';
import { AppShell } from './pages/app-shell';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { api, loginViaApi, xsrfToken } from './support/session';

const n = (value: number) => new Intl.NumberFormat('es-CL').format(value);
const toast = (page: Page, text: string) => page.locator('[data-slot=toast]').filter({ hasText: exactly(text) });

async function read<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(api(path));
  expect(response.ok(), `GET ${path} → ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

async function patchSettings(page: Page, body: Record<string, unknown>): Promise<void> {
  const response = await page.request.patch(api(QUOTA_API.settings), {
    data: body,
    headers: { [XSRF_HEADER]: await xsrfToken(page), Accept: 'application/json' },
  });
  expect(response.ok(), `PATCH ${QUOTA_API.settings} → ${response.status()}: ${await response.text()}`).toBeTruthy();
}

test('an administrator sees this month and the seeded months, the chart table matching the database', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  await page.goto('/settings/message-quota');
  await expect(page.getByRole('heading', { level: 2, name: t('quota.heading') })).toBeVisible();
  const settings = await read<QuotaSettings>(page, QUOTA_API.settings);
  const figures = page.locator('[data-figure] dd');
  await expect(figures).toHaveText([n(settings.sms.used), n(settings.sms.remaining), n(settings.sms.limit)]);

  const usage = await read<QuotaUsage>(page, `${QUOTA_API.usage}?view=monthly&calendar=civil`);
  // The demo school has a year of SMS use seeded: several months have bars.
  expect(usage.bars.filter((bar) => bar.used > 0).length, 'seeded months with SMS').toBeGreaterThan(1);
  const chart = page.getByRole('img', { name: new RegExp(`^${t('quota.chart.titleMonthly', { year: String(usage.year) })}`) });
  await expect(chart).toBeVisible();
  await expect(chart.locator('[data-slot=bar]')).toHaveCount(usage.bars.length);

  // The table: hidden to the eye until "Ver tabla", equal to the database's figures.
  const table = page.getByRole('table', { name: t('quota.chart.titleMonthly', { year: String(usage.year) }) });
  await page.getByRole('button', { name: t('quota.chart.showTable') }).click();
  await expect(table).toBeVisible();
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(usage.bars.length);
  for (const [i, bar] of usage.bars.entries()) {
    await expect(rows.nth(i).locator('td')).toHaveText([n(bar.used), n(bar.limit)]);
  }

  // The annual view: the last years, no year arrows.
  await page.getByRole('button', { name: exactly(t('quota.chart.annual')) }).click();
  await expect(page.getByRole('img', { name: new RegExp(`^${t('quota.chart.titleAnnual')}`) })).toBeVisible();
  await expect(page.getByRole('button', { name: t('quota.chart.previous') })).toHaveCount(0);
  const styled = await page.locator('main [style]').count();
  expect(styled, 'elements with a style attribute on the quota screen').toBe(0);
});

test('a limit set to what is used makes compose refuse an SMS with "monthly SMS quota exceeded"', async ({ page }) => {
  await loginViaApi(page, USERS.adminElqui);
  const before = await read<QuotaSettings>(page, QUOTA_API.settings);
  try {
    await page.goto('/settings/message-quota');
    const limit = page.getByLabel(t('quota.form.limit'));
    await expect(limit).toHaveValue(String(before.sms.limit));
    if (before.sms.used > 0) {
      // Below what is used: said in the browser, with the figure, nothing sent.
      await limit.fill(String(before.sms.used - 1));
      await page.getByRole('button', { name: t('quota.form.save') }).click();
      await expect(page.getByText(t('quota.errors.belowUsed', { used: n(before.sms.used) }))).toBeVisible();
      await expect(limit).toBeFocused();
    }
    await limit.fill(String(before.sms.used));
    await page.getByRole('button', { name: t('quota.form.save') }).click();
    await expect(toast(page, t('quota.toast.saved'))).toBeVisible();
    await expect(page.locator('[data-figure=left] dd')).toHaveText('0');
    expect((await read<QuotaSettings>(page, QUOTA_API.settings)).sms.limit).toBe(before.sms.used);

    const compose = new ComposePage(page);
    await compose.goto();
    await compose.fill({ title: 'Reunión de apoderados', course: 'II Medio A', channel: 'sms', content: 'Reunión el jueves a las 18:00.' });
    await compose.send.click();
    // The estimate refuses it before anything is sent: no confirmation, SPEC §8's text.
    await expect(page.getByText(t('compose.errors.smsQuotaExceeded')).first()).toBeVisible();
    await expect(compose.confirmation).toHaveCount(0);
  } finally {
    await patchSettings(page, { sms_monthly_limit: before.sms.limit });
  }
});

test('a teacher is sent home with "No tienes acceso a esa sección"', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/settings/message-quota');
  const shell = new AppShell(page);
  await expect(shell.toast(t('error.noAccess'))).toBeVisible();
  await shell.expectInbox();
  await expect(page.getByRole('heading', { level: 2, name: t('quota.heading') })).toHaveCount(0);
});

test.describe('a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the quota screen fits: nothing scrolls sideways, the form is reachable by keyboard', async ({ page }) => {
    await loginViaApi(page, USERS.admin);
    await page.goto('/settings/message-quota');
    await expect(page.locator('[data-slot=bar-chart-svg]')).toBeVisible();
    for (const where of ['monthly view', 'with the table shown', 'annual view']) {
      const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
        const root = document.scrollingElement as HTMLElement;
        const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter(
          (element) => element.getBoundingClientRect().right > root.clientWidth + 0.5,
        );
        return {
          scrollWidth: root.scrollWidth,
          clientWidth: root.clientWidth,
          culprits: wide.slice(0, 3).map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`),
        };
      });
      expect(scrollWidth, `sideways scroll at 390 px, ${where}: ${culprits.join(', ')}`).toBeLessThanOrEqual(clientWidth);
      if (where === 'monthly view') await page.getByRole('button', { name: t('quota.chart.showTable') }).click();
      if (where === 'with the table shown') {
        await page.getByRole('button', { name: exactly(t('quota.chart.annual')) }).click();
        await expect(page.getByRole('img', { name: new RegExp(`^${t('quota.chart.titleAnnual')}`) })).toBeVisible();
      }
    }
    const limit = page.getByLabel(t('quota.form.limit'));
    await limit.focus();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(t('quota.form.reserve'))).toBeFocused();
  });
});
