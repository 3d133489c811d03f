// The news wall in the browser against the real server and its demo wall: a teacher on device
// latam reads the wall (pinned first, only what is published), filters by category, searches with the
// accents left out, and loads more; a manager's desk says each post's status in words and unpublishes and
// publishes a post again; a user on device `cl` has no "Mural" link and the API refuses them (403).
import { test, expect, type Browser, type Page } from '@playwright/test';
import { NEWS_TEXTS } from '../../shared/news-contract';
import { newsInput } from '../fixtures/news';
import { AppShell } from './pages/app-shell';
import { t } from './support/i18n';
import { USERS, XSRF_HEADER } from './support/env';
import { api, loginViaApi, xsrfToken } from './support/session';

/** The seed's San Andrés wall (server/seed/news.ts): the ones readers see, and the ones they do not. */
const PINNED = ['Horario de invierno y uso de parka institucional', 'Proceso de admisión 2027'];
const NOT_ON_WALL = [
  'Vacunación escolar contra la influenza',
  'Cambio de fecha de la kermés',
  'Corte de agua programado',
  'Menú del casino de la semana',
];
const SPORTS = 'Campeonato comunal de básquetbol';
const OLYMPIAD = 'Olimpiada de matemáticas: resultados';

/** Posts this spec adds so the wall has more than one page (20); sent to the trash and deleted after. */
const EXTRA = 10;
const extraIds: number[] = [];

async function asDirector<T>(browser: Browser, work: (page: Page, headers: Record<string, string>) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await loginViaApi(page, USERS.directora);
    const headers = { [XSRF_HEADER]: await xsrfToken(page), Accept: 'application/json' };
    return await work(page, headers);
  } finally {
    await context.close();
  }
}

const posts = (page: Page) => page.getByRole('article');
const post = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  await asDirector(browser, async (page, headers) => {
    for (let i = 1; i <= EXTRA; i += 1) {
      const response = await page.request.post(api('/news'), {
        headers,
        data: newsInput({ title: `Aviso breve ${i}`, body: `Aviso de prueba número ${i} para el mural.` }),
      });
      expect(response.status(), await response.text()).toBe(201);
      extraIds.push(((await response.json()) as { data: { id: number } }).data.id);
    }
  });
});

test.afterAll(async ({ browser }) => {
  await asDirector(browser, async (page, headers) => {
    for (const id of extraIds.splice(0)) {
      await page.request.delete(api(`/news/${id}`), { headers });
      await page.request.delete(api(`/news/${id}/forever`), { headers });
    }
  });
});

test('un docente con device latam lee el mural: destacadas primero, filtra por categoría, busca sin tildes y carga más', async ({
  page,
}) => {
  await loginViaApi(page, USERS.teacherLatam);
  await page.goto('/inbox');
  const shell = new AppShell(page);
  await shell.showNav();
  await shell.navLink('nav.news').click();
  await expect(page).toHaveURL(/\/mural\/news$/);
  await expect(shell.heading('pages.newsWall')).toBeVisible();
  // Readers get no managers' tabs.
  await expect(page.getByRole('navigation', { name: t('news.tabs.label') })).toHaveCount(0);

  // Pinned first and marked; the first page holds 20 posts, "Cargar más" the rest.
  await expect(posts(page)).toHaveCount(20);
  for (const [index, title] of PINNED.entries()) {
    const article = posts(page).nth(index);
    await expect(article.getByRole('heading', { level: 2 })).toHaveText(title);
    await expect(article.getByText(t('news.pinned'), { exact: true })).toBeVisible();
  }
  await page.getByRole('button', { name: t('news.loadMore') }).click();
  // The other mural specs publish into the same school while this one runs: the second page holds at least
  // the seeded rest and this spec's own posts, and then nothing is left to load.
  await expect(page.getByRole('button', { name: t('news.loadMore') })).toHaveCount(0);
  expect(await posts(page).count()).toBeGreaterThanOrEqual(11 + EXTRA);
  for (let i = 1; i <= EXTRA; i += 1) await expect(post(page, `Aviso breve ${i}`)).toHaveCount(1);
  for (const title of NOT_ON_WALL) await expect(post(page, title)).toHaveCount(0);
  // A seeded picture: lazy, its file name as its text, opening full size.
  const picture = post(page, 'Feria científica: ¡gracias por participar!').getByRole('img');
  await expect(picture).toHaveAttribute('alt', 'Feria científica.png');
  await expect(picture).toHaveAttribute('loading', 'lazy');
  const image = await page.request.get((await picture.getAttribute('src')) as string);
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toContain('image/png');

  // By category: only Deportes.
  await page.getByRole('combobox', { name: t('news.category') }).selectOption({ label: 'Deportes' });
  await expect(posts(page)).toHaveCount(1);
  await expect(post(page, SPORTS)).toBeVisible();
  await page.getByRole('combobox', { name: t('news.category') }).selectOption({ label: t('news.allCategories') });
  await expect(posts(page)).toHaveCount(20);

  // Accents and case ignored: "BASQUETBOL" finds "básquetbol", "nunoa" the body's "Ñuñoa".
  const search = page.getByRole('searchbox', { name: t('news.search') });
  await search.fill('BASQUETBOL');
  await expect(posts(page)).toHaveCount(1);
  await expect(post(page, SPORTS)).toBeVisible();
  await search.fill('nunoa');
  await expect(posts(page)).toHaveCount(1);
  await expect(post(page, 'Feria científica: ¡gracias por participar!')).toBeVisible();
  await search.fill('zzz sin resultados');
  await expect(page.getByText(t('news.noMatch', { q: 'zzz sin resultados' }))).toBeVisible();
  await page.getByRole('button', { name: t('news.clear') }).click();
  await expect(posts(page)).toHaveCount(20);
  await expect(search).toHaveValue('');
});

