// The families' app in the browser tests: the sign-in code as the SMS simulator wrote it to the server's
// outbox (nobody's phone rings in a test).
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { serverDataDir } from './server';

const digits = (phone: string) => phone.replace(/\D/g, '');

/** The six digits of the newest sign-in SMS to `phone`. */
export async function smsCodeFor(phone: string): Promise<string> {
  const dir = path.join(serverDataDir(), 'outbox', 'sim');
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        let newest = -1;
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
