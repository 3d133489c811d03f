// The families' app for a guardian of two children in two courses, in Chromium against the real server:
// the school writes to each child's guardians on the app channel (one message with a file); the guardian
// signs in with the code the SMS simulator wrote, sees both children with their courses and both messages,
// taps one child (the address keeps it across a reload), searches, opens the message and downloads its
// file through the API. axe finds nothing at 390 and 320 px, and nothing is wider than the phone.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { COMPOSE_API, IDEMPOTENCY_HEADER, type RecipientGuardian, type Recipients, type SendResult } from '../../shared/compose-contract';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import { composeInput } from '../fixtures/compose';
import { expectNoAxeViolations } from './support/axe';
import { USERS, XSRF_HEADER } from './support/env';
import { smsCode } from './support/family';
import { BASE_URL } from './support/server';
import { api, loginViaApi, xsrfToken } from './support/session';

const tx = familyCL.family;
const digits = (phone: string) => phone.replace(/\D/g, '');

interface Family {
  phone: string;
  /** One child per course: [course name, student id, student name]. */
  children: { course: string; id: number; name: string }[];
}

/** A guardian with the app, a phone nobody else has, and children in two courses (siblings, as the seed makes them). */
async function familyOfTwo(admin: Page): Promise<Family> {
  const response = await admin.request.get(api(COMPOSE_API.recipients));
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: Recipients };
  const byPhone = new Map<string, Set<number>>();
  const seats = new Map<number, { guardian: RecipientGuardian; course: string; student: { id: number; name: string } }[]>();
  for (const course of data.courses.filter((c) => c.grupo_type === 'curso')) {
    for (const g of course.apoderados) {
      const phone = g.ficha_apoderado.fono_celular;
      if (phone) byPhone.set(digits(phone), (byPhone.get(digits(phone)) ?? new Set()).add(g.id));
      const student = course.estudiantes.find((s) => s.id === g.student_id);
      if (student) seats.set(g.id, [...(seats.get(g.id) ?? []), { guardian: g, course: course.nombre, student }]);
    }
  }
  for (const list of seats.values()) {
    const g = list[0]!.guardian;
    const phone = g.ficha_apoderado.fono_celular;
    const courses = new Set(list.map((seat) => seat.course));
    if (g.device_status === 'blue' && phone && byPhone.get(digits(phone))?.size === 1 && courses.size >= 2) {
      const [a, b] = [list[0]!, list.find((seat) => seat.course !== list[0]!.course)!];
      return {
        phone,
        children: [a, b].map((seat) => ({ course: seat.course, id: seat.student.id, name: seat.student.name })),
      };
    }
  }
  throw new Error('no guardian with the app, a phone of their own and children in two courses');
}

