import { expect, type Page } from '@playwright/test';
import type { MessageSummary, Paged } from '../../../shared/messages-contract';
import { api } from './session';
import type { MessageIds } from './screens';

/** The first message of each folder of the signed-in user, from the same API the SPA calls. */
export async function messageIds(page: Page): Promise<MessageIds> {
  const ids = {} as MessageIds;
  for (const folder of ['inbox', 'sent', 'scheduled', 'draft', 'trash'] as const) {
    const response = await page.request.get(api(`/messages?folder=${folder}&limit=1`));
    expect(response.ok(), `GET /messages?folder=${folder}`).toBeTruthy();
    const first = ((await response.json()) as Paged<MessageSummary>).data[0];
    expect(first, `a seeded message in ${folder}`).toBeDefined();
    ids[folder] = first!.id;
  }
  return ids;
}

/** The screen has rendered: its heading is there and no skeleton is left. */
export async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('.animate-pulse')).toHaveCount(0);
}
