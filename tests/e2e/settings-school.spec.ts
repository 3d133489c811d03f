// /settings/school on a 390×844 phone, as the Mexican school's administrator: the school's data as the server
// keeps it; a refused home link is said on its field with nothing typed lost; a saved change holds after a
// reload; Mexico has no support chat. axe-clean. The school's data are put back as they were at the end.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { tMX as t } from './support/i18n';
import { loginViaApi } from './support/session';
import { appUrl } from './support/server';

test.use({ viewport: { width: 390, height: 844 } });

const HOME = 'https://www.benitojuarez.edu.mx';
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test('the school data: refused, saved, kept; no support chat in Mexico', async ({ page }) => {
  await loginViaApi(page, USERS.adminJuarez);
  await page.goto('/settings/school');
  await expect(page).toHaveURL(appUrl('/settings/school'));
  await expect(page).toHaveTitle(`${t('pages.settingsSchool')} · ${t('app.name')}`);
  const name = field(page, t('school.name'));
  const home = field(page, t('school.homeUrl'));
  await expect(name).toHaveValue('Escuela Secundaria Técnica Benito Juárez');
  await expect(field(page, t('school.timezone'))).toHaveValue('America/Mexico_City');
  await expect(home).toHaveValue(HOME);
  await expect(page.getByRole('switch', { name: t('school.chat') })).toBeDisabled();
  await expect(page.getByText(t('school.chatUnavailable'))).toBeVisible();

  // A home link without its scheme: the server's words on the field, focus there, the name as typed.
  await name.fill('Secundaria Técnica Benito Juárez');
  await home.fill('benitojuarez.edu.mx');
  await page.getByRole('button', { name: t('school.save'), exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'El enlace de inicio debe ser una dirección web completa' })).toBeVisible();
  await expect(home).toBeFocused();
  await expect(home).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveValue('Secundaria Técnica Benito Juárez');
  await expectNoAxeViolations(page, '/settings/school with a refused field');

  await home.fill(`${HOME}/inicio`);
  await page.getByRole('button', { name: t('school.save'), exact: true }).click();
  await expect(page.getByText(t('school.toast.saved'))).toBeVisible();
  await page.reload();
  await expect(home).toHaveValue(`${HOME}/inicio`);
  await expect(name).toHaveValue('Secundaria Técnica Benito Juárez');

  // Back as it was, for the other specs on this server.
  await name.fill('Escuela Secundaria Técnica Benito Juárez');
  await home.fill(HOME);
  await page.getByRole('button', { name: t('school.save'), exact: true }).click();
  await expect(page.getByText(t('school.toast.saved')).first()).toBeVisible();
  await page.reload();
  await expect(home).toHaveValue(HOME);
});
