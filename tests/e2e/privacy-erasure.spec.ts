// A person's rights of objection and erasure in the browser, against the real server: an administrator
// answers a guardian's request — finds them from «Privacidad», blocks every message (who asked; the page says
// since when), then erases them: reads what goes in the dialog, types a wrong word (the server's Spanish
// answer), types ELIMINAR; the page shows the person erased with no download nor block left, and the search
// no longer finds them. The page and the open dialog pass axe at 1366 and at 390 px.
// The guardian is one no other spec picks (guardianToErase), so erasing them changes nothing another reads.
import { expect, test, type Page } from '@playwright/test';
import { COMPOSE_API, type Recipients } from '../../shared/compose-contract';
import type { PrivacyInventory } from '../../shared/privacy-contract';
import { AppShell } from './pages/app-shell';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { appUrl } from './support/server';
import { api, loginViaApi } from './support/session';
import { expectFitsPhone } from './support/phone-fit';

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** privacy-access.spec looks for its guardian among these surnames; this one stays clear of them. */
const ACCESS_SURNAMES = /gonz[aá]lez|mu[nñ]oz|rojas|d[ií]az|p[eé]rez|soto/i;

/**
 * A guardian of the school's middle course with a RUT and a phone, without the families' app (the family
 * specs take guardians with it, from the ends of the list) and out of privacy-access.spec's searches.
 */
async function guardianToErase(admin: Page): Promise<{ id: number; name: string }> {
  const res = await admin.request.get(api(COMPOSE_API.recipients));
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: Recipients };
  const courses = [...data.courses.slice(Math.floor(data.courses.length / 2)), ...data.courses];
  for (const course of courses) {
    for (const g of course.apoderados) {
      const name = g.ficha_apoderado.name;
      if (g.device_status === 'blue' || !g.ficha_apoderado.fono_celular || ACCESS_SURNAMES.test(name)) continue;
      const person = await admin.request.get(api(`/privacy/people/apoderado/${g.id}`));
      const held = ((await person.json()) as { data: PrivacyInventory }).data;
      if (held.person.dni && held.bloqueo === null && held.eliminado_el === null) return { id: g.id, name: held.person.name };
    }
  }
  throw new Error('no demo guardian fits');
}

test('an administrator answers an erasure request: blocks the guardian, then erases them', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await loginViaApi(page, USERS.admin);
  const guardian = await guardianToErase(page);

  await page.goto('/inbox');
  await new AppShell(page).navLink('nav.privacy').click();
  await expect(page).toHaveURL(appUrl('/privacy'));
  const search = page.getByRole('searchbox', { name: t('privacy.search') });
  await search.fill(guardian.name);
  const result = page.locator('[data-slot="privacy-result"]').filter({ hasText: guardian.name });
  await expect(result).toBeVisible();
  await result.getByRole('link').first().click();
  await expect(page).toHaveURL(appUrl(`/privacy/apoderado/${guardian.id}`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(guardian.name);

  // The audit link names the person.
  const audit = page.getByRole('link', { name: t('privacyRequests.audit') });
  await expect(audit).toHaveAttribute('href', `/audit?subject_kind=apoderado&subject_id=${guardian.id}`);

  // Blocking: who asked, then confirm; the page says since when, and offers to lift it.
  await page.getByRole('button', { name: t('privacyRequests.block'), exact: true }).click();
  const confirmBlock = page.getByRole('button', { name: t('privacyRequests.confirmBlock') });
  await expect(confirmBlock).toBeDisabled();
  await page.getByRole('radio', { name: t('privacyRequests.requester.persona') }).check();
  await confirmBlock.click();
  const blocked = page.locator('[data-slot="privacy-blocked"]');
  await expect(blocked).toContainText('Envíos bloqueados desde el');
  await expect(blocked).toContainText(t('privacyRequests.requesterBy.persona'));
  await expect(page.getByRole('button', { name: t('privacyRequests.lift') })).toBeVisible();
  await expectNoAxeViolations(page, 'privacy person blocked (1366)');

  // Erasure: the dialog says what goes, with real plurals.
  await page.getByRole('button', { name: t('privacyRequests.erase') }).click();
  const dialog = page.getByRole('alertdialog', { name: t('privacyRequests.eraseTitle') });
  await expect(dialog).toBeVisible();
  const counts = dialog.locator('[data-slot="privacy-erasure-counts"] li');
  await expect(counts.first()).toHaveText(/RUT/);
  const received = dialog.locator('[data-count="mensajes_recibidos"]');
  if ((await received.count()) > 0) await expect(received).toHaveText(/^Su nombre en \d+ mensajes? recibidos?/);
  await expectNoAxeViolations(page, 'erasure dialog (1366)', '[data-slot="privacy-erasure-dialog"]');

  await page.setViewportSize(PHONE);
  await expectNoAxeViolations(page, 'erasure dialog (390)', '[data-slot="privacy-erasure-dialog"]');
  const word = dialog.getByRole('textbox', { name: t('privacyRequests.typeWord', { word: 'ELIMINAR' }) });
  await word.fill('BORRAR');
  await word.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('Para eliminar, escribe ELIMINAR en la confirmación.');
  await expect(word).toHaveAttribute('aria-invalid', 'true');
  await word.fill('ELIMINAR');
  await dialog.getByRole('button', { name: t('privacyRequests.confirmErase') }).click();

  // The person, read again: erased, nothing left to download or block.
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-slot="privacy-erased"]')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText(guardian.name);
  await expect(page.getByRole('link', { name: t('privacy.person.download') })).toHaveCount(0);
  await expect(page.getByRole('button', { name: t('privacyRequests.block'), exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: t('privacyRequests.lift') })).toHaveCount(0);
  await expect(page.getByRole('button', { name: t('privacyRequests.erase') })).toHaveCount(0);
  await expectFitsPhone(page, 'privacy person erased');
  await expectNoAxeViolations(page, 'privacy person erased (390)');

  // The search no longer finds them.
  await page.setViewportSize(DESKTOP);
  await page.getByRole('link', { name: t('privacy.person.back') }).click();
  await expect(page).toHaveURL(appUrl('/privacy'));
  await page.getByRole('searchbox', { name: t('privacy.search') }).fill(guardian.name);
  await expect(page.getByText(t('privacy.noMatch', { q: guardian.name }))).toBeVisible();
  await expect(page.locator('[data-slot="privacy-result"]').filter({ hasText: guardian.name })).toHaveCount(0);
});
