// The families' app in the browser tests: a message from a teacher to one guardian on the app channel, and
// the guardian's sign-in with the code the SMS simulator wrote to the server's outbox.
import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import {
  COMPOSE_API,
  IDEMPOTENCY_HEADER,
  type RecipientGuardian,
  type Recipients,
  type SendResult,
} from '../../../shared/compose-contract';
import familyCL from '../../../src/i18n/family/es-CL.json' with { type: 'json' };
import { composeInput } from '../../fixtures/compose';
import { XSRF_HEADER } from './env';
import { serverDataDir } from './server';
import { api, xsrfToken } from './session';

const tx = familyCL.family;
const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * The `nth` guardian of the teacher's courses with the app installed and a phone no other guardian there
 * has; a negative `nth` counts from the end. Specs take different ones, so one spec's subscriptions,
 * messages and sign-in codes (three per phone per ten minutes) never meet another's, and «No es mi
 * teléfono» ends no other spec's session: family.spec 0, family-shell.spec 1 and 2, family-thread.spec -1,
 * family-devices.spec -2.
 */
export async function guardianWithApp(teacher: Page, nth: number): Promise<RecipientGuardian> {
  const response = await teacher.request.get(api(COMPOSE_API.recipients));
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: Recipients };
  const guardians = [...new Map(data.courses.flatMap((course) => course.apoderados).map((g) => [g.id, g])).values()];
  const byPhone = new Map<string, Set<number>>();
  for (const g of guardians) {
    const phone = g.ficha_apoderado.fono_celular;
    if (phone) byPhone.set(digits(phone), (byPhone.get(digits(phone)) ?? new Set()).add(g.id));
  }
  const found = guardians
    .filter(
      (g) =>
        g.device_status === 'blue' && g.ficha_apoderado.fono_celular && byPhone.get(digits(g.ficha_apoderado.fono_celular))?.size === 1,
    )
    .at(nth);
  if (!found) throw new Error(`no guardian #${nth} with the app and a phone of their own in the teacher’s courses`);
  return found;
}

/** The teacher writes to `guardian` on the app channel; the message's id. */
export async function sendToGuardian(teacher: Page, guardian: RecipientGuardian, title: string, content: string): Promise<number> {
  const sent = await teacher.request.post(api(COMPOSE_API.send), {
    data: composeInput({
      title,
      content,
      channels: ['app-mobile'],
      recipients: [{ kind: 'guardian', id: guardian.id, label: guardian.ficha_apoderado.name }],
      allow_replies: false,
    }),
    headers: { [XSRF_HEADER]: await xsrfToken(teacher), [IDEMPOTENCY_HEADER]: randomUUID(), Accept: 'application/json' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  return ((await sent.json()) as { data: SendResult }).data.id;
}

/**
 * The six digits of the newest sign-in SMS to `phone` written after `after` (epoch ms), as the simulator
 * wrote it to the server's outbox.
 */
export async function smsCode(phone: string, after = -1): Promise<string> {
  const dir = path.join(serverDataDir(), 'outbox', 'sim');
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        let newest = after;
        for (const name of await readdir(dir).catch(() => [] as string[])) {
          const file = path.join(dir, name);
          const text = await readFile(file, 'utf8');
          const match = /Tu c[oó]digo de Hermes es (\d{6})/.exec(text);
          const to = /^Para: (.+)$/m.exec(text)?.[1] ?? '';
          const written = (await stat(file)).mtimeMs;
          if (match && digits(to) === digits(phone) && written > newest) {
            newest = written;
            code = match[1];
          }
        }
        return code;
      },
      { message: `a sign-in SMS to ${phone}`, timeout: 10_000 },
    )
    .toBeTruthy();
  return code as string;
}

/** Opens /familia/ and signs in as `guardian` (or with a phone); the inbox is shown. */
export async function signInAsGuardian(page: Page, guardian: RecipientGuardian | string): Promise<void> {
  const phone = typeof guardian === 'string' ? guardian : guardian.ficha_apoderado.fono_celular!;
  await page.goto('/familia/');
  await expect(page.getByRole('heading', { name: tx.signIn.title })).toBeVisible();
  await page.getByLabel(tx.signIn.phone).fill(phone);
  const asked = Date.now() - 1000;
  await page.getByRole('button', { name: tx.signIn.sendCode }).click();
  await expect(page.getByRole('heading', { name: tx.signIn.codeTitle })).toBeVisible();
  await page.getByLabel(tx.signIn.code).fill(await smsCode(phone, asked));
  await page.getByRole('button', { name: tx.signIn.submit }).click();
  await expect(page.getByRole('heading', { name: tx.inbox.title })).toBeVisible();
}

/** The inbox's row of the message titled `title`, once the engine has handed it over (asked again until then). */
export async function inboxRow(page: Page, title: string) {
  const row = page.getByRole('link', { name: new RegExp(title) });
  await expect(async () => {
    if (!(await row.isVisible())) await page.reload();
    await expect(row).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  return row;
}
