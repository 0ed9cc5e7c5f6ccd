// Screens that update themselves (realtime, Pusher protocol) and the notification centre, in two browsers:
// what one user does shows on the other's screen without a reload.
import type { APIRequestContext, Page } from '@playwright/test';
import type { Treatment } from '../../generated/model/treatment';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { setCheckbox } from './form-controls';
import { mailedText } from './outbox';
import { apiAs, examFile, uniqueTag } from './patients';
import { signInToHome } from './session';
import { fill } from './texts';

/** The navbar's dot says the realtime connection is up. */
const live = (page: Page) => expect(page.locator('.mp-realtime[data-state="connected"]')).toBeVisible({ timeout: 10_000 });

/** Marks the page's document: still marked later means it was not reloaded. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { journeyMark: number }).journeyMark = 1));
const stillMarked = (page: Page) => page.evaluate(() => (window as unknown as { journeyMark?: number }).journeyMark === 1);

async function upload(api: APIRequestContext, name: string, tag: string): Promise<string> {
  const response = await api.post('/api/treatments', { multipart: { file: await examFile({ name, secondName: tag }) } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { treatment: { id: string } } }).data.treatment.id;
}

/** Polls the API until processing has ended; resolves with the moment it first saw the end. */
async function processedAt(api: APIRequestContext, id: string): Promise<number> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const { planStatus } = ((await (await api.get(`/api/treatments/${id}`)).json()) as { data: Treatment }).data;
    if (planStatus === 'planning') return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('processing did not end within 60 s');
}

