// Page object for the logged-in layout (SPEC §2): sidebar navigation, page heading, account actions,
// locale switch.
import { expect, type Locator, type Page } from '@playwright/test';
import { ANY_NUMBER, exactly, t, type MessageKey } from '../support/i18n';
import { appUrl } from '../support/server';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Accessible name that starts with `text` as a whole word: folder links may carry unread/total counters
 * ("Recibidos 3"), so an exact name match would be too strict, a substring one too loose.
 */
const startsWith = (text: string): RegExp => new RegExp(`^\\s*${escapeRegExp(text)}(?:\\s|$)`);

export type NavKey =
  | 'nav.new'
  | 'nav.inbox'
  | 'nav.sent'
  | 'nav.scheduled'
  | 'nav.draft'
  | 'nav.trash'
  | 'nav.recipientLists'
  | 'nav.templates'
  | 'nav.dashboard'
  | 'nav.news'
  | 'nav.settings'
  | 'nav.audit'
  | 'nav.privacy';

/** Links every signed-in user has (SPEC §2 sidebar). */
export const COMMON_NAV: readonly NavKey[] = [
  'nav.new',
  'nav.inbox',
  'nav.sent',
  'nav.scheduled',
  'nav.draft',
  'nav.trash',
  'nav.recipientLists',
  'nav.templates',
];

export class AppShell {
  readonly nav: Locator;
  readonly openNav: Locator;
  readonly userMenu: Locator;
  readonly logoutControl: Locator;
  readonly localeControl: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: t('nav.label'), exact: true });
    this.openNav = page.getByRole('button', { name: t('nav.open'), exact: true });
    this.userMenu = page.getByRole('button', { name: t('user.menu'), exact: true });
    this.logoutControl = page
      .getByRole('button', { name: t('session.logout'), exact: true })
      .or(page.getByRole('menuitem', { name: t('session.logout'), exact: true }));
    // A native <select> and an ARIA combobox both have the combobox role. When the label wraps the
    // select, the label text also contains the option texts, so exact `getByLabel` would not match.
    this.localeControl = page
      .getByRole('combobox', { name: t('locale.label'), exact: true })
      .or(page.getByLabel(t('locale.label'), { exact: true }));
  }

  /**
   * A toast whose whole text is `text` ("Mensaje eliminado" never matches "Mensaje eliminado definitivamente");
   * a button it offers ("Deshacer") is not part of the text.
   */
  toast(text: string): Locator {
    return this.page.locator('[data-slot=toast]').filter({ has: this.page.locator('[data-slot=toast-text]', { hasText: exactly(text) }) });
  }

  /** The inbox link's unread badge ("3", labelled "3 sin leer"); absent when nothing is unread. */
  get inboxUnread(): Locator {
    const suffix = t('nav.unread', { count: ANY_NUMBER }).split(ANY_NUMBER)[1] ?? '';
    return this.navLink('nav.inbox').locator(`[aria-label$="${suffix}"]`);
  }

  /** The inbox's unread count once the folder counters have loaded (the "N en total" label is there). */
  async inboxUnreadCount(): Promise<number> {
    const suffix = t('nav.total', { count: ANY_NUMBER }).split(ANY_NUMBER)[1] ?? '';
    await expect(this.navLink('nav.inbox').locator(`[aria-label$="${suffix}"]`)).toBeVisible();
    return (await this.inboxUnread.count()) === 0 ? 0 : Number(await this.inboxUnread.innerText());
  }

  /** Waits until the inbox link shows `count` unread (no badge at all for 0). */
  async expectInboxUnread(count: number): Promise<void> {
    if (count === 0) await expect(this.inboxUnread).toHaveCount(0);
    else await expect(this.inboxUnread).toHaveAttribute('aria-label', t('nav.unread', { count }));
  }

  heading(key: MessageKey): Locator {
    return this.page.getByRole('heading', { name: t(key), exact: true });
  }

  navLink(key: NavKey): Locator {
    return this.nav.getByRole('link', { name: startsWith(t(key)) });
  }

  /** On narrow screens the sidebar is a drawer: open it when its links are hidden. */
  async showNav(): Promise<void> {
    await expect(this.nav.or(this.openNav).first()).toBeVisible();
    if (!(await this.navLink('nav.inbox').isVisible()) && (await this.openNav.isVisible())) {
      await this.openNav.click();
    }
    await expect(this.navLink('nav.inbox')).toBeVisible();
  }

  async expectInbox(): Promise<void> {
    await expect(this.page).toHaveURL(appUrl('/inbox'));
    await expect(this.heading('pages.inbox')).toBeVisible();
  }

  /** Clicks "Cerrar sesión", opening the account menu first when the action lives inside it. */
  async logout(): Promise<void> {
    if (!(await this.logoutControl.first().isVisible()) && (await this.userMenu.isVisible())) {
      await this.userMenu.click();
    }
    await this.logoutControl.first().click();
  }

  /** Picks a locale in the "Idioma" control: a native <select> or a combobox with options. */
  async switchLocale(optionLabel: string): Promise<void> {
    const control = this.localeControl;
    await expect(control).toBeVisible();
    const tag = await control.evaluate((element) => element.tagName.toLowerCase());
    if (tag === 'select') {
      await control.selectOption({ label: optionLabel });
    } else {
      await control.click();
      await this.page.getByRole('option', { name: optionLabel, exact: true }).click();
    }
  }
}
