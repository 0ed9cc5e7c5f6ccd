// The clinic's patients as a clinic IT admin manages them (lists per status): a nurse's deletion request under
// /admin/patient-list/deleting with its reason and requester, restored; another erased for good, its exam file
// gone from the data directory; archive and unarchive.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { setCheckbox } from './form-controls';
import { apiAs, createPatient, examFile, uniqueTag, uploadedSession } from './patients';
import { REFERENCE_DATA_DIR } from './reference-server';
import { signInToHome } from './session';
import { fill } from './texts';

/** Whether a file under the reference server's data directory holds exactly `bytes`. */
async function storedCopyExists(bytes: Buffer): Promise<boolean> {
  const walk = async (dir: string): Promise<boolean> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() ? await walk(path) : (await stat(path)).size === bytes.length && (await readFile(path)).equals(bytes)) return true;
    }
    return false;
  };
  return walk(REFERENCE_DATA_DIR);
}

/** A patient made from an uploaded exam, once processing is over. */
async function patientFromExam(api: APIRequestContext, secondName: string) {
  const file = await examFile({ name: 'Ida', secondName });
  const treatment = await uploadedSession(api, file);
  return { patientId: treatment.patientId, file };
}

const rowOf = (page: Page, name: string) => page.getByRole('table').getByRole('row').filter({ hasText: name });

test('deletion requests: restore one, erase another for good; archive and unarchive', async ({ page, staff, texts, playwright }) => {
  const a = texts.adminPatients;
  const tag = uniqueTag();
  const nurse = await staff.create('clinic_nurses');
  const nurseApi = await apiAs(playwright, nurse);
  const kept = await createPatient(nurseApi, { name: 'Greta', secondName: `Kept ${tag}`, birthday: '1948-02-11', gender: 'female' });
  const erased = await patientFromExam(nurseApi, `Erased ${tag}`);
  const archived = await createPatient(nurseApi, { name: 'Karl', secondName: `Archived ${tag}`, birthday: '1951-07-30', gender: 'male' });
  for (const [id, reason] of [
    [kept.id, 'Entered twice by mistake.'],
    [erased.patientId, 'Patient withdrew consent (GDPR Art. 17).'],
  ]) {
    const response = await nurseApi.post(`/api/patients/${id}/deletion-request`, { data: { reason } });
    expect(response.status(), await response.text()).toBe(200);
  }
  expect(await storedCopyExists(erased.file.buffer)).toBe(true);

  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await page.getByRole('link', { name: texts.common.areas.adminPatients }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(a.titles.active);
  await page.getByRole('link', { name: a.tabs.deleting }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(a.titles.deleting);
  await page.getByRole('searchbox', { name: a.search }).fill(tag);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
  const requester = `${nurse.firstName} ${nurse.lastName}`;
  await expect(rowOf(page, `Kept ${tag}`)).toContainText('Entered twice by mistake.');
  await expect(rowOf(page, `Kept ${tag}`)).toContainText(requester);
  await expect(rowOf(page, `Erased ${tag}`)).toContainText('Patient withdrew consent (GDPR Art. 17).');
  await expectNoAxeViolations(page);

  // Restore: the patient is back in the active list.
  await setCheckbox(rowOf(page, `Kept ${tag}`).getByRole('checkbox'), true);
  await page.getByRole('button', { name: a.actions.restore, exact: true }).click();
  await expect(page.getByRole('dialog')).toContainText(`Kept ${tag}, Greta`);
  await page.getByRole('dialog').getByRole('button', { name: fill(a.confirm.restore_one, { count: 1 }) }).click();
  await expect(page.getByText(texts.api['patient.restored'])).toBeVisible();
  await expect(rowOf(page, `Kept ${tag}`)).toHaveCount(0);

  // Erase: the confirmation names the patient and says it is for good; the exam file leaves the disk.
  await setCheckbox(rowOf(page, `Erased ${tag}`).getByRole('checkbox'), true);
  await page.getByRole('button', { name: a.actions.erase, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Erased ${tag}, Ida`);
  await expect(dialog).toContainText(a.erasePermanent);
  // What goes with the patient: the session of the exam file.
  await expect(dialog).toContainText(fill(a.eraseSessions_one, { count: 1 }).trim());
  // The button waits for the patient's name, typed.
  const eraseButton = dialog.getByRole('button', { name: fill(a.confirm.erase_one, { count: 1 }) });
  const typedName = dialog.getByLabel(fill(a.eraseTypeName, { name: `Erased ${tag}, Ida` }));
  await expect(eraseButton).toBeDisabled();
  await typedName.fill(`Erased ${tag}`);
  await expect(eraseButton).toBeDisabled();
  await expectNoAxeViolations(page);
  await typedName.fill(`erased ${tag}, ida`);
  await eraseButton.click();
  await expect(page.getByText(texts.api['patient.erased'])).toBeVisible();
  await expect(page.getByText(a.noMatch)).toBeVisible();
  expect(await storedCopyExists(erased.file.buffer)).toBe(false);
  expect((await nurseApi.get(`/api/patients/${erased.patientId}`)).status()).toBe(404);

  // Archive from the active list, unarchive from the archived one.
  await page.getByRole('link', { name: a.tabs.active }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(a.titles.active);
  await page.getByRole('searchbox', { name: a.search }).fill(tag);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
  await setCheckbox(rowOf(page, `Archived ${tag}`).getByRole('checkbox'), true);
  await page.getByRole('button', { name: a.actions.archive, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: fill(a.confirm.archive_one, { count: 1 }) }).click();
  await expect(page.getByText(texts.api['patient.archived'])).toBeVisible();
  await page.getByRole('link', { name: a.tabs.archived }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(a.titles.archived);
  await page.getByRole('searchbox', { name: a.search }).fill(tag);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
  await setCheckbox(rowOf(page, `Archived ${tag}`).getByRole('checkbox'), true);
  await page.getByRole('button', { name: a.actions.unarchive, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: fill(a.confirm.unarchive_one, { count: 1 }) }).click();
  await expect(page.getByText(texts.api['patient.unarchived'])).toBeVisible();
  expect(archived.id).toBeTruthy();
  await nurseApi.dispose();
});

test("a notification's link shows the one patient it names by id, and every patient on request", async ({ page, staff, texts, playwright }) => {
  const a = texts.adminPatients;
  const tag = uniqueTag();
  const nurseApi = await apiAs(playwright, await staff.create('clinic_nurses'));
  const named = await createPatient(nurseApi, { name: 'Helga', secondName: `Named ${tag}`, birthday: '1950-05-05', gender: 'female' });
  await createPatient(nurseApi, { name: 'Otto', secondName: `Other ${tag}`, birthday: '1952-06-06', gender: 'male' });
  await nurseApi.dispose();

  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await page.goto(`/admin/patient-list/active?patientId=${named.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(a.titles.active);
  await expect(page.getByText(a.onePatient.text)).toBeVisible();
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
  await expect(rowOf(page, `Named ${tag}`)).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: a.onePatient.showAll }).click();
  await expect(page).not.toHaveURL(/patientId=/);
  await expect(page.getByText(a.onePatient.text)).toHaveCount(0);
  await page.getByRole('searchbox', { name: a.search }).fill(tag);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
});
