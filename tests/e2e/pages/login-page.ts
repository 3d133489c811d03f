// Page object for /login (SPEC §2): e-mail + password form, invalid-credentials alert.
import { expect, type Locator, type Page } from '@playwright/test';
import { t } from '../support/i18n';
import { DEMO_PASSWORD } from '../support/env';
import { appUrl } from '../support/server';

export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly invalidCredentials: Locator;

  constructor(readonly page: Page) {
    // `exact` keeps "Contraseña" from also matching the "Mostrar contraseña" toggle.
    this.email = page.getByLabel(t('login.email'), { exact: true });
    this.password = page.getByLabel(t('login.password'), { exact: true });
    this.submit = page.getByRole('button', { name: t('login.submit'), exact: true });
    this.invalidCredentials = page.getByRole('alert').filter({ hasText: t('login.errors.invalidCredentials') });
  }

  /** Opens /login, optionally with a raw (already encoded) query string such as `redirect=%2Fsent`. */
  async goto(query?: string): Promise<void> {
    await this.page.goto(query ? `/login?${query}` : '/login');
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(appUrl('/login'));
    await expect(this.email).toBeVisible();
    await expect(this.password).toBeVisible();
    await expect(this.submit).toBeEnabled();
  }

  async fill(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
  }

  /** Fills the form and submits it (button click, as a user would). */
  async login(email: string, password: string = DEMO_PASSWORD): Promise<void> {
    await this.fill(email, password);
    await this.submit.click();
  }

  /** Submits a wrong password and waits for the invalid-credentials alert. */
  async loginExpectingError(email: string, password: string): Promise<void> {
    await this.login(email, password);
    await this.expectInvalidCredentials(email);
  }

  async expectInvalidCredentials(typedEmail: string): Promise<void> {
    await expect(this.invalidCredentials).toBeVisible();
    await expect(this.page).toHaveURL(appUrl('/login'));
    await expect(this.email).toHaveValue(typedEmail);
    // The request is over (the button is back from "Ingresando…"), so a next attempt is a new one.
    await expect(this.submit).toBeEnabled();
  }
}
