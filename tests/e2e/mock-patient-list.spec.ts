// /physician/list on `npm run dev:mock`: what a frontend developer sees without the server. Prism answers
// every list call with the contract's example page (five patients, one of each status), whatever the
// filters, so these journeys check the screen's own behaviour: columns, sorting and filters in the URL, the
// dialogs and the keyboard, each with axe.
import type { Page } from '@playwright/test';
import { getCreatePatientResponseMock, getListPatientsResponseMock } from '../../generated/hooks/patients/patients.msw';
import { expectNoAxeViolations } from './axe';
import { chooseRadio } from './form-controls';
import { expect, test } from './fixtures';

const EXAMPLES = getListPatientsResponseMock().data;
const rows = (page: Page) => page.locator('table.mp-patient-table tbody tr');
const nameLinks = (page: Page) => page.locator('table.mp-patient-table tbody a');

/** Prism takes any bearer token; the examples' profile is the physician's. */
async function openList(page: Page, query = '') {
  await page.goto('/sign-in');
  await page.evaluate(() => localStorage.setItem('token', 'demo'));
  await page.goto(`/physician/list${query}`);
  // The first visit may wait for Vite to pre-bundle dependencies.
  await expect(rows(page)).toHaveCount(EXAMPLES.length, { timeout: 30_000 });
}

test('the examples in the patient columns, sorted by a column header, the view in the URL', async ({ page, texts }) => {
  await openList(page);
  const list = texts.patientList;
  await expect(page.locator('table.mp-patient-table thead th')).toHaveText([
    list.columns.patient,
    texts.patients.field.birthday,
    texts.patients.field.gender,
    texts.patients.field.latestSession,
    texts.patients.field.planStatus,
    list.columns.sessions,
  ]);
  await expect(nameLinks(page)).toHaveText(EXAMPLES.map((patient) => `${patient.secondName}, ${patient.name}`));
  // Sabine Hoffmann's latest session failed.
  await expect(rows(page).nth(2)).toContainText(texts.patients.planStatus.error);

  const sessions = page.getByRole('columnheader', { name: list.columns.sessions });
  const request = page.waitForRequest((sent) => new URL(sent.url()).searchParams.get('sort') === '-treatmentsCount');
  await sessions.getByRole('button').click();
  await request;
  await expect(sessions).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/sort=-treatmentsCount/);
  await page.reload();
  await expect(page.getByRole('columnheader', { name: list.columns.sessions })).toHaveAttribute('aria-sort', 'descending');
  await expectNoAxeViolations(page);
});

test('a reversed birthday range is refused on the page; a link with values it cannot mean shows the default view', async ({
  page,
  texts,
}) => {
  await openList(page, '?sort=age&page=-3&planStatus=lost');
  await expect(page.getByRole('columnheader', { name: texts.patients.field.latestSession })).toHaveAttribute('aria-sort', 'descending');
  const list = texts.patientList;
  // The mock journeys run in English: dates typed day first.
  await page.getByLabel(list.filters.birthdayFrom).fill('01/01/1960');
  await page.getByLabel(list.filters.birthdayTo).fill('01/01/1950');
  await expect(page.getByRole('alert')).toHaveText(list.filters.rangeReversed);
  await expect(rows(page)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('add new patient: the form refuses what is missing, Prism confirms, the new patient’s card opens', async ({ page, texts }) => {
  await openList(page);
  const list = texts.patientList;
  await page.getByRole('button', { name: list.actions.addPatient }).click();
  const dialog = page.getByRole('dialog', { name: list.add.title });
  await dialog.getByRole('button', { name: list.add.submit }).click();
  await expect(dialog.getByText(texts.patients.form.errors.required)).toHaveCount(4);
  await expectNoAxeViolations(page);

  // The contract's example request (Prism checks the body against the contract).
  await dialog.getByLabel(texts.patients.field.name, { exact: true }).fill('Peter');
  await dialog.getByLabel(texts.patients.field.secondName).fill('Neumann');
  await dialog.getByLabel(texts.patients.field.birthday).fill('08/07/1961');
  await chooseRadio(dialog.getByRole('radio', { name: texts.patients.gender.male, exact: true }));
  await dialog.getByRole('button', { name: list.add.submit }).click();
  await expect(page).toHaveURL(`/physician/patient-card?patientId=${getCreatePatientResponseMock().data.id}`);
  await expect(page.getByText(getCreatePatientResponseMock().message!)).toBeVisible();
  // The card of the patient just added (the contract's getPatient example of that id), without sessions.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Peter Neumann');
  await expect(page.getByRole('region', { name: texts.patientCard.general.title })).toContainText('Referred by Dr. Lang');
  await expect(page.getByRole('article')).toHaveCount(0);
});

test('keyboard: / focuses the search, the arrows move through the rows, Enter opens the card; Upload NPT file opens the upload', async ({
  page,
  texts,
}) => {
  await openList(page);
  await page.keyboard.press('/');
  await expect(page.getByLabel(texts.patientList.filters.search)).toBeFocused();

  await page.getByRole('button', { name: texts.patientList.actions.uploadNpt, exact: true }).click();
  const upload = page.getByRole('dialog', { name: texts.examUpload.title });
  await expect(upload.locator('input[type=file]')).toBeAttached();
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(upload).toHaveCount(0);

  await nameLinks(page).first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(nameLinks(page).nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/physician/patient-card?patientId=${EXAMPLES[1].id}`);
});
