// The families' app in Chromium against the real server: a teacher writes to one guardian on the app
// channel; the guardian opens /familia on a phone, signs in with the code the SMS simulator wrote to the
// server's outbox (nobody's phone rings in a test), finds the message in the inbox, opens it, and the
// teacher's reception screen shows «Leído» for that guardian. axe finds nothing at 390 and 320 px.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { COMPOSE_API, IDEMPOTENCY_HEADER, type SendResult } from '../../shared/compose-contract';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import { composeInput } from '../fixtures/compose';
import { ReceptionPage } from './pages/reception-page';
import { expectNoAxeViolations } from './support/axe';
import { USERS, XSRF_HEADER } from './support/env';
import { guardianWithApp, smsCode } from './support/family';
import { BASE_URL } from './support/server';
import { api, loginViaApi, xsrfToken } from './support/session';

const tx = familyCL.family;

test('a guardian signs in with the SMS code, opens the message, and the teacher sees «Leído»', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const teacherContext = await browser.newContext({ baseURL: BASE_URL });
  const teacher = await teacherContext.newPage();
  await loginViaApi(teacher, USERS.teacher);
  const guardian = await guardianWithApp(teacher, 0);
  const phone = guardian.ficha_apoderado.fono_celular!;
  const title = `Aviso a la familia ${Date.now().toString(36)}`;
  const sent = await teacher.request.post(api(COMPOSE_API.send), {
    data: composeInput({
      title,
      content: 'Mañana la salida es a las 13:00.',
      channels: ['app-mobile'],
      recipients: [{ kind: 'guardian', id: guardian.id, label: guardian.ficha_apoderado.name }],
      allow_replies: true,
    }),
    headers: { [XSRF_HEADER]: await xsrfToken(teacher), [IDEMPOTENCY_HEADER]: randomUUID(), Accept: 'application/json' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const messageId = ((await sent.json()) as { data: SendResult }).data.id;

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/familia');
  await expect(page.getByRole('heading', { name: tx.signIn.title })).toBeVisible();
  await expectNoAxeViolations(page, 'sign-in at 390 px');
  await page.getByLabel(tx.signIn.phone).fill(phone);
  await page.getByRole('button', { name: tx.signIn.sendCode }).click();
  await expect(page.getByRole('heading', { name: tx.signIn.codeTitle })).toBeVisible();
  await page.getByLabel(tx.signIn.code).fill(await smsCode(phone));
  await page.getByRole('button', { name: tx.signIn.submit }).click();

  await expect(page.getByRole('heading', { name: tx.inbox.title })).toBeVisible();
  // The engine hands the app delivery over within a moment of the send: the inbox is asked again until then.
  const row = page.getByRole('link', { name: new RegExp(title) });
  await expect(async () => {
    if (!(await row.isVisible())) await page.reload();
    await expect(row).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await expect(row.getByText(tx.inbox.unreadMark)).toBeVisible();
  await expectNoAxeViolations(page, 'inbox at 390 px');
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoAxeViolations(page, 'inbox at 320 px');
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  await row.click();
  await expect(page).toHaveURL(new RegExp(`/familia/mensajes/${messageId}$`));
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('Mañana la salida es a las 13:00.')).toBeVisible();
  await expect(page.getByLabel(tx.message.replyLabel)).toBeVisible();
  await expectNoAxeViolations(page, 'message at 320 px');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, 'message at 390 px');

  // The teacher's reception screen: the one guardian reached reads «Leído», on the app's line and their row.
  const reception = new ReceptionPage(teacher);
  await teacher.goto(`/sent/message/${messageId}/reception`);
  await reception.expectShown();
  await expect.poll(() => reception.figure('app-mobile', 'read'), { timeout: 15_000 }).toBe(1);
  await expect(reception.rows).toHaveCount(1);
  // The row's reception badge (beside the guardian's device dot, which has a data-status of its own).
  await expect(reception.rows.first().locator('[data-status="read"]')).not.toHaveCount(0);
  await teacherContext.close();
});
