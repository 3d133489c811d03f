// The first start on a phone: an install without schools (`HERMES_DEMO=0`) sends every page to /setup; the
// operator copies the setup code from the server's log, a wrong one is refused on its field with nothing
// typed lost, the country brings its time zone and locale, and the right code creates the school and signs
// its administrator in on the inbox. The administrator then invites a teacher, who opens the e-mail's link
// (read from the install's outbox), sets a password, lands signed in and writes to the administrator, who
// reads it in their inbox. axe-clean and without sideways scrolling at 390×844.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { invitationToken } from './support/invitations';
import { startEmptyInstall, type EmptyInstall } from './support/empty-server';
import { exactly, t } from './support/i18n';

test.use({ viewport: { width: 390, height: 844 } });
// The second test works in the school the first one creates.
test.describe.configure({ mode: 'serial' });

const ADMIN = { name: 'Marcela Fuentes Soto', email: 'marcela.fuentes@losaromos.cl', password: 'pizarra verde en el patio' };
const TEACHER = { name: 'Rodrigo Tapia Lagos', email: 'rodrigo.tapia@losaromos.cl', password: 'tiza blanca y cuaderno azul' };

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
  await field(page, t('setup.adminName')).fill(ADMIN.name);
  await field(page, t('setup.adminEmail')).fill(ADMIN.email);
  await field(page, t('setup.adminPassword')).fill(ADMIN.password);
  await page.getByRole('button', { name: t('setup.submit'), exact: true }).click();

  // The server's words on the code's field, focus there, everything else as typed.
  const codeError = page.getByRole('alert').filter({ hasText: 'El código de configuración no es correcto' });
  await expect(codeError).toBeVisible();
  await expect(field(page, t('setup.code'))).toBeFocused();
  await expect(field(page, t('setup.code'))).toHaveAttribute('aria-invalid', 'true');
  await expect(field(page, t('setup.schoolName'))).toHaveValue('Colegio Los Aromos');
  await expect(timezone).toHaveValue('America/Punta_Arenas');
  await expect(field(page, t('setup.adminPassword'))).toHaveValue(ADMIN.password);
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

test('the administrator invites a teacher, who sets a password from the e-mail and writes to the administrator', async ({
  page,
  browser,
}) => {
  await page.goto(`${install.url}/login`);
  await field(page, t('login.email')).fill(ADMIN.email);
  await field(page, t('login.password')).fill(ADMIN.password);
  await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
  await expect(page).toHaveURL(`${install.url}/inbox`);

  await page.goto(`${install.url}/settings/staff`);
  await page.getByRole('button', { name: exactly(t('staff.invite')) }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(t('invite.name'), { exact: true }).fill(TEACHER.name);
  await dialog.getByLabel(t('invite.email'), { exact: true }).fill(TEACHER.email);
  await dialog.getByLabel(t('invite.role'), { exact: true }).selectOption('docente');
  await dialog.getByRole('button', { name: t('invite.send', { count: 1 }) }).click();
  await expect(dialog.getByText(t('invite.result.invited'))).toBeVisible();

  // The teacher, on a phone of their own, opens the link of the e-mail.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const teacher = await context.newPage();
    await teacher.goto(`${install.url}/invitation/${await invitationToken(install.outboxDir, TEACHER.email)}`);
    await field(teacher, t('invitation.password')).fill(TEACHER.password);
    await field(teacher, t('invitation.confirm')).fill(TEACHER.password);
    await teacher.getByRole('button', { name: t('invitation.submit') }).click();
    await expect(teacher).toHaveURL(`${install.url}/inbox`);

    // A school just created has no students yet: the teacher writes to a colleague, the administrator.
    await teacher.goto(`${install.url}/new`);
    const title = field(teacher, t('compose.field.title'));
    await expect(title).toBeEditable();
    await title.fill('Reunión de apoderados del jueves');
    await teacher.getByRole('button', { name: t('compose.field.addRecipients') }).click();
    const picker = teacher.getByRole('dialog', { name: t('compose.picker.title') });
    await picker.getByRole('tab', { name: t('compose.picker.tabs.staff') }).click();
    await picker.getByRole('searchbox', { name: t('compose.picker.search') }).fill('Marcela');
    await picker
      .getByRole('checkbox', { name: exactly(ADMIN.name) })
      .first()
      .check();
    await picker.getByRole('button', { name: exactly(t('compose.picker.confirm')) }).click();
    await expect(picker).toBeHidden();
    await teacher
      .getByRole('group', { name: t('compose.field.channels'), exact: true })
      .getByRole('checkbox', { name: t('messages.channel.e-mail'), exact: true })
      .check();
    await field(teacher, t('compose.field.content')).fill('¿Podemos usar la sala de música a las 18:00?');
    await teacher.getByRole('button', { name: exactly(t('compose.actions.send')) }).click();
    await teacher
      .getByRole('alertdialog', { name: t('compose.confirm.sendTitle') })
      .getByRole('button', { name: exactly(t('compose.confirm.send')) })
      .click();
    await expect(teacher).toHaveURL(/\/sent(\/|$)/);
  } finally {
    await context.close();
  }

  // The administrator reads it in their inbox.
  await page.goto(`${install.url}/inbox`);
  await expect(page.locator('[data-slot=message-title]', { hasText: 'Reunión de apoderados del jueves' })).toBeVisible();
});