async function sendToChild(admin: Page, studentId: number, title: string, attachmentIds: number[] = []): Promise<number> {
  const sent = await admin.request.post(api(COMPOSE_API.send), {
    data: composeInput({
      title,
      content: `Contenido de ${title}.`,
      channels: ['app-mobile'],
      recipients: [{ kind: 'student', id: studentId, audience: 'apoderados' }],
      attachment_ids: attachmentIds,
    }),
    headers: { [XSRF_HEADER]: await xsrfToken(admin), [IDEMPOTENCY_HEADER]: randomUUID(), Accept: 'application/json' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  return ((await sent.json()) as { data: SendResult }).data.id;
}

test('a guardian of two children in two courses sees both, narrows to one, searches and downloads a file', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const adminContext = await browser.newContext({ baseURL: BASE_URL });
  const admin = await adminContext.newPage();
  await loginViaApi(admin, USERS.admin);
  const family = await familyOfTwo(admin);
  const [first, second] = family.children as [Family['children'][number], Family['children'][number]];
  const tag = Date.now().toString(36);
  const upload = await admin.request.post(api('/attachments'), {
    headers: { [XSRF_HEADER]: await xsrfToken(admin), Accept: 'application/json' },
    multipart: { file: { name: 'autorización.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% Hermes\n') } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const fileId = ((await upload.json()) as { data: { id: number } }).data.id;
  const meetingTitle = `Reunión de apoderados ${tag}`;
  const tripTitle = `Salida pedagógica ${tag}`;
  const meeting = await sendToChild(admin, first.id, meetingTitle, [fileId]);
  await sendToChild(admin, second.id, tripTitle);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/familia');
  await page.getByLabel(tx.signIn.phone).fill(family.phone);
  await page.getByRole('button', { name: tx.signIn.sendCode }).click();
  await expect(page.getByRole('heading', { name: tx.signIn.codeTitle })).toBeVisible();
  await page.getByLabel(tx.signIn.code).fill(await smsCode(family.phone));
  await page.getByRole('button', { name: tx.signIn.submit }).click();

  // Both children, each with its course.
  const children = page.getByRole('navigation', { name: tx.children.listLabel });
  await expect(children).toBeVisible();
  const firstChip = children.getByRole('link', { name: new RegExp(first.course.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
  await expect(firstChip).toBeVisible();
  await expect(children.getByRole('link', { name: new RegExp(second.course.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })).toBeVisible();

  // The engine hands the app deliveries over within a moment of the send: the inbox is asked again until then.
  const meetingRow = page.getByRole('link', { name: new RegExp(meetingTitle) });
  const tripRow = page.getByRole('link', { name: new RegExp(tripTitle) });
  await expect(async () => {
    if (!(await meetingRow.isVisible()) || !(await tripRow.isVisible())) await page.reload();
    await expect(meetingRow).toBeVisible({ timeout: 2000 });
    await expect(tripRow).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 40_000 });
  await expect(meetingRow.getByText('Colegio San Andrés de Ñuñoa')).toBeVisible();
  await expectNoAxeViolations(page, 'inbox with children at 390 px');
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoAxeViolations(page, 'inbox with children at 320 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  // One child: the other's message goes, and a reload keeps the choice.
  await firstChip.click();
  await expect(page).toHaveURL(new RegExp(`/familia/\\?hijo=${first.id}$`));
  await expect(tripRow).toHaveCount(0);
  await expect(meetingRow).toBeVisible();
  await page.reload();
  await expect(meetingRow).toBeVisible();
  await expect(tripRow).toHaveCount(0);
  await expect(firstChip).toHaveAttribute('aria-current', 'page');

  // Search, accents and case aside; then words nobody wrote.
  await page.getByRole('link', { name: new RegExp(tx.children.all) }).click();
  await expect(tripRow).toBeVisible();
  const search = page.getByLabel(tx.children.search);
  await search.fill(`REUNION DE APODERADOS ${tag.toUpperCase()}`);
  await expect(tripRow).toHaveCount(0);
  await expect(meetingRow).toBeVisible();
  await search.fill(`nadie escribió esto ${tag}`);
  await expect(page.getByText(tx.children.noResults)).toBeVisible();
  await expectNoAxeViolations(page, 'no results at 320 px');
  await page.getByRole('button', { name: tx.children.clearSearch }).click();
  await expect(tripRow).toBeVisible();

  // The message and its file, downloaded through the API with the token.
  await meetingRow.click();
  await expect(page).toHaveURL(new RegExp(`/familia/mensajes/${meeting}$`));
  await expect(page.getByRole('heading', { name: meetingTitle })).toBeVisible();
  const downloadButton = page.getByRole('button', { name: /Descargar autorización\.pdf/ });
  await expect(downloadButton).toBeVisible();
  await expectNoAxeViolations(page, 'message with a file at 320 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
  expect(download.suggestedFilename()).toBe('autorización.pdf');
  expect(await readFile((await download.path())!, 'utf8')).toBe('%PDF-1.4\n% Hermes\n');
  await adminContext.close();
});
