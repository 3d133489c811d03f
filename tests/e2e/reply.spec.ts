// Replying in the browser: a teacher answers a family. The guardian's message (a justificativo from
// the seed, as the app writes them: no allow-replies) offers "Responder"; compose opens addressed to that
// guardian by the app the guardian wrote in, titled "Re: …", the original quoted; sent, the answer and the
// message are one conversation, each shown whole, the guardian named with their child and course.
import { expect, test, type Page } from '@playwright/test';
import type { MessageDetail, MessageSummary, Paged } from '../../shared/messages-contract';
import { ComposePage } from './pages/compose-page';
import { MessagePage } from './pages/message-page';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { appUrl } from './support/server';
import { api, loginViaApi } from './support/session';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function getData<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(api(path));
  expect(response.status(), `GET ${path}`).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** The newest guardian's message in the user's inbox that is not itself an answer (the seed's are written in the app). */
async function guardianMessage(page: Page): Promise<MessageDetail> {
  const inbox = await getData<Paged<MessageSummary>['data']>(page, '/messages?folder=inbox&limit=100');
  for (const row of inbox) {
    if (/^re:/i.test(row.title)) continue;
    const detail = await getData<MessageDetail>(page, `/messages/${row.id}`);
    if (detail.sender.kind === 'apoderado') return detail;
  }
  throw new Error('no guardian message in the inbox');
}

test('a teacher answers a guardian: Responder opens compose to them with "Re: …" and the quote, and the answer joins the conversation', async ({
  page,
}) => {
  await loginViaApi(page, USERS.teacher);
  const original = await guardianMessage(page);
  expect(original.allow_replies).toBe(false);
  expect(original.channels).toEqual(['app-mobile']);
  const message = new MessagePage(page);
  await page.goto(`/inbox/message/${original.id}`);
  await message.expectShown('inbox', original.title);
  await message.reply.click();

  const compose = new ComposePage(page);
  await compose.expectReady();
  await expect(compose.heading).toHaveText(t('compose.replyHeading'));
  await expect(compose.title).toHaveValue(`Re: ${original.title}`);
  await expect(compose.recipients.getByRole('listitem')).toHaveCount(1);
  await expect(compose.chip(original.sender.name)).toBeVisible();
  // Written in the app, answered in the app: not e-mail, not SMS, though the guardian may have both.
  await expect(compose.channel('app-mobile')).toBeChecked();
  await expect(compose.channel('e-mail')).not.toBeChecked();
  await expect(compose.channel('sms')).not.toBeChecked();
  // Under a blank line to write in: who wrote it and when, then the original after "> ".
  const header = escapeRegExp(t('messages.replyQuote', { date: '§', time: '§', name: original.sender.name })).replaceAll('§', '[^,]+?');
  const firstLine = original.content.trim().split('\n')[0]!;
  await expect(compose.content).toHaveValue(new RegExp(`^\\n\\n${header}\\n> ${escapeRegExp(firstLine)}`));

  const answer = `Recibido, muchas gracias. ${Date.now().toString(36)}`;
  await compose.content.fill(`${answer}${await compose.content.inputValue()}`);
  await compose.send.click();
  await compose.confirm('send');

  // The answer, in Enviados, shows the guardian's message whole in its conversation, saying whose guardian wrote…
  await expect(page).toHaveURL(/\/sent\/message\/\d+$/);
  await expect(message.heading).toHaveText(`Re: ${original.title}`);
  const conversation = page.getByRole('region', { name: t('messages.thread.title') });
  const theirs = conversation.getByRole('article', { name: original.title }).filter({ hasText: original.sender.name });
  await expect(theirs).toHaveCount(1);
  await expect(theirs.locator('[data-slot=thread-content]')).toHaveText(original.content);
  const child = original.sender_of[0]!;
  await expect(theirs.locator('[data-slot=guardian-of]')).toContainText(`${child.student} · ${child.course}`);
  // …and the guardian's message, opened from there, has the answer in its own, whole.
  await theirs.getByRole('link', { name: original.title }).click();
  await message.expectShown('inbox', original.title);
  await expect(page).toHaveURL(appUrl(`/inbox/message/${original.id}`));
  await expect(page.locator('[data-slot=guardian-of]').first()).toContainText(`${child.student} · ${child.course}`);
  await expect(conversation.getByRole('article').filter({ hasText: answer })).toHaveCount(1);
});
