// Issue 30: dates are typed and shown as the UI language writes them, not as the browser's locale would. Each
// journey runs in a browser of the other language (the German project in an en-US browser, the English one in
// a de-DE browser), signed in with a profile in the project's language: the patient form's birthday, the patient
// list's birthday filters and the access log's days, typed with the keyboard only.
import type { Page } from '@playwright/test';
import type { Language } from '../../generated/model/language';
import deAccessLog from '../../locales/de/accessLog.json' with { type: 'json' };
import enAccessLog from '../../locales/en/accessLog.json' with { type: 'json' };
import { expectNoAxeViolations } from './axe';
import { expect, test, type StaffAccount } from './fixtures';
import { chooseRadio } from './form-controls';
import { uniqueTag } from './patients';
import { homeOf, signIn } from './session';
import { fill, TEXTS, writtenDate, type Texts } from './texts';

const OTHER: Record<Language, Language> = { en: 'de', de: 'en' };
const BROWSER_LOCALE: Record<Language, string> = { en: 'en-US', de: 'de-DE' };
const ACCESS_LOG = { en: enAccessLog, de: deAccessLog };

// The browser speaks the other language: an English browser for the German UI, and the other way round.
test.use({ locale: async ({ lang }, use) => use(BROWSER_LOCALE[OTHER[lang]]) });

/** Signs in on /sign-in as the browser's language shows it; the profile's language (the project's) follows. */
async function signInFromOtherBrowser(page: Page, texts: Texts, lang: Language, account: StaffAccount) {
  await page.goto('/sign-in');
  await expect(page.locator('html')).toHaveAttribute('lang', OTHER[lang]);
  await signIn(page, TEXTS[OTHER[lang]], account);
  const home = homeOf(account.role);
  await expect(page).toHaveURL(home.path, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(home.heading(texts));
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  // The browser itself writes dates its own way (what <input type="date"> showed).
  const browserDate = await page.evaluate(() => new Intl.DateTimeFormat().format(new Date(Date.UTC(1951, 3, 23, 12))));
  expect(browserDate).toBe(lang === 'de' ? '4/23/1951' : '23.4.1951');
}

/** Types into a field with the keyboard, as a person does, and leaves it with Tab. */
async function typeDate(page: Page, field: ReturnType<Page['getByLabel']>, text: string) {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Tab');
}

test('a birthday typed as the UI language writes it: added, shown on the card, edited, and the list filtered by it', async ({
  page,
  staff,
  texts,
  lang,
}) => {
  const physician = await staff.create('clinic_physicians');
  await signInFromOtherBrowser(page, texts, lang, physician);
  const list = texts.patientList;
  const tag = uniqueTag();

  // Added with the birthday typed 23.04.1951 (German) or 23/04/1951 (English).
  await page.getByRole('button', { name: list.actions.addPatient }).first().click();
  const dialog = page.getByRole('dialog', { name: list.add.title });
  await dialog.getByLabel(texts.patients.field.name, { exact: true }).fill('Maria');
  await dialog.getByLabel(texts.patients.field.secondName).fill(tag);
  const birthday = dialog.getByLabel(texts.patients.field.birthday);
  await expect(birthday).toHaveAttribute('type', 'text');
  await expect(birthday).toHaveAttribute('placeholder', texts.dates.pattern);
  await expect(birthday).toHaveAccessibleDescription(fill(texts.dates.description, { example: writtenDate(lang, '1951-04-23') }));
  await typeDate(page, birthday, writtenDate(lang, '1951-04-23'));
  await expect(birthday).toHaveValue(writtenDate(lang, '1951-04-23'));
  await chooseRadio(dialog.getByRole('radio', { name: texts.patients.gender.female }));
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: list.add.submit }).click();
  await expect(page).toHaveURL(/\/physician\/patient-card\?patientId=/);
  const card = texts.patientCard;
  const info = page.getByRole('region', { name: card.general.title });
  await expect(info).toContainText(writtenDate(lang, '1951-04-23'));

  // Edited: a day the calendar does not have is refused with its reason; 3.5.1951 is taken as 03.05.1951.
  await info.getByRole('button', { name: card.general.edit }).click();
  const edit = page.getByRole('dialog', { name: card.edit.title });
  const editBirthday = edit.getByLabel(texts.patients.field.birthday);
  await expect(editBirthday).toHaveValue(writtenDate(lang, '1951-04-23'));
  await typeDate(page, editBirthday, lang === 'de' ? '31.02.1951' : '31/02/1951');
  await expect(editBirthday).toHaveAttribute('aria-invalid', 'true');
  await expect(editBirthday).toHaveAccessibleDescription(
    `${texts.dates.errors.impossible} ${fill(texts.dates.description, { example: writtenDate(lang, '1951-04-23') })}`,
  );
  await edit.getByRole('button', { name: card.edit.save }).click();
  await expect(editBirthday).toBeFocused();
  await expect(edit).toBeVisible();
  await typeDate(page, editBirthday, lang === 'de' ? '3.5.1951' : '3/5/1951');
  await expect(editBirthday).toHaveValue(writtenDate(lang, '1951-05-03'));
  await expect(editBirthday).not.toHaveAttribute('aria-invalid');
  await expectNoAxeViolations(page);
  await edit.getByRole('button', { name: card.edit.save }).click();
  await expect(edit).toHaveCount(0);
  await expect(info).toContainText(writtenDate(lang, '1951-05-03'));

  // The list filtered by that birthday, typed in both ends; a year of five digits is refused and never sent.
  await page.getByRole('link', { name: card.backToList }).click();
  await page.getByLabel(list.filters.search).fill(tag);
  await expect(page).toHaveURL(new RegExp(`search=${tag}`));
  const rows = page.locator('table.mp-patient-table tbody tr');
  await typeDate(page, page.getByLabel(list.filters.birthdayFrom), lang === 'de' ? '3.5.1951' : '3/5/1951');
  await typeDate(page, page.getByLabel(list.filters.birthdayTo), writtenDate(lang, '1951-05-03'));
  await expect(page).toHaveURL(/birthdayFrom=1951-05-03&birthdayTo=1951-05-03/);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(writtenDate(lang, '1951-05-03'));
  await expect(page.getByLabel(list.filters.birthdayFrom)).toHaveValue(writtenDate(lang, '1951-05-03'));

  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/patients' && url.searchParams.get('birthdayTo') !== '1951-05-03') asked.push(request.url());
  });
  const to = page.getByLabel(list.filters.birthdayTo);
  await typeDate(page, to, writtenDate(lang, '1951-05-03').replace('1951', '21960'));
  const refusal = `${list.filters.birthdayTo}: ${fill(texts.dates.errors.format, { pattern: texts.dates.pattern, example: writtenDate(lang, '1951-04-23') })}`;
  await expect(page.getByRole('alert')).toHaveText(refusal);
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/birthdayTo=1951-05-03/);
  await expect(rows).toHaveCount(1);
  await expectNoAxeViolations(page);
  expect(asked).toEqual([]);

  // The language switched: the fields write the dates the other way.
  await page.getByLabel(texts.common.language.label).selectOption(OTHER[lang]);
  await expect(page.getByLabel(TEXTS[OTHER[lang]].patientList.filters.birthdayFrom)).toHaveValue(writtenDate(OTHER[lang], '1951-05-03'));
});

