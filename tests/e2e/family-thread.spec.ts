// The conversation and the wall in Chromium against the real server. A teacher writes to one guardian on
// the app channel; the guardian signs in (the code read from the SMS simulator's outbox), opens the
// message, and the teacher's reception screen shows «Leído» for them; the guardian replies (at once in the
// thread), the teacher finds the reply in that family's conversation on the sent message and answers it
// through «Responder a …» (compose, on the app), and the guardian sees the answer in the same thread; then
// reads the wall, a post's picture fetched with the token and decoded. axe on every new screen, 390 and 320 px.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { COMPOSE_API, IDEMPOTENCY_HEADER, type SendResult } from '../../shared/compose-contract';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import { composeInput } from '../fixtures/compose';
import { newsInput } from '../fixtures/news';
import { ComposePage } from './pages/compose-page';
import { ReceptionPage } from './pages/reception-page';
import { expectNoAxeViolations } from './support/axe';
import { USERS, XSRF_HEADER } from './support/env';
import { guardianWithApp, signInAsGuardian } from './support/family';
import { t } from './support/i18n';
import { BASE_URL } from './support/server';
import { api, loginViaApi, xsrfToken } from './support/session';

const tx = familyCL.family;

// A 2×2 PNG: an image the browser really decodes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DA0AAi/jcw/AcAH/QE/QIE0iYAAAAASUVORK5CYII=',
  'base64',
);

async function expectAxeAtBothWidths(page: Page, what: string): Promise<void> {
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoAxeViolations(page, `${what} at 320 px`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, `${what} at 390 px`);
}

