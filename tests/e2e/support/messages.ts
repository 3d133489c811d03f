// Test data made through the API the SPA uses: a colleague writes to a demo user, so a test starts from a
// fresh unread message in that user's inbox that no other test knows about.
import { randomUUID } from 'node:crypto';
import { expect, type Browser } from '@playwright/test';
import { COMPOSE_API, IDEMPOTENCY_HEADER, type Recipients, type SendResult } from '../../../shared/compose-contract';
import { composeInput } from '../../fixtures/compose';
import { XSRF_HEADER } from './env';
import { BASE_URL } from './server';
import { api, loginViaApi, xsrfToken } from './session';

export interface ColleagueMessage {
  /** Sender: a demo login of the same school. */
  from: string;
  /** Recipient: a demo login, reached as a staff pick (the message lands in their inbox, unread). */
  to: string;
  title: string;
  content: string;
  allowReplies: boolean;
}

/**
 * Sends `message` by e-mail from `from` to the colleague `to`, in a browser context of its own (the test's
 * page keeps its own session). Returns the message id, which is also its id in the recipient's inbox.
 */
export async function sendToColleague(browser: Browser, message: ColleagueMessage): Promise<number> {
  return postToColleague(browser, message, COMPOSE_API.send, null);
}

/** Like `sendToColleague`, but scheduled for `at`: the message waits in `from`'s /scheduled. Returns its id. */
export async function scheduleToColleague(browser: Browser, message: ColleagueMessage, at: Date): Promise<number> {
  return postToColleague(browser, message, COMPOSE_API.schedule, at.toISOString());
}

async function postToColleague(browser: Browser, message: ColleagueMessage, path: string, scheduledAt: string | null): Promise<number> {
  const context = await browser.newContext({ baseURL: BASE_URL });
  try {
    const page = await context.newPage();
    await loginViaApi(page, message.from);
    const recipients = await page.request.get(api(COMPOSE_API.recipients));
    expect(recipients.status(), `GET ${COMPOSE_API.recipients} as ${message.from}`).toBe(200);
    const { data } = (await recipients.json()) as { data: Recipients };
    const staff = data.appointments.flatMap((appointment) => appointment.users).find((user) => user.email === message.to);
    if (!staff) throw new Error(`${message.to} is not a colleague of ${message.from}`);

    const input = composeInput({
      title: message.title,
      content: message.content,
      channels: ['e-mail'],
      recipients: [{ kind: 'staff', id: staff.user_id, label: staff.name }],
      allow_replies: message.allowReplies,
      scheduled_at: scheduledAt,
    });
    const sent = await page.request.post(api(path), {
      data: input,
      headers: { [XSRF_HEADER]: await xsrfToken(page), [IDEMPOTENCY_HEADER]: randomUUID(), Accept: 'application/json' },
    });
    expect(sent.status(), `POST ${path}: ${await sent.text()}`).toBe(201);
    return ((await sent.json()) as { data: SendResult }).data.id;
  } finally {
    await context.close();
  }
}
