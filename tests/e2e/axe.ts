import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The accessibility bar of the product (WCAG 2 A and AA), as checked on every page. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa'];

/** Scans the page as it is now; a failure lists each violation with the elements it was found on. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // A dialog fading in or out is half transparent: its colours are judged once its transitions have ended
  // (CSS transitions only: a skeleton's or spinner's animation runs for as long as it is shown).
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a instanceof CSSTransition).length), { timeout: 5_000 })
    .toBe(0);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const found = violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(found, `axe violations on ${page.url()}`).toEqual([]);
}
