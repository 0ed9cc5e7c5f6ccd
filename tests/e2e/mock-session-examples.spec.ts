// The patient cards of the list example on `npm run dev:mock`: each shows its own sessions, and each session
// its own details (mocks/mock-examples.ts picks the contract's example that belongs to the id asked for):
// Maria Schneider's two sessions with their different laser power, Klaus Wagner's session locked by an issue
// report, Sabine Hoffmann's with "Error Detected".
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';

const MARIA = 'a1c3e5f7-0b2d-4e6f-8a9b-1c2d3e4f5a61';
const KLAUS = 'd4f6b8c0-3e5a-4b7c-9d2e-4f5a6b7c8d94';
const SABINE = 'e5a7c9d1-4f6b-4c8d-8e3f-5a6b7c8d9ea5';

/** Prism takes any bearer token; the examples' profile is the physician's. */
async function openCard(page: Page, patientId: string) {
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto(`/physician/patient-card?patientId=${patientId}`);
}

/** The value shown for a laser setting in a session's card. */
const setting = (session: ReturnType<Page['getByRole']>, term: string) =>
  session.locator('.mp-setting').filter({ has: session.page().getByText(term, { exact: true }) }).locator('dd');

test('Maria Schneider’s sessions each show their own laser settings', async ({ page, texts }) => {
  await openCard(page, MARIA);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maria Schneider', { timeout: 30_000 });
  const sessions = page.getByRole('article');
  await expect(sessions).toHaveCount(2);
  // Newest first: session 2 at 90 mW, session 1 (Modified by Dr. Paul Brandt) at 85 mW.
  await expect(setting(sessions.nth(0), texts.patientCard.settings.laserPower)).toHaveText('90 mW');
  await expect(setting(sessions.nth(1), texts.patientCard.settings.laserPower)).toHaveText('85 mW');
  await expect(sessions.nth(1)).toContainText('Dr. Paul Brandt');
});

test('Klaus Wagner’s session is locked by an issue report, with who and why', async ({ page, texts }) => {
  await openCard(page, KLAUS);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Klaus Wagner', { timeout: 30_000 });
  const session = page.getByRole('article');
  await expect(session).toHaveCount(1);
  await expect(session).toContainText(texts.patientCard.session.locked);
  await expect(session).toContainText(texts.patients.planStatus.issue_reported);
  await expect(session).toContainText('Dr. Anna Keller');
  await expect(setting(session, texts.patientCard.settings.iolStatus)).toHaveText(texts.patientCard.settings.iolStatuses.pseudophakic);
  await expectNoAxeViolations(page);
});

test('Sabine Hoffmann’s session shows Error Detected with the reason', async ({ page, texts }) => {
  await openCard(page, SABINE);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sabine Hoffmann', { timeout: 30_000 });
  const session = page.getByRole('article');
  await expect(session).toHaveCount(1);
  await expect(session).toContainText(texts.patients.planStatus.error);
  await expect(session).toContainText('does not match its checksum');
  await expect(setting(session, texts.patientCard.settings.laserPower)).toHaveText('80 mW');
  await expectNoAxeViolations(page);
});
