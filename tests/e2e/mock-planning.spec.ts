// The planning wizard on `npm run dev:mock`: the six steps on the contract's examples. Prism keeps no state, so
// each step is shown on the example that is at it: processing and "Error Detected" (step 0), the planning
// example from its zones (step 1) through the answers of each step's save (steps 2–4, then the sign-off), and
// the signed-off example with its parameter set (step 5). The locked example opens read-only.
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import type { Texts } from './texts';

const PLANNING = '2f8a6c14-9d3b-4e75-a1c6-5b9e0d7f3a28';
const PROCESSING = '3b9d5f17-4c6e-4a8b-9e2f-0a2c4e6a8d4f';
const ERROR_DETECTED = '8e5a1c73-0d6f-4b49-8a32-4f9d6e0b7c5a';
const AVAILABLE = '6c3e9a51-8b4d-4a27-9f10-2e7b4c8d5a39';
const LOCKED = '4b1d7e93-6a2c-4f58-b3e9-8c0a5d2f6e17';

/** Prism takes any bearer token; the examples' profile is the physician's. */
async function openPlanning(page: Page, treatmentId: string, step?: number) {
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto(`/physician/planning?treatmentId=${treatmentId}${step === undefined ? '' : `&step=${step}`}`);
}

const panel = (page: Page, texts: Texts, step: 1 | 2 | 3 | 4) => page.getByRole('region', { name: texts.planning.steps[step] });

test('step 0: processing runs, or failed with the reason', async ({ page, texts }) => {
  await openPlanning(page, PROCESSING);
  await expect(page.getByText(texts.planning.processing.running).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: new RegExp(texts.planning.steps[0]) })).toHaveAttribute('aria-current', 'step');
  await expectNoAxeViolations(page);
  await openPlanning(page, ERROR_DETECTED);
  await expect(page.getByText(texts.planning.processing.error)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('alert')).toContainText('checksum');
});

test('steps 1–4 on the planning example and the answers of its saves', async ({ page, texts }) => {
  const p = texts.planning;
  await openPlanning(page, PLANNING, 1);
  await expect(panel(page, texts, 1)).toBeVisible({ timeout: 30_000 });
  await expect(panel(page, texts, 1).getByLabel(p.zones.radius, { exact: true })).toHaveValue('600');
  await panel(page, texts, 1).getByRole('button', { name: p.zones.confirm }).click();

  // The grid is laid out in the browser from the answer's settings: far more spots than the example lists.
  const grid = panel(page, texts, 2);
  await expect(grid).toBeVisible();
  await expect.poll(async () => Number(((await grid.locator('.mp-spot-count strong').textContent()) ?? '').replace(/\D/g, ''))).toBeGreaterThan(100);
  await grid.getByRole('button', { name: p.grid.confirm }).click();

  const brightness = panel(page, texts, 3);
  await expect(brightness.getByText(p.brightness.legend)).toBeVisible();
  await brightness.getByRole('button', { name: p.brightness.confirm }).click();

  const signOff = panel(page, texts, 4);
  await expect(signOff.getByRole('heading', { name: p.summary.title })).toBeVisible();
  await expectNoAxeViolations(page);
  await signOff.getByText(p.signOff.confirmPlan).click();
  await signOff.getByLabel(p.signOff.password).fill('Demo-Clinic-2026!');
  await signOff.getByRole('button', { name: p.signOff.submit }).click();
  // The sign-off's answer: the plan is being packed.
  await expect(page.getByText(p.parameterSet.packing).first()).toBeVisible();
});

test('step 5: the signed-off example with its parameter set', async ({ page, texts }) => {
  await openPlanning(page, AVAILABLE);
  await expect(page.getByText(texts.planning.parameterSet.ready)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^[0-9a-f]{64}$/)).toBeVisible();
  await expect(page.getByRole('button', { name: texts.planning.parameterSet.download })).toBeEnabled();
  await expectNoAxeViolations(page);
});

test('the locked example opens read-only with the lock message', async ({ page, texts }) => {
  await openPlanning(page, LOCKED);
  await expect(page.getByText(texts.planning.locked)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: texts.planning.brightness.confirm })).toHaveCount(0);
});
