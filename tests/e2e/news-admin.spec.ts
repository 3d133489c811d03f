// The news wall's managers' screens in the browser, on the real server: a manager creates, renames, reorders and
// (empty) deletes a category, and a used one is refused with its count; posts deleted through the desk API
// are found in the trash, one restored (gone from the trash, back on the wall), another deleted forever
// after the question; the printable week shows the QR code (one SVG path) and the week's posts, and print
// media hides the shell.
import { expect, test, type Page } from '@playwright/test';
import type { NewsCategory, NewsPost } from '../../shared/news-contract';
import { NEWS_TEXTS } from '../../shared/news-contract';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { api, loginViaApi, xsrfToken } from './support/session';

test.describe.configure({ mode: 'serial' });

const unique = (prefix: string): string => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const toast = (page: Page, text: string) => page.locator('[data-slot=toast]').filter({ hasText: text });
const rowOf = (page: Page, name: string) => page.locator('[data-slot=category-row]').filter({ has: page.getByText(name, { exact: true }) });

async function call<T>(page: Page, method: 'GET' | 'POST' | 'DELETE', path: string, data?: unknown): Promise<T> {
  const headers = { [XSRF_HEADER]: await xsrfToken(page), Accept: 'application/json' };
  const response = await page.request.fetch(api(path), { method, headers, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${method} ${path} → ${response.status()} ${await response.text()}`).toBeTruthy();
  return (response.status() === 204 ? null : ((await response.json()) as { data: T }).data) as T;
}

const publish = (page: Page, title: string, categoryId: number | null = null) =>
  call<NewsPost>(page, 'POST', '/news', {
    title,
    body: `${title}: texto de prueba para el mural de la semana.`,
    category_id: categoryId,
    audience: { scope: 'school', level_ids: [], course_ids: [] },
    attachment_ids: [],
    publish_at: null,
    ends_at: null,
    pinned: false,
  });

test('a manager creates, renames, reorders and deletes an empty category; a used one says how many posts keep it', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  await page.goto('/mural/categories');
  await expect(page.getByRole('heading', { level: 1, name: t('pages.newsCategories') })).toBeVisible();

  // Nothing typed: the shared rule's text, nothing sent.
  await page.getByRole('button', { name: exactly(t('newsAdmin.categories.create')) }).click();
  await expect(page.getByText('Debes escribir un nombre para la categoría.')).toBeVisible();

  const name = unique('Talleres');
  const field = page.getByLabel(t('newsAdmin.categories.newLabel'));
  await field.fill(name);
  await field.press('Enter');
  await expect(toast(page, t('newsAdmin.categories.created'))).toBeVisible();
  await expect(rowOf(page, name)).toBeVisible();
  await expect(field).toHaveValue('');

  // The same name again (other case): refused as typed.
  await field.fill(name.toUpperCase());
  await field.press('Enter');
  await expect(page.getByText('Ya existe una categoría con ese nombre.')).toBeVisible();
  await field.fill('');

  // Rename in place from the keyboard: Escape cancels, Enter saves.
  const renamed = `${name} y clubes`;
  await rowOf(page, name)
    .getByRole('button', { name: `${t('newsAdmin.categories.rename')}: ${name}` })
    .click();
  const input = page.getByLabel(t('newsAdmin.categories.nameLabel'));
  await expect(input).toBeFocused();
  await input.fill(renamed);
  await input.press('Escape');
  await expect(rowOf(page, name)).toBeVisible();
  await rowOf(page, name)
    .getByRole('button', { name: `${t('newsAdmin.categories.rename')}: ${name}` })
    .click();
  await page.getByLabel(t('newsAdmin.categories.nameLabel')).fill(renamed);
  await page.getByLabel(t('newsAdmin.categories.nameLabel')).press('Enter');
  await expect(toast(page, t('newsAdmin.categories.renamed'))).toBeVisible();
  await expect(rowOf(page, renamed)).toBeVisible();

  // The new one is last: Subir moves it one place, kept by the server.
  const names = () => page.locator('[data-slot=category-row] [id^=news-category-label-]').allTextContents();
  const before = await names();
  expect(before.at(-1)).toBe(renamed);
  await page.getByRole('button', { name: `${t('newsAdmin.categories.up')}: ${renamed}` }).click();
  await expect.poll(names).toEqual([...before.slice(0, -2), renamed, before.at(-2)]);
  await expect(page.getByRole('button', { name: `${t('newsAdmin.categories.up')}: ${renamed}` })).toBeFocused();
  await expect
    .poll(async () => (await call<NewsCategory[]>(page, 'GET', '/news-categories')).map((c) => c.name))
    .toEqual([...before.slice(0, -2), renamed, before.at(-2)]);

  // A category with posts is refused with its count, before asking.
  const categories = await call<NewsCategory[]>(page, 'GET', '/news-categories');
  const used = categories.find((c) => c.post_count > 0) as NewsCategory;
  expect(used, 'a seeded category with posts').toBeTruthy();
  await page.getByRole('button', { name: `${t('newsAdmin.categories.delete')}: ${used.name}` }).click();
  await expect(rowOf(page, used.name).getByRole('alert')).toHaveText(
    new RegExp(NEWS_TEXTS.categoryInUse(used.post_count).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  );
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  // The empty one goes after the question.
  await page.getByRole('button', { name: `${t('newsAdmin.categories.delete')}: ${renamed}` }).click();
  const question = page.getByRole('alertdialog', { name: t('newsAdmin.categories.deleteQuestion', { name: renamed }) });
  await question.getByRole('button', { name: exactly(t('newsAdmin.categories.delete')) }).click();
  await expect(toast(page, t('newsAdmin.categories.deleted'))).toBeVisible();
  await expect(rowOf(page, renamed)).toHaveCount(0);
  expect((await call<NewsCategory[]>(page, 'GET', '/news-categories')).map((c) => c.name)).not.toContain(renamed);
});

test('deleted posts are in the trash with who deleted them; one is restored, another deleted forever after the question', async ({
  page,
}) => {
  await loginViaApi(page, USERS.admin);
  const kept = await publish(page, unique('Feria científica'));
  const gone = await publish(page, unique('Acto cívico'));
  await call(page, 'DELETE', `/news/${kept.id}`);
  await call(page, 'DELETE', `/news/${gone.id}`);

  await page.goto('/mural/trash');
  await expect(page.getByRole('heading', { level: 1, name: t('pages.newsTrash') })).toBeVisible();
  const row = (title: string) => page.locator('[data-slot=news-trash-row]').filter({ hasText: title });
  // Newest deleted first.
  await expect(page.locator('[data-slot=news-trash-row]').first()).toContainText(gone.title);
  await expect(row(kept.title)).toContainText(/Eliminada por .+ el \d/);

  await row(kept.title)
    .getByRole('button', { name: `${t('newsAdmin.trash.restore')}: ${kept.title}` })
    .click();
  await expect(toast(page, t('newsAdmin.trash.restored'))).toBeVisible();
  await expect(row(kept.title)).toHaveCount(0);
  expect((await call<NewsPost>(page, 'GET', `/news/${kept.id}`)).status).toBe('published');

  const purge = page.getByRole('button', { name: `${t('newsAdmin.trash.purge')}: ${gone.title}` });
  await purge.click();
  const question = page.getByRole('alertdialog', { name: t('newsAdmin.trash.purgeQuestion', { title: gone.title }) });
  await question.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(purge).toBeFocused();
  await purge.click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: exactly(t('newsAdmin.trash.purge')) })
    .click();
  await expect(toast(page, t('newsAdmin.trash.purged'))).toBeVisible();
  await expect(row(gone.title)).toHaveCount(0);
  const after = await page.request.get(api(`/news/${gone.id}`));
  expect(after.status()).toBe(404);
});

test('the printable week shows the week’s posts and a QR code to the wall; print media hides the shell', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  const post = await publish(page, unique('Reunión de apoderados'));
  await page.goto('/mural/news/week');
  await expect(page.getByRole('heading', { level: 1, name: t('newsAdmin.week.heading') })).toBeVisible();
  await expect(page.locator('[data-slot=week-post]').filter({ hasText: post.title })).toBeVisible();
  const qr = page.locator('svg[data-slot=qr-code]');
  await expect(qr).toBeVisible();
  await expect(qr.locator('path')).toHaveCount(1);
  expect(await qr.locator('path').getAttribute('d')).toMatch(/^M\d+ \d+h\d+v1h-\d+z/);
  await expect(page.getByText(t('newsAdmin.week.readMore'))).toBeVisible();
  await expect(page.getByText(/\/mural\/news$/)).toBeVisible();
  await expect(page.locator('[data-slot=top-bar]')).toBeVisible();

  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('[data-slot=top-bar]')).toBeHidden();
  await expect(page.locator('aside')).toBeHidden();
  await expect(page.locator('[data-slot=week-tools]')).toBeHidden();
  await expect(page.locator('[data-slot=week-post]').filter({ hasText: post.title })).toBeVisible();
  await expect(qr).toBeVisible();
  // One A4 page: the sheet fits its printable height (270 mm at 96 dpi).
  const height = await page.locator('[data-slot=week-sheet]').evaluate((el) => el.getBoundingClientRect().height);
  expect(height).toBeLessThanOrEqual(Math.ceil((270 / 25.4) * 96) + 1);
  await page.emulateMedia({ media: 'screen' });

  // The week before is one address away.
  await page.getByRole('link', { name: new RegExp(t('newsAdmin.week.previous')) }).click();
  await expect(page).toHaveURL(/\/mural\/news\/week\?date=\d{4}-\d{2}-\d{2}$/);
  await expect(page.locator('[data-slot=week-post]').filter({ hasText: post.title })).toHaveCount(0);
});
