// /recipient-list/:id at school scale in the browser (real server, demo seed): a list of every family of
// San Andrés (~900 members) shows 100 rows and "Mostrando 100 de N miembros"; on a 390×844 phone, with
// the keyboard only, the search finds a member far beyond the first slice (typed without accents or
// capitals), their "Editar" opens the contact editor and Escape returns focus to it, "Quitar" removes
// them and the count follows; "Mostrar 100 más" adds rows with focus on the first new one; nothing is
// wider than the screen.
import { expect, test } from '@playwright/test';
import type { Course } from '../../shared/contract';
import type { RecipientListMember, RecipientListSummary } from '../../shared/recipient-lists-contract';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { api, loginViaApi, xsrfToken } from './support/session';

const plain = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
const count = (n: number) => new Intl.NumberFormat('es-CL').format(n);

test.use({ viewport: { width: 390, height: 844 } });

test('a list of every family: first 100 rows, search beyond them, edit and remove a found member, show more — by keyboard on a phone', async ({
  page,
}) => {
  await loginViaApi(page, USERS.teacher);
  const courses = ((await (await page.request.get(api('/courses'))).json()) as { data: Course[] }).data;
  const created = await page.request.post(api('/recipient-lists'), {
    data: {
      name: `Todas las familias ${Date.now().toString(36)}`,
      picks: courses.map((c) => ({ kind: 'course', id: c.id, audience: 'apoderados' })),
    },
    headers: { [XSRF_HEADER]: await xsrfToken(page), Accept: 'application/json' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const list = ((await created.json()) as { data: RecipientListSummary }).data;
  const members = ((await (await page.request.get(api(`/recipient-lists/${list.id}/users`))).json()) as { data: RecipientListMember[] })
    .data;
  expect(members.length).toBeGreaterThan(800);
  // A name that appears once, far beyond the first slice.
  const far = members.slice(700).find((m) => members.filter((o) => o.name === m.name).length === 1)!;

  await page.goto(`/recipient-list/${list.id}`);
  const rows = page.locator('[data-slot=member-row]');
  const status = page.locator('[data-slot=members-count]');
  await expect(status).toHaveText(`Mostrando 100 de ${count(members.length)} miembros`);
  await expect(rows).toHaveCount(100);

  // Keyboard only: the search field, then the found row's buttons.
  const search = page.getByLabel(t('recipientLists.memberSearch'));
  await search.focus();
  await page.keyboard.type(plain(far.name));
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('[data-slot=member-name]')).toHaveText(far.name);
  await expect(status).toHaveText(`Mostrando 1 de 1 miembro que coincide con la búsqueda (de ${count(members.length)} en la lista)`);
  // A teacher reads a family's record (only the leadership changes it).
  const edit = page.getByRole('button', { name: t('recipientLists.viewMember', { name: far.name }) });
  await page.keyboard.press('Tab');
  await expect(edit).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(edit).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: t('recipientLists.removeMember', { name: far.name }) })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-slot=toast]').filter({ hasText: t('recipientLists.memberRemoved') })).toBeVisible();
  await expect(rows).toHaveCount(0);
  await expect(status).toHaveText(`Ningún miembro coincide con «${plain(far.name)}».`);

  // Clear the search: everyone but them, 100 at a time.
  await search.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await expect(status).toHaveText(`Mostrando 100 de ${count(members.length - 1)} miembros`);
  const more = page.getByRole('button', { name: exactly('Mostrar 100 más') });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(200);
  await expect(rows.nth(100)).toBeFocused();
  await expect(status).toHaveText(`Mostrando 200 de ${count(members.length - 1)} miembros`);

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
