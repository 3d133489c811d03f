// The audit log in the browser, against the real server: an administrator opens it from the sidebar, downloads
// the CSV (which the log then lists as an export, by them), narrows the log to what they did and to one action,
// and clears the filters; a reversed range is said and not asked for; a teacher has no entry. Axe passes at
// 1366 and at 390 px, where nothing scrolls sideways.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { exactly, t } from './support/i18n';
import { loginViaApi } from './support/session';
import { expectFitsPhone } from './support/phone-fit';

const PATH = '/audit';
const PHONE = { width: 390, height: 844 };

function auditScreen(page: Page) {
  return {
    heading: page.getByRole('heading', { level: 1, name: t('audit.heading') }),
    exportLink: page.getByRole('link', { name: t('audit.filters.export') }),
    rows: page.locator('[data-slot="audit-row"]'),
    exports: page.locator('[data-slot="audit-row"][data-action="audit.exported"]'),
    from: page.getByLabel(t('audit.filters.from'), { exact: true }),
    to: page.getByLabel(t('audit.filters.to'), { exact: true }),
    actions: page.locator('[data-slot="audit-actions"] summary'),
    clear: page.getByRole('button', { name: exactly(t('audit.filters.clear')) }),
  };
}

async function downloadCsv(page: Page): Promise<{ name: string; text: string }> {
  const screen = auditScreen(page);
  const [download] = await Promise.all([page.waitForEvent('download'), screen.exportLink.click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(file, 'utf8') };
}

test('an administrator reads the log, downloads it as CSV and finds their own export in it', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await loginViaApi(page, USERS.admin);
  await page.goto('/inbox');
  const shell = new AppShell(page);
  await shell.nav.getByRole('link', { name: t('nav.audit') }).click();
  await expect(page).toHaveURL(PATH);
  const screen = auditScreen(page);
  await expect(screen.heading).toBeVisible();

  const csv = await downloadCsv(page);
  expect(csv.name).toMatch(/^registro-de-auditoria-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(csv.text.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Fecha;Acción;Código;Quién;Dirección IP;Sobre;Tipo;Id;Detalle');

  // The export is in the log, by the administrator, newest first.
  await page.reload();
  await expect(screen.exports.first()).toBeVisible();
  await expect(screen.rows.first()).toHaveAttribute('data-action', 'audit.exported');
  await expect(screen.rows.first().getByRole('heading', { name: t('audit.action.audit.exported') })).toBeVisible();
  await expectNoAxeViolations(page, 'audit log');

  // Only what this administrator did: the chip says so and can be dropped.
  const only = screen.rows.first().getByRole('button', { name: /^Ver solo lo que hizo / });
  const name = ((await only.textContent()) ?? '').replace('Ver solo lo que hizo ', '');
  await only.click();
  await expect(page.getByText(t('audit.filters.actor', { name }))).toBeVisible();
  await expect(screen.exports.first()).toBeVisible();

  // One action, by keyboard: the disclosure opens with Enter and the box toggles with Space.
  await screen.actions.focus();
  await page.keyboard.press('Enter');
  const box = page.getByRole('checkbox', { name: t('audit.action.person.erased') });
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await expect(screen.actions).toContainText(t('audit.filters.chosen', { count: 1 }));
  await expect(page.getByText(t('audit.empty'))).toBeVisible();
  await expectNoAxeViolations(page, 'audit log, filtered and empty');
  await page.keyboard.press('Space');
  await expect(screen.exports.first()).toBeVisible();
  await screen.actions.click();

  // A range whose end comes first is said, and the rows stay those of the last good query.
  await screen.from.fill('2026-12-31');
  await screen.to.fill('2026-01-01');
  await expect(page.getByRole('alert').filter({ hasText: t('audit.filters.reversed') })).toBeVisible();
  await expect(screen.exports.first()).toBeVisible();

  await screen.clear.click();
  await expect(page.getByText(t('audit.filters.actor', { name }))).toHaveCount(0);
  await expect(screen.from).toHaveValue('');
});

test('at 390 px the log fits the screen and passes axe', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await loginViaApi(page, USERS.admin);
  await page.goto(PATH);
  const screen = auditScreen(page);
  await expect(screen.heading).toBeVisible();
  // At least one entry, with a long name in its buttons: an export of the log.
  await downloadCsv(page);
  await page.reload();
  await expect(screen.exports.first()).toBeVisible();
  await expectFitsPhone(page, 'audit log');
  await expectNoAxeViolations(page, 'audit log at 390 px');
  await screen.actions.click();
  await expect(page.getByRole('checkbox', { name: t('audit.action.session.signed_in'), exact: true })).toBeVisible();
  await expectNoAxeViolations(page, 'audit log actions at 390 px');
});

test('a teacher has no audit entry in the sidebar', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/inbox');
  const shell = new AppShell(page);
  await expect(shell.nav.getByRole('link', { name: t('nav.inbox') })).toBeVisible();
  await expect(shell.nav.getByRole('link', { name: t('nav.audit') })).toHaveCount(0);
});
