// /physician/patient-card on `npm run dev:mock`: what a frontend developer sees without the server. Each patient
// of the list example has a card (getPatient), sessions (listPatientTreatments) and each session its details
// (getTreatment): one session per state the card must show. Prism answers changes with their examples without
// keeping them, so these journeys check what the card shows and the dialogs it opens, each with axe.
import type { Page } from '@playwright/test';
import { getListPatientsResponseMock } from '../../generated/hooks/patients/patients.msw';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { fill } from './texts';

const EXAMPLES = getListPatientsResponseMock().data;
const byName = (secondName: string) => EXAMPLES.find((patient) => patient.secondName === secondName)!;
const sessions = (page: Page) => page.getByRole('article');

/** Prism takes any bearer token; the examples' profile is the physician's. */
async function openCard(page: Page, secondName: string) {
  const patient = byName(secondName);
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto(`/physician/patient-card?patientId=${patient.id}`);
  // The first visit may wait for Vite to pre-bundle dependencies.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${patient.name} ${patient.secondName}`, { timeout: 30_000 });
  await expect(sessions(page)).toHaveCount(patient.treatmentsCount);
}

test('Maria Schneider: general information, two sessions with their settings, and the comparison zoomed in step by the wheel', async ({ page, texts }) => {
  await openCard(page, 'Schneider');
  const card = texts.patientCard;
  const info = page.getByRole('region', { name: card.general.title });
  await expect(info).toContainText('NPT-0000184');
  await expect(info).toContainText(texts.patients.gender.female);
  const [newest, first] = [sessions(page).nth(0), sessions(page).nth(1)];
  await expect(newest.getByRole('heading')).toHaveText(fill(card.session.title, { number: 2, date: '18/11/2026' }));
  await expect(newest).toContainText('100 µm');
  await expect(newest).toContainText(card.settings.laserModes.micropulse);
  await expect(newest.getByRole('img')).toHaveAttribute('alt', fill(card.session.imageAlt, { number: 2 }));
  await expect(newest.getByRole('button', { name: card.download.label })).toBeEnabled();
  await expect(first).toContainText('Dr. Paul Brandt');

  const comparison = page.getByRole('region', { name: card.comparison.title });
  await expect(comparison.locator('img')).toHaveCount(2);
  await expect(comparison.locator('svg ellipse')).toHaveCount(4);
  await expect(comparison.getByRole('table')).toContainText('+14');
  await expectNoAxeViolations(page);

  const layers = comparison.getByTestId('comparison-layer');
  const transforms = () => layers.evaluateAll((all) => all.map((layer) => getComputedStyle(layer).transform));
  const [before] = await transforms();
  const viewport = comparison.getByRole('group').nth(1);
  await viewport.hover();
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, -300);
  await expect.poll(async () => (await transforms())[0]).not.toBe(before);
  const [zoomedFirst, zoomedSecond] = await transforms();
  expect(zoomedSecond).toBe(zoomedFirst);
  // The wheel zoomed the images, not the page.
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
});

test('a failed session says "Error Detected" and why; no parameter set, and the reason for it', async ({ page, texts }) => {
  await openCard(page, 'Hoffmann');
  const session = sessions(page).first();
  await expect(session).toContainText(texts.patients.planStatus.error);
  await expect(session.getByRole('button', { name: texts.patientCard.download.label })).toBeDisabled();
  await expect(session).toContainText(texts.patientCard.download.unavailableError);
  await expectNoAxeViolations(page);
});

test('a locked session shows the lock message and who reported what; it offers no report, change or deletion, but the withdrawal of the report', async ({ page, texts }) => {
  await openCard(page, 'Wagner');
  const session = sessions(page).first();
  await expect(session.getByText(texts.patientCard.session.locked)).toBeVisible();
  await expect(session).toContainText(texts.patients.planStatus.issue_reported);
  await expect(session.getByRole('button', { name: texts.patientCard.report.label })).toHaveCount(0);
  await expect(session.getByRole('button', { name: texts.patientCard.session.adjustDescription })).toHaveCount(0);
  await expect(session).toContainText(texts.patientCard.session.lockedActions);
  const remove = session.getByRole('button', { name: texts.patientCard.delete.label });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAccessibleDescription(texts.patientCard.session.lockedActions);
  await expectNoAxeViolations(page);
  // The physician may withdraw the report: asked first, in a dialog named by its question.
  await session.getByRole('button', { name: texts.patientCard.session.withdraw }).click();
  const asked = page.getByRole('alertdialog', { name: fill(texts.patientCard.withdraw.title, { number: 1 }) });
  await expect(asked).toContainText(texts.patientCard.withdraw.text);
  await expectNoAxeViolations(page);
  await asked.getByRole('button', { name: texts.patientCard.withdraw.keep }).click();
  await expect(asked).toHaveCount(0);
});

test('a session being processed says so, and its parameter set waits', async ({ page, texts }) => {
  await openCard(page, 'Fischer');
  const session = sessions(page).first();
  await expect(session).toContainText(texts.patients.planStatus.processing);
  await expect(session).toContainText(texts.patientCard.session.processing);
  await expect(session).toContainText(texts.patientCard.download.unavailableProcessing);
});

test('the card’s dialogs on the mock: edit, report issue, delete, request deletion and upload, each with axe', async ({ page, texts }) => {
  await openCard(page, 'Becker');
  const card = texts.patientCard;
  await page.getByRole('button', { name: card.general.edit }).click();
  const edit = page.getByRole('dialog', { name: card.edit.title });
  await expect(edit.getByLabel(texts.patients.field.secondName)).toHaveValue('Becker');
  await expectNoAxeViolations(page);
  await edit.getByRole('button', { name: card.cancel }).click();
  await expect(edit).toBeHidden();

  const session = sessions(page).first();
  await session.getByRole('button', { name: card.report.label }).click();
  const report = page.getByRole('dialog', { name: fill(card.report.title, { number: 1 }) });
  await expect(report).toContainText(card.report.warning);
  await expectNoAxeViolations(page);
  await report.getByRole('button', { name: card.cancel }).click();

  await session.getByRole('button', { name: card.delete.label }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(fill(card.delete.question, { number: 1 }));
  await expectNoAxeViolations(page);
  await confirm.getByRole('button', { name: card.cancel }).click();

  await page.getByRole('button', { name: card.actions.requestDeletion }).click();
  const deletion = page.getByRole('dialog', { name: card.deletion.title });
  await expect(deletion).toContainText('Thomas Becker');
  await expectNoAxeViolations(page);
  await deletion.getByRole('button', { name: card.cancel }).click();

  await page.getByRole('button', { name: card.actions.uploadNpt }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoAxeViolations(page);
});
