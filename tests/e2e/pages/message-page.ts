// Page object for the reading view, /<folder>/message/:id (SPEC §2, §4): the message's title, the way back
// to its folder and the actions its lifecycle offers now (reply, edit a draft, delete, restore, purge with
// its confirmation).
import { expect, type Locator, type Page } from '@playwright/test';
import type { Folder } from '../../../shared/codes';
import { exactly, t } from '../support/i18n';
import { FOLDER_TITLE } from './folder-page';

export class MessagePage {
  readonly article: Locator;
  readonly heading: Locator;
  readonly reply: Locator;
  readonly edit: Locator;
  readonly delete: Locator;
  readonly restore: Locator;
  readonly purge: Locator;
  /** "¿Eliminar definitivamente?" with its own "Eliminar definitivamente" and "Cancelar". */
  readonly purgeConfirmation: Locator;
  readonly confirmPurge: Locator;
  readonly cancelPurge: Locator;

  constructor(readonly page: Page) {
    this.article = page.getByRole('article');
    this.heading = this.article.getByRole('heading', { level: 1 });
    const button = (text: string) => this.article.getByRole('button', { name: exactly(text) });
    this.reply = button(t('messages.reply'));
    this.edit = button(t('messages.edit'));
    this.delete = button(t('folders.delete'));
    this.restore = button(t('folders.restore'));
    // While the confirmation is open the footer offers no purge, so only the confirmation's button has this name.
    this.purge = button(t('folders.purge'));
    this.purgeConfirmation = this.article.getByRole('alertdialog', { name: t('folders.purgeConfirmTitle'), exact: true });
    this.confirmPurge = this.purgeConfirmation.getByRole('button', { name: exactly(t('folders.purge')) });
    this.cancelPurge = this.purgeConfirmation.getByRole('button', { name: exactly(t('folders.cancel')) });
  }

  /** The link back to `folder` ("← Volver a Recibidos"). */
  backLink(folder: Folder): Locator {
    return this.page.getByRole('link', { name: t('messages.back', { folder: t(FOLDER_TITLE[folder]) }) });
  }

  /** The message titled `title` is shown, opened from `folder`. */
  async expectShown(folder: Folder, title: string): Promise<void> {
    await expect(this.page).toHaveURL(new RegExp(`/${folder}/message/\\d+$`));
    await expect(this.heading).toHaveText(title);
    await expect(this.backLink(folder)).toBeVisible();
  }

  /** The id in the URL of the message shown. */
  id(): number {
    const match = /\/message\/(\d+)$/.exec(new URL(this.page.url()).pathname);
    if (!match) throw new Error(`not a message URL: ${this.page.url()}`);
    return Number(match[1]);
  }
}
