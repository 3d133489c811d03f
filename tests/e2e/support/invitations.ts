// The invitation link's token e-mailed to someone, read from a server's .eml outbox as the person would
// read their e-mail (waits for it to be written: the e-mail leaves after the account is saved).
import { expect } from '@playwright/test';
import { mailsTo } from '../../api/support/outbox';

export async function invitationToken(outboxDir: string, email: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = await mailsTo(outboxDir, email);
        token = mails.map((mail) => /\/invitation\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1]).find(Boolean);
        return token;
      },
      { message: `an invitation e-mail to ${email}`, timeout: 10_000 },
    )
    .toBeTruthy();
  return token as string;
}
