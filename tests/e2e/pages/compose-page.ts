// Page object for /new (SPEC §2 "Redactar"): the compose form and its recipient picker dialog.
import { expect, type Locator, type Page } from '@playwright/test';
import { ANY_NUMBER, exactly, t, textPattern } from '../support/i18n';
import { appUrl } from '../support/server';
import type { ChannelCode } from '../../../shared/codes';

/** What a test types into the form: a title, one course from the picker, one channel, the text. */
export interface ComposeFields {
  title: string;
  course: string;
  channel: ChannelCode;
  content: string;
}

export class ComposePage {
  readonly heading: Locator;
  readonly title: Locator;
  readonly content: Locator;
  readonly addRecipients: Locator;
  readonly recipients: Locator;
  /** "Aún no eliges destinatarios." while nothing is picked. */
  readonly noRecipients: Locator;
  readonly channels: Locator;
  readonly smsCounter: Locator;
  /** "Permitir respuestas". */
  readonly allowReplies: Locator;
  readonly scheduleDate: Locator;
  readonly scheduleTime: Locator;
  readonly save: Locator;
  readonly send: Locator;
  readonly schedule: Locator;
  /** The cost shown before anything is sent, with its confirm button. */
  readonly confirmation: Locator;
  /** "Volver a editar" in the confirmation. */
  readonly backToEdit: Locator;
  /** "Llegará a N personas." in the estimate the confirmation describes. */
  readonly reach: Locator;
  /** Every control of the form flagged invalid. */
  readonly invalidControls: Locator;
  /** Every error text shown in the form. */
  readonly errors: Locator;
  readonly picker: RecipientPicker;
  /** "¿Guardar los cambios antes de salir?", asked when leaving with unsaved changes, and its three answers. */
  readonly leaveDialog: Locator;
  readonly leaveSave: Locator;
  readonly leaveDiscard: Locator;
  readonly leaveStay: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.title = page.getByLabel(t('compose.field.title'), { exact: true });
    this.content = page.getByLabel(t('compose.field.content'), { exact: true });
    this.addRecipients = page
      .getByRole('button', { name: t('compose.field.addRecipients') })
      .or(page.getByRole('button', { name: t('compose.field.editRecipients') }));
    this.recipients = page.getByRole('list', { name: t('compose.field.recipients'), exact: true });
    this.noRecipients = page.getByText(t('compose.field.noRecipients'), { exact: true });
    this.channels = page.getByRole('group', { name: t('compose.field.channels'), exact: true });
    this.smsCounter = page.locator('[data-slot=sms-counter]');
    this.allowReplies = page.getByRole('checkbox', { name: exactly(t('compose.options.allowReplies')) });
    this.scheduleDate = page.getByLabel(t('compose.schedule.date'), { exact: true });
    this.scheduleTime = page.getByLabel(t('compose.schedule.time'), { exact: true });
    this.save = page.getByRole('button', { name: exactly(t('compose.actions.save')) });
    this.send = page.getByRole('button', { name: exactly(t('compose.actions.send')) });
    this.schedule = page.getByRole('button', { name: exactly(t('compose.actions.schedule')) });
    this.confirmation = page
      .getByRole('alertdialog', { name: t('compose.confirm.sendTitle') })
      .or(page.getByRole('alertdialog', { name: t('compose.confirm.scheduleTitle') }));
    this.backToEdit = this.confirmation.getByRole('button', { name: exactly(t('compose.confirm.back')) });
    const estimate = page.locator('[data-slot=estimate]');
    this.reach = estimate
      .getByText(textPattern('compose.estimate.recipients', { count: ANY_NUMBER }))
      .or(estimate.getByText(textPattern('compose.estimate.recipients', { count: 1 })));
    const form = page.locator('[data-slot=compose-form]');
    this.invalidControls = form.locator('[aria-invalid=true]');
    this.errors = form.getByRole('alert');
    this.picker = new RecipientPicker(page);
    this.leaveDialog = page.getByRole('alertdialog', { name: t('compose.leave.title'), exact: true });
    this.leaveSave = this.leaveDialog.getByRole('button', { name: exactly(t('compose.leave.save')) });
    this.leaveDiscard = this.leaveDialog.getByRole('button', { name: exactly(t('compose.leave.discard')) });
    this.leaveStay = this.leaveDialog.getByRole('button', { name: exactly(t('compose.leave.stay')) });
  }

  /** A recipient chip whose label contains `name` ("3° Básico A · apoderados"). */
  chip(name: string): Locator {
    return this.recipients.getByRole('listitem').filter({ hasText: name }).first();
  }

  /** Types `fields` into the form as a user would: title, the course through the picker, channel, text. */
  async fill(fields: ComposeFields): Promise<void> {
    await this.title.fill(fields.title);
    await this.pickCourse(fields.course);
    await this.channel(fields.channel).check();
    await this.content.fill(fields.content);
  }

  /** The form shows exactly `fields`, editable, with no field flagged and no error text. */
  async expectHolds(fields: ComposeFields): Promise<void> {
    await expect(this.title).toHaveValue(fields.title);
    await expect(this.content).toHaveValue(fields.content);
    await expect(this.chip(fields.course)).toBeVisible();
    await expect(this.channel(fields.channel)).toBeChecked();
    await expect(this.title).toBeEditable();
    await expect(this.invalidControls).toHaveCount(0);
    await expect(this.errors).toHaveCount(0);
  }

  /** The number in "Llegará a N personas." (waits for it), written with its thousands separator ("1.250"). */
  async reachCount(): Promise<number> {
    await expect(this.reach).toBeVisible();
    return Number(/\d{1,3}(?:[.,]\d{3})*/.exec(await this.reach.innerText())?.[0].replace(/[.,]/g, ''));
  }

  /** Confirms the estimate shown after "Enviar" / "Programar". */
  async confirm(kind: 'send' | 'schedule'): Promise<void> {
    await expect(this.confirmation).toBeVisible();
    await this.confirmation.getByRole('button', { name: exactly(t(`compose.confirm.${kind}`)) }).click();
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/new${query}`);
    await this.expectReady();
  }

  /** The form is shown once the setup (channels, permissions, signature, quota) has loaded. */
  async expectReady(): Promise<void> {
    await expect(this.page).toHaveURL(appUrl('/new'));
    await expect(this.title).toBeVisible();
    await expect(this.title).toBeEditable();
  }

  channel(code: ChannelCode): Locator {
    return this.channels.getByRole('checkbox', { name: t(`messages.channel.${code}`), exact: true });
  }

  /** The error shown for a field, found through the field's aria-describedby (what a screen reader reads). */
  async errorOf(field: Locator): Promise<string> {
    const ids = (await field.getAttribute('aria-describedby')) ?? '';
    const texts: string[] = [];
    for (const id of ids.split(/\s+/).filter(Boolean)) {
      const described = this.page.locator(`[id="${id}"][role=alert]`);
      if (await described.count()) texts.push((await described.innerText()).trim());
    }
    return texts.join(' ');
  }

  /** Opens the picker, searches, ticks the first row named `name` exactly, confirms. */
  async pickCourse(name: string): Promise<void> {
    await this.addRecipients.first().click();
    await this.picker.expectOpen();
    await this.picker.search.fill(name);
    await this.picker.item(name).check();
    await this.picker.confirm.click();
    await expect(this.picker.dialog).toBeHidden();
    await expect(this.chip(name)).toBeVisible();
  }
}

export class RecipientPicker {
  readonly dialog: Locator;
  readonly search: Locator;
  readonly confirm: Locator;
  readonly cancel: Locator;
  readonly showing: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: t('compose.picker.title') });
    this.search = this.dialog.getByRole('searchbox', { name: t('compose.picker.search') });
    this.confirm = this.dialog.getByRole('button', { name: exactly(t('compose.picker.confirm')) });
    this.cancel = this.dialog.getByRole('button', { name: exactly(t('compose.picker.cancel')) });
    this.showing = this.dialog.locator('[data-slot=picker-showing]');
  }

  async expectOpen(): Promise<void> {
    await expect(this.dialog).toBeVisible();
    await expect(this.search).toBeVisible();
  }

  tab(key: 'students' | 'staff' | 'lists'): Locator {
    return this.dialog.getByRole('tab', { name: t(`compose.picker.tabs.${key}`) });
  }

  /** A preview row's checkbox, by the row's exact name. */
  item(name: string): Locator {
    return this.dialog.getByRole('checkbox', { name: exactly(name) }).first();
  }
}
