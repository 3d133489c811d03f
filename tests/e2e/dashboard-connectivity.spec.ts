// The connectivity screens in the browser against the real server: an administrator opens the
// dashboard, whose school figures are what the API reads from the database, opens the course with the most
// guardians in yellow or red, downloads its call list as CSV, and the CSV's rows are the screen's call list
// row for row (student, guardian, phone, e-mail); the print view shows the same rows; a teacher is sent
// home with "No tienes acceso a esa sección"; a yellow guardian's missed messages open in place from the
// keyboard, and only the administrator's own link to a reception status (which opens; anyone else's would
// be a 404); on a 390×844 phone nothing scrolls sideways, missed messages opened.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import {
  DASHBOARD_API,
  type CallList,
  type Connectivity,
  type ConnectivityRow,
  type CourseConnectivity,
} from '../../shared/dashboard-contract';
import { ReceptionPage } from './pages/reception-page';
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
  await expect(page.getByRole('heading', { level: 1, name: t('pages.dashboardConnectivity') })).toBeVisible();
  const data = await read<Connectivity>(page, DASHBOARD_API.connectivity);
  const figures = page.getByRole('region', { name: t('connectivity.school.title') });
  await expect(figures.locator('[data-figure] dd')).toHaveText([n(data.school.students), n(data.school.guardians)]);
  await expect(figures.getByRole('group', { name: t('device.legend.title') })).toBeVisible();
  // One table per level, each with its courses.
  for (const level of data.levels) {
    await expect(page.getByRole('table', { name: level.name, exact: true }).locator('tbody tr[data-course]')).toHaveCount(
      level.courses.length,
    );
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

test('a missed message opens in place from the keyboard; its reception status is linked only for its author, and opens', async ({
  page,
}) => {
  await loginViaApi(page, USERS.admin);
  const data = await read<Connectivity>(page, DASHBOARD_API.connectivity);
  // A course where the administrator sees a missed message of their own and one a colleague wrote.
  const courses = data.levels.flatMap((level) => level.courses).sort((a, b) => b.devices.yellow - a.devices.yellow);
  type Found = { course: number; guardian: number; message: number; author: string | null; title: string };
  let own: Found | undefined;
  let other: Found | undefined;
  for (const c of courses) {
    const detail = await read<CourseConnectivity>(page, DASHBOARD_API.course(c.id));
    const missed = detail.students.flatMap((s) =>
      s.guardians.flatMap((g) =>
        g.missed.map((m) => ({
          course: c.id,
          guardian: g.id,
          message: m.message_id,
          author: m.author,
          title: m.title,
          mine: m.can_view_reception,
        })),
      ),
    );
    own = missed.find((m) => m.mine);
    other = missed.find((m) => !m.mine && m.author !== null);
    if (own && other) break;
  }
  expect(own && other, 'a course with missed messages by the administrator and by a colleague').toBeTruthy();
  await page.goto(`/connectivity/course/${other!.course}`);

  // A colleague's message: opened with the keyboard, its failures and who may see its reception status.
  const theirs = page.locator(`[data-guardian="${other!.guardian}"] [data-missed="${other!.message}"]`);
  await theirs.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(theirs.getByText(t('course.missed.authorOnly', { author: other!.author! }))).toBeVisible();
  await expect(theirs.locator('[data-slot=missed-failures] li').first()).toBeVisible();
  await expect(theirs.getByRole('link')).toHaveCount(0);

  // Their own: Space opens it, Tab reaches the link, Enter follows it to a reception status that opens.
  const mine = page.locator(`[data-guardian="${own!.guardian}"] [data-missed="${own!.message}"]`);
  await mine.locator('summary').focus();
  await page.keyboard.press('Space');
  const link = mine.getByRole('link', { name: t('course.missed.open', { title: own!.title }) });
  await expect(link).toBeVisible();
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/sent/message/${own!.message}/reception$`));
  await new ReceptionPage(page).expectShown();
});

test('a teacher is sent home with "No tienes acceso a esa sección"', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto('/dashboard/connectivity');
  const shell = new AppShell(page);
  await expect(shell.toast(t('error.noAccess'))).toBeVisible();
  await shell.expectInbox();
  await expect(page.getByRole('heading', { level: 1, name: t('pages.dashboardConnectivity') })).toHaveCount(0);
});

test('a course page sits under the Conectividad tab, and the data tabs navigate from it', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  const course = worstCourse(await read<Connectivity>(page, DASHBOARD_API.connectivity));
  await page.goto(`/connectivity/course/${course.id}`);
  const tabs = page.getByRole('navigation', { name: t('dashboardShell.sections') });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText([t('pages.connectivityCourse')]);
  await expect(tabs.locator('[aria-current=page]')).toHaveText([t('dashboardShell.connectivity')]);
  await tabs.getByRole('link', { name: t('dashboardShell.users'), exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/users$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText([t('pages.dashboardUsers')]);
  await expect(tabs.locator('[aria-current=page]')).toHaveText([t('dashboardShell.users')]);
  await tabs.getByRole('link', { name: t('dashboardShell.connectivity'), exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/connectivity$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText([t('pages.dashboardConnectivity')]);
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
      // Every missed message opened: its author, failures and link or note must fit too.
      await page.locator('details').evaluateAll((all) => {
        for (const d of all) (d as HTMLDetailsElement).open = true;
      });
      const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
        const root = document.scrollingElement as HTMLElement;
        const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter((element) => {
          // Inside a scroll box of its own (the wide tables) is not the page scrolling sideways.
          if (element.closest('.overflow-x-auto')) return false;
          return element.getBoundingClientRect().right > root.clientWidth + 0.5;
        });
        return {
          scrollWidth: root.scrollWidth,
          clientWidth: root.clientWidth,
          culprits: wide.slice(0, 3).map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)}`),
        };
      });
      expect(scrollWidth, `sideways scroll at 390 px on ${path}: ${culprits.join(', ')}`).toBeLessThanOrEqual(clientWidth);
    }
  });
});
