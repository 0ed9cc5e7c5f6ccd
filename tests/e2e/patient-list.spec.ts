// /physician/list as a physician or nurse uses it: columns and sorting, search, birthday range, both kinds of
// paging, adding a patient, uploading exams, and the keyboard. Each journey looks at its own patients
// through a search for its tag (the demo clinic is shared by journeys running side by side).
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { chooseRadio } from './form-controls';
import { apiAs, createPatient, examFile, uniqueTag, uploadInDialog } from './patients';
import { logOut, signInToHome } from './session';
import { fill, writtenDate, type Texts } from './texts';

const rows = (page: Page) => page.locator('table.mp-patient-table tbody tr');
const nameLinks = (page: Page) => page.locator('table.mp-patient-table tbody a');

async function search(page: Page, texts: Texts, text: string) {
  await page.getByLabel(texts.patientList.filters.search).fill(text);
  await expect(page).toHaveURL(new RegExp(`search=${text}`));
}

test('columns, sorting by a column, search, and the view kept in the URL', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  for (const [name, birthday] of [['Anna', '1950-03-01'], ['Bernd', '1940-07-15'], ['Carla', '1960-11-30']] as const) {
    await createPatient(api, { name, secondName: `${tag}`, birthday, gender: 'female' });
  }
  await signInToHome(page, texts, physician);
  const list = texts.patientList;
  const headers = page.locator('table.mp-patient-table thead th');
  await expect(headers).toHaveText([
    list.columns.patient,
    texts.patients.field.birthday,
    texts.patients.field.gender,
    texts.patients.field.latestSession,
    texts.patients.field.planStatus,
    list.columns.sessions,
  ]);

  await search(page, texts, tag);
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByText(fill(list.paging.range, { first: 1, last: 3, total: 3 }))).toBeVisible();

  const birthday = page.getByRole('columnheader', { name: texts.patients.field.birthday });
  await birthday.getByRole('button').click();
  await expect(birthday).toHaveAttribute('aria-sort', 'ascending');
  await expect(nameLinks(page)).toHaveText([`${tag}, Bernd`, `${tag}, Anna`, `${tag}, Carla`]);
  await birthday.getByRole('button').click();
  await expect(birthday).toHaveAttribute('aria-sort', 'descending');
  await expect(nameLinks(page)).toHaveText([`${tag}, Carla`, `${tag}, Anna`, `${tag}, Bernd`]);
  await expectNoAxeViolations(page);

  // Reload and back restore what was shown.
  await page.reload();
  await expect(page.getByLabel(list.filters.search)).toHaveValue(tag);
  await expect(nameLinks(page)).toHaveText([`${tag}, Carla`, `${tag}, Anna`, `${tag}, Bernd`]);
  await page.goBack();
  await expect(birthday).toHaveAttribute('aria-sort', 'ascending');
});

test('a tablet (820 px wide): the table fits without scrolling sideways and no text is cut', async ({ page, staff, texts, playwright }) => {
  await page.setViewportSize({ width: 820, height: 1180 });
  const physician = await staff.create('clinic_nurses');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  await createPatient(api, { name: 'Maximiliane', secondName: `${tag}-Hohenzollern-Sigmaringen`, birthday: '1939-12-31', gender: 'female' });
  await signInToHome(page, texts, physician);
  await search(page, texts, tag);
  await expect(rows(page)).toHaveCount(1);
  const overflow = await page.evaluate(() => {
    const cut = [...document.querySelectorAll<HTMLElement>('.mp-list-filters label, .mp-page-actions button, table th, table td')]
      .filter((element) => element.offsetParent !== null && element.scrollWidth > element.clientWidth + 1)
      .map((element) => element.textContent);
    const scroll = document.querySelector<HTMLElement>('.mp-table-scroll')!;
    return { cut, sideways: scroll.scrollWidth > scroll.clientWidth + 1, page: document.documentElement.scrollWidth > window.innerWidth };
  });
  expect(overflow).toEqual({ cut: [], sideways: false, page: false });
  await expectNoAxeViolations(page);
});

