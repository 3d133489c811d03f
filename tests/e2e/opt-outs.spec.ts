// How an opt-out reads in the browser, and that axe finds nothing wrong with it, at 1366 px and on a phone:
// reception's «Se dio de baja el …» beside a delivery, and connectivity's course page and call list naming
// the BAJA with its day. The seeded school has no opt-out (a family writes BAJA through a provider's
// webhook), so the API's real answers are taken and one guardian's phone is marked opted out in them.
import { test, expect, type Page, type Route } from '@playwright/test';
import type { CallList, CourseConnectivity } from '../../shared/dashboard-contract';
import type { ReceptionPage } from '../../shared/reception-contract';
import { expectNoAxeViolations } from './support/axe';
import { USERS } from './support/env';
import { loginViaApi } from './support/session';
import { messageIds, settled } from './support/visits';

const AT = '2026-10-20T15:00:00.000Z';

async function scanBothSizes(page: Page, where: string): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 800 });
  await settled(page);
  await expectNoAxeViolations(page, `${where} at 1366 px`);
  await page.setViewportSize({ width: 390, height: 844 });
  await settled(page);
  await expectNoAxeViolations(page, `${where} at 390 px`);
}

/** Answers the request with the server's own answer, changed by `edit`. */
const edited =
  <T>(edit: (body: T) => void) =>
  async (route: Route) => {
    const response = await route.fetch();
    const body = (await response.json()) as T;
    edit(body);
    await route.fulfill({ response, json: body });
  };

test.beforeEach(async ({ page }) => {
  await loginViaApi(page, USERS.admin);
});

test('reception says since when a phone opted out of SMS', async ({ page }) => {
  const { sent } = await messageIds(page);
  await page.route(
    (url) => url.pathname === `/api/messages/${sent}/reception`,
    edited<ReceptionPage>((body) => {
      const row = body.data[0]!;
      row.channels = [
        ...row.channels.filter((c) => c.channel !== 'sms'),
        {
          channel: 'sms',
          status: 'failed',
          address: '+56987654321',
          error: 'opted_out',
          attempts: 0,
          sent_at: null,
          delivered_at: null,
          read_at: null,
          last_retry_at: null,
          opted_out_at: AT,
          blocked_at: null,
        },
      ];
    }),
  );
  await page.goto(`/sent/message/${sent}/reception`);
  await expect(page.getByText('Se dio de baja el 20-10-2026').first()).toBeVisible();
  await scanBothSizes(page, 'reception with an opt-out');
});

test("connectivity's course and call list name the BAJA with its day", async ({ page }) => {
  await page.route(
    (url) => url.pathname === '/api/dashboard/connectivity/courses/1',
    edited<{ data: CourseConnectivity }>(({ data }) => {
      const guardian = data.students.flatMap((s) => s.guardians)[0]!;
      guardian.fix = ['sms_opted_out', 'no_app'];
      guardian.opted_out = [{ channel: 'sms', at: AT }];
    }),
  );
  await page.route(
    (url) => url.pathname === '/api/dashboard/connectivity/courses/1/call-list',
    edited<{ data: CallList }>(({ data }) => {
      const first = data.rows[0];
      const row = {
        student: first?.student ?? 'Ana Soto',
        course: first?.course ?? '1° Básico A',
        guardian: 'Luis Soto',
        role: 'titular' as const,
        reasons: ['sms_opted_out' as const, 'no_app' as const],
        opted_out: [{ channel: 'sms' as const, at: AT }],
        phone: '+56987654321',
        email: null,
        alternatives: [],
      };
      data.rows = [row, ...data.rows];
    }),
  );
  await page.goto('/connectivity/course/1');
  await expect(page.getByText('Se dio de baja por SMS el 20-10-2026').first()).toBeVisible();
  await expect(page.getByText('Se dio de baja por SMS el 20-10-2026; No tiene la app')).toBeVisible();
  await scanBothSizes(page, 'connectivity course with an opt-out');
});
