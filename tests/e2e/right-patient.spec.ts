// The right patient (issue 26): adding a patient the clinic already has is warned, with the patient to open
// and "Create anyway"; an exam whose patient differs from the card's names what differs, and when only the
// device patient id does, it can be added to the card anyway.
import type { Page } from '@playwright/test';
import type { Language } from '../../generated/model/language';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { chooseRadio } from './form-controls';
import { apiAs, createPatient, examFile, uniqueTag, uploadedSession, uploadInDialog } from './patients';
import { signInToHome } from './session';
import { fill, writtenDate, type Texts } from './texts';

// The locales the SPA writes lists and dates in (src/lib/format.ts).
const LOCALES = { en: 'en-GB', de: 'de-DE' } as const;
const cardOf = (id: string) => `/physician/patient-card?patientId=${id}`;

async function addPatient(page: Page, texts: Texts, lang: Language, patient: { name: string; secondName: string; birthday: string; description?: string }) {
  await page.getByRole('button', { name: texts.patientList.actions.addPatient }).first().click();
  const dialog = page.getByRole('dialog', { name: texts.patientList.add.title });
  await dialog.getByLabel(texts.patients.field.name, { exact: true }).fill(patient.name);
  await dialog.getByLabel(texts.patients.field.secondName).fill(patient.secondName);
  // Typed as the UI language writes dates; the patient's birthday is the contract's YYYY-MM-DD.
  await dialog.getByLabel(texts.patients.field.birthday).fill(writtenDate(lang, patient.birthday));
  await chooseRadio(dialog.getByRole('radio', { name: texts.patients.gender.female }));
  if (patient.description) await dialog.getByLabel(texts.patients.field.description).fill(patient.description);
  await dialog.getByRole('button', { name: texts.patientList.add.submit }).click();
  return dialog;
}

test('adding Maria Schneider, born 23.04.1951, warns that she is a patient already and opens her card by keyboard', async ({
  page,
  staff,
  texts,
  lang,
}) => {
  await signInToHome(page, texts, await staff.create('clinic_nurses'));
  const dialog = await addPatient(page, texts, lang, {
    name: 'Maria',
    secondName: 'Schneider',
    birthday: '1951-04-23',
    description: 'Referred by Dr. Lang.',
  });
  const warning = dialog.getByRole('group', { name: texts.patients.duplicate.title });
  await expect(warning).toBeVisible();
  await expect(warning).toBeFocused();
  await expect(warning).toContainText(texts.api['patient.likely_duplicate.female']);
  const match = warning.getByRole('listitem');
  await expect(match).toHaveCount(1);
  await expect(match).toContainText('Maria Schneider');
  await expect(match).toContainText(
    fill(texts.patients.duplicate.born, { birthday: writtenDate(lang, '1951-04-23'), gender: texts.patients.gender.female }),
  );
  // What was typed stays; "Add patient" gives way to "Create anyway".
  await expect(dialog.getByLabel(texts.patients.field.description)).toHaveValue('Referred by Dr. Lang.');
  await expect(dialog.getByRole('button', { name: texts.patientList.add.submit })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: texts.patients.duplicate.createAnyway })).toBeVisible();
  await expectNoAxeViolations(page);

  // Tab from the warning reaches her card's button, named by her.
  await page.keyboard.press('Tab');
  const open = match.getByRole('button', { name: texts.patients.duplicate.openCard });
  await expect(open).toBeFocused();
  await expect(open).toHaveAccessibleDescription(/Maria Schneider/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/physician\/patient-card\?patientId=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maria Schneider');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('“Create anyway” adds a second patient of the same name and birthday, typed with an accent', async ({ page, staff, texts, lang, playwright }) => {
  // A pair of the journey's own, not the demo clinic's Maria Schneider: journeys running beside this one find
  // her by name and expect one.
  const physician = await staff.create('clinic_physicians');
  const tag = uniqueTag();
  const first = await createPatient(await apiAs(playwright, physician), { name: 'Maria', secondName: `Schneider-${tag}`, birthday: '1951-04-23', gender: 'female' });
  await signInToHome(page, texts, physician);
  const dialog = await addPatient(page, texts, lang, { name: 'María', secondName: ` schneider-${tag.toLowerCase()} `, birthday: '1951-04-23' });
  const warning = dialog.getByRole('group', { name: texts.patients.duplicate.title });
  await expect(warning.getByRole('listitem')).toHaveText(new RegExp(`^Maria Schneider-${tag}`));

  await dialog.getByRole('button', { name: texts.patients.duplicate.createAnyway }).click();
  await expect(page).toHaveURL(/\/physician\/patient-card\?patientId=/);
  await expect(page).not.toHaveURL(cardOf(first.id));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`María schneider-${tag.toLowerCase()}`);
  await expect(page.getByText(texts.api['patient.created'])).toBeVisible();

  await page.getByRole('link', { name: texts.patientCard.backToList }).click();
  await page.getByLabel(texts.patientList.filters.search).fill(tag);
  await expect(page.locator('table.mp-patient-table tbody tr')).toHaveCount(2);
});

