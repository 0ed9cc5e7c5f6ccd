// Issue 26, "the right patient and the right numbers", in the planning wizard: whose eye it is on every step
// and where the physician signs; numbers typed as the UI language writes them (the German "2,5" is 2.5, never
// 2); and a change by a nurse while the physician is at sign-off, named on the physician's page.
import type { APIRequestContext, Page } from '@playwright/test';
import type { Language } from '../../generated/model/language';
import type { Treatment } from '../../generated/model/treatment';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { setCheckbox } from './form-controls';
import { apiAs, examFile, planToSignOff, uniqueTag } from './patients';
import { signInToHome } from './session';
import { fill, type Texts } from './texts';

const planningOf = (id: string) => `/physician/planning?treatmentId=${id}`;
const BIRTHDAY = '1951-04-23';
/** The birthday as each language writes it (src/lib/format.ts: en-GB day first). */
const BORN: Record<Language, string> = { en: '23/04/1951', de: '23.04.1951' };
const locale = (lang: Language) => (lang === 'de' ? 'de-DE' : 'en-GB');
/** A number as the wizard shows it in `lang` (at most one decimal, as the laser settings). */
const shown = (value: number, lang: Language, digits = 1) => new Intl.NumberFormat(locale(lang), { maximumFractionDigits: digits }).format(value);

/** A new patient (Maria, born 23 April 1951, a tag of this test as second name) with a session ready to plan. */
async function plannableSession(api: APIRequestContext): Promise<{ treatment: Treatment; patientName: string }> {
  const secondName = uniqueTag();
  const response = await api.post('/api/treatments', { multipart: { file: await examFile({ name: 'Maria', secondName, birthday: BIRTHDAY, eye: 'OD' }) } });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = ((await response.json()) as { data: { treatment: { id: string } } }).data.treatment;
  let treatment: Treatment | undefined;
  await expect
    .poll(
      async () => {
        treatment = ((await (await api.get(`/api/treatments/${id}`)).json()) as { data: Treatment }).data;
        return treatment.planStatus;
      },
      { timeout: 30_000 },
    )
    .toBe('planning');
  return { treatment: treatment!, patientName: `Maria ${secondName}` };
}

const panel = (page: Page, texts: Texts, step: 1 | 2 | 3 | 4) => page.getByRole('region', { name: texts.planning.steps[step] });

/** The page's title with the eye spelled out, and under it the patient's name and birthday in the UI language. */
async function expectPatientLine(page: Page, texts: Texts, lang: Language, patientName: string) {
  await expect(page.getByRole('heading', { level: 1 })).toContainText(texts.patients.eye.OD);
  const line = page.locator('.mp-page-heading .mp-patient-identity');
  await expect(line).toContainText(`${patientName}, ${fill(texts.planning.patient.born, { date: BORN[lang] })}`);
}

/** The navbar's dot says the realtime connection is up. */
const live = (page: Page) => expect(page.locator('.mp-realtime[data-state="connected"]')).toBeVisible({ timeout: 10_000 });

test('the patient’s name, birthday and eye on every step of the wizard and where the physician signs', async ({ page, staff, texts, playwright, lang }) => {
  test.setTimeout(120_000);
  const p = texts.planning;
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const { treatment, patientName } = await plannableSession(api);
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));

  await expect(panel(page, texts, 1)).toBeVisible();
  await expectPatientLine(page, texts, lang, patientName);
  await panel(page, texts, 1).getByRole('button', { name: p.zones.confirm }).click();

  await expect(panel(page, texts, 2)).toBeVisible();
  await expectPatientLine(page, texts, lang, patientName);
  await panel(page, texts, 2).getByRole('button', { name: p.grid.confirm }).click();

  await expect(panel(page, texts, 3)).toBeVisible();
  await expectPatientLine(page, texts, lang, patientName);
  await panel(page, texts, 3).getByRole('button', { name: p.brightness.confirm }).click();

  // Sign-off: the line under the title, and again beside the tick and the password, with the session.
  const signOff = panel(page, texts, 4);
  await expect(signOff).toBeVisible();
  await expectPatientLine(page, texts, lang, patientName);
  const signing = signOff.locator('.mp-sign-off-patient');
  await expect(signing).toContainText(p.signOff.patientIntro);
  await expect(signing).toContainText(patientName);
  await expect(signing).toContainText(fill(p.patient.born, { date: BORN[lang] }));
  await expect(signing).toContainText(texts.patients.eye.OD);
  await expect(signing).toContainText(fill(p.patient.session, { number: treatment.number, date: '' }).trim());
  await expectNoAxeViolations(page);
  await setCheckbox(signOff.getByRole('checkbox', { name: p.signOff.confirmPlan }), true);
  await signOff.getByLabel(p.signOff.password).fill(physician.password);
  await signOff.getByRole('button', { name: p.signOff.submit }).click();

  // The parameter set: the same line.
  await expect(page.getByRole('heading', { name: p.steps[5], exact: true })).toBeVisible();
  await expectPatientLine(page, texts, lang, patientName);
});

