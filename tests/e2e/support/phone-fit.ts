import { expect, type Page } from '@playwright/test';

/** The page does not scroll sideways: what a phone's 390 px must never do. */
export async function expectFitsPhone(page: Page, where: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth, `${where}: no sideways scrolling at 390 px`).toBeLessThanOrEqual(clientWidth);
}
