// /physician/patient-card as a physician or nurse uses it: general information and its edits, a session's
// issue report and the lock that follows, another patient's exam, the deletion request, and the comparison
// of two sessions with zoom and pan kept in step, a session's buttons kept in place while its picture loads, and
// the treatment report from the card with its times in the user's time zone.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Treatment } from '../../generated/model/treatment';
import { pdfText } from '../server/pdf-text';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, createPatient, examFile, uniqueTag, uploadInDialog } from './patients';
import { signInToHome } from './session';
import { fill, type Texts } from './texts';

const cardOf = (id: string) => `/physician/patient-card?patientId=${id}`;
const sessions = (page: Page) => page.getByRole('article');

test('general information, adjust description and edit the patient', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const patient = await createPatient(api, { name: 'Lena', secondName: tag, birthday: '1950-06-15', gender: 'female' });
  await signInToHome(page, texts, physician);
  await page.goto(cardOf(patient.id));
  const card = texts.patientCard;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Lena ${tag}`);
  const info = page.getByRole('region', { name: card.general.title });
  await expect(info).toContainText(texts.patients.gender.female);
  await expect(info).toContainText(/\(\d+ /);
  await expect(page.getByText(card.sessions.empty)).toBeVisible();
  await expectNoAxeViolations(page);

  await info.getByRole('button', { name: card.description.adjust }).click();
  await info.getByLabel(card.description.label).fill('Diabetic macular oedema, left eye.');
  await expect(info.getByText(fill(card.description.characters, { count: 34, max: 2000 }))).toBeVisible();
  await info.getByRole('button', { name: card.description.save }).click();
  await expect(page.getByText(card.description.saved).first()).toBeVisible();
  await expect(info).toContainText('Diabetic macular oedema, left eye.');

  await info.getByRole('button', { name: card.general.edit }).click();
  const dialog = page.getByRole('dialog', { name: card.edit.title });
  await expect(dialog.getByLabel(texts.patients.field.secondName)).toHaveValue(tag);
  // The title bar's × is named in the user's language (Blueprint's own says "Close" in any).
  await expect(dialog.getByRole('button', { name: texts.common.dialog.close, exact: true })).toBeVisible();
  await dialog.getByLabel(texts.patients.field.name, { exact: true }).fill('Helena');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: card.edit.save }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Helena ${tag}`);
});

