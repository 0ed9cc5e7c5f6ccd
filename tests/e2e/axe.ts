import axe from 'axe-core';
import { expect, type Page } from '@playwright/test';

/** The accessibility bar of the product (WCAG 2 A and AA), as checked on every page. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa'];

declare global {
  interface Window {
    axe?: typeof axe;
  }
}

/**
 * axe-core's own `axe.run` in the page, its source given once per document. @axe-core/playwright's builder gives
 * the source again on every scan and finishes each in a new blank page: on our 2-core CI machine 1.8 s a scan
 * against 0.3 s, over some 270 scans a run. The SPA has no frames, which is what the builder's way is for.
 */
async function violationsOf(page: Page): Promise<axe.Result[]> {
  if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(axe.source);
  return page.evaluate(
    (tags) => window.axe!.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }).then((results) => results.violations),
    WCAG_TAGS,
  );
}

/** Scans the page as it is now; a failure lists each violation with the elements it was found on. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // A dialog fading in or out is half transparent: its colours are judged once its transitions have ended
  // (CSS transitions only: a skeleton's or spinner's animation runs for as long as it is shown).
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a instanceof CSSTransition).length), { timeout: 5_000 })
    .toBe(0);
  const found = (await violationsOf(page)).map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(found, `axe violations on ${page.url()}`).toEqual([]);
}
