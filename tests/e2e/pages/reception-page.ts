// Page object for /sent/message/:id/reception (SPEC §2, §4): the delivery summary (per
// channel), the channel picker, the filter chips with their counts, "Reintentar fallidos" and the
// per-recipient rows with one badge per channel.
import { expect, type Locator, type Page } from '@playwright/test';
import type { DeliveryStatus, ReceptionChannel, ReceptionFilter, RecipientStatus } from '../../../shared/reception-contract';
import { exactly, t } from '../support/i18n';
import type { ChannelCode } from '../../../shared/codes';

export class ReceptionPage {
  readonly heading: Locator;
  readonly summary: Locator;
  /** "Enviando… 3 de 10", "Enviado" or "Enviado con fallos" (shown, not announced). */
  readonly progress: Locator;
  /** What screen readers are told: the state alone ("Enviando…", "Enviado", "Enviado con fallos"). */
  readonly liveState: Locator;
  readonly filters: Locator;
  /** "Canal": Todos los canales, then each channel the message used (absent with only one). */
  readonly channels: Locator;
  /** What the chips count ("Estado de la entrega por SMS…", or "Cada destinatario se cuenta una vez…"). */
  readonly filtersHint: Locator;
  readonly retry: Locator;
  readonly retryHint: Locator;
  readonly table: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: t('reception.title') });
    this.summary = page.getByRole('region', { name: t('reception.summary') });
    this.progress = this.summary.locator('[data-slot=progress-text]');
    this.liveState = this.summary.locator('[aria-live=polite]');
    this.filters = page.getByRole('group', { name: t('reception.filters') });
    this.channels = page.getByRole('group', { name: t('reception.channelFilter') });
    this.filtersHint = page.locator('#filters-hint');
    this.retry = page.getByRole('button', { name: exactly(t('reception.retry')) });
    this.retryHint = page.locator('#retry-hint');
    this.table = page.getByRole('table', { name: t('reception.rows') });
    this.rows = this.table.locator('tbody tr');
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/sent\/message\/\d+\/reception(\?[^#]*)?$/);
    await expect(this.heading).toBeVisible();
    await expect(this.summary).toBeVisible();
  }

  /** A filter chip: "No recibidos (4)". */
  chip(filter: ReceptionFilter): Locator {
    const label = t(`reception.filter.${filter}`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return this.filters.getByRole('button', { name: new RegExp(`^${label} \\(\\d+\\)$`) });
  }

  /** A button of the channel picker ("SMS", "Todos los canales"). */
  channel(channel: ReceptionChannel): Locator {
    return this.channels.getByRole('button', {
      name: exactly(channel === 'all' ? t('reception.channelAll') : t(`messages.channel.${channel}`)),
    });
  }

  /** One channel's line of the summary ("SMS · 34 entregas  Recibido: 17  No recibido: 15"). */
  summaryOf(channel: Exclude<ReceptionChannel, 'all'>): Locator {
    return this.summary.getByRole('list', { name: t('reception.byChannel') }).locator(`:scope > li[data-channel="${channel}"]`);
  }

  /** A channel's summary figure for one state (the line shows only the states it has: 0 otherwise). */
  async figure(channel: Exclude<ReceptionChannel, 'all'>, state: RecipientStatus): Promise<number> {
    const item = this.summaryOf(channel).locator(`li[data-state="${state}"]`);
    if ((await item.count()) === 0) return 0;
    await expect(item).toHaveText(new RegExp(`^${t(`reception.recipientStatus.${state}`)}: \\d+$`));
    return Number(/(\d+)\s*$/.exec(await item.innerText())?.[1]);
  }

  /** The person's name on a row (the guardian, student or colleague reached). */
  nameOf(row: Locator): Promise<string> {
    return row.locator('td').nth(1).locator('span').first().innerText();
  }

  /** The number in a chip's "(n)". */
  async chipCount(filter: ReceptionFilter): Promise<number> {
    const text = await this.chip(filter).innerText();
    const match = /\((\d+)\)\s*$/.exec(text);
    if (!match) throw new Error(`chip ${filter} has no count: ${text}`);
    return Number(match[1]);
  }

  /** Every badge of one channel in the rows shown. */
  badges(channel: ChannelCode): Locator {
    return this.rows.locator(`[data-channel="${channel}"]`);
  }

  /** Badges of one channel in one status, by their visible text ("SMS: No recibido"). */
  badgesIn(channel: ChannelCode, status: DeliveryStatus): Locator {
    return this.rows.getByText(exactly(`${t(`messages.channel.${channel}`)}: ${t(`reception.deliveryStatus.${status}`)}`));
  }

  /** Badges of one channel still in flight: queued or handed over, waiting for the receipt. */
  badgesInFlight(channel: ChannelCode): Locator {
    return this.rows.locator(`[data-channel="${channel}"]:is([data-status="queued"],[data-status="sent"])`);
  }

  /** Badges of one channel that "Reintentar fallidos" sends again: not received, reception error, failed. */
  badgesToRetry(channel: ChannelCode): Locator {
    const statuses = ['not_received', 'error', 'failed'].map((status) => `[data-status="${status}"]`).join(',');
    return this.rows.locator(`[data-channel="${channel}"]:is(${statuses})`);
  }

  /**
   * Deliveries of one channel that a retry sent again: they carry their "Último reintento" time, whatever
   * status they reached since (a retried SMS can settle before any reload shows it in flight).
   */
  retried(channel: ChannelCode): Locator {
    const stamp = t('reception.times.lastRetry', { at: '§' }).split('§')[0] as string;
    return this.rows
      .locator('li')
      .filter({ has: this.page.locator(`[data-channel="${channel}"]`) })
      .filter({ hasText: stamp });
  }

  /** Rows whose delivery of one channel a retry sent again (see `retried`). */
  rowsRetried(channel: ChannelCode): Locator {
    const stamp = t('reception.times.lastRetry', { at: '§' }).split('§')[0] as string;
    return this.rows.filter({
      has: this.page
        .locator('li')
        .filter({ has: this.page.locator(`[data-channel="${channel}"]`) })
        .filter({ hasText: stamp }),
    });
  }

  /** Rows whose recipient status (the best of their channels) is `status`. */
  rowsIn(status: Exclude<ReceptionFilter, 'all'>): Locator {
    return this.table.locator(`tbody tr[data-status="${status}"]`);
  }
}
