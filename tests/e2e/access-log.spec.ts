// The access log as a clinic IT admin uses it (issue 27): from a patient's row of the patient list to that
// patient's access history — who (name and role), what, when, from where — narrowed by action and user, a
// range that ends before it starts refused, and the history downloaded as CSV in the reader's language.
import { readFile } from 'node:fs/promises';
import deAccessLog from '../../locales/de/accessLog.json' with { type: 'json' };
import enAccessLog from '../../locales/en/accessLog.json' with { type: 'json' };
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, createPatient, uniqueTag } from './patients';
import { signInToHome } from './session';
import { writtenDate } from './texts';

const ACCESS_LOG = { en: enAccessLog, de: deAccessLog };

test('access log: a patient’s history from the patient list, filtered, and as CSV', async ({ page, staff, texts, lang, playwright }) => {
  const l = ACCESS_LOG[lang];
  const tag = uniqueTag();
  const nurse = await staff.create('clinic_nurses');
  const physician = await staff.create('clinic_physicians');
  const nurseApi = await apiAs(playwright, nurse);
  const patient = await createPatient(nurseApi, { name: 'Greta', secondName: `Access ${tag}`, birthday: '1948-02-11', gender: 'female' });
  const physicianApi = await apiAs(playwright, physician);
  for (const path of [`/api/patients/${patient.id}`, `/api/patients/${patient.id}/treatments`]) {
    const response = await physicianApi.get(path);
    expect(response.status(), await response.text()).toBe(200);
  }
  await Promise.all([nurseApi.dispose(), physicianApi.dispose()]);
  const name = `Greta Access ${tag}`;
  const physicianName = `${physician.firstName} ${physician.lastName}`;
  const nurseName = `${nurse.firstName} ${nurse.lastName}`;

  await signInToHome(page, texts, await staff.create('clinic_it_admins'));
  await page.getByRole('link', { name: texts.common.areas.accessLog }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.title);
  await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
  await expectNoAxeViolations(page);

  // What a laser's sync app did is named in the reader's language, with the laser that did it (the demo clinic's
  // laser reported a treatment).
  await page.getByLabel(l.filters.action, { exact: true }).selectOption({ label: l.actions.deviceDeliveryTreated });
  const treated = page.getByRole('table').locator('tbody tr').first();
  await expect(treated).toContainText(l.actions.deviceDeliveryTreated);
  await expect(treated.locator('td').nth(1)).toHaveText(new RegExp(`^${l.device.replace('{{deviceId}}', '[\\w.-]+')}${l.deviceRole}$`));
  await page.getByRole('button', { name: l.filters.reset }).click();

  // A patient's row in the patient list leads to their history.
  await page.getByRole('link', { name: texts.common.areas.adminPatients }).click();
  await page.getByRole('searchbox', { name: texts.adminPatients.search }).fill(tag);
  // The list names patients family name first.
  await page.getByRole('link', { name: texts.adminPatients.accessLogOf.replace('{{name}}', `Access ${tag}, Greta`) }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.patientTitle.replace('{{name}}', name));
  const rows = page.getByRole('table').locator('tbody tr');
  const cardRead = rows.filter({ hasText: l.actions.patientRead });
  await expect(cardRead).toHaveCount(1);
  await expect(cardRead).toContainText(physicianName);
  await expect(cardRead).toContainText(texts.common.roles.clinic_physicians);
  await expect(cardRead.locator('td').last()).toHaveText(/^[0-9a-f.:]+$/);
  await expect(rows.filter({ hasText: l.actions.patientCreated })).toContainText(texts.common.roles.clinic_nurses);
  await expect(rows.filter({ hasText: l.actions.patientTreatmentsList })).toHaveCount(1);
  await expectNoAxeViolations(page);

  // Narrowed to one action, then to one user.
  await page.getByLabel(l.filters.action, { exact: true }).selectOption({ label: l.actions.patientRead });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(physicianName);
  await page.getByLabel(l.filters.action, { exact: true }).selectOption({ label: l.filters.allActions });
  await rows.filter({ hasText: l.actions.patientCreated }).getByRole('link', { name: l.onlyUser.replace('{{name}}', nurseName) }).click();
  await expect(page.getByLabel(l.filters.user, { exact: true })).toHaveValue(/^[0-9a-f-]{36}$/);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(l.actions.patientCreated);
  await page.getByRole('button', { name: l.filters.reset }).click();
  await expect(rows.filter({ hasText: physicianName })).toHaveCount(2);

  // A range that ends before it starts is refused where it is chosen.
  await page.getByLabel(l.filters.from, { exact: true }).fill(writtenDate(lang, '2026-11-20'));
  await page.getByLabel(l.filters.to, { exact: true }).fill(writtenDate(lang, '2026-11-10'));
  await expect(page.getByRole('alert')).toHaveText(l.filters.rangeReversed);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: l.filters.reset }).click();

  // The CSV: the history as the table shows it, headings and actions in the reader's language.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: l.download }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const lines = (await readFile((await file.path())!, 'utf8')).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
  const sep = lang === 'de' ? ';' : ',';
  expect(lines[0]).toBe(Object.values(l.csv).join(sep));
  const row = lines.find((line) => line.includes(l.actions.patientRead));
  expect(row).toContain([physicianName, texts.common.roles.clinic_physicians, l.actions.patientRead, l.outcome.success, name, patient.id, 1, ''].join(sep));
});
