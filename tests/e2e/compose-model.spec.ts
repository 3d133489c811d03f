// Model-based browser test of composing at /new: the abstract model in
// models/compose-model.ts, its simple paths from xstate/graph, one Playwright test per path driving the
// compose page object and checking what the author sees in every state the path visits. Each path writes
// as its own demo user a message with a title of its own, so parallel paths never see each other's work.
import { test, expect, type Locator, type Page } from '@playwright/test';
import { createTestModel } from 'xstate/graph';
import { COMPOSE_MODEL_STATES, composeModel, type ComposeModelEvent, type ComposeModelState } from './models/compose-model';
import { AppShell } from './pages/app-shell';
import { ComposePage, type ComposeFields } from './pages/compose-page';
import { FolderPage } from './pages/folder-page';
import { MessagePage } from './pages/message-page';
import { USERS } from './support/env';
import { t, type MessageKey } from './support/i18n';
import { modelEvents, modelTransitions, PATH_TIMEOUT, pathTransitions, runPath, type Checks, type Drivers } from './support/model';
import { appUrl } from './support/server';
import { loginViaApi } from './support/session';

const model = createTestModel(composeModel);

// Simple paths visit each transition at most once, so the set is finite; the limit is a safety net
// should the model grow.
const paths = model.getSimplePaths({ limit: 200 });

/**
 * One demo user and one course of their school per path. Schools with unlimited e-mail only (Liceo Valle
 * del Elqui has a balance other specs may need).
 */
const PATH_AUTHORS: readonly { email: string; course: string }[] = [
  { email: USERS.directora, course: '1° Básico A' },
  { email: USERS.teacher, course: '2° Básico B' },
  { email: USERS.adminJuarez, course: '1° de Secundaria B' },
  { email: USERS.teacherJuarez, course: '3° de Secundaria C' },
];

/** What a step can use: the page, its page objects, what the path types, what it has seen so far. */
interface Ctx {
  page: Page;
  compose: ComposePage;
  shell: AppShell;
  fields: ComposeFields;
  /** N of "Llegará a N personas." the first time the estimate was shown; the same form reaches the same N. */
  reach: number | null;
  /** A draft was saved on the way: sending it must take it out of /draft. */
  savedDraft: boolean;
}

/** The draft, seen from a second tab: listed in /draft, opened straight into the form with it. */
async function expectDraftReopens({ page, fields }: Ctx): Promise<void> {
  const tab = await page.context().newPage();
  try {
    const drafts = new FolderPage(tab, 'draft');
    await drafts.goto();
    await drafts.expectListed(fields.title);
    await drafts.open(fields.title);
    await expect(tab).toHaveURL(/\/new\?draft=\d+$/);
    const reopened = new ComposePage(tab);
    await expect(reopened.heading).toHaveText(t('compose.draftHeading'));
    await reopened.expectHolds(fields);
  } finally {
    await tab.close();
  }
}

