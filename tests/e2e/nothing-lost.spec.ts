// In the browser, nothing typed is lost and nothing is destroyed by one click. Leaving
// compose with unsaved changes asks first (sidebar, browser Back, a tab reload), a saved draft keeps what
// was typed after it was saved, "Eliminar" can be undone from its toast, and a refused send on a phone
// shows the field to fix. Each test uses its own demo user: the server is shared by the parallel workers.
import { expect, test, type Page } from '@playwright/test';
import { AppShell } from './pages/app-shell';
import { ComposePage } from './pages/compose-page';
import { FolderPage } from './pages/folder-page';
import { MessagePage } from './pages/message-page';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { scheduleToColleague, sendToColleague } from './support/messages';
import { appUrl } from './support/server';
import { loginViaApi } from './support/session';

/** A title no other test (or earlier run on the same server) can have produced. */
const uniqueTitle = (prefix: string): string => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function openCompose(page: Page, email: string): Promise<ComposePage> {
  await loginViaApi(page, email);
  const compose = new ComposePage(page);
  await compose.goto();
  return compose;
}

/** Opens the draft titled `title` from /draft and its "Editar borrador": the compose form of that draft. */
async function reopenDraft(page: Page, title: string): Promise<ComposePage> {
  const drafts = new FolderPage(page, 'draft');
  await drafts.expectShown();
  await drafts.expectListed(title);
  // A draft row opens its reading view ("Editar borrador") or the form itself.
  await drafts.row(title).getByRole('link').click();
  await expect(page).toHaveURL(/\/(draft\/message|new\?draft=)\d+$/);
  if (new URL(page.url()).pathname.startsWith('/draft/')) await new MessagePage(page).edit.click();
  await expect(page).toHaveURL(/\/new\?draft=\d+$/);
  const compose = new ComposePage(page);
  await expect(compose.title).toHaveValue(title);
  return compose;
}

