// The printable week in the browser against the real server: the directora posts a picture to the wall
// (through the API), and a latam teacher's printable week shows it with the picture really decoded (the
// file comes from the API, not the app's page) and whom it is for. The post is deleted after.
import { expect, test } from '@playwright/test';
import { USERS, XSRF_HEADER } from './support/env';
import { t } from './support/i18n';
import { api, loginViaApi, xsrfToken } from './support/session';
import { newsInput } from '../fixtures/news';

// A 2×2 PNG: an image the browser really decodes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DA0AAi/jcw/AcAH/QE/QIE0iYAAAAASUVORK5CYII=',
  'base64',
);

test('a post’s picture on the printable week loads, and the post says whom it is for', async ({ browser }) => {
  const title = `Semana con foto ${Date.now()}`;
  const director = await browser.newPage();
  await loginViaApi(director, USERS.directora);
  const headers = { [XSRF_HEADER]: await xsrfToken(director), Accept: 'application/json' };
  const upload = await director.request.post(api('/attachments'), {
    headers,
    multipart: { file: { name: 'semana.png', mimeType: 'image/png', buffer: PNG } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const fileId = ((await upload.json()) as { data: { id: number } }).data.id;
  // Pinned, so it is among the eight the sheet prints whatever else the demo published this week.
  const created = await director.request.post(api('/news'), {
    headers,
    data: newsInput({ title, attachment_ids: [fileId], pinned: true }),
  });
  expect(created.status(), await created.text()).toBe(201);
  const postId = ((await created.json()) as { data: { id: number } }).data.id;

  try {
    const teacher = await browser.newPage();
    await loginViaApi(teacher, USERS.teacherLatam);
    await teacher.goto('/mural/news/week');
    const card = teacher.locator('[data-slot="week-post"]').filter({ has: teacher.getByRole('heading', { name: title }) });
    await expect(card).toBeVisible();
    const image = card.locator('img');
    await expect
      .poll(() => image.evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0))
      .toBe(true);
    await expect(image).toHaveAttribute('src', `/api/attachments/${fileId}`);
    await expect(card).toContainText(t('newsAdmin.week.forSchool'));
    await teacher.close();
  } finally {
    expect((await director.request.delete(api(`/news/${postId}`), { headers })).status()).toBe(200);
    expect((await director.request.delete(api(`/news/${postId}/forever`), { headers })).status()).toBe(204);
    await director.close();
  }
});
