// Compose in the browser: compose to a course and see it in /sent, validation texts bound to the fields,
// a draft saved (replies allowed by default, turned off, kept) → reopened → sent, a scheduled message with
// its time zone, and typing that survives a reload. Each test uses its own demo user: the server and its
// database are shared by the parallel workers.
import { expect, test, type Page } from '@playwright/test';
import { ComposePage } from './pages/compose-page';
import { USERS } from './support/env';
import { exactly, t } from './support/i18n';
import { appUrl } from './support/server';
import { loginViaApi } from './support/session';

/** A title no other test (or earlier run on the same server) can have produced. */
const uniqueTitle = (prefix: string): string => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function openCompose(page: Page, email: string, query = ''): Promise<ComposePage> {
  await loginViaApi(page, email);
  const compose = new ComposePage(page);
  await compose.goto(query);
  return compose;
}

const toast = (page: Page, text: string) => page.locator('[data-slot=toast]').filter({ hasText: text });

test('compose to a course by e-mail and SMS, send, and find it in /sent', async ({ page }) => {
  // The picker dialog must not need inline styles: the CSP is style-src 'self'.
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) cspErrors.push(message.text());
  });
  const compose = await openCompose(page, USERS.directora);
  const title = uniqueTitle('Reunión de curso');
  await compose.title.fill(title);
  await compose.pickCourse('3° Básico A');
  await compose.channel('e-mail').check();
  await compose.channel('sms').check();

  // San Andrés has its signature active: one GSM-7 segment minus the 6 characters it takes.
  const text = 'Reunión de apoderados el jueves a las 18:30 en la sala del curso.';
  await compose.content.fill(text);
  await expect(compose.smsCounter).toHaveText(t('compose.sms.counter', { units: text.length, limit: 154 }));
  await expect(page.getByText(t('compose.sms.accents'))).toBeVisible();
  // San Andrés' monthly SMS limit is 5000 (seed); what is left depends on the other tests' sends.
  const left = t('compose.estimate.smsLeft', { count: '§', limit: 5000 })
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace('§', '\\d{1,3}(?:\\.\\d{3})*');
  await expect(page.getByText(new RegExp(`^${left}$`))).toBeVisible();

  await compose.send.click();
  // Before anything is sent: how many SMS this uses and how many are left this month.
  const cost = t('compose.estimate.sms', { total: '§', count: '§' })
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replaceAll('§', '\\d{1,3}(?:\\.\\d{3})*');
  await expect(page.getByText(new RegExp(`^${cost}$`))).toBeVisible();
  await compose.confirm('send');
  await expect(toast(page, t('messages.sent'))).toBeVisible();
  await expect(page).toHaveURL(/\/sent\/message\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

  await page.goto('/sent');
  await expect(page.getByRole('listitem').filter({ hasText: title }).first()).toBeVisible();
  expect(cspErrors, 'CSP violations in the console').toEqual([]);
});

test('empty title and no recipients show the SPEC texts bound to the fields', async ({ page }) => {
  const compose = await openCompose(page, USERS.utp);
  await compose.send.click();

  await expect(compose.title).toHaveAttribute('aria-invalid', 'true');
  await expect(compose.addRecipients.first()).toHaveAttribute('aria-invalid', 'true');
  expect(await compose.errorOf(compose.title)).toBe('Debes elegir un Título');
  expect(await compose.errorOf(compose.addRecipients.first())).toBe('Debes elegir uno o más Destinatarios');
  await expect(page.getByRole('alert').filter({ hasText: exactly('Debes elegir un Título') })).toBeVisible();
  await expect(toast(page, t('compose.errors.review'))).toBeVisible();

  // Fixing the title clears its error and leaves the other one.
  await compose.title.fill('Con título');
  await expect(compose.title).not.toHaveAttribute('aria-invalid', 'true');
  await expect(compose.addRecipients.first()).toHaveAttribute('aria-invalid', 'true');
});

