// The families' device screens in Chromium against the real server: a guardian signs in with the code the
// SMS simulator wrote, opens «Avisos» (a switch per child with school and course; emergencies always ring),
// turns a child's notices off and finds it kept after a reload; then «No es mi teléfono»: the question says
// what it does, and confirmed, every session of the number ends (the old token is refused) and the app is
// back at sign-in. axe finds nothing on «Avisos» and on the question, at 390 and 320 px. An SMS to a
// guardian without the app carries the app's link, and the administrator's connectivity screen counts it.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { COMPOSE_API, IDEMPOTENCY_HEADER, type Recipients } from '../../shared/compose-contract';
import { DASHBOARD_API, type Connectivity } from '../../shared/dashboard-contract';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import { expectNoAxeViolations } from './support/axe';
import { USERS, XSRF_HEADER } from './support/env';
import { t } from './support/i18n';
import { guardianWithApp, smsCode } from './support/family';
import { BASE_URL, serverDataDir } from './support/server';
import { api, loginViaApi, xsrfToken } from './support/session';
import { composeInput } from '../fixtures/compose';

const tx = familyCL.family;
const dx = familyCL.family.devices;
const digits = (phone: string) => phone.replace(/\D/g, '');

test('«Avisos» keeps a child’s notices off; «No es mi teléfono» ends every session and goes back to sign-in', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const teacherContext = await browser.newContext({ baseURL: BASE_URL });
  const teacher = await teacherContext.newPage();
  await loginViaApi(teacher, USERS.teacher);
  const guardian = await guardianWithApp(teacher, -2);
  const phone = guardian.ficha_apoderado.fono_celular!;
  await teacherContext.close();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/familia');
  await page.getByLabel(tx.signIn.phone).fill(phone);
  await page.getByRole('button', { name: tx.signIn.sendCode }).click();
  await expect(page.getByRole('heading', { name: tx.signIn.codeTitle })).toBeVisible();
  await page.getByLabel(tx.signIn.code).fill(await smsCode(phone));
  await page.getByRole('button', { name: tx.signIn.submit }).click();
  await expect(page.getByRole('heading', { name: tx.inbox.title })).toBeVisible();

  await page.getByRole('link', { name: dx.nav.notices }).click();
  await expect(page).toHaveURL(/\/familia\/avisos$/);
  await expect(page.getByRole('heading', { name: dx.notices.title, exact: true })).toBeVisible();
  await expect(page.getByText(dx.notices.emergencies)).toBeVisible();
  // Never asked on this phone: «Avisos» offers them too (and the axe scans below include it).
  await expect(page.getByRole('button', { name: tx.pushHere.enable })).toBeVisible();
  const switches = page.getByRole('switch');
  await expect(switches.first()).toBeVisible();
  await expect(switches.first()).toHaveAttribute('aria-checked', 'true');
  await expectNoAxeViolations(page, '«Avisos» at 390 px');
  const name = (await switches.first().getAttribute('id'))!;
  await switches.first().click();
  await expect(page.locator(`#${name}`)).toHaveAttribute('aria-checked', 'false');
  await page.reload();
  await expect(page.locator(`#${name}`)).toHaveAttribute('aria-checked', 'false');
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoAxeViolations(page, '«Avisos» at 320 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('hermes.familia.session') ?? 'null') as { token: string }).token,
  );
  await page.getByRole('button', { name: dx.notMyPhone.action }).click();
  await expect(page.getByText(dx.notMyPhone.description)).toBeVisible();
  // The safe answer first: Enter on the question does not end anything.
  await expect(page.getByRole('button', { name: dx.notMyPhone.cancel })).toBeFocused();
  await expectNoAxeViolations(page, '«No es mi teléfono» at 320 px');
  await page.getByRole('button', { name: dx.notMyPhone.confirm }).click();
  await expect(page.getByRole('heading', { name: tx.signIn.title })).toBeVisible();
  const refused = await page.request.get('/api/app/messages', {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  expect(refused.status()).toBe(401);
  expect(await page.evaluate(() => localStorage.getItem('hermes.familia.session'))).toBeNull();
});

test('an SMS to a guardian without the app carries its link, and the connectivity screen counts who got it', async ({ page }) => {
  test.setTimeout(60_000);
  await loginViaApi(page, USERS.admin);
  const read = async () =>
    ((await (await page.request.get(api(DASHBOARD_API.connectivity))).json()) as { data: Connectivity }).data.install_link!;
  const before = await read();
  const { data } = (await (await page.request.get(api(COMPOSE_API.recipients))).json()) as { data: Recipients };
  // The first such: the other test ends every session of the last blue one, who then is green but signed in once.
  const guardian = data.courses.flatMap((c) => c.apoderados).find((g) => g.device_status === 'green');
  if (!guardian) throw new Error('no guardian without the app in the demo school');
  const sent = await page.request.post(api(COMPOSE_API.send), {
    data: composeInput({
      title: 'Aviso',
      content: 'Mañana no hay clases.',
      channels: ['sms'],
      recipients: [{ kind: 'guardian', id: guardian.id }],
    }),
    headers: { [XSRF_HEADER]: await xsrfToken(page), [IDEMPOTENCY_HEADER]: randomUUID(), Accept: 'application/json' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  // The simulator wrote the SMS to the server's outbox with the app's address in it.
  const dir = path.join(serverDataDir(), 'outbox', 'sim');
  const phone = digits(guardian.ficha_apoderado.fono_celular ?? '');
  await expect
    .poll(
      async () => {
        for (const name of await readdir(dir).catch(() => [] as string[])) {
          const text = await readFile(path.join(dir, name), 'utf8');
          if (digits(/^Para: (.+)$/m.exec(text)?.[1] ?? '') === phone && text.includes('Mañana no hay clases.')) return text;
        }
        return '';
      },
      { message: 'the SMS in the outbox', timeout: 15_000 },
    )
    .toContain(`Instala la app: ${BASE_URL}/familia`);
  await expect.poll(async () => (await read()).sent, { timeout: 10_000 }).toBe(before.sent + 1);

  await page.goto('/dashboard/connectivity');
  const region = page.getByRole('region', { name: t('connectivity.installLink.title') });
  await expect(region.locator('[data-figure=install-link]')).toContainText(`a ${before.sent + 1} apoderado`);
  await expectNoAxeViolations(page, 'connectivity with the install link');
});