test('birthday range: both ends inclusive, a reversed range refused without asking the server', async ({ page, staff, texts, lang, playwright }) => {
  const physician = await staff.create('clinic_nurses');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  for (const [name, birthday] of [['Anna', '1950-03-01'], ['Bernd', '1940-07-15'], ['Carla', '1960-11-30']] as const) {
    await createPatient(api, { name, secondName: tag, birthday, gender: 'male' });
  }
  await signInToHome(page, texts, physician);
  await search(page, texts, tag);
  const list = texts.patientList;
  // Typed as the UI language writes dates.
  await page.getByLabel(list.filters.birthdayFrom).fill(writtenDate(lang, '1940-07-15'));
  await page.getByLabel(list.filters.birthdayTo).fill(writtenDate(lang, '1950-03-01'));
  await expect(rows(page)).toHaveCount(2);

  // Only the reversed range must not be asked for: the valid list may be fetched again meanwhile (the realtime
  // updates of the journeys beside this one make it stale; stop 34's CI run saw such a refetch).
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/patients' && url.searchParams.get('birthdayTo') === '1930-01-01') requests.push(request.url());
  });
  await page.getByLabel(list.filters.birthdayTo).fill(writtenDate(lang, '1930-01-01'));
  await expect(page.getByRole('alert')).toHaveText(list.filters.rangeReversed);
  await expect(page.getByLabel(list.filters.birthdayTo)).toHaveAttribute('aria-invalid', 'true');
  await expect(rows(page)).toHaveCount(0);
  expect(requests).toEqual([]);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: list.filters.clear }).click();
  await expect(page.getByLabel(list.filters.search)).toHaveValue('');
});

test('previous/next with page numbers, and load more, over 45 patients', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  for (let n = 1; n <= 45; n += 1) {
    await createPatient(api, { name: `P${String(n).padStart(2, '0')}`, secondName: tag, birthday: '1955-05-05', gender: 'other' });
  }
  await signInToHome(page, texts, physician);
  const list = texts.patientList;
  await search(page, texts, tag);
  await page.getByRole('columnheader', { name: list.columns.patient }).getByRole('button').click();
  await expect(rows(page)).toHaveCount(20);
  await expect(nameLinks(page).first()).toHaveText(`${tag}, P01`);
  await expect(page.getByText(fill(list.paging.range, { first: 1, last: 20, total: 45 }))).toBeVisible();

  const pages = page.getByRole('navigation', { name: list.paging.label });
  // By keyboard: the new page's first row takes the focus (not the page's body), ready for the arrow keys.
  await pages.getByRole('button', { name: list.paging.next }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/page=2/);
  await expect(nameLinks(page).first()).toHaveText(`${tag}, P21`);
  await expect(nameLinks(page).first()).toBeFocused();
  await expect(pages.getByRole('button', { name: fill(list.paging.page, { page: 2 }) })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: list.paging.loadMore }).click();
  await expect(rows(page)).toHaveCount(25);
  await expect(nameLinks(page).last()).toHaveText(`${tag}, P45`);
  await expect(page.getByText(fill(list.paging.range, { first: 21, last: 45, total: 45 }))).toBeVisible();
  await expect(page.getByRole('button', { name: list.paging.loadMore })).toHaveCount(0);
  await expect(pages.getByRole('button', { name: list.paging.next })).toBeDisabled();

  await pages.getByRole('button', { name: fill(list.paging.page, { page: 1 }) }).click();
  await expect(rows(page)).toHaveCount(20);
  await expect(nameLinks(page).first()).toHaveText(`${tag}, P01`);
  await expect(nameLinks(page).first()).toBeFocused();
  await expect(pages.getByRole('button', { name: list.paging.previous })).toBeDisabled();
  await expectNoAxeViolations(page);
});