test('a draft is saved, reopened from /draft, edited and sent', async ({ page }) => {
  const compose = await openCompose(page, USERS.teacherLatam);
  const title = uniqueTitle('Borrador salida');
  await compose.title.fill(title);
  await compose.pickCourse('4° Básico B');
  await compose.channel('e-mail').check();
  await compose.content.fill('Recuerden traer la autorización firmada.');
  // A new message lets the families answer; this author turns it off, and the draft keeps that.
  await expect(compose.allowReplies).toBeChecked();
  await compose.allowReplies.click();
  await expect(compose.allowReplies).not.toBeChecked();
  await compose.save.click();
  await expect(toast(page, t('messages.saved'))).toBeVisible();

  await page.goto('/draft');
  const row = page.getByRole('listitem').filter({ hasText: title }).first();
  await expect(row).toBeVisible();
  // A draft opens ready to edit: straight into compose, no reading view on the way.
  await row.getByRole('link').click();
  await expect(page).toHaveURL(/\/new\?draft=\d+$/);

  const reopened = new ComposePage(page);
  await expect(reopened.title).toHaveValue(title);
  await expect(reopened.content).toHaveValue('Recuerden traer la autorización firmada.');
  await expect(reopened.recipients.getByRole('listitem').filter({ hasText: '4° Básico B' }).first()).toBeVisible();
  await expect(reopened.channel('e-mail')).toBeChecked();
  await expect(reopened.allowReplies).not.toBeChecked();

  const edited = `${title} (editado)`;
  await reopened.title.fill(edited);
  await reopened.send.click();
  await reopened.confirm('send');
  await expect(toast(page, t('messages.sent'))).toBeVisible();
  await expect(page).toHaveURL(/\/sent\/message\/\d+$/);

  await page.goto('/sent');
  await expect(page.getByRole('listitem').filter({ hasText: edited }).first()).toBeVisible();
  await page.goto('/draft');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);
});

test('a scheduled message appears in /scheduled with its time zone', async ({ page }) => {
  const compose = await openCompose(page, USERS.adminJuarez);
  const title = uniqueTitle('Junta programada');
  await compose.title.fill(title);
  await compose.pickCourse('2° de Secundaria A');
  await compose.channel('e-mail').check();
  await compose.content.fill('Les esperamos en la junta del próximo mes.');

  // A date well ahead, in the school's own calendar (Mexico City).
  const day = new Date(Date.now() + 20 * 24 * 60 * 60 * 1000);
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(day);
  await compose.scheduleDate.fill(date);
  await compose.scheduleTime.fill('10:30');
  await expect(
    page.getByText(t('compose.schedule.timezone', { name: 'hora estándar central', timezone: 'America/Mexico_City' })),
  ).toBeVisible();
  await expect(compose.send).toHaveCount(0);
  await compose.schedule.click();
  await compose.confirm('schedule');

  await expect(toast(page, t('messages.scheduled'))).toBeVisible();
  await expect(page).toHaveURL(/\/scheduled\/message\/\d+$/);
  await expect(page.getByText(/\(America\/Mexico_City\)/)).toBeVisible();
  await expect(page.getByText(/10:30/)).toBeVisible();

  await page.goto('/scheduled');
  await expect(page).toHaveURL(appUrl('/scheduled'));
  await expect(page.getByRole('listitem').filter({ hasText: title }).first()).toBeVisible();
});

test('a reload in the middle of typing keeps the text', async ({ page }) => {
  const compose = await openCompose(page, USERS.teacherJuarez);
  const title = uniqueTitle('Aviso a medio escribir');
  await compose.title.fill(title);
  await compose.content.pressSequentially('Estimadas familias: mañana no habrá clases por');

  await page.reload();
  const again = new ComposePage(page);
  await again.expectReady();
  await expect(again.title).toHaveValue(title);
  await expect(again.content).toHaveValue('Estimadas familias: mañana no habrá clases por');
});
