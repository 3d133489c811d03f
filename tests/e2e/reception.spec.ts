// Delivery and reception in the browser: send, watch the delivery statuses change, retry the failures, list who
// did not get the SMS and retry just those. The e2e server's SMS simulator (tests/e2e/serve.sh) loses
// about half of the SMS, after a short delay, and a retry has the same odds; e-mail goes to the outbox and
// always counts as received. The tests send as administrador@sanandres.cl: the other specs only log in as
// that user, never send.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ComposePage } from './pages/compose-page';
import { ReceptionPage } from './pages/reception-page';
import { USERS } from './support/env';
import { exactly, t } from './support/i18n';
import { loginViaApi } from './support/session';
import type { ChannelCode } from '../../shared/codes';
import { RECIPIENT_STATUSES, type RetryResult } from '../../shared/reception-contract';

const uniqueTitle = (prefix: string): string => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A translated text with its `{{numbers}}` as `(\d+)` groups. */
const pattern = (text: string): RegExp => new RegExp(`^\\s*${escapeRegExp(text).replaceAll('§', '(\\d+)')}\\s*$`);

/** Waits for "Reenviado a N destinatarios" (or "a 1 destinatario") and returns N, which is at least 1. */
async function resentCount(page: Page): Promise<number> {
  const many = new RegExp(escapeRegExp(t('reception.resent', { count: '§' })).replace('§', '(\\d+)'));
  const one = new RegExp(escapeRegExp(t('reception.resent', { count: 1 })));
  const toast = page
    .locator('[data-slot=toast]')
    .filter({ hasText: many })
    .or(page.locator('[data-slot=toast]').filter({ hasText: one }));
  await expect(toast).toBeVisible();
  const text = await toast.innerText();
  const count = one.test(text) ? 1 : Number(many.exec(text)?.[1]);
  expect(count).toBeGreaterThan(0);
  return count;
}

// A course of a few dozen guardians: enough SMS that "half of them fail" is never "none of them" (2^-40).
async function sendToCourse(page: Page, course: string, channels: readonly ChannelCode[]): Promise<{ title: string; id: number }> {
  await loginViaApi(page, USERS.admin);
  const compose = new ComposePage(page);
  await compose.goto();
  const title = uniqueTitle('Aviso de recepción');
  await compose.title.fill(title);
  await compose.pickCourse(course);
  for (const channel of channels) await compose.channel(channel).check();
  await compose.content.fill('Mañana la salida es a las 13:00 por jornada de reflexión.');
  await compose.send.click();
  await compose.confirm('send');
  await expect(page).toHaveURL(/\/sent\/message\/\d+$/);
  const id = Number(/\/sent\/message\/(\d+)$/.exec(page.url())?.[1]);
  return { title, id };
}

/** Not received, reception error or failed: what "Reintentar fallidos" sends again, by recipient. */
async function retryableRecipients(reception: ReceptionPage): Promise<number> {
  return (await reception.chipCount('not_received')) + (await reception.chipCount('error')) + (await reception.chipCount('failed'));
}

const settled = (badge: Locator) => expect(badge).toHaveAttribute('data-status', /^(received|read|not_received|error|failed)$/);