test('add a patient: required fields and a future birthday are refused; then their card opens', async ({ page, staff, texts, lang }) => {
  const physician = await staff.create('clinic_physicians');
  await signInToHome(page, texts, physician);
  const list = texts.patientList;
  const form = texts.patients.form;
  await page.getByRole('button', { name: list.actions.addPatient }).first().click();
  const dialog = page.getByRole('dialog', { name: list.add.title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: list.add.submit }).click();
  await expect(dialog.getByText(form.errors.required)).toHaveCount(4);
  await expectNoAxeViolations(page);

  const tag = uniqueTag();
  await dialog.getByLabel(texts.patients.field.name, { exact: true }).fill('Greta');
  await dialog.getByLabel(texts.patients.field.secondName).fill(tag);
  await dialog.getByLabel(texts.patients.field.birthday).fill(writtenDate(lang, '2099-01-01'));
  await chooseRadio(dialog.getByRole('radio', { name: texts.patients.gender.female }));
  await dialog.getByRole('button', { name: list.add.submit }).click();
  await expect(dialog.getByText(form.errors.birthdayFuture)).toBeVisible();

  await dialog.getByLabel(texts.patients.field.birthday).fill(writtenDate(lang, '1948-02-29'));
  await dialog.getByRole('button', { name: list.add.submit }).click();
  await expect(page).toHaveURL(/\/physician\/patient-card\?patientId=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Greta ${tag}`);
  await expect(page.getByText(texts.api['patient.created'])).toBeVisible();

  // The list knows them, and so does "Recently opened", until the user logs out.
  await page.getByRole('link', { name: texts.patientCard.backToList }).click();
  await expect(page.getByRole('navigation', { name: list.recent.label })).toContainText(`${tag}, Greta`);
  await search(page, texts, tag);
  await expect(nameLinks(page)).toHaveText([`${tag}, Greta`]);
  await logOut(page, texts);
  await signInToHome(page, texts, physician);
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: list.recent.label })).toHaveCount(0);
});

test('an exam uploaded from the list makes a new patient whose session reaches planning by itself; the same file again and a corrupted file are refused with their reasons', async ({
  page,
  staff,
  texts,
}) => {
  await signInToHome(page, texts, await staff.create('clinic_nurses'));
  const upload = texts.examUpload;
  const tag = uniqueTag();
  const exam = await examFile({ name: 'Ida', secondName: tag, birthday: '1952-08-08', gender: 'female' });

  await page.getByRole('button', { name: texts.patientList.actions.uploadNpt }).first().click();
  const dialog = page.getByRole('dialog', { name: upload.title });
  // Only .npt files are taken.
  await dialog.locator('input[type=file]').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('x') });
  await expect(dialog.getByRole('alert')).toHaveText(fill(upload.wrongType, { name: 'photo.jpg' }));
  await expectNoAxeViolations(page);

  await uploadInDialog(page, exam, upload.upload);
  await expect(dialog.getByText(fill(upload.done.patientCreated, { patient: `Ida ${tag}` }))).toBeVisible();
  // The footer's button (the title bar's × is named "Close" too, "Schließen" in German).
  await dialog.locator('.bp6-dialog-footer').getByRole('button', { name: upload.close }).click();

  await search(page, texts, tag);
  const row = rows(page).first();
  await expect(row).toContainText(texts.patients.planStatus.planning, { timeout: 30_000 });

  // The same file again: the session it made is named and can be opened.
  await page.getByRole('button', { name: texts.patientList.actions.uploadNpt }).first().click();
  await uploadInDialog(page, exam, upload.upload);
  await expect(dialog.getByText(upload.duplicateTitle)).toBeVisible();
  await expect(dialog.getByText(fill(texts.api['treatment.duplicate_upload'], { number: 1, patient: `Ida ${tag}` }))).toBeVisible();

  // A file cut short: the server says what is wrong with it.
  await uploadInDialog(page, { ...exam, buffer: exam.buffer.subarray(0, 2000) }, upload.upload);
  await expect(dialog.getByText(upload.failedTitle)).toBeVisible();
  await expect(dialog.getByText(texts.npt.not_a_zip)).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the add menu: a new patient or a new session from an NPT file, each the one upload told as asked', async ({ page, staff, texts }) => {
  await signInToHome(page, texts, await staff.create('clinic_physicians'));
  const list = texts.patientList;
  const upload = texts.examUpload;
  const tag = uniqueTag();

  await page.getByRole('button', { name: list.actions.addMenu }).click();
  const menu = page.getByRole('menu', { name: list.actions.addMenu });
  await expect(menu.getByRole('menuitem')).toHaveText([list.actions.addPatient, list.actions.newPatientFromNpt, list.actions.newSessionFromNpt]);
  await expectNoAxeViolations(page);
  await menu.getByRole('menuitem', { name: list.actions.newSessionFromNpt }).click();
  const forSession = page.getByRole('dialog', { name: upload.purpose.newSession.title });
  await expect(forSession).toContainText(upload.purpose.newSession.text);
  await forSession.locator('.bp6-dialog-footer').getByRole('button', { name: upload.close }).click();
  await expect(forSession).toBeHidden();

  // By keyboard: the menu's first item has the focus, ArrowDown goes on to the next.
  await page.getByRole('button', { name: list.actions.addMenu }).focus();
  await page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: list.actions.addPatient })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const forPatient = page.getByRole('dialog', { name: upload.purpose.newPatient.title });
  await expect(forPatient).toContainText(upload.purpose.newPatient.text);
  await uploadInDialog(page, await examFile({ name: 'Ines', secondName: tag, birthday: '1958-04-04', gender: 'female' }), upload.upload);
  await expect(forPatient.getByText(fill(upload.done.patientCreated, { patient: `Ines ${tag}` }))).toBeVisible();
  await expectNoAxeViolations(page);
});

test('a slow connection is told while the upload runs, and the upload can be cancelled', async ({ page, staff, texts, browserName }) => {
  test.skip(browserName !== 'chromium', 'network emulation through the Chrome DevTools Protocol');
  await signInToHome(page, texts, await staff.create('clinic_physicians'));
  const upload = texts.examUpload;
  const exam = await examFile({ name: 'Jon', secondName: uniqueTag(), width: 1600, height: 1200 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // About 10 kB/s up: a clinic on a poor line (the exam of about 100 kB then takes ten seconds).
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 100, downloadThroughput: 500_000, uploadThroughput: 10_000 });

  await page.getByRole('button', { name: texts.patientList.actions.uploadNpt }).first().click();
  const dialog = page.getByRole('dialog', { name: upload.title });
  await uploadInDialog(page, exam, upload.upload);
  await expect(dialog.getByText(upload.slow.title)).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText(upload.slow.text)).toBeVisible();
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await dialog.getByRole('button', { name: upload.cancelUpload }).click();
  await expect(dialog.getByText(upload.cancelled)).toBeVisible();
});

test('keyboard only from the search to the card: type a name, ArrowDown to its row, Enter opens the card', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  await createPatient(api, { name: 'Dora', secondName: tag, birthday: '1955-05-05', gender: 'female' });
  await signInToHome(page, texts, physician);
  const search = page.getByLabel(texts.patientList.filters.search);

  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  // ArrowDown at once, without waiting for the typing pause or the rows: the search is sent now, and the focus
  // moves when its row is shown (not to the row that was first before).
  await page.keyboard.type(tag);
  await page.keyboard.press('ArrowDown');
  const row = nameLinks(page).first();
  await expect(row).toBeFocused();
  await expect(row).toHaveText(`${tag}, Dora`);
  await expect(nameLinks(page)).toHaveCount(1);
  await expectNoAxeViolations(page);
  // Up from the first row goes back to the search, down again to the row.
  await page.keyboard.press('ArrowUp');
  await expect(search).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(row).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/physician\/patient-card\?patientId=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Dora ${tag}`);
});

test('keyboard only: / focuses the search, the arrow keys move through the rows, Enter opens the card', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  for (const name of ['Anna', 'Bernd', 'Carla']) await createPatient(api, { name, secondName: tag, birthday: '1950-01-01', gender: 'male' });
  await signInToHome(page, texts, physician);

  await page.keyboard.press('/');
  await expect(page.getByLabel(texts.patientList.filters.search)).toBeFocused();
  await page.keyboard.type(tag);
  await expect(rows(page)).toHaveCount(3);
  await page.getByRole('columnheader', { name: texts.patientList.columns.patient }).getByRole('button').focus();
  await page.keyboard.press('Enter'); // sort by name: Anna, Bernd, Carla
  await expect(nameLinks(page).first()).toHaveText(`${tag}, Anna`);
  await nameLinks(page).first().focus();
  await expect(nameLinks(page).first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(nameLinks(page).nth(1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(nameLinks(page).nth(2)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(nameLinks(page).nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Bernd ${tag}`);
});
