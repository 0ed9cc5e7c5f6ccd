import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The accessibility bar of the product (WCAG 2 A and AA), as checked on every page. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa'];

/** Scans the page as it is now; a failure lists each violation with the elements it was found on. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const found = violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(found, `axe violations on ${page.url()}`).toEqual([]);
}
