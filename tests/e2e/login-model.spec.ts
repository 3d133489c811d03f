// Model-based browser test of the login flow: the abstract model in
// models/login-model.ts, its simple paths from xstate/graph, one Playwright test per path driving the
// page objects and checking the UI in every state the path visits.
import { test, expect, type Page } from '@playwright/test';
import { createTestModel } from 'xstate/graph';
import { LOGIN_MODEL_EVENTS, LOGIN_MODEL_STATES, loginModel, type LoginModelEvent, type LoginModelState } from './models/login-model';
import { LoginPage } from './pages/login-page';
import { AppShell } from './pages/app-shell';
import { USERS, WRONG_PASSWORD } from './support/env';
import { modelTransitions, pathTransitions } from './support/model';
import { redirectParam } from './support/server';

const model = createTestModel(loginModel);

// Simple paths visit each (state, incoming transition) pair at most once, so the set is finite; the
// limit is a safety net should the model grow.
const paths = model.getSimplePaths({ limit: 200 });

/** A different demo user per path, so failed attempts never pile up on one account's throttle. */
const PATH_USERS = [
  USERS.teacherLatam,
  USERS.adminElqui,
  USERS.teacherElqui,
  USERS.adminJuarez,
  USERS.teacherJuarez,
  USERS.utp,
  USERS.directora,
  USERS.admin,
  USERS.teacher,
];

/** What a step can use: the page, its page objects and the path's demo user. */
interface Ctx {
  page: Page;
  login: LoginPage;
  shell: AppShell;
  email: string;
}

/** The UI each model state must show. One entry per state (checked below). */
const STATE_CHECKS: Record<LoginModelState, (ctx: Ctx) => Promise<void>> = {
  loggedOut: async ({ login }) => {
    await login.expectShown();
    await expect(login.email).toHaveValue('');
    await expect(login.invalidCredentials).toHaveCount(0);
  },
  loginError: async ({ login, shell, email }) => {
    await login.expectInvalidCredentials(email);
    await expect(shell.heading('pages.inbox')).toHaveCount(0);
  },
  loggedIn: async ({ login, shell }) => {
    await shell.expectInbox();
    await expect(login.invalidCredentials).toHaveCount(0);
  },
  loggedOutAgain: async ({ page, login }) => {
    await login.expectShown();
    // The session is really gone: a protected page asks for login again.
    await page.goto('/inbox');
    await login.expectShown();
    expect(redirectParam(page)).toMatch(/^\/inbox\/?$/);
  },
};

/** How each model event is performed in the browser. One entry per event (checked below). */
const EVENT_DRIVERS: Record<LoginModelEvent['type'], (ctx: Ctx) => Promise<void>> = {
  'login.submitWrongPassword': ({ login, email }) => login.login(email, WRONG_PASSWORD),
  'login.submitRightPassword': ({ login, email }) => login.login(email),
  'session.logout': ({ shell }) => shell.logout(),
};

test.describe('modelo del ingreso', () => {
  // A state or event without a handler would pass silently in path.test(): make that impossible.
  test('cada estado y evento del modelo tiene verificación y acción', () => {
    expect(Object.keys(STATE_CHECKS).sort()).toEqual([...LOGIN_MODEL_STATES].sort());
    expect(Object.keys(EVENT_DRIVERS).sort()).toEqual([...LOGIN_MODEL_EVENTS].sort());
  });

  test('los caminos recorren todas las transiciones del modelo', () => {
    expect(pathTransitions(paths)).toEqual(modelTransitions(loginModel));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.length).toBeLessThanOrEqual(PATH_USERS.length);
  });

  paths.forEach((path, index) => {
    test(path.description, async ({ page }) => {
      const ctx: Ctx = {
        page,
        login: new LoginPage(page),
        shell: new AppShell(page),
        email: PATH_USERS[index % PATH_USERS.length] ?? USERS.teacher,
      };
      // The model's initial step (xstate.init) is "a visitor opens the app".
      await page.goto('/');
      await path.test({
        states: Object.fromEntries(LOGIN_MODEL_STATES.map((state) => [state, () => STATE_CHECKS[state](ctx)])),
        events: {
          'login.submitWrongPassword': () => EVENT_DRIVERS['login.submitWrongPassword'](ctx),
          'login.submitRightPassword': () => EVENT_DRIVERS['login.submitRightPassword'](ctx),
          'session.logout': () => EVENT_DRIVERS['session.logout'](ctx),
        },
      });
    });
  });
});
