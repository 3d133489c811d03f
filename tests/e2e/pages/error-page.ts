// Page object for the error page (SPEC §2): "Error 404", not-found texts, Regresar / Ir al inicio.
import { expect, type Locator, type Page } from '@playwright/test';
import { t } from '../support/i18n';

export class ErrorPage {
  readonly code404: Locator;
  readonly notFoundTitle: Locator;
  readonly notFoundBody: Locator;
  readonly back: Locator;
  readonly home: Locator;

  constructor(readonly page: Page) {
    this.code404 = page.getByText(t('error.title', { code: 404 }), { exact: true });
    this.notFoundTitle = page.getByText(t('error.notFoundTitle'), { exact: true });
    this.notFoundBody = page.getByText(t('error.notFoundBody'), { exact: true });
    this.back = page.getByRole('button', { name: t('error.back'), exact: true });
    this.home = page.getByRole('button', { name: t('error.home'), exact: true });
  }

  async expectNotFound(): Promise<void> {
    await expect(this.code404).toBeVisible();
    await expect(this.notFoundTitle).toBeVisible();
    await expect(this.notFoundBody).toBeVisible();
    await expect(this.back).toBeVisible();
    await expect(this.home).toBeVisible();
  }
}
