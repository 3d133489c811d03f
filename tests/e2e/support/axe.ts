import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

// The WCAG 2.2 A and AA rules axe can check by machine; the rest (focus order, meaning) is covered by the
// keyboard and focus specs.
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe finds no WCAG A/AA violation on the page as it is now (or inside `within`). */
export async function expectNoAxeViolations(page: Page, where: string, within?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_AA);
  if (within) builder = builder.include(within);
  const { violations } = await builder.analyze();
  const found = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .map((node) => node.target.join(' '))
        .slice(0, 4)
        .join(' | ')}`,
  );
  expect(found, `${where}: axe violations`).toEqual([]);
}