test.describe('at 1366×800', () => {
  test.use({ viewport: { width: 1366, height: 800 } });

  test('leaving compose by the sidebar with text asks; "Guardar borrador" saves it and then leaves', async ({ page }) => {
    const compose = await openCompose(page, USERS.teacher);
    const shell = new AppShell(page);
    const title = uniqueTitle('Salida con texto');
    await compose.title.fill(title);
    await compose.content.fill('Reunión de apoderados el jueves.');

    await shell.navLink('nav.draft').click();
    // Asked in the app, still on the form: nothing has left yet.
    await expect(compose.leaveDialog).toBeVisible();
    await expect(compose.leaveSave).toBeFocused();
    await expect(page).toHaveURL(appUrl('/new'));
    await compose.leaveSave.click();

    await expect(shell.toast(t('messages.saved'))).toBeVisible();
    const reopened = await reopenDraft(page, title);
    await expect(reopened.content).toHaveValue('Reunión de apoderados el jueves.');
  });

  test('browser Back with text asks: "Seguir editando" stays, "Descartar" leaves and forgets it', async ({ page }) => {
    await loginViaApi(page, USERS.teacher);
    await page.goto('/inbox');
    const shell = new AppShell(page);
    await shell.navLink('nav.new').click();
    const compose = new ComposePage(page);
    await compose.expectReady();
    const title = uniqueTitle('Atrás con texto');
    await compose.title.fill(title);

    await page.goBack();
    await expect(compose.leaveDialog).toBeVisible();
    await expect(page).toHaveURL(appUrl('/new'));
    await compose.leaveStay.click();
    await expect(compose.leaveDialog).toBeHidden();
    await expect(compose.title).toHaveValue(title);
    await expect(page).toHaveURL(appUrl('/new'));

    // Escape answers "Seguir editando" too.
    await page.goBack();
    await expect(compose.leaveDialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(compose.leaveDialog).toBeHidden();
    await expect(compose.title).toHaveValue(title);

    await page.goBack();
    await compose.leaveDiscard.click();
    await expect(page).toHaveURL(appUrl('/inbox'));
    // Discarded means gone: compose opens empty, and nothing was saved.
    await shell.navLink('nav.new').click();
    await compose.expectReady();
    await expect(compose.title).toHaveValue('');
    const drafts = new FolderPage(page, 'draft');
    await drafts.goto();
    await drafts.expectNotListed(title);
  });

  test('a form with no changes leaves without asking', async ({ page }) => {
    const compose = await openCompose(page, USERS.teacher);
    await new AppShell(page).navLink('nav.sent').click();
    await new FolderPage(page, 'sent').expectShown();
    await expect(compose.leaveDialog).toHaveCount(0);
  });

  test('a saved draft edited and left keeps the new text', async ({ page }) => {
    const compose = await openCompose(page, USERS.teacherElqui);
    const shell = new AppShell(page);
    const title = uniqueTitle('Borrador editado');
    await compose.title.fill(title);
    await compose.content.fill('Primera versión.');
    await compose.save.click();
    await expect(shell.toast(t('messages.saved'))).toBeVisible();

    // Edited after saving, then the tab is reloaded elsewhere: the browser asks, the user goes anyway.
    await compose.content.fill('Segunda versión, escrita después de guardar.');
    const asked: string[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.goto('/draft');
    expect(asked).toEqual(['beforeunload']);
    const reopened = await reopenDraft(page, title);
    // The browser's backup of that draft is found by the draft, not by the "new message" form it was typed in.
    await expect(reopened.content).toHaveValue('Segunda versión, escrita después de guardar.');

    // And "Redactar" is a new message again, not that draft.
    await reopened.content.fill('Tercera versión.');
    await shell.navLink('nav.new').click();
    await expect(reopened.leaveDialog).toBeVisible();
    await reopened.leaveSave.click();
    await expect(shell.toast(t('messages.saved'))).toBeVisible();
    const fresh = new ComposePage(page);
    await fresh.expectReady();
    await expect(page).toHaveURL(/\/new$/);
    await expect(fresh.title).toHaveValue('');
    await expect(fresh.content).toHaveValue('');

    await shell.navLink('nav.draft').click();
    const again = await reopenDraft(page, title);
    await expect(again.content).toHaveValue('Tercera versión.');
  });

  test('Eliminar offers Deshacer, in the folder and in the reading view, and it brings the message back', async ({ page, browser }) => {
    const title = uniqueTitle('Para deshacer');
    await sendToColleague(browser, {
      from: USERS.adminJuarez,
      to: USERS.teacherJuarez,
      title,
      content: 'Mensaje de prueba.',
      allowReplies: false,
    });
    await loginViaApi(page, USERS.teacherJuarez);
    const shell = new AppShell(page);
    const inbox = new FolderPage(page, 'inbox');
    await inbox.goto();

    // From the folder: select, Eliminar, Deshacer.
    await inbox.expectListed(title);
    await inbox.row(title).getByRole('checkbox').check();
    await page.getByRole('button', { name: t('folders.delete'), exact: true }).click();
    const deleted = shell.toast(t('messages.deleted', { count: 1 }));
    await expect(deleted).toBeVisible();
    await expect(inbox.row(title)).toHaveCount(0);
    await deleted.getByRole('button', { name: t('toast.undo'), exact: true }).click();
    await expect(shell.toast(t('messages.restored', { count: 1 }))).toBeVisible();
    await expect(inbox.row(title)).toHaveCount(1);

    // From the reading view: Eliminar goes back to the folder; Deshacer there brings it back.
    await inbox.open(title);
    const message = new MessagePage(page);
    await message.delete.click();
    await inbox.expectShown();
    const again = shell.toast(t('messages.deleted', { count: 1 }));
    await again.getByRole('button', { name: t('toast.undo'), exact: true }).click();
    // The first "Mensaje restaurado" may still be on screen: this one is the newest.
    await expect(shell.toast(t('messages.restored', { count: 1 })).last()).toBeVisible();
    await inbox.expectListed(title);
    const trash = new FolderPage(page, 'trash');
    await shell.navLink('nav.trash').click();
    await trash.expectShown();
    await trash.expectNotListed(title);
  });
});

test.describe('cancelling a schedule', () => {
  test.use({ viewport: { width: 1366, height: 800 } });

  test('asks first, keeps it on «Mantener programado», and says the message went to Borradores', async ({ page, browser }) => {
    const title = uniqueTitle('Programado para cancelar');
    const at = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000);
    const id = await scheduleToColleague(
      browser,
      { from: USERS.adminJuarez, to: USERS.teacherJuarez, title, content: 'Junta de padres.', allowReplies: false },
      at,
    );
    await loginViaApi(page, USERS.adminJuarez);
    await page.goto(`/scheduled/message/${id}`);
    const message = new MessagePage(page);
    await message.expectShown('scheduled', title);
    const cancel = message.article.getByRole('button', { name: t('messages.cancelSchedule'), exact: true });
    const question = message.article.getByRole('alertdialog', { name: t('messages.cancelScheduleConfirmTitle'), exact: true });

    // One click does not take it out of the schedule: it asks, and "Mantener programado" keeps it.
    await cancel.click();
    await expect(question).toBeVisible();
    await expect(question).toContainText(t('messages.cancelScheduleConfirmBody'));
    await expect(question.getByRole('button', { name: t('messages.cancelScheduleConfirm'), exact: true })).toBeFocused();
    await question.getByRole('button', { name: t('messages.keepSchedule'), exact: true }).click();
    await expect(question).toBeHidden();
    await expect(cancel).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`/scheduled/message/${id}$`));

    // Confirmed: back to drafts, and the toast says where it is.
    await cancel.click();
    await question.getByRole('button', { name: t('messages.cancelScheduleConfirm'), exact: true }).click();
    await expect(new AppShell(page).toast(t('messages.scheduleCancelled'))).toBeVisible();
    await expect(page).toHaveURL(appUrl('/draft'));
    await new FolderPage(page, 'draft').expectListed(title);
  });
});