test('e-mail + SMS: the message shows its progress, the reception rows their channels, a retry resends the lost SMS', async ({ page }) => {
  test.setTimeout(90_000);
  const { title, id } = await sendToCourse(page, '5° Básico B', ['e-mail', 'sms']);

  // The message view: progress while the deliveries go out, then the final state. The first round can be
  // over before the page shows (the simulator answers in 300 ms): "sending" or already settled, then
  // settled. The retry below is where the sending phase is watched.
  const delivery = page.getByRole('region', { name: t('messages.reception') });
  const progress = delivery.locator('[data-slot=progress-text]');
  const sending = pattern(t('reception.progressSending', { done: '§', count: '§' })).source;
  const settledText = `^(${escapeRegExp(t('reception.progressSent'))}|${escapeRegExp(t('reception.progressPartial'))})$`;
  await expect(progress).toHaveText(new RegExp(`${sending}|${settledText}`));
  await expect(progress).toHaveText(new RegExp(settledText), { timeout: 20_000 });
  // Half of the SMS lost, but every guardian got the e-mail: nobody tried was left out, so the message is
  // sent (decision 0132); screen readers are told the state alone.
  await expect(progress).toHaveText(t('reception.progressSent'));
  await expect(delivery.locator('[aria-live=polite]')).toHaveText(t('reception.progressSent'));

  // The sent folder's row shows no "Con fallos" either.
  await page.goto('/sent');
  const row = page.getByRole('listitem').filter({ hasText: title }).first();
  await expect(row).toBeVisible();
  await expect(row.locator('[data-slot=progress-badge]')).toHaveCount(0);

  await page.goto(`/sent/message/${id}`);
  await page.getByRole('link', { name: t('reception.view') }).click();
  const reception = new ReceptionPage(page);
  await reception.expectShown();
  await expect(reception.progress).toHaveText(t('reception.progressSent'));

  // One row per guardian, each with its e-mail and its SMS badge; e-mail always arrives, SMS sometimes not.
  const rows = await reception.rows.count();
  expect(rows).toBeGreaterThan(10);
  await expect(reception.badges('e-mail')).toHaveCount(rows);
  await expect(reception.badges('sms')).toHaveCount(rows);
  await expect(reception.badgesIn('e-mail', 'received')).toHaveCount(rows);
  await expect(reception.badgesIn('sms', 'not_received').first()).toBeVisible();
  const lostBefore = await reception.badgesToRetry('sms').count();
  expect(await reception.badgesIn('sms', 'not_received').count()).toBe(await reception.figure('sms', 'not_received'));
  // The recipient is the best of their channels: every guardian got the e-mail.
  await expect(reception.chip('received')).toHaveText(pattern(`${t('reception.filter.received')} (${rows})`));
  await expect(page.getByText(t('reception.retryHint', { count: lostBefore }))).toBeVisible();
  // The offer differs from the state, and the screen says why.
  await expect(page.getByText(t('reception.retryReachedElsewhere'))).toBeVisible();

  await reception.retry.click();
  // One SMS per guardian: at most as many recipients resent as SMS lost (one without a usable number is not).
  const resent = await resentCount(page);
  expect(resent).toBeLessThanOrEqual(lostBefore);
  // The lost SMS go out again, then settle with the same odds. They can settle before any reload shows
  // them in flight: the durable trace on the rows is their retry time, one per resent guardian, whatever
  // status they reached since.
  await expect(reception.retried('sms')).toHaveCount(resent, { timeout: 20_000 });
  await expect(reception.progress).toHaveText(t('reception.progressSent'), { timeout: 20_000 });
  await expect(reception.badgesInFlight('sms')).toHaveCount(0);
  for (const badge of await reception.badges('sms').all()) await settled(badge);
  const lostAfter = await reception.badgesToRetry('sms').count();
  expect(await reception.badgesIn('sms', 'not_received').count()).toBe(await reception.figure('sms', 'not_received'));
  expect(lostAfter).toBeLessThan(lostBefore);
  await expect(reception.badgesIn('e-mail', 'received')).toHaveCount(rows);
});