test('the access log’s days typed as the UI language writes them; a day before 2000 or one the calendar lacks is refused', async ({
  page,
  staff,
  texts,
  lang,
}) => {
  const l = ACCESS_LOG[lang];
  // The user filter lists the first 100 staff by name, and a full run of the journeys adds more than 100 to the
  // demo clinic: a name early in the alphabet keeps this admin among them.
  const admin = await staff.create('clinic_it_admins', { family: 'Aachen' });
  await signInFromOtherBrowser(page, texts, lang, admin);
  await page.getByRole('link', { name: texts.common.areas.accessLog }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.title);
  const rows = page.getByRole('table').locator('tbody tr');
  await expect(rows.first()).toBeVisible();

  // Today, as the user's calendar has it: this sign-in is in the log.
  const now = new Date();
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  const from = page.getByLabel(l.filters.from, { exact: true });
  const to = page.getByLabel(l.filters.to, { exact: true });
  await expect(from).toHaveAttribute('placeholder', texts.dates.pattern);
  await typeDate(page, from, writtenDate(lang, today));
  await typeDate(page, to, writtenDate(lang, today));
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
  // Only this admin's entries: journeys running beside this one fill today's first page with theirs.
  await page.getByLabel(l.filters.user, { exact: true }).selectOption({ label: `${admin.lastName}, ${admin.firstName}` });
  await expect(rows.filter({ hasText: l.actions.signIn }).first()).toBeVisible();

  await typeDate(page, to, lang === 'de' ? '31.02.2026' : '31/02/2026');
  await expect(page.getByRole('alert')).toHaveText(`${l.filters.to}: ${texts.dates.errors.impossible}`);
  await typeDate(page, from, lang === 'de' ? '1.1.1999' : '1/1/1999');
  await expect(page.getByRole('alert')).toHaveText([
    `${l.filters.from}: ${fill(texts.dates.errors.from, { min: writtenDate(lang, '2000-01-01') })}`,
    `${l.filters.to}: ${texts.dates.errors.impossible}`,
  ]);
  // Nothing refused was asked for: the view is still today's.
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: l.filters.reset }).click();
  await expect(from).toHaveValue('');
  await expect(to).toHaveValue('');
  await expect(page.getByRole('alert')).toHaveCount(0);
});
