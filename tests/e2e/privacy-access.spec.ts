// A person's right of access in the browser, against the real server: an administrator answers a guardian's
// request to see their data — opens "Datos personales" from the menu, finds the guardian by their RUT typed
// without dots, sees what is held in sections with counts, downloads the file and opens the ZIP (read here:
// the summary, the JSON, the CSV). The search and the person's page pass axe at 1366 and at 390 px; the
// person's record links to their data.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import type { PrivacyInventory, PrivacySearch } from '../../shared/privacy-contract';
import { AppShell } from './pages/app-shell';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { appUrl } from './support/server';
import { api, loginViaApi } from './support/session';
import { expectFitsPhone } from './support/phone-fit';

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A demo guardian with a RUT who has received messages (found through the API the page uses). */
async function guardianToAsk(page: Page): Promise<{ id: number; name: string; dni: string }> {
  for (const q of ['gonzalez', 'munoz', 'rojas', 'diaz', 'perez', 'soto']) {
    const res = await page.request.get(api(`/privacy/people?q=${q}`));
    expect(res.status(), await res.text()).toBe(200);
    const found = ((await res.json()) as PrivacySearch).data.filter((p) => p.kind === 'apoderado' && p.dni);
    for (const person of found) {
      const data = ((await (await page.request.get(api(`/privacy/people/apoderado/${person.id}`))).json()) as { data: PrivacyInventory })
        .data;
      if (data.sections.mensajes_recibidos.length > 0) return { id: person.id, name: person.name, dni: person.dni as string };
    }
  }
  throw new Error('no demo guardian fits');
}

test('an administrator answers an access request: finds the guardian, downloads the file, opens it', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await loginViaApi(page, USERS.admin);
  const guardian = await guardianToAsk(page);

  await page.goto('/inbox');
  await new AppShell(page).navLink('nav.privacy').click();
  await expect(page).toHaveURL(appUrl('/privacy'));
  await expect(page.getByRole('heading', { level: 1, name: t('privacy.heading') })).toBeVisible();
  await expectNoAxeViolations(page, 'privacy search (1366)');

  // The RUT as a parent dictates it on the phone: no dots, no dash.
  await page.getByRole('searchbox', { name: t('privacy.search') }).fill(guardian.dni.replace(/[^0-9kK]/g, ''));
  const result = page.locator('[data-slot="privacy-result"]').filter({ hasText: guardian.name });
  await expect(result).toBeVisible();
  await expectNoAxeViolations(page, 'privacy search results (1366)');
  await result.getByRole('link').click();
  await expect(page).toHaveURL(appUrl(`/privacy/apoderado/${guardian.id}`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(guardian.name);
  const received = page.locator('[data-slot="privacy-section"][data-section="mensajes_recibidos"]');
  const count = Number(await received.getAttribute('data-count'));
  expect(count).toBeGreaterThan(0);
  await expect(received).toContainText(t('privacy.person.rows', { count }));
  await received.locator('summary').click();
  await expect(received.getByRole('table')).toBeVisible();
  await expectNoAxeViolations(page, 'privacy person (1366)');

  // The download: a ZIP with the summary a person can read, the JSON and the CSV of what they received.
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: t('privacy.person.download') }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^datos-apoderado-${guardian.id}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  const files = unzipSync(new Uint8Array(await readFile((await download.path()) as string)));
  const summary = strFromU8(files['LEEME.txt']!);
  expect(summary).toContain('Sus datos personales en Hermes');
  expect(summary).toContain(guardian.name);
  const json = JSON.parse(strFromU8(files['datos.json']!)) as PrivacyInventory;
  expect(json.person.id).toBe(guardian.id);
  expect(json.sections.mensajes_recibidos).toHaveLength(count);
  expect(strFromU8(files['mensajes_recibidos.csv']!).trim().split('\r\n')).toHaveLength(count + 1);

  // At 390 px: the same screens, no sideways scrolling.
  await page.setViewportSize(PHONE);
  await expectFitsPhone(page, 'privacy person');
  await expectNoAxeViolations(page, 'privacy person (390)');
  await page.getByRole('link', { name: t('privacy.person.back') }).click();
  await expect(page).toHaveURL(appUrl('/privacy'));
  await page.getByRole('searchbox', { name: t('privacy.search') }).fill(guardian.name);
  await expect(page.locator('[data-slot="privacy-result"]').filter({ hasText: guardian.name })).toBeVisible();
  await expectFitsPhone(page, 'privacy search');
  await expectNoAxeViolations(page, 'privacy search (390)');
});

test('a person’s record links to their data', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  const guardian = await guardianToAsk(page);
  await page.goto(`/settings/people/apoderado/${guardian.id}`);
  await page.getByRole('link', { name: t('people.record.viewData') }).click();
  await expect(page).toHaveURL(appUrl(`/privacy/apoderado/${guardian.id}`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(guardian.name);
});