test('report an issue: the session locks, says why, and offers no deletion, saying why', async ({ page, staff, texts }) => {
  await signInToHome(page, texts, await staff.create('clinic_nurses'));
  const tag = uniqueTag();
  const card = texts.patientCard;
  // A new patient from an exam, then their card.
  await page.getByRole('button', { name: texts.patientList.actions.uploadNpt }).first().click();
  await uploadInDialog(page, await examFile({ name: 'Otto', secondName: tag }), texts.examUpload.upload);
  await page.getByRole('button', { name: texts.examUpload.done.openCard }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Otto ${tag}`);
  const session = sessions(page).first();
  await expect(session).toContainText(texts.patients.planStatus.planning, { timeout: 30_000 });
  // The session's details (thumbnail, laser settings) arrive a poll later and push its buttons down: a click
  // while they move can press one button and release beside it.
  await expect(session.getByRole('img', { name: fill(card.session.imageAlt, { number: 1 }) })).toBeVisible({ timeout: 10_000 });
  // No parameter set while the session is planned, and the card says why.
  const download = session.getByRole('button', { name: card.download.label });
  await expect(download).toBeDisabled();
  await expect(download).toHaveAccessibleDescription(card.download.unavailable);

  await session.getByRole('button', { name: card.report.label }).click();
  const dialog = page.getByRole('dialog', { name: fill(card.report.title, { number: 1 }) });
  await dialog.getByRole('button', { name: card.report.submit }).click();
  await expect(dialog.getByText(card.report.reasonRequired)).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel(card.report.reason).fill('The optic disc was detected on a vessel crossing.');
  await dialog.getByRole('button', { name: card.report.submit }).click();

  await expect(session.getByText(card.session.locked)).toBeVisible();
  await expect(session).toContainText('The optic disc was detected on a vessel crossing.');
  await expect(session).toContainText(texts.patients.planStatus.issue_reported);
  await expect(session.getByRole('button', { name: card.report.label })).toHaveCount(0);
  // Nurses report; withdrawing a report is for physicians (and IT admins).
  await expect(session.getByRole('button', { name: card.session.withdraw })).toHaveCount(0);

  await expect(download).toHaveAccessibleDescription(card.session.lockedActions);

  // The server keeps a locked session (423): the card offers no deletion, and says why beside the button.
  const remove = session.getByRole('button', { name: card.delete.label });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAccessibleDescription(card.session.lockedActions);
  await expect(session.getByText(card.session.lockedActions)).toBeVisible();
  await expectNoAxeViolations(page);
  await expect(sessions(page)).toHaveCount(1);
});

test('withdraw a report made by mistake: asked in a named dialog, the session is unlocked and can be deleted again, asked in a named dialog too', async ({ page, staff, texts }) => {
  await signInToHome(page, texts, await staff.create('clinic_physicians'));
  const tag = uniqueTag();
  const card = texts.patientCard;
  await page.getByRole('button', { name: texts.patientList.actions.uploadNpt }).first().click();
  await uploadInDialog(page, await examFile({ name: 'Ida', secondName: tag }), texts.examUpload.upload);
  await page.getByRole('button', { name: texts.examUpload.done.openCard }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Ida ${tag}`);
  const session = sessions(page).first();
  await expect(session).toContainText(texts.patients.planStatus.planning, { timeout: 30_000 });
  await expect(session.getByRole('img', { name: fill(card.session.imageAlt, { number: 1 }) })).toBeVisible({ timeout: 10_000 });

  await session.getByRole('button', { name: card.report.label }).click();
  const report = page.getByRole('dialog', { name: fill(card.report.title, { number: 1 }) });
  await expect(report).toContainText(card.report.warning);
  await report.getByLabel(card.report.reason).fill('Reported on the wrong session.');
  await report.getByRole('button', { name: card.report.submit }).click();
  await expect(session.getByText(card.session.locked)).toBeVisible();
  await expect(session).toContainText('Reported on the wrong session.');

  // The report says who and why, and the physician may withdraw it; keeping it changes nothing.
  const withdraw = session.getByRole('button', { name: card.session.withdraw });
  await withdraw.click();
  // Blueprint's Alert is an alertdialog; its name is its question.
  const asked = page.getByRole('alertdialog', { name: fill(card.withdraw.title, { number: 1 }) });
  await expect(asked).toBeVisible();
  await expect(asked).toContainText(card.withdraw.text);
  await expectNoAxeViolations(page);
  await asked.getByRole('button', { name: card.withdraw.keep }).click();
  await expect(asked).toHaveCount(0);
  await expect(session.getByText(card.session.locked)).toBeVisible();

  await withdraw.click();
  await asked.getByRole('button', { name: card.withdraw.confirm }).click();
  await expect(page.getByText(texts.api['treatment.issue_report_withdrawn']).first()).toBeVisible();
  await expect(session.getByText(card.session.locked)).toHaveCount(0);
  await expect(session).toContainText(texts.patients.planStatus.planning);
  await expect(session.getByRole('button', { name: card.report.label })).toBeVisible();
  await expect(session.getByRole('link', { name: card.session.openPlanning })).toBeVisible();

  // The session may be deleted again; the question is a dialog named by its title.
  const remove = session.getByRole('button', { name: card.delete.label });
  await expect(remove).toBeEnabled();
  await remove.click();
  const deletion = page.getByRole('alertdialog', { name: fill(card.delete.title, { number: 1 }) });
  await expect(deletion).toContainText(fill(card.delete.question, { number: 1 }));
  await expectNoAxeViolations(page);
  await deletion.getByRole('button', { name: card.delete.confirm }).click();
  await expect(sessions(page)).toHaveCount(0);
});