test.describe('on a 390×844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a refused send moves to the first field to fix and shows it, not under the top bar', async ({ page }) => {
    const compose = await openCompose(page, USERS.adminElqui);
    // Everything but the title: the title is the first (and only) field to fix, at the top of the form.
    await compose.pickCourse('I Medio A');
    await compose.channel('e-mail').check();
    await compose.content.fill('Texto largo para que el formulario ocupe más que la pantalla.\n'.repeat(8));
    const error = page.getByRole('alert').filter({ hasText: 'Debes elegir un Título' });
    const expectShown = async () => {
      await expect(compose.title).toBeFocused();
      await expect(compose.title).toHaveAttribute('aria-invalid', 'true');
      // The field and its error are on screen, below the sticky top bar (not hidden under it).
      for (const shown of [compose.title, error]) {
        await expect(shown).toBeInViewport({ ratio: 1 });
        const { top, bar } = await shown.evaluate((element) => ({
          top: element.getBoundingClientRect().top,
          bar: document.querySelector('header')?.getBoundingClientRect().bottom ?? 0,
        }));
        expect(top).toBeGreaterThanOrEqual(bar);
      }
    };

    // Scrolled so that the title is half under the top bar: "in view" for the browser, not for the user.
    await compose.title.evaluate((title) => {
      const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
      const box = title.getBoundingClientRect();
      window.scrollBy(0, box.top - bar + box.height / 2);
    });
    // Pressed where it is, without Playwright scrolling to it first.
    await compose.send.evaluate((button: HTMLButtonElement) => button.click());
    await expectShown();

    // From the bottom of the form, after the toast has gone.
    await compose.title.fill('x');
    await compose.title.fill('');
    await compose.send.scrollIntoViewIfNeeded();
    await compose.send.click();
    await expectShown();
  });
});
