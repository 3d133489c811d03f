// Composing a news post in the browser, on a 390 px phone: the directora posts with an image to
// one course (the image's thumbnail comes from the local file, a blob: the CSP allows); a teacher on device
// latam reads it on /mural/news with its image; a teacher on another device has no Mural link and the API
// answers 403. Also: a reload mid-compose keeps what was typed (and says so), and a past end date shows
// the shared rules' Spanish text and Publicar puts the focus on it.
import { expect, test, type Page } from '@playwright/test';
import { NEWS_TEXTS, type NewsPost } from '../../shared/news-contract';
import { NEWS_MESSAGES } from '../../shared/news-rules';
import { AppShell } from './pages/app-shell';
import { USERS } from './support/env';
import { exactly, t } from './support/i18n';
import { api, loginViaApi } from './support/session';

const PHONE = { width: 390, height: 844 };
const COMPOSE = '/mural/news/compose';
// A 2×2 PNG: an image the browser really decodes (naturalWidth proves the CSP let it load).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DA0AAi/jcw/AcAH/QE/QIE0iYAAAAASUVORK5CYII=',
  'base64',
);

function composeScreen(page: Page) {
  return {
    title: page.getByLabel(t('newsCompose.title'), { exact: true }),
    body: page.getByLabel(t('newsCompose.body'), { exact: true }),
    files: page.getByLabel(t('newsCompose.choose'), { exact: true }),
    groups: page.getByRole('radio', { name: t('newsCompose.groups') }),
    endsDate: page.getByRole('group', { name: t('newsCompose.ends') }).getByLabel(t('newsCompose.date'), { exact: true }),
    publish: page.getByRole('button', { name: exactly(t('newsCompose.publish')) }),
  };
}

const loaded = (image: import('@playwright/test').Locator) =>
  image.evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth > 0);

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test('the directora posts with an image to one course; another device has no Mural and gets 403; a latam teacher reads it with its image', async ({
  browser,
}) => {
  const title = `Feria científica ${Date.now()}`;
  const director = await browser.newPage({ viewport: PHONE });
  await loginViaApi(director, USERS.directora);
  await director.goto(COMPOSE);
  const form = composeScreen(director);
  await form.title.fill(title);
  await form.body.fill('El jueves exponen los cursos en el patio techado.');
  await form.groups.check();
  // One course of the first level, by keyboard.
  const course = director
    .getByRole('list', { name: /^Cursos de / })
    .first()
    .getByRole('checkbox')
    .first();
  const courseName = (await course.locator('xpath=..').innerText()).trim();
  await course.focus();
  await director.keyboard.press('Space');
  await expect(course).toBeChecked();
  await form.files.setInputFiles({ name: 'feria.png', mimeType: 'image/png', buffer: PNG });
  const thumbnail = director.getByRole('img', { name: t('newsCompose.thumbnail', { name: 'feria.png' }) });
  await expect(thumbnail).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => loaded(thumbnail)).toBe(true);
  await noSidewaysScroll(director);
  await form.publish.click();
  await expect(new AppShell(director).toast(t('newsCompose.toast.created'))).toBeVisible();
  await expect(director).toHaveURL(/\/mural$/);
  // Nothing is kept in the browser once saved.
  expect(await director.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('news:')))).toEqual([]);
  // Stored for that one course, with its image.
  const found = await director.request.get(api(`/news?q=${encodeURIComponent(title)}&status=all`));
  expect(found.status()).toBe(200);
  const [saved] = ((await found.json()) as { data: NewsPost[] }).data;
  expect({
    scope: saved?.audience.scope,
    names: saved?.audience_names,
    files: saved?.attachments.map((file) => [file.name, file.is_image]),
  }).toEqual({
    scope: 'groups',
    names: [courseName],
    files: [['feria.png', true]],
  });
  await director.close();

  const other = await browser.newPage({ viewport: PHONE });
  await loginViaApi(other, USERS.teacher);
  await other.goto('/inbox');
  const shell = new AppShell(other);
  // On the phone the menu opens from the top bar.
  await shell.openNav.click();
  await expect(shell.navLink('nav.inbox')).toBeVisible();
  await expect(shell.navLink('nav.news')).toHaveCount(0);
  const refused = await other.request.get(api('/news'));
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(NEWS_TEXTS.device);
  await other.close();

  // Read on the wall (the wall's screen, /mural/news) by a teacher on device latam, image included.
  const reader = await browser.newPage({ viewport: PHONE });
  await loginViaApi(reader, USERS.teacherLatam);
  await reader.goto('/mural/news');
  const post = reader.locator('article', { hasText: title });
  await expect(post).toBeVisible();
  const image = post.getByRole('img', { name: 'feria.png' });
  await expect(image).toBeVisible();
  // The wall's images load lazily, when near the viewport: a reader scrolls to the post to see it.
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => loaded(image)).toBe(true);
  await reader.close();
});

test('a reload mid-compose keeps what was typed and says so; Descartar on the way out forgets it', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await loginViaApi(page, USERS.directora);
  await page.goto(COMPOSE);
  const form = composeScreen(page);
  await form.title.fill('Reunión de apoderados');
  await form.body.fill('El martes a las 19:00 en el comedor.');
  await page.reload();
  await expect(form.title).toHaveValue('Reunión de apoderados');
  await expect(form.body).toHaveValue('El martes a las 19:00 en el comedor.');
  await expect(page.getByText(t('newsCompose.restored'))).toBeVisible();
  // Leaving by the sidebar asks first; Descartar goes and leaves nothing behind.
  const shell = new AppShell(page);
  await shell.openNav.click();
  await shell.navLink('nav.inbox').click();
  const dialog = page.getByRole('alertdialog', { name: t('newsCompose.leave.title') });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: t('newsCompose.leave.discard') }).click();
  await expect(page).toHaveURL(/\/inbox\/?$/);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes('news:')))).toEqual([]);
});

test('a past end date shows the Spanish error as typed, and Publicar puts the focus on it', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await loginViaApi(page, USERS.directora);
  await page.goto(COMPOSE);
  const form = composeScreen(page);
  await form.title.fill('Vacaciones de invierno');
  await form.body.fill('Las clases terminan el viernes.');
  await form.endsDate.fill('2020-01-01');
  await expect(page.getByRole('alert').filter({ hasText: NEWS_MESSAGES.endsPast })).toBeVisible();
  await expect(form.endsDate).toHaveAttribute('aria-invalid', 'true');
  await form.title.focus();
  await form.publish.click();
  await expect(form.endsDate).toBeFocused();
  await expect(new AppShell(page).toast(t('compose.errors.review'))).toBeVisible();
});
