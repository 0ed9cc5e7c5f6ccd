// Issue 26 at sign-off: the laser that will treat and the settings within its laser profile and the clinical
// limits (docs/clinical-limits.md), refused before saving, and what the physician sees beside the password.
// Each test plans its own uploaded session (the demo's sessions are shared by parallel journeys); the exam
// comes from the demo clinic's 577 nm laser (server/seed/laser-profiles.ts: micropulse 5–15 %, continuous
// pulses up to 200 ms, of which 100 ms are allowed).
import type { APIRequestContext, Locator, Page, PlaywrightWorkerArgs } from '@playwright/test';
import type { Language } from '../../generated/model/language';
import type { Treatment } from '../../generated/model/treatment';
import { expectNoAxeViolations } from './axe';
import { expect, test, type Staff } from './fixtures';
import { apiAs, examFile, planToSignOff, uniqueTag, uploadedSession } from './patients';
import { signInToHome } from './session';
import { fill, type Texts } from './texts';

const planningOf = (id: string) => `/physician/planning?treatmentId=${id}`;
const locale = (lang: Language) => (lang === 'de' ? 'de-DE' : 'en-GB');
const shown = (value: number, lang: Language, digits = 1) => new Intl.NumberFormat(locale(lang), { maximumFractionDigits: digits }).format(value);

/** An uploaded session with zones, grid and brightness confirmed as proposed: it waits at sign-off. */
async function sessionAtSignOff(api: APIRequestContext): Promise<Treatment> {
  const treatment = await uploadedSession(api, await examFile({ name: 'Lena', secondName: uniqueTag(), birthday: '1958-02-11', eye: 'OD' }));
  expect(treatment.planStatus).toBe('planning');
  await planToSignOff(api, treatment);
  return ((await (await api.get(`/api/treatments/${treatment.id}`)).json()) as { data: Treatment }).data;
}

const signOffPanel = (page: Page, texts: Texts) => page.getByRole('region', { name: texts.planning.steps[4] });

/** A physician of the journey at the sign-off of a new session of theirs. */
async function openSignOff(page: Page, texts: Texts, staff: Staff, playwright: PlaywrightWorkerArgs['playwright']) {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const treatment = await sessionAtSignOff(api);
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));
  const panel = signOffPanel(page, texts);
  await expect(panel).toBeVisible();
  return { panel, treatment };
}

/** Types `value` into a number field as a user does (select all, type). */
async function typeInto(field: Locator, value: string) {
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.pressSequentially(value);
}

test('the summary beside the sign-off names the laser, its wavelength and the duty cycle', async ({ page, staff, texts, playwright, lang }) => {
  test.setTimeout(180_000);
  const p = texts.planning;
  const { panel, treatment } = await openSignOff(page, texts, staff, playwright);
  expect(treatment.plan.safety?.treatmentDevice?.laserProfile?.wavelengthNm).toBe(577);
  const deviceId = treatment.plan.safety!.treatmentDevice!.deviceId;
  // The device, its wavelength (a no-break space before the unit) and its place.
  const laserName = new RegExp(`${deviceId} · 577\\snm`);

  const laser = panel.getByLabel(p.signOff.laser.choose);
  await expect(laser).toBeVisible();
  await expect(laser.locator('option:checked')).toContainText(laserName);

  const check = panel.getByRole('region', { name: p.signOff.check.title });
  await expect(check).toContainText(laserName);
  await expect(check).toContainText(p.modes.micropulse);
  await expect(check).toContainText(fill(p.signOff.check.dutyCycleValue, { dutyCycle: shown(treatment.dutyCyclePercent!, lang) }));
  await expect(check).toContainText(p.signOff.check.atTitration);
  // The duty cycle field, in micropulse only.
  await expect(panel.getByLabel(p.signOff.dutyCycle)).toHaveValue(shown(treatment.dutyCyclePercent!, lang));
  await expectNoAxeViolations(page);
});

test('a duty cycle above 15 % or one that raises the irradiance above its ceiling is refused before saving', async ({ page, staff, texts, playwright, lang }) => {
  test.setTimeout(180_000);
  const p = texts.planning;
  const { panel } = await openSignOff(page, texts, staff, playwright);
  const duty = panel.getByLabel(p.signOff.dutyCycle);
  const save = panel.getByRole('button', { name: p.signOff.saveAdjustments });

  // Above the clinical limit: the field refuses it and the plan keeps its duty cycle.
  await typeInto(duty, '20');
  await expect(panel.getByText(fill(p.outOfRange, { min: shown(5, lang), max: shown(15, lang) }))).toBeVisible();
  // Cleared: refused as well.
  await typeInto(duty, '');
  await duty.press('Backspace');
  await expect(panel.getByText(p.number.empty)).toBeVisible();

  // 15 % is allowed, but with a high laser power the spots would exceed 350 W/cm²: said with the numbers, save disabled.
  await typeInto(duty, '15');
  await typeInto(panel.getByLabel(p.signOff.laserDose), '400');
  const refusal = panel.getByRole('alert').filter({ hasText: p.signOff.refusal.title });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText(`${shown(350, lang, 0)} W/cm²`);
  await expect(save).toBeDisabled();
  await expect(panel.getByRole('button', { name: p.signOff.submit })).toBeDisabled();
  await expectNoAxeViolations(page);

  // Back to a safe power: the refusal goes and the adjustments can be saved.
  await typeInto(panel.getByLabel(p.signOff.laserDose), '90');
  await expect(refusal).toBeHidden();
  await expect(save).toBeEnabled();
  await save.click();
  await expect(save).toBeHidden();
  const check = panel.getByRole('region', { name: p.signOff.check.title });
  await expect(check).toContainText(fill(p.signOff.check.dutyCycleValue, { dutyCycle: shown(15, lang) }));
});

test('continuous mode with a long pulse is refused before saving, and the duty cycle is gone', async ({ page, staff, texts, playwright, lang }) => {
  test.setTimeout(180_000);
  const p = texts.planning;
  const { panel } = await openSignOff(page, texts, staff, playwright);
  await typeInto(panel.getByLabel(p.signOff.pulse), '150');
  await panel.getByLabel(p.signOff.mode).selectOption({ label: p.modes.continuous });
  await expect(panel.getByLabel(p.signOff.dutyCycle)).toHaveCount(0);

  const refusal = panel.getByRole('alert').filter({ hasText: p.signOff.refusal.title });
  await expect(refusal).toContainText(
    fill(p.signOff.refusal.pulse_out_of_range, { pulse: shown(150, lang), min: shown(10, lang), max: shown(100, lang), mode: p.modes.continuous }),
  );
  await expect(panel.getByRole('button', { name: p.signOff.saveAdjustments })).toBeDisabled();
  await expectNoAxeViolations(page);

  await typeInto(panel.getByLabel(p.signOff.pulse), '100');
  await expect(refusal).toBeHidden();
  await expect(panel.getByRole('button', { name: p.signOff.saveAdjustments })).toBeEnabled();
});
