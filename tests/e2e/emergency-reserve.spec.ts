// The SMS quota's emergency reserve in the browser. With a reserve set so that only the reserve is
// left this month, a normal SMS is refused with the Spanish text and the same message marked "Emergencia"
// goes. The reserve is set as an administrator sets it, `PATCH /api/quota/settings` (QUOTA_API), and put
// back afterwards. Liceo Elqui's administrator: no other spec sends SMS from that school.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { COMPOSE_API, IDEMPOTENCY_HEADER, type Recipients } from '../../shared/compose-contract';
import { QUOTA_API, type Quota } from '../../shared/quota-contract';
import { ComposePage } from './pages/compose-page';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { api, loginViaApi, xsrfToken } from './support/session';

const COURSE = 'I Medio A';
const uniqueTitle = (prefix: string): string => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function call(page: Page, method: 'GET' | 'POST' | 'PATCH', path: string, data?: unknown, headers: Record<string, string> = {}) {
  const response = await page.request.fetch(api(path), {
    method,
    ...(data === undefined ? {} : { data }),
    headers: { Accept: 'application/json', [XSRF_HEADER]: await xsrfToken(page), ...headers },
  });
  return { status: response.status(), body: (await response.json().catch(() => null)) as { data: unknown } | null };
}

/** Nothing on the page scrolls sideways (WCAG 1.4.10). */
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

const quotaOf = async (page: Page) => (await call(page, 'GET', QUOTA_API.quota)).body!.data as Quota;

// On a 390 px phone: the mark, its explanation and the refusal fit without scrolling sideways.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('only the reserve left: a normal SMS is refused in Spanish, the same message marked Emergencia goes', async ({ page }) => {
  await loginViaApi(page, USERS.adminElqui);
  const recipients = (await call(page, 'GET', COMPOSE_API.recipients)).body!.data as Recipients;
  const course = recipients.courses.find((c) => c.nombre === COURSE)!;
  const pick = { kind: 'course', id: course.id, audience: 'apoderados' };
  const sms = (title: string) => ({
    title,
    content: 'Se suspenden las clases por corte de agua.',
    channels: ['sms'],
    recipients: [pick],
    attachment_ids: [],
    allow_replies: false,
    copy_to_sender: false,
    scheduled_at: null,
  });
  const need = ((await call(page, 'POST', COMPOSE_API.estimate, sms('Costo'))).body!.data as { sms: { total: number } }).sms.total;
  expect(need).toBeGreaterThan(0);

  const before = await quotaOf(page);
  // Usage of at least one such message this month, so half the limit can hold what is left.
  if (before.sms.used < need) {
    const sent = await call(page, 'POST', COMPOSE_API.send, sms(uniqueTitle('Aviso previo')), { [IDEMPOTENCY_HEADER]: randomUUID() });
    expect(sent.status).toBe(201);
  }
  const used = (await quotaOf(page)).sms.used;
  // What is left is exactly this message's SMS, and the reserve (half the limit) covers all of it.
  const settings = await call(page, 'PATCH', QUOTA_API.settings, { sms_monthly_limit: used + need, reserve_percent: 50 });
  expect(settings.status).toBe(200);
  try {
    const compose = new ComposePage(page);
    await compose.goto();
    const title = uniqueTitle('Corte de agua');
    await compose.fill({ title, course: COURSE, channel: 'sms', content: 'Se suspenden las clases por corte de agua.' });
    await expect(page.getByText(exactly(t('compose.estimate.reserveOnly')))).toBeVisible();

    await compose.send.click();
    const refusal = t('compose.errors.smsReserveOnly', { count: need });
    await expect(page.locator('[data-slot=estimate]').getByRole('alert').filter({ hasText: refusal })).toBeVisible();
    await expect(compose.confirmation).toHaveCount(0);
    expect((await quotaOf(page)).sms.used).toBe(used);
    expect(await noSidewaysScroll(page)).toBe(true);

    // The same message, marked: it may spend the reserve.
    const mark = page.getByRole('checkbox', { name: exactly(t('compose.options.emergency')) });
    await expect(mark).toHaveAccessibleDescription(t('compose.options.emergencyHint'));
    await mark.check();
    expect(await noSidewaysScroll(page)).toBe(true);
    await expect(page.getByText(exactly(t('compose.estimate.reserveEmergency')))).toBeVisible();
    await compose.send.click();
    await compose.confirm('send');
    await expect(page.locator('[data-slot=toast]').filter({ hasText: t('messages.sent') })).toBeVisible();
    await expect(page).toHaveURL(/\/sent\/message\/\d+$/);
    expect((await quotaOf(page)).sms).toMatchObject({ used: used + need, remaining: 0 });
  } finally {
    await call(page, 'PATCH', QUOTA_API.settings, { sms_monthly_limit: Math.max(before.sms.limit, used + need), reserve_percent: 0 });
  }
});
