// The physician workspace on `npm run dev:mock`: list, card and comparison from the contract's examples
// (Prism), the treatment images from mocks/mock-images.ts.
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';

const MARIA = 'a1c3e5f7-0b2d-4e6f-8a9b-1c2d3e4f5a61';

/** Prism takes any bearer token; the examples' profile is the physician's. */
async function signedIn(page: Page, path: string) {
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto(path);
}

test('the patient list shows the examples with every plan status', async ({ page, texts }) => {
  await signedIn(page, '/physician/list');
  const rows = page.locator('table.mp-patient-table tbody tr');
  await expect(rows).toHaveCount(5, { timeout: 30_000 });
  for (const status of ['processing', 'planning', 'error', 'plan_available', 'issue_reported'] as const) {
    await expect(page.locator('table.mp-patient-table')).toContainText(texts.patients.planStatus[status]);
  }
  await expectNoAxeViolations(page);
});

test('the card shows Maria Schneider’s two sessions and compares them, with their images', async ({ page, texts }) => {
  await signedIn(page, `/physician/patient-card?patientId=${MARIA}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maria Schneider', { timeout: 30_000 });
  await expect(page.getByRole('article')).toHaveCount(2);
  const comparison = page.getByRole('region', { name: texts.patientCard.comparison.title });
  const images = comparison.locator('img');
  await expect(images).toHaveCount(2);
  await expect
    .poll(() => images.evaluateAll((all) => all.map((img) => (img as HTMLImageElement).naturalWidth)))
    .toEqual([1600, 1600]);
  await expect(comparison.getByRole('table')).toContainText(texts.patientCard.settings.totalSpots);
  await expectNoAxeViolations(page);
});
