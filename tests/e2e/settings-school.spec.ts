// /settings/school on a 390×844 phone, as the Mexican school's administrator: the school's data as the server
// keeps it; a refused home link is said on its field with nothing typed lost; a saved change holds after a
// reload; Mexico has no support chat. The school's logo: a wrong file refused in Spanish, a PNG uploaded and
// previewed, shown (really decoded) on the printed call list, then removed. axe-clean. The school's data
// are put back as they were at the end.
import { expect, test, type Page } from '@playwright/test';
import { DASHBOARD_API, type Connectivity } from '../../shared/dashboard-contract';
import { pngFile } from '../fixtures/images';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { tMX as t } from './support/i18n';
import { api, loginViaApi } from './support/session';
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

/** Whether an image on the page was fetched and decoded by the browser (not a broken icon). */
const decoded = (page: Page, selector: string) =>
  page.locator(selector).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test('the school logo: a wrong file refused, a PNG uploaded, previewed and printed on the call list, then removed', async ({ page }) => {
  await loginViaApi(page, USERS.adminJuarez);
  await page.goto('/settings/school');
  const section = page.getByRole('region', { name: t('school.logo.title') });
  await expect(section.getByText(t('school.logo.none'))).toBeVisible();
  const chooser = section.getByLabel(t('school.logo.upload'));

  // An SVG never travels; a text file named .png is refused by the server for what it is.
  await chooser.setInputFiles({
    name: 'escudo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });
  await expect(section.getByRole('alert')).toHaveText(t('school.logo.problems.svg'));
  await chooser.setInputFiles({ name: 'escudo.png', mimeType: 'image/png', buffer: Buffer.from('No soy una imagen.') });
  await expect(section.getByRole('alert')).toHaveText(
    'El logo debe ser una imagen PNG o JPEG; este archivo no lo es, aunque su nombre lo diga.',
  );
  await expect(chooser).toHaveAttribute('aria-invalid', 'true');

  await chooser.setInputFiles({ name: 'escudo.png', mimeType: 'image/png', buffer: Buffer.from(pngFile(180, 60)) });
  await expect(page.getByText(t('school.toast.logoSaved'))).toBeVisible();
  const preview = section.getByRole('img', { name: t('school.logo.preview') });
  await expect(preview).toBeVisible();
  expect(await decoded(page, '[data-slot="school-logo-preview"]')).toBe(true);
  await expect(section.getByText(t('school.logo.size', { width: 180, height: 60, kb: 1 }))).toBeVisible();
  await expect(section.getByRole('alert')).toHaveCount(0);
  // Keyboard: the chooser (now «Reemplazar logo») and «Quitar logo» are reached with Tab.
  await expect(section.getByLabel(t('school.logo.replace'))).toBeAttached();
  await section.getByLabel(t('school.logo.replace')).focus();
  await page.keyboard.press('Tab');
  await expect(section.getByRole('button', { name: t('school.logo.remove') })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoAxeViolations(page, '/settings/school with a logo');

  try {
    // The printed call list of one of its courses: the logo in its header, named after the school.
    const connectivity = (await (await page.request.get(api(DASHBOARD_API.connectivity))).json()) as { data: Connectivity };
    const course = connectivity.data.levels.flatMap((level) => level.courses)[0]!;
    await page.goto(`/connectivity/course/${course.id}/call-list?messages=3`);
    const logo = page.getByRole('img', { name: 'Escuela Secundaria Técnica Benito Juárez' });
    await expect(logo).toBeVisible();
    expect(await decoded(page, '[data-slot="school-logo"]')).toBe(true);
    await expectNoAxeViolations(page, 'the printed call list with the logo');
  } finally {
    await page.goto('/settings/school');
    await section.getByRole('button', { name: t('school.logo.remove') }).click();
    await expect(page.getByText(t('school.toast.logoRemoved'))).toBeVisible();
    await expect(section.getByText(t('school.logo.none'))).toBeVisible();
    // The remove button went with the logo; the keyboard goes on from the file chooser.
    await expect(section.getByLabel(t('school.logo.upload'))).toBeFocused();
  }
  await page.goto(`/settings/school`);
  await expect(section.getByText(t('school.logo.none'))).toBeVisible();
});