test('the grid spacing takes a decimal as the UI language writes it, and refuses the other mark', async ({ page, staff, texts, playwright, lang }) => {
  const p = texts.planning;
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const { treatment } = await plannableSession(api);
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));
  await panel(page, texts, 1).getByRole('button', { name: p.zones.confirm }).click();

  const grid = panel(page, texts, 2);
  const spacing = grid.getByLabel(p.grid.spacing);
  await expect(spacing).toHaveAttribute('inputmode', 'decimal');
  const count = grid.locator('.mp-spot-count strong');
  await expect(count).toBeVisible();
  const proposed = await count.textContent();
  const mark = lang === 'de' ? ',' : '.';
  const otherMark = lang === 'de' ? '.' : ',';

  // The other language's mark is refused with the reason, and the plan keeps its spacing (the count stays).
  await spacing.fill(`2${otherMark}5`);
  await expect(spacing).toHaveAttribute('aria-invalid', 'true');
  await expect(grid.getByText(fill(p.number.wrongSeparator, { example: `2${mark}5` }))).toBeVisible();
  await expect(count).toHaveText(proposed!);
  // Leaving the field does not turn it into another number.
  await spacing.press('Tab');
  await expect(spacing).toHaveValue(`2${otherMark}5`);

  await spacing.fill(`2${mark}5`);
  await expect(spacing).toHaveAttribute('aria-invalid', 'false');
  await expect(count).not.toHaveText(proposed!);
  await expectNoAxeViolations(page);
  await grid.getByRole('button', { name: p.grid.confirm }).click();
  await expect(panel(page, texts, 3)).toBeVisible();

  // The server saved 2.5, and the confirmed grid shows it as the language writes it.
  const saved = ((await (await api.get(`/api/treatments/${treatment.id}`)).json()) as { data: Treatment }).data;
  expect(saved.plan.gridSettings!.spacing).toBe(2.5);
  await page.getByRole('link', { name: new RegExp(p.steps[2]) }).click();
  await expect(panel(page, texts, 2).getByLabel(p.grid.spacing)).toHaveValue(`2${mark}5`);

  // Arrow keys still step it, by 0.05.
  await panel(page, texts, 2).getByLabel(p.grid.spacing).press('ArrowUp');
  await expect(panel(page, texts, 2).getByLabel(p.grid.spacing)).toHaveValue(`2${mark}55`);
});

test('a nurse changes the laser power and the duty cycle while the physician is at sign-off: the physician’s page names the changes and asks again', async ({ page, browser, staff, texts, playwright, lang }) => {
  test.setTimeout(120_000);
  const p = texts.planning;
  const physician = await staff.create('clinic_physicians');
  const nurse = await staff.create('clinic_nurses', { family: 'Krüger' });
  const api = await apiAs(playwright, physician);
  const { treatment } = await plannableSession(api);
  await planToSignOff(api, treatment);
  const atSignOff = ((await (await api.get(`/api/treatments/${treatment.id}`)).json()) as { data: Treatment }).data;
  const [before, after] = [atSignOff.laserDose!, atSignOff.laserDose! + 20];
  const [dutyBefore, dutyAfter] = [atSignOff.dutyCyclePercent!, atSignOff.dutyCyclePercent! + 5];

  // The physician checks the plan, ticks and types the password, but has not signed yet.
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));
  const signOff = panel(page, texts, 4);
  const tick = signOff.getByRole('checkbox', { name: p.signOff.confirmPlan });
  await setCheckbox(tick, true);
  const password = signOff.getByLabel(p.signOff.password);
  await password.fill(physician.password);
  await live(page);

  // The nurse, in another browser, sets another laser power and duty cycle and saves them.
  const nurseContext = await browser.newContext();
  const nursePage = await nurseContext.newPage();
  await signInToHome(nursePage, texts, nurse);
  await nursePage.goto(planningOf(treatment.id));
  const nursePanel = panel(nursePage, texts, 4);
  await nursePanel.getByLabel(p.signOff.laserDose).fill(shown(after, lang));
  await nursePanel.getByLabel(p.signOff.dutyCycle).fill(shown(dutyAfter, lang));
  await nursePanel.getByRole('button', { name: p.signOff.saveAdjustments }).click();
  await expect(nursePanel.getByRole('button', { name: p.signOff.saveAdjustments })).toBeHidden();

  // The physician's page, without a reload: who changed what, the tick cleared and why.
  const notice = signOff.getByRole('alert').filter({ hasText: p.signOff.changed.title });
  await expect(notice).toBeVisible({ timeout: 10_000 });
  const changes = [
    fill(p.signOff.changed.laserDose, { before: shown(before, lang), after: shown(after, lang) }),
    fill(p.signOff.changed.dutyCyclePercent, { before: shown(dutyBefore, lang), after: shown(dutyAfter, lang) }),
  ];
  const both = new Intl.ListFormat(lang === 'de' ? 'de-DE' : 'en-GB', { type: 'conjunction' }).format(changes);
  await expect(notice).toContainText(fill(p.signOff.changed.by_one, { names: `${nurse.firstName} ${nurse.lastName}`, changes: both }));
  await expect(notice).toContainText(p.signOff.changed.confirmAgain);
  await expect(tick).not.toBeChecked();
  await expect(signOff.getByRole('button', { name: p.signOff.submit })).toBeDisabled();
  await expect(signOff.getByLabel(p.signOff.laserDose)).toHaveValue(shown(after, lang));
  await expect(signOff.getByLabel(p.signOff.dutyCycle)).toHaveValue(shown(dutyAfter, lang));
  // What was typed as the password stays: the tick is what confirms the plan.
  await expect(password).toHaveValue(physician.password);
  await expectNoAxeViolations(page);

  // A fresh confirmation signs the plan as it is now.
  await setCheckbox(tick, true);
  await signOff.getByRole('button', { name: p.signOff.submit }).click();
  await expect(page.getByRole('heading', { name: p.steps[5], exact: true })).toBeVisible();
  const signed = ((await (await api.get(`/api/treatments/${treatment.id}`)).json()) as { data: Treatment }).data;
  expect(signed.laserDose).toBe(after);
  expect(signed.dutyCyclePercent).toBe(dutyAfter);
  expect(signed.plan.signOff?.by.id).toBeTruthy();
  await nurseContext.close();
});