test('SMS only: "No recibidos" filters, "Reintentar fallidos" works by keyboard, the retried go pending and settle', async ({ page }) => {
  test.setTimeout(90_000);
  const { id } = await sendToCourse(page, '6° Básico A', ['sms']);
  await page.goto(`/sent/message/${id}/reception`);
  const reception = new ReceptionPage(page);
  await reception.expectShown();

  // The first round may be over before the page opens (the simulator answers in 300 ms); the page keeps
  // itself up to date until nobody is pending. The retry below is where the change is watched.
  await expect(reception.chip('all')).toHaveAttribute('aria-pressed', 'true');
  const total = await reception.chipCount('all');
  expect(total).toBeGreaterThan(10);
  await expect(reception.chip('pending')).toHaveText(pattern(`${t('reception.filter.pending')} (0)`), { timeout: 20_000 });
  await expect(reception.progress).toHaveText(t('reception.progressPartial'));
  const lost = await retryableRecipients(reception);
  expect(lost).toBeGreaterThan(0);
  expect(lost + (await reception.chipCount('received')) + (await reception.chipCount('read'))).toBe(total);

  // Keyboard: Tab walks the chips, Space presses one; Shift+Tab from the first chip is the retry button.
  await reception.chip('all').focus();
  for (const filter of ['pending', 'received', 'read', 'not_received'] as const) {
    await page.keyboard.press('Tab');
    await expect(reception.chip(filter)).toBeFocused();
  }
  await page.keyboard.press('Space');
  await expect(reception.chip('not_received')).toHaveAttribute('aria-pressed', 'true');
  await expect(reception.chip('all')).toHaveAttribute('aria-pressed', 'false');
  const notReceived = await reception.chipCount('not_received');
  await expect(reception.rows).toHaveCount(notReceived);
  await expect(reception.rowsIn('not_received')).toHaveCount(notReceived);
  for (const row of await reception.rows.all()) {
    await expect(row.getByText(exactly(`${t('messages.channel.sms')}: ${t('reception.deliveryStatus.not_received')}`))).toBeVisible();
  }

  await reception.chip('all').focus();
  await page.keyboard.press('Enter');
  await expect(reception.chip('all')).toHaveAttribute('aria-pressed', 'true');
  await expect(reception.rows).toHaveCount(total);
  await page.keyboard.press('Shift+Tab');
  await expect(reception.retry).toBeFocused();
  await page.keyboard.press('Enter');

  // "Reenviado a N destinatarios": the lost ones, less any without a usable number.
  const resent = await resentCount(page);
  expect(resent).toBeLessThanOrEqual(lost);
  // The retried recipients go pending again, then settle; fewer are lost than before. They may settle
  // before a reload shows them pending: the rows after the retry are known by the retried SMS's retry
  // time (the chip counts come with those rows, so "Pendientes (0)" below is not the counts from before).
  await expect(reception.retried('sms')).toHaveCount(resent, { timeout: 20_000 });
  await expect(reception.chip('pending')).toHaveText(pattern(`${t('reception.filter.pending')} (0)`), { timeout: 20_000 });
  await expect(reception.rowsIn('pending')).toHaveCount(0);
  const lostAfter = await retryableRecipients(reception);
  expect(lostAfter).toBeLessThan(lost);
  expect(lostAfter + (await reception.chipCount('received')) + (await reception.chipCount('read'))).toBe(total);
});