test('another patient’s exam on a card: the warning names them, and “Go to the patient” opens their card with the file chosen', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const first = await createPatient(api, { name: 'Paula', secondName: tag, birthday: '1960-01-01', gender: 'female' });
  const other = await createPatient(api, { name: 'Rudi', secondName: tag, birthday: '1945-03-03', gender: 'male' });
  await signInToHome(page, texts, physician);
  await page.goto(cardOf(first.id));
  const upload = texts.examUpload;
  await page.getByRole('button', { name: texts.patientCard.actions.uploadNpt }).first().click();
  await uploadInDialog(page, await examFile({ name: 'Rudi', secondName: tag, birthday: '1945-03-03', gender: 'male' }), upload.upload);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(upload.mismatch.title)).toBeVisible();
  await expect(dialog).toContainText(`Rudi ${tag}`);
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: upload.mismatch.goToPatient }).click();
  await expect(page).toHaveURL(cardOf(other.id));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rudi ${tag}`);
  // The chosen file came along: Rudi's upload dialog opens with it, and one click adds the session to his card.
  const rudis = page.getByRole('dialog', { name: fill(upload.titleForPatient, { patient: `Rudi ${tag}` }) });
  await expect(rudis.getByText(`${tag}.npt`)).toBeVisible();
  await rudis.getByRole('button', { name: upload.upload, exact: true }).click();
  await expect(rudis.getByText(upload.done.title)).toBeVisible();
  await rudis.locator('.bp6-dialog-footer').getByRole('button', { name: upload.close }).click();
  await expect(sessions(page)).toHaveCount(1);
  // A reload does not bring the file back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rudi ${tag}`);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the sessions header offers “Add new session from an NPT file”: the card’s upload, the session on this card', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const patient = await createPatient(api, { name: 'Olga', secondName: tag, birthday: '1949-09-09', gender: 'female' });
  await signInToHome(page, texts, physician);
  await page.goto(cardOf(patient.id));
  const upload = texts.examUpload;
  const header = page.getByRole('region', { name: fill(texts.patientCard.sessions.title_other, { count: 0 }) });
  await header.getByRole('button', { name: texts.patientCard.actions.newSessionFromNpt }).click();
  const dialog = page.getByRole('dialog', { name: fill(upload.titleForPatient, { patient: `Olga ${tag}` }) });
  await uploadInDialog(page, await examFile({ name: 'Olga', secondName: tag, birthday: '1949-09-09', gender: 'female' }), upload.upload);
  await expect(dialog.getByText(fill(upload.done.sessionAdded, { number: 1, patient: `Olga ${tag}` }))).toBeVisible();
  await expectNoAxeViolations(page);
});

test('request deletion: a reason is needed, then the patient is gone from the list', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const patient = await createPatient(api, { name: 'Sven', secondName: tag, birthday: '1970-07-07', gender: 'male' });
  await signInToHome(page, texts, physician);
  await page.goto(cardOf(patient.id));
  const card = texts.patientCard;
  await page.getByRole('button', { name: card.actions.requestDeletion }).click();
  const dialog = page.getByRole('dialog', { name: card.deletion.title });
  await dialog.getByRole('button', { name: card.deletion.submit }).click();
  await expect(dialog.getByText(card.deletion.reasonRequired)).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel(card.deletion.reason).fill('Duplicate record of the same person.');
  await dialog.getByRole('button', { name: card.deletion.submit }).click();

  await expect(page).toHaveURL('/physician/list');
  await expect(page.getByText(texts.api['patient.deletion_requested'])).toBeVisible();
  await page.getByLabel(texts.patientList.filters.search).fill(tag);
  await expect(page.getByText(texts.patientList.states.noMatchTitle)).toBeVisible();
  await page.goto(cardOf(patient.id));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(card.notFound.title);
});

/**
 * The demo patient's card from the list, searched for: the click waits until the list shows only the search's
 * rows. A click while the rows still reorder under the pointer can land beside the link and leave the user on
 * the list (stop 36's CI: the card's heading stayed "Patients").
 */
