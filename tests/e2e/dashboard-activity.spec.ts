// The activity screens in the browser against the real server: an administrator opens
// /dashboard/users, changes the period and the cargo, and every figure of the staff table equals what the
// API reads from the database for that view (which the address now names); both rankings show the API's
// rows and switch to "Por mejora"; the data shell's tabs move between the four screens by pointer and
// keyboard, each page's one h1 being its tab title; a teacher is sent home with "No tienes acceso a esa
// sección"; on a 390×844 phone nothing scrolls sideways and the tab row wraps, every tab in view.
import { expect, test, type Page } from '@playwright/test';
import { DASHBOARD_API, type Ranking, type StaffActivity } from '../../shared/dashboard-contract';
import { AppShell } from './pages/app-shell';
import { USERS } from './support/env';
import { t, type MessageKey } from './support/i18n';
import { api, loginViaApi } from './support/session';

const n = (value: number) => new Intl.NumberFormat('es-CL').format(value);
const rate = (value: number) => `${new Intl.NumberFormat('es-CL', { maximumFractionDigits: 1 }).format(value * 100)} %`;

async function read<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(api(path));
  expect(response.ok(), `GET ${path} → ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

/** Each staff row on screen says what the API says for it. */
async function expectStaffTable(page: Page, activity: StaffActivity): Promise<void> {
  const rows = page.locator('[data-slot=staff-table] tbody tr');
  await expect(rows).toHaveCount(activity.rows.length);
  for (const row of activity.rows) {
    const tr = page.locator(`[data-slot=staff-table] tr[data-user="${row.user_id}"]`);
    await expect(tr.locator('td')).toHaveText([
      n(row.messages),
      n(row.people_reached),
      row.read_rate === null ? `${t('activity.table.noRate')}${t('activity.table.noRateLabel')}` : rate(row.read_rate),
      n(row.active_days),
    ]);
  }
}

/**
 * The ranking on screen is the API's, in its order. Other specs send messages in the same school while this
 * one runs, so this month's ranking can move between the screen's request and the test's: when they differ,
 * the page is reloaded and both are read again.
 */
async function expectRanking(page: Page, url: string, kind: 'courses' | 'users'): Promise<void> {
  const rows = page.locator('[data-slot=ranking-table] tbody tr');
  await expect(rows.first()).toBeVisible();
  await expect(async () => {
    const ranking = await read<Ranking>(page, url);
    const expected = ranking.rows.map((row) => [
      String(row.id),
      `${row.position}°`,
      kind === 'courses' ? rate(row.value) : n(row.value),
      row.change === null ? 'none' : row.change > 0 ? 'up' : row.change < 0 ? 'down' : 'same',
    ]);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-id'),
        tr.querySelector('[data-col=position]')?.textContent?.trim() ?? null,
        tr.querySelector('[data-col=value]')?.textContent?.trim() ?? null,
        tr.querySelector('[data-col=change]')?.getAttribute('data-trend') ?? null,
      ]),
    );
    if (JSON.stringify(shown) !== JSON.stringify(expected)) {
      await page.reload();
      await expect(rows.first()).toBeVisible();
    }
    expect(shown).toEqual(expected);
  }).toPass({ timeout: 30_000 });
}

test("an administrator changes period and cargo on /dashboard/users; the figures are the API's", async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  await page.goto('/dashboard/users');
  await expect(page.getByRole('heading', { level: 1, name: t('pages.dashboardUsers') })).toBeVisible();
  const now = await read<StaffActivity>(page, DASHBOARD_API.users);
  await expectStaffTable(page, now);
  await expect(page.locator('[data-slot=activity-percent-figure]')).toHaveText(
    `${new Intl.NumberFormat('es-CL', { maximumFractionDigits: 1 }).format(now.activity_percent)} %`,
  );
  await expect(page.getByText(t('activity.percent.note'))).toBeVisible();
  await expect(page.getByText(t('activity.table.readNote'))).toBeVisible();
  await expect(page.getByRole('img', { name: /Mensajes por mes/ })).toBeVisible();

  // The month before: asked, shown, and in the address.
  await page.getByRole('button', { name: t('activity.period.previousMonth') }).click();
  const [y, m] = now.period.key.split('-').map(Number) as [number, number];
  const previous = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  await expect(page).toHaveURL(new RegExp(`/dashboard/users\\?period=month&month=${previous}$`));
  await expectStaffTable(page, await read<StaffActivity>(page, `${DASHBOARD_API.users}?period=month&month=${previous}`));

  // A cargo.
  const position = now.positions[0];
  expect(position, 'the demo school has cargos').toBeDefined();
  await page.getByRole('combobox', { name: t('activity.position') }).selectOption(String(position!.id));
  await expect(page).toHaveURL(new RegExp(`position_id=${position!.id}`));
  await expectStaffTable(
    page,
    await read<StaffActivity>(page, `${DASHBOARD_API.users}?period=month&month=${previous}&position_id=${position!.id}`),
  );

  // The school year; a reload of the address shows the same view.
  await page.getByRole('combobox', { name: t('activity.period.kind') }).selectOption('school-year');
  await expect(page).toHaveURL(/period=school-year/);
  const year = await read<StaffActivity>(page, `${DASHBOARD_API.users}?period=school-year&position_id=${position!.id}`);
  await expectStaffTable(page, year);
  await page.reload();
  await expectStaffTable(page, year);
  expect(await page.locator('main [style]').count(), 'elements with a style attribute').toBe(0);
});

test('both rankings show the API\'s rows and switch to "Por mejora"', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  for (const kind of ['courses', 'users'] as const) {
    const path = kind === 'courses' ? DASHBOARD_API.rankingCourses : DASHBOARD_API.rankingUsers;
    const metric = kind === 'courses' ? 'read' : 'messages';
    await page.goto(path);
    await expect(
      page.getByRole('heading', { level: 1, name: t(kind === 'courses' ? 'pages.rankingCourses' : 'pages.rankingUsers') }),
    ).toBeVisible();
    if (kind === 'courses') await expect(page.getByText(t('ranking.courses.intro'))).toBeVisible();
    await expectRanking(page, `${path}?metric=${metric}&by=value`, kind);
    await page.getByRole('button', { name: t('ranking.by.improvement') }).click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?by=improvement$`));
    await expect(page.getByRole('button', { name: t('ranking.by.improvement') })).toHaveAttribute('aria-pressed', 'true');
    await expectRanking(page, `${path}?metric=${metric}&by=improvement`, kind);
  }
});

