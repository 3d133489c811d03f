// Merge fields in the browser: "create a template with {estudiante} and send it to two siblings'
// guardian" walked from /templates to the outbox; and {estudiante} and {curso} typed in compose, the SMS
// counter counting them at their longest value among the picked people, sent to the guardian of two
// students picked by name, and one e-mail in the server's outbox naming both children.
//
// Seed (deterministic): Javiera González González (javiera.gonzalez72@example.org) is the only guardian on
// record of Cristóbal Sebastián Cáceres González (I Medio B) and Esteban Cristián Cáceres González (I Medio A).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ComposePage } from './pages/compose-page';
import { templatesScreen } from './pages/templates-page';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { serverDataDir } from './support/server';
import { loginViaApi } from './support/session';

const GUARDIAN_EMAIL = 'javiera.gonzalez72@example.org';
const CHILDREN = ['Cristóbal Sebastián Cáceres González', 'Esteban Cristián Cáceres González'];

/** Subject and text of an .eml the outbox wrote (nodemailer: one text part, quoted-printable or base64). */
function parseEml(raw: string): { to: string; subject: string; text: string } {
  const split = raw.indexOf('\n\n');
  const headerBlock = raw.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(headerBlock)?.[1] ?? '';
  const words = (value: string) =>
    value.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : qp(data.replace(/_/g, ' ')),
    );
  const qp = (data: string) =>
    Buffer.from(
      data.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  const body = raw.slice(split + 2);
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : encoding === 'quoted-printable' ? qp(body) : body;
  return { to: header('To'), subject: words(header('Subject')).trim(), text: text.trim() };
}

test('{estudiante} sent to two siblings’ guardian: counted at its longest, one e-mail naming both', async ({ page }) => {
  await loginViaApi(page, USERS.admin);
  const compose = new ComposePage(page);
  await compose.goto();
  const title = `Libreta de {estudiante} ${Date.now().toString(36)}`;
  await compose.title.fill(title);
  await pickSiblingsFamily(compose);
  await compose.channel('e-mail').check();
  await compose.channel('sms').check();
  const content = 'Recordamos que {estudiante} ({curso}) debe traer la libreta firmada el lunes.';
  await compose.content.fill(content);

  // The counter counts each field at its longest value among the picked people, and says so.
  const both = 'Cristóbal y Esteban';
  const courses = 'I Medio B y I Medio A';
  await expect(page.getByText(t('compose.sms.mergeField', { field: '{estudiante}', value: both, count: 19 }))).toBeVisible();
  await expect(page.getByText(t('compose.sms.mergeField', { field: '{curso}', value: courses, count: 21 }))).toBeVisible();
  const filled = `Recordamos que ${both} (${courses}) debe traer la libreta firmada el lunes.`;
  // "ó" goes as "o" in GSM-7, one unit each: the counter counts the filled text's characters.
  await expect(compose.smsCounter).toHaveText(t('compose.sms.counter', { units: filled.length, limit: 154 }));

  await compose.send.click();
  await expect(compose.reach).toHaveText(t('compose.estimate.recipients', { count: 1 }));
  await compose.confirm('send');
  await expect(page).toHaveURL(/\/sent\/message\/\d+$/);
  // The sender's copy keeps the fields as written.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

  // The outbox: one e-mail to the guardian, naming both children and both courses.
  const mail = await theOneMail(title.replace('{estudiante}', both));
  expect(mail.to).toBe(GUARDIAN_EMAIL);
  expect(mail.text).toBe(`${filled}\n\nCSA`);
});

test('a template with {estudiante} made on /templates and used in a new message to two siblings’ guardian: one e-mail naming both', async ({
  page,
}) => {
  await loginViaApi(page, USERS.admin);
  await page.goto('/templates');
  const screen = templatesScreen(page);
  await screen.newButton.click();
  const name = `Libreta firmada ${Date.now().toString(36)}`;
  await screen.name.fill(name);
  await screen.content.fill('Recordamos que ');
  await screen.chip(t('templates.mergeFields.estudiante')).click();
  await screen.content.pressSequentially(' debe traer la libreta firmada el lunes.');
  await screen.save.click();
  await expect(screen.editor).toBeHidden();
  await screen
    .card(name)
    .getByRole('link', { name: t('templates.useLabel', { name }) })
    .click();

  const compose = new ComposePage(page);
  await compose.expectReady();
  await expect(compose.title).toHaveValue(name);
  await expect(compose.content).toHaveValue('Recordamos que {estudiante} debe traer la libreta firmada el lunes.');
  await pickSiblingsFamily(compose);
  await compose.channel('e-mail').check();
  await compose.send.click();
  await expect(compose.reach).toHaveText(t('compose.estimate.recipients', { count: 1 }));
  await compose.confirm('send');
  await expect(page).toHaveURL(/\/sent\/message\/\d+$/);

  const mail = await theOneMail(name);
  expect(mail.to).toBe(GUARDIAN_EMAIL);
  expect(mail.text).toBe('Recordamos que Cristóbal y Esteban debe traer la libreta firmada el lunes.\n\nCSA');
});

/** Each sibling's family row ("Apoderados de …"): the picker reaches their one guardian once. */
async function pickSiblingsFamily(compose: ComposePage): Promise<void> {
  for (const child of CHILDREN) {
    await compose.addRecipients.first().click();
    await compose.picker.expectOpen();
    await compose.picker.search.fill(child);
    await compose.picker.item(t('compose.picker.familyOf.apoderados', { student: child })).check();
    await compose.picker.confirm.click();
    await expect(compose.picker.dialog).toBeHidden();
  }
}

/** The one e-mail of the server's outbox with this subject (it waits for the engine to write it). */
async function theOneMail(subject: string): Promise<{ to: string; subject: string; text: string }> {
  const outbox = path.join(serverDataDir(), 'outbox');
  const mails = async () => {
    const files = (await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml'));
    const parsed = await Promise.all(files.map(async (f) => parseEml(await readFile(path.join(outbox, f), 'utf8'))));
    return parsed.filter((m) => m.subject === subject);
  };
  await expect.poll(async () => (await mails()).length, { timeout: 15_000 }).toBe(1);
  return (await mails())[0]!;
}
