// A guardian's way into the families' app in the browser tests: one with the app among the teacher's
// recipients, and the sign-in code read from what the SMS simulator wrote to the server's outbox.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { COMPOSE_API, type RecipientGuardian, type Recipients } from '../../../shared/compose-contract';
import familyCL from '../../../src/i18n/family/es-CL.json' with { type: 'json' };
import { serverDataDir } from './server';
import { api } from './session';

const tx = familyCL.family;
const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * A guardian of the teacher's courses with the app installed and a phone no other guardian there has;
 * `from: 'last'` picks from the other end, so two specs do not spend the same phone's codes (3 per 10 minutes).
 */
export async function guardianWithApp(teacher: Page, from: 'first' | 'last' = 'first'): Promise<RecipientGuardian> {
  const response = await teacher.request.get(api(COMPOSE_API.recipients));
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: Recipients };
  const guardians = data.courses.flatMap((course) => course.apoderados);
  const byPhone = new Map<string, Set<number>>();
  for (const g of guardians) {
    const phone = g.ficha_apoderado.fono_celular;
    if (phone) byPhone.set(digits(phone), (byPhone.get(digits(phone)) ?? new Set()).add(g.id));
  }
  const fits = guardians.filter(
    (g) => g.device_status === 'blue' && g.ficha_apoderado.fono_celular && byPhone.get(digits(g.ficha_apoderado.fono_celular))?.size === 1,
  );
  const found = from === 'first' ? fits[0] : fits.at(-1);
  if (!found) throw new Error('no guardian with the app and a phone of their own in the teacher’s courses');
  return found;
}

/** The six digits of the newest sign-in SMS to `phone`, as the simulator wrote it to the server's outbox. */
async function smsCode(phone: string, after: number): Promise<string> {
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
          if (match && digits(to) === digits(phone) && written >= newest) {
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

/** Signs in on /familia with the phone and the code from the simulator, up to the inbox. */
export async function signInAsGuardian(page: Page, phone: string): Promise<void> {
  await page.goto('/familia');
  await expect(page.getByRole('heading', { name: tx.signIn.title })).toBeVisible();
  await page.getByLabel(tx.signIn.phone).fill(phone);
  const asked = Date.now() - 1000;
  await page.getByRole('button', { name: tx.signIn.sendCode }).click();
  await expect(page.getByRole('heading', { name: tx.signIn.codeTitle })).toBeVisible();
  await page.getByLabel(tx.signIn.code).fill(await smsCode(phone, asked));
  await page.getByRole('button', { name: tx.signIn.submit }).click();
  await expect(page.getByRole('heading', { name: tx.inbox.title })).toBeVisible();
}