test('a guardian and a teacher talk in one thread, and the guardian reads the wall with its pictures', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const teacherContext = await browser.newContext({ baseURL: BASE_URL });
  const teacher = await teacherContext.newPage();
  await loginViaApi(teacher, USERS.teacher);
  const teacherHeaders = async () => ({ [XSRF_HEADER]: await xsrfToken(teacher), Accept: 'application/json' });
  const guardian = await guardianWithApp(teacher, -1);
  const phone = guardian.ficha_apoderado.fono_celular!;
  const title = `Salida al museo ${stamp}`;
  const sent = await teacher.request.post(api(COMPOSE_API.send), {
    data: composeInput({
      title,
      content: 'El jueves salimos a las 9:00.',
      channels: ['app-mobile'],
      recipients: [{ kind: 'guardian', id: guardian.id, label: guardian.ficha_apoderado.name }],
      allow_replies: true,
    }),
    headers: { ...(await teacherHeaders()), [IDEMPOTENCY_HEADER]: randomUUID() },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const messageId = ((await sent.json()) as { data: SendResult }).data.id;

  // A post with a picture for the whole school, pinned so it is on the wall's first page.
  const director = await browser.newContext({ baseURL: BASE_URL });
  const directorPage = await director.newPage();
  await loginViaApi(directorPage, USERS.directora);
  const directorHeaders = { [XSRF_HEADER]: await xsrfToken(directorPage), Accept: 'application/json' };
  const upload = await directorPage.request.post(api('/attachments'), {
    headers: directorHeaders,
    multipart: { file: { name: 'feria.png', mimeType: 'image/png', buffer: PNG } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const fileId = ((await upload.json()) as { data: { id: number } }).data.id;
  const postTitle = `Feria de ciencias ${stamp}`;
  const created = await directorPage.request.post(api('/news'), {
    headers: directorHeaders,
    data: newsInput({ title: postTitle, body: 'Gracias a todas las familias por venir.', attachment_ids: [fileId], pinned: true }),
  });
  expect(created.status(), await created.text()).toBe(201);
  const postId = ((await created.json()) as { data: { id: number } }).data.id;

  try {
    // The guardian opens the message: «Leído» on the teacher's reception screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsGuardian(page, phone);
    const row = page.getByRole('link', { name: new RegExp(title) });
    await expect(async () => {
      if (!(await row.isVisible())) await page.reload();
      await expect(row).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    await row.click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const reception = new ReceptionPage(teacher);
    await teacher.goto(`/sent/message/${messageId}/reception`);
    await reception.expectShown();
    await expect.poll(() => reception.figure('app-mobile', 'read'), { timeout: 15_000 }).toBe(1);
    await expect(reception.rows.first().locator('[data-status="read"]')).not.toHaveCount(0);

    // The guardian replies: at once in the thread as their own.
    const question = `¿Hay que llevar colación? ${stamp}`;
    await page.getByLabel(tx.message.replyLabel).fill(question);
    await page.getByRole('button', { name: tx.message.send }).click();
    const thread = page.getByRole('region', { name: tx.message.thread });
    const mine = thread.locator('[data-slot=thread-item][data-mine=true]').filter({ hasText: question });
    await expect(mine).toBeVisible();
    await expect(mine.locator('time')).toBeVisible();
    await expect(page.getByLabel(tx.message.replyLabel)).toHaveValue('');
    await expectAxeAtBothWidths(page, 'message with its thread');

    // The teacher: the family's conversation on the sent message, and «Responder a …» to them.
    await teacher.goto(`/sent/message/${messageId}`);
    const answers = teacher.getByRole('region', { name: t('messages.conversations.title') });
    const conversation = answers.getByRole('region', { name: /Conversación con/ });
    await expect(conversation).toHaveCount(1);
    await expect(conversation.locator('[data-slot=thread-content]').filter({ hasText: question })).toHaveCount(1);
    await expectNoAxeViolations(teacher, "the teacher's message with a family's conversation");
    await conversation.getByRole('link', { name: /^Responder a / }).click();
    const compose = new ComposePage(teacher);
    await compose.expectReady();
    await expect(compose.channel('app-mobile')).toBeChecked();
    const answer = `Sí, una colación liviana. ${stamp}`;
    await compose.content.fill(`${answer}${await compose.content.inputValue()}`);
    await compose.send.click();
    await compose.confirm('send');
    await expect(teacher).toHaveURL(/\/sent\/message\/\d+$/);
    // The answer's own page shows the same thread: the message and the guardian's reply.
    const answerThread = teacher.getByRole('region', { name: t('messages.thread.title') });
    await expect(answerThread.getByRole('article').filter({ hasText: question })).toHaveCount(1);
    await expect(answerThread.getByRole('article', { name: title, exact: true })).toHaveCount(1);
    // Back on the message: the answer joined that family's conversation.
    await teacher.goto(`/sent/message/${messageId}`);
    await expect(conversation.locator('[data-slot=thread-content]').filter({ hasText: answer })).toHaveCount(1);

    // The guardian: the answer in the same thread, marked as the school's, once the engine has handed it over.
    const theirs = thread.locator('[data-slot=thread-item][data-mine=false]').filter({ hasText: answer });
    await expect(async () => {
      await page.getByRole('button', { name: tx.thread.refresh }).click();
      await expect(theirs).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    await expect(theirs).toContainText(tx.message.school);
    await page.reload();
    await expect(theirs).toBeVisible();

    // The wall: the post with its picture, fetched with the token and decoded; then the post whole.
    await page.getByRole('navigation', { name: tx.wall.navLabel }).getByRole('link', { name: tx.wall.nav }).click();
    await expect(page.getByRole('heading', { level: 1, name: tx.wall.title })).toBeVisible();
    const card = page.getByRole('article', { name: postTitle });
    await expect(card).toBeVisible();
    const picture = card.getByRole('img', { name: 'Imagen: feria.png' });
    await expect
      .poll(() => picture.evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0))
      .toBe(true);
    await expect(picture).toHaveAttribute('src', /^blob:/);
    await expectAxeAtBothWidths(page, 'wall');
    await card.getByRole('link', { name: postTitle }).click();
    await expect(page).toHaveURL(new RegExp(`/familia/mural/${postId}$`));
    await expect(page.getByRole('heading', { level: 1, name: postTitle })).toBeVisible();
    await expect(page.getByText('Gracias a todas las familias por venir.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Imagen: feria.png' })).toBeVisible();
    await expectAxeAtBothWidths(page, 'wall post');
  } finally {
    await directorPage.request.delete(api(`/news/${postId}`), { headers: directorHeaders });
    await directorPage.request.delete(api(`/news/${postId}/forever`), { headers: directorHeaders });
    await director.close();
    await teacherContext.close();
  }
});