/** The four data screens, in the shell's tab order: path, tab label, page title. */
const DATA_TABS = [
  ['/dashboard/connectivity', 'dashboardShell.connectivity', 'pages.dashboardConnectivity'],
  ['/dashboard/users', 'dashboardShell.users', 'pages.dashboardUsers'],
  ['/ranking/courses', 'dashboardShell.rankingCourses', 'pages.rankingCourses'],
  ['/ranking/users', 'dashboardShell.rankingUsers', 'pages.rankingUsers'],
] as const;

/** The page is the data screen at `path`: its tab current (and only it), its title the one h1 and the tab title. */
async function expectDataScreen(page: Page, path: string, title: MessageKey, tab: MessageKey): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  const tabs = page.getByRole('navigation', { name: t('dashboardShell.sections') });
  await expect(tabs.locator('[aria-current=page]')).toHaveText([t(tab)]);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText([t(title)]);
  await expect(page).toHaveTitle(new RegExp(`^${t(title)} · `));
}

test('the data tabs move between Conectividad, Usuarios and the two rankings, by pointer and by keyboard', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  await page.goto('/dashboard/connectivity');
  await expectDataScreen(page, '/dashboard/connectivity', 'pages.dashboardConnectivity', 'dashboardShell.connectivity');
  const tabs = page.getByRole('navigation', { name: t('dashboardShell.sections') });
  await expect(tabs.getByRole('link')).toHaveText(DATA_TABS.map(([, label]) => t(label)));
  // Pointer: each tab in turn, then back to the first.
  for (const [path, label, title] of [...DATA_TABS.slice(1), DATA_TABS[0]]) {
    await tabs.getByRole('link', { name: t(label), exact: true }).click();
    await expectDataScreen(page, path, title, label);
  }
  // Keyboard: Tab reaches the tabs (a real link each), Enter follows one.
  await tabs.getByRole('link', { name: t('dashboardShell.users'), exact: true }).focus();
  await page.keyboard.press('Tab');
  await expect(tabs.getByRole('link', { name: t('dashboardShell.rankingCourses'), exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expectDataScreen(page, '/ranking/courses', 'pages.rankingCourses', 'dashboardShell.rankingCourses');
  // Back returns to the tab before.
  await page.goBack();
  await expectDataScreen(page, '/dashboard/connectivity', 'pages.dashboardConnectivity', 'dashboardShell.connectivity');
});

test('a teacher is sent home with "No tienes acceso a esa sección"', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/dashboard/users');
  const shell = new AppShell(page);
  await expect(shell.toast(t('error.noAccess'))).toBeVisible();
  await shell.expectInbox();
  expect((await page.request.get(api(DASHBOARD_API.users))).status()).toBe(403);
});

test.describe('a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the activity screens fit: nothing scrolls sideways', async ({ page }) => {
    await loginViaApi(page, USERS.admin);
    for (const path of ['/dashboard/users', '/ranking/courses', '/ranking/users']) {
      await page.goto(path);
      await expect(
        page
          .locator(
            path === '/dashboard/users'
              ? '[data-slot=staff-table], [data-slot=staff-empty]'
              : '[data-slot=ranking-table], [data-slot=ranking-empty]',
          )
          .first(),
      ).toBeVisible();
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const root = document.scrollingElement as HTMLElement;
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
      });
      expect(scrollWidth, `sideways scroll at 390 px on ${path}`).toBeLessThanOrEqual(clientWidth);
    }
  });

  test('the tab row wraps on a phone: every tab, the current one too, is in view; a tab still navigates', async ({ page }) => {
    await loginViaApi(page, USERS.admin);
    await page.goto('/ranking/users');
    const tabs = page.getByRole('navigation', { name: t('dashboardShell.sections') });
    const current = tabs.locator('[aria-current=page]');
    await expect(current).toHaveText(t('dashboardShell.rankingUsers'));
    // The four tabs are wider than 390 px: they take two lines, none is off to the side.
    const row = await tabs.evaluate((nav) => ({ scrollWidth: nav.scrollWidth, clientWidth: nav.clientWidth }));
    expect(row.scrollWidth, 'the row does not scroll').toBeLessThanOrEqual(row.clientWidth);
    for (const tab of await tabs.getByRole('link').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 390, `${await tab.innerText()} in view`).toBe(true);
    }
    await tabs.getByRole('link', { name: t('dashboardShell.connectivity'), exact: true }).click();
    await expectDataScreen(page, '/dashboard/connectivity', 'pages.dashboardConnectivity', 'dashboardShell.connectivity');
  });
});
