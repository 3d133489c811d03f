// The school's staff in the browser, against the real server: an administrator searches the staff on
// /settings/staff, invites a teacher, who opens the e-mail's link (read from the server's .eml outbox), is told
// the password rule's reason while typing, sets a password and lands signed in on the inbox; deactivating
// someone asks first and then names what they leave, and reactivating gives the account back; one's own admin
// role cannot be dropped; a link that leads nowhere says so; every new screen passes axe and is usable at 390 px.
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { PASSWORD_MESSAGES } from '../../shared/password-rules';
import { AppShell } from './pages/app-shell';
import { expectNoAxeViolations } from './support/axe';
import { invitationToken } from './support/invitations';
import { USERS, XSRF_HEADER } from './support/env';
import { exactly, t } from './support/i18n';
import { appUrl, serverDataDir } from './support/server';
import { api, loginViaApi, xsrfToken } from './support/session';

const PATH = '/settings/staff';
/** The demo server's outbox, where invitation e-mails are written. */
const OUTBOX = path.join(serverDataDir(), 'outbox');
const PHONE = { width: 390, height: 844 };
const STRONG = 'Cometa azul sobre el Elqui 77';

/** An address no other run has used (the server keeps every account). */
const freshEmail = (who: string) => `e2e.${who}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@sanandres.cl`;

function staffScreen(page: Page) {
  return {
    heading: page.getByRole('heading', { level: 2, name: t('staff.heading') }),
    search: page.getByRole('searchbox', { name: t('staff.search') }),
    invite: page.getByRole('button', { name: exactly(t('staff.invite')) }),
    row: (email: string) => page.locator('[data-slot="staff-row"]').filter({ hasText: email }),
    dialog: page.getByRole('dialog'),
    alertDialog: page.getByRole('alertdialog'),
  };
}

