// The first start on a phone: an install without schools (`HERMES_DEMO=0`) sends every page to /setup; the
// operator copies the setup code from the server's log, a wrong one is refused on its field with nothing
// typed lost, the country brings its time zone and locale, and the right code creates the school and signs
// its administrator in on the inbox. axe-clean and without sideways scrolling at 390×844.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { startEmptyInstall, type EmptyInstall } from './support/empty-server';
import { t } from './support/i18n';

test.use({ viewport: { width: 390, height: 844 } });

let install: EmptyInstall;
test.beforeAll(async () => {
  install = await startEmptyInstall();
});
test.afterAll(async () => {
  await install?.stop();
});

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test('from the setup code in the log to the administrator signed in on the inbox', async ({ page }) => {
  await page.goto(`${install.url}/login`);
  await expect(page).toHaveURL(`${install.url}/setup`);
  await expect(page).toHaveTitle(`${t('pages.setup')} · ${t('app.name')}`);
  await expect(page.getByRole('heading', { name: t('setup.title') })).toBeVisible();

  // Chile first; Mexico brings its capital's zone and its Spanish, and Chile takes them back.
  const country = field(page, t('setup.country'));
  const timezone = field(page, t('setup.timezone'));
  const locale = field(page, t('setup.locale'));
  await expect(timezone).toHaveValue('America/Santiago');
  await expect(locale).toHaveValue('es-CL');
  await country.selectOption('MX');
  await expect(timezone).toHaveValue('America/Mexico_City');
  await expect(locale).toHaveValue('es-MX');
  await country.selectOption('CL');
  await expect(timezone).toHaveValue('America/Santiago');
  await timezone.selectOption('America/Punta_Arenas');

  await field(page, t('setup.code')).fill('AAAA-BBBB-CCCC');
  await field(page, t('setup.schoolName')).fill('Colegio Los Aromos');
  await field(page, t('setup.homeUrl')).fill('https://www.losaromos.cl');
  await field(page, t('setup.adminName')).fill('Marcela Fuentes Soto');
  await field(page, t('setup.adminEmail')).fill('marcela.fuentes@losaromos.cl');
  await field(page, t('setup.adminPassword')).fill('pizarra verde en el patio');
  await page.getByRole('button', { name: t('setup.submit'), exact: true }).click();

  // The server's words on the code's field, focus there, everything else as typed.
  const codeError = page.getByRole('alert').filter({ hasText: 'El código de configuración no es correcto' });
  await expect(codeError).toBeVisible();
  await expect(field(page, t('setup.code'))).toBeFocused();
  await expect(field(page, t('setup.code'))).toHaveAttribute('aria-invalid', 'true');
  await expect(field(page, t('setup.schoolName'))).toHaveValue('Colegio Los Aromos');
  await expect(timezone).toHaveValue('America/Punta_Arenas');
  await expect(field(page, t('setup.adminPassword'))).toHaveValue('pizarra verde en el patio');
  await expectNoAxeViolations(page, '/setup with a refused code');
  await expectNoSidewaysScroll(page);

  // The code as an operator may type it: lower case, spaces for dashes.
  await field(page, t('setup.code')).fill(install.code.toLowerCase().replaceAll('-', ' '));
  await expect(codeError).toBeHidden();
  await page.getByRole('button', { name: t('setup.submit'), exact: true }).click();

  await expect(page).toHaveURL(`${install.url}/inbox`);
  await expect(page).toHaveTitle(`${t('pages.inbox')} · ${t('app.name')}`);
  await expect(page.getByText(t('setup.done'))).toBeVisible();

  // Done for good: /setup goes to the sign-in (then, signed in, home), and the API says so.
  const status = await page.request.get(`${install.url}/api/setup`);
  expect(await status.json()).toEqual({ data: { needed: false } });
  await page.goto(`${install.url}/setup`);
  await expect(page).toHaveURL(`${install.url}/inbox`);
});