test('e-mail + SMS: choosing SMS lists exactly who did not get it, Back keeps the list, a retry resends only their SMS', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { id } = await sendToCourse(page, '7° Básico A', ['e-mail', 'sms']);
  await page.goto(`/sent/message/${id}/reception`);
  const reception = new ReceptionPage(page);
  await reception.expectShown();
  // Every e-mail arrived: everyone was reached, so the message is sent, the SMS lost still retryable.
  await expect(reception.progress).toHaveText(t('reception.progressSent'), { timeout: 20_000 });

  // Every e-mail arrived, so by person (the best of their channels) the SMS lost do not show; the SMS line
  // of the summary counts them.
  await expect(reception.channel('all')).toHaveAttribute('aria-pressed', 'true');
  await expect(reception.filtersHint).toHaveText(t('reception.filtersHintAll'));
  const lost = await reception.figure('sms', 'not_received');
  expect(lost).toBeGreaterThan(0);

  await reception.channel('sms').click();
  await expect(page).toHaveURL(new RegExp(`/sent/message/${id}/reception\\?channel=sms$`));
  await expect(reception.channel('sms')).toHaveAttribute('aria-pressed', 'true');
  await expect(reception.filtersHint).toHaveText(t('reception.filtersHintChannel', { channel: t('messages.channel.sms') }));
  // The chips are the SMS summary: every state, and everyone with an SMS.
  for (const state of RECIPIENT_STATUSES) expect(await reception.chipCount(state), state).toBe(await reception.figure('sms', state));
  const smsTotal = await reception.chipCount('all');
  await expect(reception.summaryOf('sms')).toContainText(t('reception.channelTotal', { count: smsTotal }));
  await expect(reception.rows).toHaveCount(smsTotal);

  // "No recibidos": exactly the SMS not received, each row saying so.
  await reception.chip('not_received').click();
  await expect(page).toHaveURL(/\?channel=sms&status=not_received$/);
  await expect(reception.rows).toHaveCount(lost);
  await expect(reception.badgesIn('sms', 'not_received')).toHaveCount(lost);
  // Each row says its SMS state (by person, the e-mail made them "Recibido").
  await expect(
    reception.rows.filter({ hasText: `· ${t('messages.channel.sms')}: ${t('reception.recipientStatus.not_received')}` }),
  ).toHaveCount(lost);
  const missed = new Set(await Promise.all((await reception.rows.all()).map((row) => reception.nameOf(row))));
  // "Fallidos": the SMS that could not go at all (no mobile), also exactly.
  await reception.chip('failed').click();
  await expect(reception.chip('failed')).toHaveAttribute('aria-pressed', 'true');
  const failed = await reception.figure('sms', 'failed');
  await expect(reception.rows).toHaveCount(failed);
  await expect(reception.badgesIn('sms', 'failed')).toHaveCount(failed);
  await reception.chip('not_received').click();
  await expect(reception.rows).toHaveCount(lost);

  // Back to the message and Back again: the same list.
  await page.getByRole('link', { name: t('reception.back') }).click();
  await expect(page).toHaveURL(new RegExp(`/sent/message/${id}$`));
  await page.goBack();
  await reception.expectShown();
  await expect(page).toHaveURL(/\?channel=sms&status=not_received$/);
  await expect(reception.channel('sms')).toHaveAttribute('aria-pressed', 'true');
  await expect(reception.chip('not_received')).toHaveAttribute('aria-pressed', 'true');
  await expect(reception.rows).toHaveCount(lost);

  // The retry is of this list: its SMS only, and the server puts exactly those back in flight.
  await expect(reception.retryHint).toHaveText(t('reception.retryHintChannel', { count: lost, channel: t('messages.channel.sms') }));
  const [request, response] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/messages/${id}/reception/retry`)),
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/messages/${id}/reception/retry`)),
    reception.retry.click(),
  ]);
  expect(request.postDataJSON()).toEqual({ channel: 'sms', status: 'not_received', q: '' });
  const result = ((await response.json()) as { data: RetryResult }).data;
  expect(result.resent).toBe(lost);
  const smsAfter = result.channels.find((c) => c.channel === 'sms')!.progress;
  const mailAfter = result.channels.find((c) => c.channel === 'e-mail')!.progress;
  // They go pending: all that was not received is queued again (no SMS was in flight before).
  expect(smsAfter.queued + smsAfter.sent).toBe(lost);
  expect(smsAfter.not_received).toBe(0);
  expect(mailAfter.queued + mailAfter.sent).toBe(0);
  expect(await resentCount(page)).toBe(lost);

  // On the rows: the retried SMS are exactly theirs (their retry time), and no e-mail was sent again.
  await reception.chip('all').click();
  await expect(page).toHaveURL(/\?channel=sms$/);
  await expect(reception.rows).toHaveCount(smsTotal);
  await expect(reception.retried('sms')).toHaveCount(lost, { timeout: 20_000 });
  await expect(reception.retried('e-mail')).toHaveCount(0);
  const retriedNames = await Promise.all((await reception.rowsRetried('sms').all()).map((row) => reception.nameOf(row)));
  expect(new Set(retriedNames)).toEqual(missed);
});
