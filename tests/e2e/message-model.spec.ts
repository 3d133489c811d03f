// Model-based browser test of a message's lifecycle from the reading view: the
// abstract model in models/message-model.ts, its simple paths from xstate/graph, one Playwright test per
// path. Each path starts from a message of its own: a colleague writes to the path's demo user, whose
// inbox (and so its unread counter) no other spec changes.
import { test, expect, type Page } from '@playwright/test';
import { createTestModel } from 'xstate/graph';
import { MESSAGE_MODEL_STATES, messageModel, type MessageModelEvent, type MessageModelState } from './models/message-model';
import { AppShell } from './pages/app-shell';
import { ErrorPage } from './pages/error-page';
import { FolderPage } from './pages/folder-page';
import { MessagePage } from './pages/message-page';
import { USERS } from './support/env';
import { t } from './support/i18n';
import { sendToColleague } from './support/messages';
import { modelEvents, modelTransitions, PATH_TIMEOUT, pathTransitions, runPath, type Checks, type Drivers } from './support/model';
import { loginViaApi } from './support/session';

const model = createTestModel(messageModel);

// Simple paths visit each transition at most once, so the set is finite; the limit is a safety net.
const paths = model.getSimplePaths({ limit: 200 });

/** Who writes: a San Andrés teacher (sending leaves the sender's inbox alone). */
const SENDER = USERS.teacher;
/**
 * One reader per path, all colleagues of SENDER. Their inbox counters move only here: no other spec
 * opens, deletes or receives messages in these inboxes.
 */
const PATH_READERS: readonly string[] = [USERS.utp, USERS.teacherLatam, USERS.admin, USERS.directora];

/** What a step can use: the page, its page objects, the path's message and what was seen before. */
interface Ctx {
  page: Page;
  shell: AppShell;
  message: MessagePage;
  inbox: FolderPage;
  trash: FolderPage;
  id: number;
  title: string;
  /** The inbox's unread count before the message was first opened. */
  unreadBefore: number;
  /** The purge question was just answered with no (Cancelar or Escape). */
  declinedPurge: boolean;
}

/** Clicks the sidebar link to `folder` unless it is shown already, then opens the path's message there. */
async function openFrom(ctx: Ctx, folder: FolderPage): Promise<void> {
  if (!(await folder.heading.isVisible())) await ctx.shell.navLink(folder.navKey).click();
  await folder.expectShown();
  await folder.search.fill(ctx.title);
  await folder.open(ctx.title);
}

/** The UI each model state must show. One entry per state (checked below). */
const STATE_CHECKS: Checks<MessageModelState, Ctx> = {
  unread: async (ctx) => {
    await ctx.inbox.expectShown();
    ctx.unreadBefore = await ctx.shell.inboxUnreadCount();
    expect(ctx.unreadBefore).toBeGreaterThan(0);
    await ctx.inbox.expectListed(ctx.title, { unread: true });
  },
  reading: async ({ message, shell, id, title, unreadBefore }) => {
    await message.expectShown('inbox', title);
    expect(message.id()).toBe(id);
    await shell.expectInboxUnread(unreadBefore - 1);
    // The author allowed replies.
    await expect(message.reply).toBeVisible();
    await expect(message.delete).toBeEnabled();
    await expect(message.restore).toHaveCount(0);
    await expect(message.purge).toHaveCount(0);
    await expect(message.edit).toHaveCount(0);
  },
  trashed: async ({ shell, inbox, title, unreadBefore }) => {
    await expect(shell.toast(t('messages.deleted', { count: 1 }))).toBeVisible();
    await inbox.expectShown();
    await inbox.expectNotListed(title);
    await shell.expectInboxUnread(unreadBefore - 1);
  },
  readingInTrash: async (ctx) => {
    const { message, id, title } = ctx;
    await message.expectShown('trash', title);
    expect(message.id()).toBe(id);
    await expect(message.restore).toBeEnabled();
    await expect(message.purge).toBeEnabled();
    // Keyboard users are not dropped on <body> when they decline.
    if (ctx.declinedPurge) await expect(message.purge).toBeFocused();
    ctx.declinedPurge = false;
    await expect(message.purgeConfirmation).toHaveCount(0);
    await expect(message.delete).toHaveCount(0);
    await expect(message.reply).toHaveCount(0);
  },
  confirmingPurge: async ({ message, title }) => {
    await message.expectShown('trash', title);
    await expect(message.purgeConfirmation).toBeVisible();
    await expect(message.confirmPurge).toBeFocused();
    await expect(message.cancelPurge).toBeVisible();
    await expect(message.restore).toHaveCount(0);
  },
  restored: async ({ shell, inbox, trash, title, unreadBefore }) => {
    await expect(shell.toast(t('messages.restored', { count: 1 }))).toBeVisible();
    await trash.expectShown();
    await trash.expectNotListed(title);
    // Back in the inbox, read, and the counter has not moved.
    await shell.navLink('nav.inbox').click();
    await inbox.expectShown();
    await inbox.expectListed(title, { unread: false });
    await shell.expectInboxUnread(unreadBefore - 1);
  },
  purged: async ({ page, shell, trash, id, title }) => {
    await expect(shell.toast(t('messages.purged', { count: 1 }))).toBeVisible();
    await trash.expectShown();
    await trash.expectNotListed(title);
    // Gone for good, not just from the list: its address is a 404 now.
    await page.goto(`/trash/message/${id}`);
    await new ErrorPage(page).expectNotFound();
  },
};