test('an exam of the card’s patient under another device patient ID: the difference is named, and it can be added anyway', async ({
  page,
  staff,
  texts,
  lang,
  playwright,
}) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const person = { name: 'Paula', secondName: tag, birthday: '1960-01-01', gender: 'female' as const };
  // Ids of the journey's own: the laser's id for her, and the one of a second registration on the laser.
  const digits = String(parseInt(tag.slice(3, 9), 16) % 1_000_000).padStart(6, '0');
  const [cardId, fileId] = [`NPT-1${digits}`, `NPT-2${digits}`];
  const paula = await createPatient(api, person);
  // Her first exam gives her card the laser's id for her.
  await uploadedSession(api, await examFile({ ...person, deviceSideId: cardId, seed: 1 }), paula.id);
  await signInToHome(page, texts, physician);
  await page.goto(cardOf(paula.id));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Paula ${tag}`);

  const upload = texts.examUpload;
  await page.getByRole('button', { name: texts.patientCard.actions.uploadNpt }).first().click();
  await uploadInDialog(page, await examFile({ ...person, deviceSideId: fileId, seed: 2 }), upload.upload);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(upload.mismatch.deviceIdTitle)).toBeVisible();
  const table = dialog.getByRole('table', { name: upload.mismatch.table });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toHaveText(`${texts.patients.field.deviceId}${fileId}${cardId}`);
  const agreeing = ['name', 'secondName', 'birthday', 'gender'] as const;
  const list = new Intl.ListFormat(LOCALES[lang], { type: 'conjunction' }).format(agreeing.map((field) => upload.mismatch.fields[field]));
  await expect(dialog).toContainText(fill(upload.mismatch.agree_other, { fields: list.charAt(0).toLocaleUpperCase(lang) + list.slice(1) }));
  await expectNoAxeViolations(page);

  await dialog.getByRole('button', { name: upload.mismatch.uploadAnyway }).click();
  await expect(dialog.getByText(fill(upload.done.sessionAdded, { number: 2, patient: `Paula ${tag}` }))).toBeVisible();
  await dialog.locator('.bp6-dialog-footer').getByRole('button', { name: upload.close }).click();
  await expect(page.getByRole('article')).toHaveCount(2);
});

test('an exam of another person on a card names each difference beside what the card says', async ({ page, staff, texts, lang, playwright }) => {
  const physician = await staff.create('clinic_nurses');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const paula = await createPatient(api, { name: 'Paula', secondName: tag, birthday: '1960-01-01', gender: 'female' });
  await signInToHome(page, texts, physician);
  await page.goto(cardOf(paula.id));
  const upload = texts.examUpload;
  await page.getByRole('button', { name: texts.patientCard.actions.uploadNpt }).first().click();
  await uploadInDialog(page, await examFile({ name: 'Pauline', secondName: tag, birthday: '1960-01-10', gender: 'female' }), upload.upload);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(upload.mismatch.title)).toBeVisible();
  const rows = dialog.getByRole('table', { name: upload.mismatch.table }).getByRole('row');
  await expect(rows).toHaveText([
    `${upload.mismatch.field}${upload.mismatch.inFile}${upload.mismatch.onCard}`,
    `${texts.patients.field.name}PaulinePaula`,
    `${texts.patients.field.birthday}${writtenDate(lang, '1960-01-10')}${writtenDate(lang, '1960-01-01')}`,
  ]);
  const list = new Intl.ListFormat(LOCALES[lang], { type: 'conjunction' }).format([upload.mismatch.fields.secondName, upload.mismatch.fields.gender]);
  await expect(dialog).toContainText(fill(upload.mismatch.agree_other, { fields: list.charAt(0).toLocaleUpperCase(lang) + list.slice(1) }));
  // Nothing offers to add it to this card.
  await expect(dialog.getByRole('button', { name: upload.mismatch.uploadAnyway })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: upload.mismatch.createPatient })).toBeVisible();
});