/** Invites through the API (as the screen would), for the specs that need someone invited. */
async function inviteViaApi(page: Page, name: string, email: string): Promise<void> {
  const response = await page.request.post(api('/staff/invitations'), {
    data: { people: [{ name, email, role: 'docente' }] },
    headers: { [XSRF_HEADER]: await xsrfToken(page), Accept: 'application/json' },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(((await response.json()) as { data: Array<{ outcome: string }> }).data[0]?.outcome).toBe('invited');
}

async function openAsVisitor(browser: Browser, token: string, viewport?: { width: number; height: number }) {
  const context = await browser.newContext(viewport ? { viewport } : {});
  const page = await context.newPage();
  await page.goto(`/invitation/${token}`);
  return { context, page };
}

test('an administrator invites a teacher, who sets a password from the e-mail’s link and lands signed in', async ({ page, browser }) => {
  const email = freshEmail('docente');
  const name = 'Valeria Prueba Muñoz';
  await loginViaApi(page, USERS.admin);
  await page.goto(PATH);
  const screen = staffScreen(page);
  await expect(screen.heading).toBeVisible();
  await expect(screen.row('docente@sanandres.cl')).toBeVisible();
  await expectNoAxeViolations(page, 'staff list');

  // Search narrows the list to who matches.
  await screen.search.fill('docente.latam');
  await expect(screen.row('docente.latam@sanandres.cl')).toBeVisible();
  await expect(screen.row('administrador@sanandres.cl')).toHaveCount(0);
  await screen.search.fill('');

  // One person: name, e-mail and role; the answer says what became of them.
  await screen.invite.click();
  await expect(screen.dialog.getByRole('heading', { name: t('invite.title') })).toBeVisible();
  await expectNoAxeViolations(page, 'invite dialog', '[data-slot="invite-dialog"]');
  await screen.dialog.getByLabel(t('invite.name'), { exact: true }).fill(name);
  await screen.dialog.getByLabel(t('invite.email'), { exact: true }).fill(email);
  await screen.dialog.getByLabel(t('invite.role'), { exact: true }).selectOption('docente');
  await screen.dialog.getByRole('button', { name: t('invite.send', { count: 1 }) }).click();
  await expect(screen.dialog.getByText(t('invite.result.invited'))).toBeVisible();
  await screen.dialog.getByRole('button', { name: exactly(t('invite.close')) }).click();
  await expect(screen.dialog).toHaveCount(0);
  // The list shows them, invited.
  await screen.search.fill(email);
  await expect(screen.row(email)).toContainText(t('staff.state.invited'));

  // The invited teacher opens the link from their e-mail, in a browser of their own.
  const token = await invitationToken(OUTBOX, email);
  const visitor = await openAsVisitor(browser, token);
  try {
    const invited = visitor.page;
    await expect(invited.getByRole('heading', { name: t('invitation.title') })).toBeVisible();
    await expect(invited.getByText(name, { exact: false })).toBeVisible();
    await expectNoAxeViolations(invited, 'invitation page');
    const password = invited.getByLabel(t('invitation.password'), { exact: true });
    // The rule's reason shows while typing (its chunk loaded on its own).
    await password.fill('corta');
    await expect(invited.getByText(PASSWORD_MESSAGES.tooShort)).toBeVisible();
    await password.fill(STRONG);
    await expect(invited.getByText(PASSWORD_MESSAGES.tooShort)).toHaveCount(0);
    await invited.getByLabel(t('invitation.confirm'), { exact: true }).fill(STRONG);
    await invited.getByRole('button', { name: t('invitation.submit') }).click();
    // Signed in, on the inbox.
    await new AppShell(invited).expectInbox();
    // The link is used now: opening it again says so.
    await invited.goto(`/invitation/${token}`);
    await expect(invited).toHaveURL(appUrl('/inbox'));
  } finally {
    await visitor.context.close();
  }
  // The administrator's list shows them active now.
  await page.reload();
  await staffScreen(page).search.fill(email);
  await expect(staffScreen(page).row(email)).toContainText(t('staff.state.active'));
});

test('deactivating asks first and names what is left to hand over; reactivating gives the account back', async ({ page }) => {
  const email = freshEmail('salida');
  const name = 'Tomás Salida Rivas';
  await loginViaApi(page, USERS.admin);
  await inviteViaApi(page, name, email);
  await page.goto(PATH);
  const screen = staffScreen(page);
  await screen.search.fill(email);
  const row = screen.row(email);
  await expect(row).toContainText(t('staff.state.invited'));

  await row.getByRole('button', { name: exactly(t('staff.actions.deactivate')) }).click();
  await expect(screen.alertDialog.getByRole('heading', { name: t('staff.deactivate.title', { name }) })).toBeVisible();
  await expect(screen.alertDialog).toContainText(t('staff.deactivate.body'));
  await expectNoAxeViolations(page, 'deactivate question', '[data-slot="staff-deactivate"]');
  await screen.alertDialog.getByRole('button', { name: exactly(t('staff.deactivate.confirm')) }).click();
  await expect(screen.dialog.getByRole('heading', { name: t('staff.handover.title', { name }) })).toBeVisible();
  await expect(screen.dialog).toContainText(t('staff.handover.none'));
  await expectNoAxeViolations(page, 'handover dialog', '[data-slot="staff-handover"]');
  await screen.dialog.getByRole('button', { name: exactly(t('staff.handover.close')) }).click();
  await expect(row).toContainText(t('staff.state.deactivated'));

  await row.getByRole('button', { name: exactly(t('staff.actions.reactivate')) }).click();
  await expect(new AppShell(page).toast(t('staff.toast.reactivated', { name }))).toBeVisible();
  await expect(row).not.toContainText(t('staff.state.deactivated'));
});

test('an administrator cannot drop their own admin role: said in the dialog, nothing sent', async ({ page }) => {
  await loginViaApi(page, USERS.adminElqui);
  await page.goto(PATH);
  const screen = staffScreen(page);
  const me = screen.row('administrador@liceoelqui.cl');
  await expect(me).toContainText(t('staff.you'));
  // Oneself is never offered «Desactivar».
  await expect(me.getByRole('button', { name: exactly(t('staff.actions.deactivate')) })).toHaveCount(0);
  await me.getByRole('button', { name: exactly(t('staff.actions.edit')) }).click();
  await expectNoAxeViolations(page, 'roles dialog', '[data-slot="staff-edit"]');
  const patches: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') patches.push(request.url());
  });
  // Teacher as well, and administrator no more.
  await screen.dialog.getByRole('checkbox', { name: t('staff.role.docente') }).click();
  await screen.dialog.getByRole('checkbox', { name: t('staff.role.colegio-administrador') }).click();
  await screen.dialog.getByRole('button', { name: exactly(t('staff.edit.save')) }).click();
  await expect(screen.dialog.getByRole('alert')).toHaveText(t('staff.error.ownAdmin'));
  expect(patches).toEqual([]);
  await screen.dialog.getByRole('button', { name: exactly(t('staff.edit.cancel')) }).click();
  await expect(screen.dialog).toHaveCount(0);
});