/** The UI each model state must show. One entry per state (checked below). */
const STATE_CHECKS: Checks<ComposeModelState, Ctx> = {
  empty: async ({ compose, fields }) => {
    await compose.expectReady();
    await expect(compose.heading).toHaveText(t('compose.heading'));
    await expect(compose.title).toHaveValue('');
    await expect(compose.content).toHaveValue('');
    await expect(compose.noRecipients).toBeVisible();
    await expect(compose.channel(fields.channel)).not.toBeChecked();
    await expect(compose.invalidControls).toHaveCount(0);
    await expect(compose.send).toBeEnabled();
  },
  invalid: async ({ compose, shell, fields }) => {
    await expect(shell.toast(t('compose.errors.review'))).toBeVisible();
    await expect(compose.page).toHaveURL(appUrl('/new'));
    await expect(compose.confirmation).toHaveCount(0);
    // Each text is bound to its field: the control is aria-invalid and its aria-describedby names the alert.
    const bound: [Locator, MessageKey][] = [
      [compose.title, 'compose.errors.titleRequired'],
      [compose.addRecipients.first(), 'compose.errors.recipientsRequired'],
      [compose.content, 'compose.errors.contentRequired'],
    ];
    for (const [field, key] of bound) {
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(await compose.errorOf(field)).toBe(t(key));
    }
    await expect(compose.channel(fields.channel)).toHaveAttribute('aria-invalid', 'true');
    expect(await compose.errorOf(compose.channels)).toBe(t('compose.errors.channelsRequired'));
  },
  filled: async ({ compose, fields }) => {
    await compose.expectReady();
    await expect(compose.heading).toHaveText(t('compose.heading'));
    await compose.expectHolds(fields);
    await expect(compose.confirmation).toHaveCount(0);
  },
  confirming: async (ctx) => {
    const { compose, fields } = ctx;
    await expect(compose.confirmation).toBeVisible();
    await expect(compose.confirmation).toHaveAccessibleName(t('compose.confirm.sendTitle'));
    const reach = await compose.reachCount();
    expect(reach).toBeGreaterThan(0);
    if (ctx.reach !== null) expect(reach).toBe(ctx.reach);
    ctx.reach = reach;
    await expect(compose.backToEdit).toBeVisible();
    await expect(compose.send).toHaveCount(0);
    // Nothing can change under the confirmation.
    await expect(compose.title).toHaveValue(fields.title);
    await expect(compose.title).not.toBeEditable();
  },
  backToEditing: async ({ compose, fields }) => {
    await expect(compose.confirmation).toHaveCount(0);
    await compose.expectHolds(fields);
    await expect(compose.send).toBeEnabled();
  },
  draftSaved: async (ctx) => {
    const { compose, shell, fields } = ctx;
    await expect(shell.toast(t('messages.saved'))).toBeVisible();
    await expect(compose.page).toHaveURL(appUrl('/new'));
    await compose.expectHolds(fields);
    await expectDraftReopens(ctx);
  },
  sent: async ({ page, compose, shell, fields, savedDraft }) => {
    await expect(shell.toast(t('messages.sent'))).toBeVisible();
    await new MessagePage(page).expectShown('sent', fields.title);
    if (savedDraft) {
      // The draft went out: /draft no longer has it.
      const drafts = new FolderPage(page, 'draft');
      await shell.navLink(drafts.navKey).click();
      await drafts.expectShown();
      await drafts.expectNotListed(fields.title);
    }
    // The local backup went with it: "Redactar" starts from an empty form again.
    await shell.navLink('nav.new').click();
    await compose.expectReady();
    await expect(compose.title).toHaveValue('');
    await expect(compose.noRecipients).toBeVisible();
  },
};

/** How each model event is performed in the browser. One entry per event (checked below). */
const EVENT_DRIVERS: Drivers<ComposeModelEvent['type'], Ctx> = {
  'compose.submitEmpty': ({ compose }) => compose.send.click(),
  'compose.fill': ({ compose, fields }) => compose.fill(fields),
  'compose.reload': async ({ page, compose }) => {
    await page.reload();
    await compose.expectReady();
  },
  'compose.send': ({ compose }) => compose.send.click(),
  'compose.cancel': ({ compose }) => compose.backToEdit.click(),
  'compose.confirm': ({ compose }) => compose.confirm('send'),
  'compose.saveDraft': async (ctx) => {
    await ctx.compose.save.click();
    ctx.savedDraft = true;
  },
};

test.describe('modelo de redacción', () => {
  // Paths share nothing (each has its own demo user and data), so they spread over the workers.
  test.describe.configure({ mode: 'parallel' });

  // A state or event without a handler would pass silently in path.test(): make that impossible.
  test('cada estado y evento del modelo tiene verificación y acción', () => {
    expect(Object.keys(STATE_CHECKS).sort()).toEqual([...COMPOSE_MODEL_STATES].sort());
    expect(Object.keys(EVENT_DRIVERS).sort()).toEqual(modelEvents(composeModel));
  });

  test('los caminos recorren todas las transiciones del modelo', () => {
    expect(pathTransitions(paths)).toEqual(modelTransitions(composeModel));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.length).toBeLessThanOrEqual(PATH_AUTHORS.length);
  });

  paths.forEach((path, index) => {
    test(path.description, async ({ page }) => {
      test.setTimeout(PATH_TIMEOUT(path.steps.length));
      const author = PATH_AUTHORS[index % PATH_AUTHORS.length] ?? PATH_AUTHORS[0]!;
      const ctx: Ctx = {
        page,
        compose: new ComposePage(page),
        shell: new AppShell(page),
        fields: {
          title: `Modelo redactar ${index + 1} ${Date.now().toString(36)}`,
          course: author.course,
          channel: 'e-mail',
          content: 'Recuerden que el viernes la salida es a las 13:00.',
        },
        reach: null,
        savedDraft: false,
      };
      // The model's initial step (xstate.init) is "the author opens /new".
      await loginViaApi(page, author.email);
      await ctx.compose.goto();
      await runPath(path, ctx, STATE_CHECKS, EVENT_DRIVERS);
    });
  });
});