/** How each model event is performed in the browser. One entry per event (checked below). */
const EVENT_DRIVERS: Drivers<MessageModelEvent['type'], Ctx> = {
  'message.open': (ctx) => openFrom(ctx, ctx.inbox),
  'message.delete': ({ message }) => message.delete.click(),
  'message.openInTrash': (ctx) => openFrom(ctx, ctx.trash),
  'message.restore': ({ message }) => message.restore.click(),
  'message.purge': ({ message }) => message.purge.click(),
  'message.cancel': async (ctx) => {
    await ctx.message.cancelPurge.click();
    ctx.declinedPurge = true;
  },
  'message.escape': async (ctx) => {
    await ctx.page.keyboard.press('Escape');
    ctx.declinedPurge = true;
  },
  'message.confirm': ({ message }) => message.confirmPurge.click(),
};

test.describe('modelo del ciclo de vida de un mensaje', () => {
  // Paths share nothing (each has its own demo user and data), so they spread over the workers.
  test.describe.configure({ mode: 'parallel' });

  // A state or event without a handler would pass silently in path.test(): make that impossible.
  test('cada estado y evento del modelo tiene verificación y acción', () => {
    expect(Object.keys(STATE_CHECKS).sort()).toEqual([...MESSAGE_MODEL_STATES].sort());
    expect(Object.keys(EVENT_DRIVERS).sort()).toEqual(modelEvents(messageModel));
  });

  test('los caminos recorren todas las transiciones del modelo', () => {
    expect(pathTransitions(paths)).toEqual(modelTransitions(messageModel));
    expect(paths.length).toBeGreaterThan(0);
    // One reader per path: two paths on one inbox would move each other's unread counter.
    expect(paths.length).toBeLessThanOrEqual(PATH_READERS.length);
  });

  paths.forEach((path, index) => {
    test(path.description, async ({ page, browser }) => {
      test.setTimeout(PATH_TIMEOUT(path.steps.length));
      const reader = PATH_READERS[index] ?? PATH_READERS[0]!;
      const title = `Modelo mensaje ${index + 1} ${Date.now().toString(36)}`;
      const id = await sendToColleague(browser, {
        from: SENDER,
        to: reader,
        title,
        content: 'Les recuerdo el consejo de profesores del jueves a las 16:00.',
        allowReplies: true,
      });
      const ctx: Ctx = {
        page,
        shell: new AppShell(page),
        message: new MessagePage(page),
        inbox: new FolderPage(page, 'inbox'),
        trash: new FolderPage(page, 'trash'),
        id,
        title,
        unreadBefore: 0,
        declinedPurge: false,
      };
      // The model's initial step (xstate.init) is "the reader opens the inbox".
      await loginViaApi(page, reader);
      await ctx.inbox.goto();
      await runPath(path, ctx, STATE_CHECKS, EVENT_DRIVERS);
    });
  });
});