test('a physician uploads an exam: the nurse\'s list shows the new patient and "In planning" without a reload', async ({ page, browser, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const nurse = await staff.create('clinic_nurses');
  const tag = uniqueTag();
  const nurseContext = await browser.newContext();
  const nursePage = await nurseContext.newPage();
  await signInToHome(nursePage, texts, nurse);
  await nursePage.goto(`/physician/list?search=${tag}`);
  await expect(nursePage.getByRole('heading', { level: 1 })).toHaveText(texts.common.areas.physician);
  await live(nursePage);
  await mark(nursePage);

  // The physician uploads in the other browser.
  await signInToHome(page, texts, physician);
  await page.getByRole('button', { name: texts.patientList.actions.uploadNpt }).first().click();
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(await examFile({ name: 'Vera', secondName: tag }));
  const uploaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/treatments' && response.request().method() === 'POST');
  await page.getByRole('dialog').getByRole('button', { name: texts.examUpload.upload, exact: true }).click();
  const answer = await uploaded;
  expect(answer.status()).toBe(201);
  const id = ((await answer.json()) as { data: { treatment: { id: string } } }).data.treatment.id;

  const row = nursePage.getByRole('row').filter({ hasText: tag });
  await expect(row).toBeVisible({ timeout: 5_000 });
  const ended = await processedAt(await apiAs(playwright, physician), id);
  await expect(row).toContainText(texts.patients.planStatus.planning, { timeout: 2_000 });
  const shownAfter = Date.now() - ended;
  expect(shownAfter).toBeLessThan(2_000);
  expect(await stillMarked(nursePage)).toBe(true);
  await nurseContext.close();
});

test('an issue reported in one browser turns the other\'s open session read-only with the lock message, and its withdrawal makes it plannable again', async ({ page, browser, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const nurse = await staff.create('clinic_nurses');
  const api = await apiAs(playwright, physician);
  const id = await upload(api, 'Ida', uniqueTag());
  await processedAt(api, id);

  await signInToHome(page, texts, physician);
  await page.goto(`/physician/planning?treatmentId=${id}`);
  await expect(page.getByRole('button', { name: texts.planning.zones.confirm })).toBeVisible();
  await live(page);
  await mark(page);

  const nurseContext = await browser.newContext();
  const nursePage = await nurseContext.newPage();
  await signInToHome(nursePage, texts, nurse);
  const { patientId } = ((await (await api.get(`/api/treatments/${id}`)).json()) as { data: Treatment }).data;
  await nursePage.goto(`/physician/patient-card?patientId=${patientId}`);
  const session = nursePage.getByRole('article').first();
  await session.getByRole('button', { name: texts.patientCard.report.label }).click();
  const dialog = nursePage.getByRole('dialog', { name: fill(texts.patientCard.report.title, { number: 1 }) });
  await dialog.getByLabel(texts.patientCard.report.reason).fill('The fovea was detected on a haemorrhage.');
  await dialog.getByRole('button', { name: texts.patientCard.report.submit }).click();
  await expect(session.getByText(texts.patientCard.session.locked)).toBeVisible();

  // The physician's wizard, untouched: locked, with who reported what.
  await expect(page.getByText(texts.planning.locked)).toBeVisible({ timeout: 5_000 });
  await expect(page.getByText('The fovea was detected on a haemorrhage.')).toBeVisible();
  await expect(page.getByRole('button', { name: texts.planning.zones.confirm })).toHaveCount(0);
  expect(await stillMarked(page)).toBe(true);

  // The report withdrawn (by the physician, elsewhere): the open wizard is plannable again, without a reload,
  // and so is the nurse's card.
  const withdrawn = await api.delete(`/api/treatments/${id}/reports`);
  expect(withdrawn.status(), await withdrawn.text()).toBe(200);
  await expect(page.getByText(texts.planning.locked)).toHaveCount(0, { timeout: 5_000 });
  await expect(page.getByRole('button', { name: texts.planning.zones.confirm })).toBeVisible();
  await expect(session.getByText(texts.patientCard.session.locked)).toHaveCount(0, { timeout: 5_000 });
  await expect(session.getByRole('button', { name: texts.patientCard.report.label })).toBeVisible();
  expect(await stillMarked(page)).toBe(true);
  await nurseContext.close();
});

test('notifications: one arrives live with the unread count, mark all as read, by e-mail when asked for', async ({ page, staff, texts, playwright }) => {
  const n = texts.notifications;
  const physician = await staff.create('clinic_physicians');
  await signInToHome(page, texts, physician);
  await page.getByRole('link', { name: n.bell, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(n.title);
  await expect(page.getByText(n.empty)).toBeVisible();
  await expect(page.getByRole('button', { name: n.markAllRead })).toBeDisabled();

  // Notify via e-mail, saved through the contract.
  const settings = page.getByRole('form', { name: n.settings.title });
  await setCheckbox(settings.getByRole('checkbox', { name: new RegExp(n.settings.notifyViaEmail) }), true);
  await settings.getByRole('button', { name: n.settings.save }).click();
  await expect(page.getByText(texts.api['notifications.settings_saved'])).toBeVisible();
  await expectNoAxeViolations(page);
  await live(page);
  await mark(page);

  // An exam the physician uploaded (through the API, as another tab would) is processed: the notification
  // comes to this page by itself, with the bell's count.
  const tag = uniqueTag();
  await upload(await apiAs(playwright, physician), 'Jonas', tag);
  const title = texts.api['notification.treatment_processed.title'];
  const item = page.getByRole('listitem').filter({ hasText: tag });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item).toContainText(title);
  await expect(page.getByRole('link', { name: fill(n.bellUnread_one, { count: 1 }) })).toBeVisible();
  expect(await stillMarked(page)).toBe(true);
  await expectNoAxeViolations(page);

  // The e-mail, in the physician's language.
  const mail = await mailedText(physician.email, title);
  expect(mail).toContain(tag);
  expect(mail).toContain('/physician/patient-card?patientId=');

  await page.getByRole('button', { name: n.markAllRead }).click();
  await expect(page.getByRole('link', { name: n.bell, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: n.markAllRead })).toBeDisabled();
  await expect(item.getByRole('button', { name: n.markRead })).toHaveCount(0);

  // Opening it leads to the patient.
  await item.getByRole('link', { name: n.open }).click();
  await expect(page).toHaveURL(/\/physician\/patient-card\?patientId=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Jonas ${tag}`);
});
