// Page object for a message folder (/inbox, /sent, /scheduled, /draft, /trash; SPEC §2): its
// heading, its search box and the rows of its (virtual) list, found by their exact title.
import { expect, type Locator, type Page } from '@playwright/test';
import type { Folder } from '../../../shared/codes';
import { exactly, t, type MessageKey } from '../support/i18n';
import { appUrl } from '../support/server';
import type { NavKey } from './app-shell';

/** The heading (and list name) of each folder. */
export const FOLDER_TITLE: Record<Folder, MessageKey> = {
  inbox: 'pages.inbox',
  sent: 'pages.sent',
  scheduled: 'pages.scheduled',
  draft: 'pages.draft',
  trash: 'folders.trash',
};

export class FolderPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly list: Locator;
  /** Its sidebar link (AppShell.navLink). */
  readonly navKey: NavKey;

  constructor(
    readonly page: Page,
    readonly folder: Folder,
  ) {
    const name = t(FOLDER_TITLE[folder]);
    this.heading = page.getByRole('heading', { level: 1, name, exact: true });
    this.search = page.getByRole('searchbox', { name: t('folders.search', { folder: name }), exact: true });
    this.list = page.getByRole('list', { name, exact: true });
    this.navKey = `nav.${folder}`;
  }

  async goto(): Promise<void> {
    await this.page.goto(`/${this.folder}`);
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(appUrl(`/${this.folder}`));
    await expect(this.heading).toBeVisible();
  }

  /** The row whose title is exactly `title`. */
  row(title: string): Locator {
    return this.list.getByRole('listitem').filter({ has: this.page.locator('[data-slot=message-title]', { hasText: exactly(title) }) });
  }

  /**
   * Searches the folder for `title` and waits for its row (a search, so a long list's virtual scrolling
   * cannot hide it). `unread`: whether the row must carry the unread mark, or must not.
   */
  async expectListed(title: string, options: { unread?: boolean } = {}): Promise<void> {
    await this.search.fill(title);
    const row = this.row(title);
    await expect(row).toHaveCount(1);
    if (options.unread === true) await expect(row).toHaveAttribute('data-unread', 'true');
    if (options.unread === false) await expect(row).not.toHaveAttribute('data-unread');
  }

  /** Searches the folder for `title` and waits for the server's "nothing matches" answer. */
  async expectNotListed(title: string): Promise<void> {
    await this.search.fill(title);
    await expect(this.page.getByText(t('folders.emptySearch', { q: title }), { exact: true })).toBeVisible();
    await expect(this.row(title)).toHaveCount(0);
  }

  /** Opens the message titled `title` from the list (as listed now; search first when the list is long). */
  /** Opens a row: a message in its reading view, a draft straight in compose. */
  async open(title: string): Promise<void> {
    await this.row(title).getByRole('link').click();
    await expect(this.page).toHaveURL(this.folder === 'draft' ? /\/new\?draft=\d+$/ : new RegExp(`/${this.folder}/message/\\d+$`));
  }
}