async function openMariaSchneider(page: Page, texts: Texts) {
  await page.getByLabel(texts.patientList.filters.search).fill('Maria Schneider');
  await expect(page).toHaveURL(/search=Maria/);
  await expect(page.locator('table.mp-patient-table tbody tr').filter({ hasNotText: 'Schneider' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Schneider, Maria' }).click();
}

test('comparison of the two demo sessions of Maria Schneider: zoom and pan stay in step', async ({ page, staff, texts }) => {
  await signInToHome(page, texts, await staff.create('clinic_physicians'));
  await openMariaSchneider(page, texts);
  const card = texts.patientCard;
  const comparison = page.getByRole('region', { name: card.comparison.title });
  const layers = comparison.getByTestId('comparison-layer');
  await expect(layers).toHaveCount(2, { timeout: 20_000 });
  await expect(comparison.locator('img')).toHaveCount(2, { timeout: 20_000 });
  await expect(comparison.getByRole('table')).toContainText(card.comparison.difference);
  await expectNoAxeViolations(page);

  const transforms = async () => Promise.all([0, 1].map((n) => layers.nth(n).evaluate((el) => getComputedStyle(el).transform)));
  const [before] = await transforms();
  await comparison.getByRole('button', { name: card.comparison.zoomIn }).click();
  await comparison.getByRole('button', { name: card.comparison.zoomIn }).click();
  const [first, second] = await transforms();
  expect(first).not.toBe(before);
  expect(second).toBe(first);

  // The keyboard moves both as well.
  const pane = comparison.getByRole('group').first();
  await pane.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('+');
  const [movedFirst, movedSecond] = await transforms();
  expect(movedFirst).not.toBe(first);
  expect(movedSecond).toBe(movedFirst);
  await page.keyboard.press('0');
  expect((await transforms())[1]).toBe(before);
});

test('a session’s buttons stay where they are while its picture loads', async ({ page, staff, texts }) => {
  // The thumbnails are held back until the buttons can be pressed: a picture arriving later must not push them
  // down (a click aimed a moment before would land beside the button).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/treatments\/[^/]+\/images\/[^/]+\/thumbnail/, async (route) => {
    await held;
    await route.continue();
  });
  await signInToHome(page, texts, await staff.create('clinic_physicians'));
  await openMariaSchneider(page, texts);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maria Schneider');
  await expect(sessions(page)).toHaveCount(2);
  const card = texts.patientCard;
  const first = sessions(page).first();
  const button = first.getByRole('button', { name: card.session.imageAndMarks });
  await expect(button).toBeEnabled();
  const before = await button.boundingBox();
  release();
  await expect(first.getByRole('img', { name: fill(card.session.imageAlt, { number: 2 }) })).toBeVisible();
  expect(await button.boundingBox()).toEqual(before);
});

test('the parameter set from the card is named as in the wizard: the server’s name for it', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const patients = (await (await api.get('/api/patients?search=Maria%20Schneider')).json()) as { data: { id: string }[] };
  const sessionsOf = (await (await api.get(`/api/patients/${patients.data[0].id}/treatments`)).json()) as { data: Treatment[] };
  const first = sessionsOf.data.find((session) => session.number === 1)!;
  const { fileName } = ((await (await api.get(`/api/treatments/${first.id}`)).json()) as { data: Treatment }).data.plan.parameterSet!;
  await signInToHome(page, texts, physician);
  await page.goto(cardOf(patients.data[0].id));
  const card = texts.patientCard;
  const article = sessions(page).filter({ has: page.getByRole('heading', { name: new RegExp(`^${fill(card.session.title, { number: 1, date: '' })}`) }) });
  const downloading = page.waitForEvent('download');
  await article.getByRole('button', { name: card.download.label }).click();
  expect((await downloading).suggestedFilename()).toBe(fileName);
});

test.describe('in a clinic in Berlin', () => {
  test.use({ timezoneId: 'Europe/Berlin' });

  test('the treatment report from the card: named as in the wizard, its times in the user’s time zone', async ({ page, staff, texts, lang, playwright }) => {
    const physician = await staff.create('clinic_physicians');
    const api = await apiAs(playwright, physician);
    const patients = (await (await api.get('/api/patients?search=Maria%20Schneider')).json()) as { data: { id: string }[] };
    const sessionsOf = (await (await api.get(`/api/patients/${patients.data[0].id}/treatments`)).json()) as { data: Treatment[] };
    const first = sessionsOf.data.find((session) => session.number === 1)!;
    const signedOff = ((await (await api.get(`/api/treatments/${first.id}`)).json()) as { data: Treatment }).data.plan.signOff!;
    await signInToHome(page, texts, physician);
    await page.goto(cardOf(patients.data[0].id));

    const card = texts.patientCard;
    const article = sessions(page).filter({ has: page.getByRole('heading', { name: new RegExp(`^${fill(card.session.title, { number: 1, date: '' })}`) }) });
    const asked = page.waitForRequest(/\/treatment-report\?/);
    const downloading = page.waitForEvent('download');
    await article.getByRole('button', { name: card.treatmentReport.label }).click();
    expect(new URL((await asked).url()).searchParams.get('timeZone')).toBe('Europe/Berlin');
    const report = await downloading;
    expect(report.suggestedFilename()).toBe(fill(texts.patients.treatmentReportFileName, { number: 1, eye: first.eye, date: first.date.slice(0, 10) }));
    const text = (await pdfText(new Uint8Array(await readFile((await report.path())!)))).join(' ');
    // The sign-off as the user's clock read it, with the zone's abbreviation (MEZ/CET in winter, MESZ/CEST in summer).
    const inBerlin = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { ...options, timeZone: 'Europe/Berlin' }).format(new Date(signedOff.at));
    const zone = inBerlin({ timeZoneName: 'short' }).split(' ').at(-1)!;
    expect(text).toContain(`${inBerlin({ day: '2-digit', month: '2-digit', year: 'numeric' })}, ${inBerlin({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })} ${zone}`);
    expect(zone).toMatch(/^(MEZ|MESZ|CET|CEST)$/);
  });
});
