// Issue 16, the connectivity screens in the browser against the real server: an administrator opens the
// dashboard, whose school figures are what the API reads from the database, opens the course with the most
// guardians in yellow or red, downloads its call list as CSV, and the CSV's rows are the screen's call list
// row for row (student, guardian, phone, e-mail); the print view shows the same rows; a teacher is sent
// home with "No tienes acceso a esa sección"; on a 390×844 phone nothing scrolls sideways.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { DASHBOARD_API, type CallList, type Connectivity, type ConnectivityRow } from '../../shared/dashboard-contract';
import { AppShell } from './pages/app-shell';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { api, loginViaApi } from './support/session';

const n = (value: number) => new Intl.NumberFormat('es-CL').format(value);

async function read<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(api(path));
  expect(response.ok(), `GET ${path} → ${response.status()}`).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

/** `;`-separated CSV with `"` quoting (RFC 4180 style), a BOM first; rows of cells. */
function parseCsv(source: string): string[][] {
  const textOnly = source.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < textOnly.length; i += 1) {
    const c = textOnly[i] as string;
    if (quoted) {
      if (c === '"' && textOnly[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && textOnly[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The course where most guardians are yellow or red: the one with people to call. */
function worstCourse(data: Connectivity): ConnectivityRow {
  const courses = data.levels.flatMap((level) => level.courses);
  expect(courses.length, 'courses in the demo school').toBeGreaterThan(0);
  return courses.reduce((worst, c) => (c.devices.yellow + c.devices.red > worst.devices.yellow + worst.devices.red ? c : worst));
}

test('an administrator opens the dashboard and a course, and the downloaded call list is the screen’s', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  await page.goto('/dashboard/connectivity');
  await expect(page.getByRole('heading', { level: 2, name: t('connectivity.heading') })).toBeVisible();
  const data = await read<Connectivity>(page, DASHBOARD_API.connectivity);
  const figures = page.getByRole('region', { name: t('connectivity.school.title') });
  await expect(figures.locator('[data-figure] dd')).toHaveText([n(data.school.students), n(data.school.guardians)]);
  await expect(figures.getByRole('group', { name: t('device.legend.title') })).toBeVisible();
  // One table per level, each with its courses.
  for (const level of data.levels) {
    await expect(page.getByRole('table', { name: level.name, exact: true }).locator('tbody tr[data-course]')).toHaveCount(level.courses.length);
  }

  const course = worstCourse(data);
  await page.locator(`tr[data-course="${course.id}"]`).getByRole('link', { name: course.name }).click();
  await expect(page).toHaveURL(new RegExp(`/connectivity/course/${course.id}$`));
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${course.name} · `) })).toBeVisible();

  const list = page.getByRole('region', { name: t('callList.title') });
  const expected = await read<CallList>(page, `${DASHBOARD_API.callList(course.id)}?messages=3`);
  const screenRows = list.locator('[data-slot=call-list-row]');
  if (expected.rows.length === 0) await expect(list.getByText(t('callList.empty'))).toBeVisible();
  else await expect(screenRows).toHaveCount(expected.rows.length);
  const shown = await screenRows.evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent ?? '')));

  const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('link', { name: t('callList.csv') }).click()]);
  expect(download.suggestedFilename()).toMatch(/^lista-de-llamados-.*\.csv$/);
  const csv = parseCsv(await readFile(await download.path(), 'utf8')).filter((row) => row.some((cell) => cell !== ''));
  const [, ...csvRows] = csv; // the header row first
  expect(csvRows.length, 'CSV rows = rows on screen').toBe(shown.length);
  // Column by column in CALL_LIST_COLUMNS order: student, course, guardian, …, phone (5), email (6).
  // Phones compared by their digits: the CSV writes "(+56) 9 …" so a spreadsheet keeps it as text.
  const digits = (phone: string | undefined) => (phone ? phone.replace(/\D/g, '') : '') || '—';
  const pick = (row: string[]) => [row[0], row[1], row[2], digits(row[5]), row[6] || '—'];
  expect(csvRows.map(pick)).toEqual(shown.map(pick));

  // The print view: the same rows.
  await list.getByRole('link', { name: t('callList.print') }).click();
  await expect(page.getByRole('heading', { level: 1, name: t('callList.title') })).toBeVisible();
  if (shown.length > 0) await expect(page.locator('[data-slot=call-list-row]')).toHaveCount(shown.length);
  expect(await page.locator('main [style]').count(), 'elements with a style attribute').toBe(0);
});

test('a teacher is sent home with "No tienes acceso a esa sección"', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/dashboard/connectivity');
  const shell = new AppShell(page);
  await expect(shell.toast(t('error.noAccess'))).toBeVisible();
  await shell.expectInbox();
  await expect(page.getByRole('heading', { level: 2, name: t('connectivity.heading') })).toHaveCount(0);
});

test.describe('a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the dashboard and a course fit: nothing scrolls sideways', async ({ page }) => {
    await loginViaApi(page, USERS.admin);
    const data = await read<Connectivity>(page, DASHBOARD_API.connectivity);
    const course = worstCourse(data);
    for (const [path, ready] of [
      ['/dashboard/connectivity', page.getByRole('region', { name: t('connectivity.school.title') })],
      [`/connectivity/course/${course.id}`, page.getByRole('region', { name: t('callList.title') })],
      [`/connectivity/course/${course.id}/call-list`, page.getByRole('heading', { level: 1, name: t('callList.title') })],
    ] as const) {
      await page.goto(path);
      await expect(ready).toBeVisible();
      const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
        const root = document.scrollingElement as HTMLElement;
        const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter((element) => {
          // Inside a scroll box of its own (the wide tables) is not the page scrolling sideways.
          if (element.closest('.overflow-x-auto')) return false;
          return element.getBoundingClientRect().right > root.clientWidth + 0.5;
        });
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits: wide.slice(0, 3).map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`) };
      });
      expect(scrollWidth, `sideways scroll at 390 px on ${path}: ${culprits.join(', ')}`).toBeLessThanOrEqual(clientWidth);
    }
  });
});