test('la directora ve el escritorio con los estados y despublica y vuelve a publicar una publicación', async ({ page }) => {
  await loginViaApi(page, USERS.directora);
  await page.goto('/mural');
  const shell = new AppShell(page);
  await expect(shell.heading('pages.newsDesk')).toBeVisible();
  const tabs = page.getByRole('navigation', { name: t('news.tabs.label') }).getByRole('link');
  await expect(tabs).toHaveText([t('news.tabs.wall'), t('news.tabs.desk'), t('news.tabs.categories'), t('news.tabs.trash')]);
  await expect(tabs.nth(1)).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('[aria-current=page][data-slot=mural-tab]')).toHaveCount(1);
  await expect(page.getByRole('link', { name: t('news.newPost') })).toHaveAttribute('href', '/mural/news/compose');
  await expect(page.getByRole('link', { name: t('news.week') })).toHaveAttribute('href', '/mural/news/week');
  await page.getByRole('button', { name: t('news.loadMore') }).click();
  const status = (title: string) => post(page, title).locator('[data-slot=post-status]');
  await expect(status('Vacunación escolar contra la influenza')).toHaveText(/^Programada para el \d\d-\d\d-\d{4}, \d\d:\d\d$/);
  await expect(status('Cambio de fecha de la kermés')).toHaveText(t('news.status.unpublished'));
  await expect(status('Corte de agua programado')).toHaveText(t('news.status.ended'));
  await expect(status(OLYMPIAD)).toHaveText(t('news.status.published'));
  await expect(post(page, 'Menú del casino de la semana')).toHaveCount(0);

  const olympiad = post(page, OLYMPIAD);
  await olympiad.getByRole('button', { name: t('news.actions.unpublish') }).click();
  await expect(page.getByText(t('news.toast.unpublished'))).toBeVisible();
  await expect(status(OLYMPIAD)).toHaveText(t('news.status.unpublished'));
  // Off the wall readers see.
  const live = (await (await page.request.get(api('/news?q=olimpiada'))).json()) as { data: { title: string }[] };
  expect(live.data.map((p) => p.title)).not.toContain(OLYMPIAD);

  await olympiad.getByRole('button', { name: t('news.actions.publish') }).click();
  await expect(page.getByText(t('news.toast.published'))).toBeVisible();
  await expect(status(OLYMPIAD)).toHaveText(t('news.status.published'));
  await expect(olympiad.getByRole('button', { name: t('news.actions.unpublish') })).toBeEnabled();
  const back = (await (await page.request.get(api('/news?q=olimpiada'))).json()) as { data: { title: string }[] };
  expect(back.data.map((p) => p.title)).toContain(OLYMPIAD);
});

test('en un teléfono de 390 px el escritorio, el mural, las categorías y la papelera no se desbordan; la pestaña actual está a la vista', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginViaApi(page, USERS.directora);
  for (const [path, title] of [
    ['/mural/categories', 'pages.newsCategories'],
    ['/mural/trash', 'pages.newsTrash'],
    ['/mural/news', 'pages.newsWall'],
    ['/mural', 'pages.newsDesk'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t(title));
    const current = page.locator('[data-slot=mural-tab][aria-current=page]');
    await expect(current).toHaveAttribute('href', path);
    // The tab row wraps on a phone; the current tab is within the screen.
    const box = await current.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, `${path}: current tab in view`).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  // By keyboard: Tab reaches the tabs, Enter follows one.
  const categories = page.locator('[data-slot=mural-tab]', { hasText: t('news.tabs.categories') });
  await categories.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/mural\/categories$/);
  await page.goto('/mural');
  await expect(posts(page).first()).toBeVisible();
  // The desk's actions stay within the screen.
  const box = await posts(page).first().boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
});

test('la búsqueda y la categoría del escritorio quedan en la dirección: recargar o compartir el enlace las conserva', async ({ page }) => {
  await loginViaApi(page, USERS.directora);
  await page.goto('/mural');
  const search = page.getByRole('searchbox', { name: t('news.search') });
  const category = page.getByRole('combobox', { name: t('news.category') });
  await expect(posts(page).first()).toBeVisible();
  await search.fill('olimpiada');
  await expect(page).toHaveURL(/\/mural\?q=olimpiada$/);
  const value = await category.locator('option').nth(1).getAttribute('value');
  await category.selectOption(value as string);
  await expect(page).toHaveURL(new RegExp(`/mural\\?q=olimpiada&category=${value}$`));
  await page.reload();
  await expect(search).toHaveValue('olimpiada');
  await expect(category).toHaveValue(value as string);
  // The same link in another tab opens the same view.
  const other = await page.context().newPage();
  await other.goto(`/mural?q=olimpiada&category=${value}`);
  await expect(other.getByRole('searchbox', { name: t('news.search') })).toHaveValue('olimpiada');
  await expect(other.getByRole('combobox', { name: t('news.category') })).toHaveValue(value as string);
  await other.close();
});

test('un usuario con device cl no tiene enlace al mural y la API le responde 403', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/inbox');
  const shell = new AppShell(page);
  await shell.showNav();
  await expect(shell.navLink('nav.news')).toHaveCount(0);
  const response = await page.request.get(api('/news'));
  expect(response.status()).toBe(403);
  expect(((await response.json()) as { message: string }).message).toBe(NEWS_TEXTS.device);
  await page.goto('/mural/news');
  await expect(page).not.toHaveURL(/\/mural/);
});