test('a link that leads to no invitation says so, with the way to sign in; the password rule loads only there', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const ruleChunk = (paths: string[]) => paths.filter((p) => /password-rules/.test(p));
  // The first download (the login form and what it preloads) carries no part of the rule's dictionaries.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: exactly(t('login.submit')) })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(ruleChunk(scripts)).toEqual([]);
  await page.goto(`/invitation/${'x'.repeat(43)}`);
  await expect(page.getByText(t('invitation.notFound.title'))).toBeVisible();
  await expect(page.getByRole('link', { name: t('invitation.toLogin') })).toHaveAttribute('href', '/login');
  await expectNoAxeViolations(page, 'invitation not found');
  // The invitation page asked for the rule on its own.
  expect(ruleChunk(scripts)).toHaveLength(1);
});

test('a teacher has no staff screen: no tab, and the address sends them home', async ({ page }) => {
  await loginViaApi(page, USERS.teacher);
  await page.goto(PATH);
  await expect(page).toHaveURL(appUrl('/inbox'));
  await expect(new AppShell(page).toast('No tienes acceso a esa sección')).toBeVisible();
});

test('on a 390 px phone the staff screen and the invitation page fit and work', async ({ page, browser }) => {
  await page.setViewportSize(PHONE);
  await loginViaApi(page, USERS.admin);
  await page.goto(PATH);
  const screen = staffScreen(page);
  await expect(screen.row('docente@sanandres.cl')).toBeVisible();
  const overflow = () => page.evaluate(() => (document.scrollingElement as HTMLElement).scrollWidth);
  expect(await overflow()).toBeLessThanOrEqual(PHONE.width);
  await screen.invite.click();
  await screen.dialog.getByRole('button', { name: exactly(t('invite.mode.many')) }).click();
  await screen.dialog.getByLabel(t('invite.text')).fill('Ana Uno;ana.uno;docente\nBeto Dos;beto.dos@sanandres.cl;jardinero');
  await expect(screen.dialog.getByText(t('invite.preview.problems', { count: 2 }))).toBeVisible();
  await expect(screen.dialog.getByText(t('invite.problem.emailInvalid'))).toBeVisible();
  await expect(screen.dialog.getByText(t('invite.problem.roleUnknown', { role: 'jardinero' }))).toBeVisible();
  await expect(screen.dialog.getByRole('button', { name: t('invite.send', { count: 2 }) })).toBeInViewport();
  await expectNoAxeViolations(page, 'invite dialog, many, on a phone', '[data-slot="invite-dialog"]');
  expect(await overflow()).toBeLessThanOrEqual(PHONE.width);
  await screen.dialog.getByRole('button', { name: exactly(t('invite.cancel')) }).click();

  const email = freshEmail('telefono');
  await inviteViaApi(page, 'Inés Teléfono', email);
  const visitor = await openAsVisitor(browser, await invitationToken(OUTBOX, email), PHONE);
  try {
    await expect(visitor.page.getByRole('button', { name: t('invitation.submit') })).toBeVisible();
    expect(await visitor.page.evaluate(() => (document.scrollingElement as HTMLElement).scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectNoAxeViolations(visitor.page, 'invitation page on a phone');
  } finally {
    await visitor.context.close();
  }
});
