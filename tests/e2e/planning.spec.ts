// /physician/planning as a physician and a nurse use it: the six steps of the wizard on a session made from
// a generated exam, by mouse and by keyboard, with undo and redo, sign-off and the parameter set read back;
// a nurse stops at sign-off; a locked session opens read-only.
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Treatment } from '../../generated/model/treatment';
import { readParameterSet } from '../../src/domain/npt/read-npt';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, examFile, planToSignOff, uniqueTag } from './patients';
import { signInToHome } from './session';
import { fill, type Texts } from './texts';

const planningOf = (id: string) => `/physician/planning?treatmentId=${id}`;

/** A new patient's session from a generated exam, once processing has proposed its zones. */
async function plannableSession(api: APIRequestContext): Promise<Treatment> {
  const file = await examFile({ name: 'Ida', secondName: uniqueTag() });
  const response = await api.post('/api/treatments', { multipart: { file } });
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
  return treatment!;
}

const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));
const numberIn = async (field: Locator) => Number((await field.inputValue()).replace(',', '.'));
const panel = (page: Page, texts: Texts, step: 1 | 2 | 3 | 4) => page.getByRole('region', { name: texts.planning.steps[step] });

test('a physician plans a session end to end, by mouse and by keyboard, and reads the parameter set back', async ({ page, staff, texts, playwright, lang }) => {
  test.setTimeout(120_000);
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const treatment = await plannableSession(api);
  const p = texts.planning;
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));

  // Step 1: the proposed zones; the FAZ moved by dragging and by keyboard, undone and redone.
  const zonesPanel = panel(page, texts, 1);
  await expect(zonesPanel).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(p.steps[1]) })).toHaveAttribute('aria-current', 'step');
  const offsetX = zonesPanel.getByLabel(p.zones.offsetX);
  await expect(offsetX).not.toHaveValue('');
  await expectNoAxeViolations(page);
  // The image's brightness slider has a name of its own, not that of step 3.
  await expect(page.getByRole('slider', { name: p.viewer.brightness, exact: true })).toBeVisible();
  await expect(page.getByRole('slider', { name: p.steps[3], exact: true })).toHaveCount(0);
  const before = await numberIn(offsetX);
  const fazHandle = page.getByRole('button', { name: p.zones.fazHandle });
  const at = (await fazHandle.boundingBox())!;
  // Grab the FAZ a little off its centre and drag it 40 screen pixels to the left.
  await page.mouse.move(at.x + at.width / 2 + 6, at.y + at.height / 2);
  await page.mouse.down();
  await page.mouse.move(at.x + at.width / 2 - 34, at.y + at.height / 2, { steps: 8 });
  await page.mouse.up();
  // The ONH's centre is measured from the fovea, the FAZ's centre: it is now further to the right.
  await expect.poll(() => numberIn(offsetX)).toBeGreaterThan(before + 100);
  const dragged = await numberIn(offsetX);
  await fazHandle.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(() => numberIn(offsetX)).toBeLessThan(dragged - 50);
  const keyed = await numberIn(offsetX);
  // Where it went is said aloud (a polite live region, once the keys rest): the ONH's centre from the fovea, as
  // the fields show it.
  const moved = new RegExp(
    `^${fill(p.zones.movedFaz, { x: 'X', y: 'Y' })
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('X', '(-?[\\d.,]+)')
      .replace('Y', '(-?[\\d.,]+)')}$`,
  );
  const announcement = zonesPanel.locator('[aria-live="polite"]').filter({ hasText: moved });
  await expect(announcement).toHaveCount(1);
  const [, saidX] = moved.exec((await announcement.textContent()) ?? '')!;
  expect(Math.abs(Number(saidX.replace(/[.,](?=\d{3}\b)/g, '').replace(',', '.')) - keyed)).toBeLessThanOrEqual(1);
  await page.keyboard.press('Control+z');
  await expect.poll(() => numberIn(offsetX)).toBe(dragged);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => numberIn(offsetX)).toBe(keyed);
  // The shortcuts, in the page's language.
  await page.keyboard.press('?');
  const shortcuts = page.getByRole('dialog', { name: p.hotkeys.title });
  await expect(shortcuts).toContainText(p.hotkeys.list.undo.action);
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(shortcuts).toBeHidden();
  await zonesPanel.getByRole('button', { name: p.zones.confirm }).click();
  // Each confirmation hands the focus to the next step's heading (the button pressed is gone with its step).
  const stepHeading = (step: 2 | 3 | 4) => page.getByRole('heading', { level: 2, name: p.steps[step], exact: true });
  await expect(stepHeading(2)).toBeFocused();

  // Step 2: the grid; a changed spacing changes the live count; one spot removed by keyboard, one by click.
  const gridPanel = panel(page, texts, 2);
  const count = gridPanel.locator('.mp-spot-count strong');
  await expect(count).toBeVisible();
  const proposed = digits(await count.textContent());
  expect(proposed).toBeGreaterThan(100);
  await expectNoAxeViolations(page);
  const spacing = gridPanel.getByLabel(p.grid.spacing);
  // Typed as the UI language writes it (2,5 in German: the field refuses a decimal point there).
  await spacing.fill(String((await numberIn(spacing)) + 0.5).replace('.', lang === 'de' ? ',' : '.'));
  await expect.poll(async () => digits(await count.textContent())).toBeLessThan(proposed);
  const treated = digits(await count.textContent());
  // Leaving the step now would lose the change: the wizard asks first.
  const stepOne = page.getByRole('link', { name: new RegExp(p.steps[1]) });
  await stepOne.click();
  // Named by its heading, described by its question: what a screen reader says when it opens.
  const leave = page.getByRole('alertdialog', { name: p.unsaved.title });
  await expect(leave).toHaveAccessibleDescription(p.unsaved.text);
  await leave.getByRole('button', { name: p.unsaved.stay }).click();
  await expect(gridPanel).toBeVisible();
  // The focus goes back to where it was, once the dialog has closed.
  await expect(stepOne).toBeFocused();
  const cursor = page.getByRole('button', { name: p.spots.cursor });
  await cursor.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  const removed = gridPanel.getByText(fill(p.grid.removed_one, { value: 1 }));
  await expect(removed).toBeVisible();
  await expect.poll(async () => digits(await count.textContent())).toBe(treated - 1);
  const removedLabel = (await page.locator('.mp-canvas-handle').getAttribute('aria-label'))!;
  const [removedX, removedY] = [...removedLabel.matchAll(/-?[\d.,]+(?= µm)/g)].map((match) => Number(match[0].replace(/[.,](?=\d{3})/g, '')));
  await page.keyboard.press('Control+z');
  await expect(removed).toBeHidden();
  await page.keyboard.press('Control+y');
  await expect(removed).toBeVisible();
  // A click on the spot two to the left removes that one too (the cursor's ring shows where it is).
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const spot = (await page.locator('.mp-canvas-handle').boundingBox())!;
  await page.mouse.click(spot.x + spot.width / 2, spot.y + spot.height / 2);
  await expect(gridPanel.getByText(fill(p.grid.removed_other, { value: 2 }))).toBeVisible();
  const planned = treated - 2;
  await expect.poll(async () => digits(await count.textContent())).toBe(planned);
  await gridPanel.getByRole('button', { name: p.grid.confirm }).click();
  await expect(stepHeading(3)).toBeFocused();

  // Step 3: the power factors with their legend; confirmed as proposed.
  const brightnessPanel = panel(page, texts, 3);
  await expect(brightnessPanel.getByText(p.brightness.legend)).toBeVisible();
  await expectNoAxeViolations(page);
  await brightnessPanel.getByRole('button', { name: p.brightness.confirm }).click();
  await expect(stepHeading(4)).toBeFocused();

  // Step 4: the summary shows the plan; a wrong password is refused, the right one signs.
  const signOffPanel = panel(page, texts, 4);
  const thousands = new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB');
  await expect(signOffPanel.getByText(fill(p.summary.spotsValue, { treated: thousands.format(planned), removed: 2 }))).toBeVisible();
  await expectNoAxeViolations(page);
  await signOffPanel.getByText(p.signOff.confirmPlan).click();
  await expect(signOffPanel.getByLabel(p.signOff.confirmPlan)).toBeChecked();
  await signOffPanel.getByLabel(p.signOff.password).fill('Not-My-Password-1');
  await signOffPanel.getByRole('button', { name: p.signOff.submit }).click();
  await expect(signOffPanel.getByText(texts.api['auth.password_invalid'])).toBeVisible();
  await signOffPanel.getByLabel(p.signOff.password).fill(physician.password);
  await signOffPanel.getByRole('button', { name: p.signOff.submit }).click();

  // Step 5: packing, then the file's facts and its download.
  await expect(page.getByText(p.parameterSet.ready)).toBeVisible({ timeout: 30_000 });
  await expectNoAxeViolations(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: p.parameterSet.download }).click();
  const download = await downloading;
  const bytes = new Uint8Array(await readFile((await download.path())!));
  const read = readParameterSet(bytes);
  expect(read.ok).toBe(true);
  if (!read.ok) return;
  const { plan } = read.value.manifest;
  expect(plan.treatmentId).toBe(treatment.id);
  expect(plan.spots).toHaveLength(planned);
  expect(plan.signOff.by.id).toBeTruthy();
  // The spot removed by keyboard is not in the file (its position as the cursor named it, µm rounded).
  expect(plan.spots.some((s) => Math.round(s.xUm) === removedX && Math.round(s.yUm) === removedY)).toBe(false);
  await expect(page.getByText(download.suggestedFilename())).toBeVisible();
  // The treatment report for the record: a PDF named for the session, in the user's language.
  const reporting = page.waitForEvent('download');
  await page.getByRole('button', { name: p.parameterSet.report }).click();
  const report = await reporting;
  expect(report.suggestedFilename()).toBe(fill(texts.patients.treatmentReportFileName, { number: treatment.number, eye: treatment.eye, date: treatment.date.slice(0, 10) }));
  expect((await readFile((await report.path())!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The change history: every step of this plan, newest first, the sign-off with the physician's name.
  await page.getByRole('button', { name: p.history.open }).click();
  const history = page.getByRole('dialog', { name: p.history.title });
  const entries = history.getByRole('listitem');
  await expect(entries.first()).toContainText(texts.api['plan.audit.parameter_set_packed'].split('{{')[0].trim());
  await expect(history).toContainText(`${physician.firstName} ${physician.lastName}`);
  expect(await entries.count()).toBeGreaterThanOrEqual(6);
  await expectNoAxeViolations(page);
});

test('a tablet (768 × 1024): the image under half the screen, the step’s confirmation always at hand', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const treatment = await plannableSession(api);
  await page.setViewportSize({ width: 768, height: 1024 });
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));
  const zonesPanel = panel(page, texts, 1);
  await expect(zonesPanel).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  const frame = page.getByRole('application', { name: texts.planning.viewer.frameLabel });
  expect((await frame.boundingBox())!.height).toBeLessThanOrEqual(1024 / 2);
  // The step's confirmation without scrolling past the image, and still there at the panel's end.
  const confirm = zonesPanel.getByRole('button', { name: texts.planning.zones.confirm });
  await expect(confirm).toBeInViewport();
  await zonesPanel.getByLabel(texts.planning.zones.offsetY).scrollIntoViewIfNeeded();
  await expect(confirm).toBeInViewport();
  await expect(zonesPanel.getByLabel(texts.planning.zones.offsetY)).toBeInViewport();
  await expectNoAxeViolations(page);
});

test('a nurse prepares the plan but stops at sign-off; a physician’s change marks it Modified', async ({ page, staff, texts, playwright }) => {
  const nurse = await staff.create('clinic_nurses');
  const api = await apiAs(playwright, nurse);
  const treatment = await plannableSession(api);
  await planToSignOff(api, treatment);
  await signInToHome(page, texts, nurse);
  await page.goto(planningOf(treatment.id));
  const signOffPanel = panel(page, texts, 4);
  await expect(signOffPanel.getByText(texts.planning.signOff.physicianNeeded)).toBeVisible();
  await expect(signOffPanel.getByLabel(texts.planning.signOff.password)).toHaveCount(0);
  await expect(signOffPanel.getByRole('button', { name: texts.planning.signOff.submit })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // A physician changes the laser power of the plan the nurse prepared: the plan shows who changed it.
  const physician = await staff.create('clinic_physicians');
  const physicianApi = await apiAs(playwright, physician);
  const { plan } = ((await (await physicianApi.get(`/api/treatments/${treatment.id}`)).json()) as { data: Treatment }).data;
  const adjusted = await physicianApi.post(`/api/treatments/${treatment.id}/plan/final-adjustments`, { data: { revision: plan.revision, laserDose: 80 } });
  expect(adjusted.status(), await adjusted.text()).toBe(200);
  await page.reload();
  const byline = fill(texts.planning.modified, { name: `${physician.firstName} ${physician.lastName}`, date: '' }).trim();
  await expect(page.getByText(byline)).toBeVisible();
  await expect(panel(page, texts, 4).getByLabel(texts.planning.signOff.laserDose)).toHaveValue('80');
});

test('a locked session opens read-only with the lock message', async ({ page, staff, texts, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const treatment = await plannableSession(api);
  const report = await api.post(`/api/treatments/${treatment.id}/reports`, { data: { reason: 'The fovea was detected on a haemorrhage.' } });
  expect(report.status(), await report.text()).toBe(200);
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));
  const zonesPanel = panel(page, texts, 1);
  await expect(zonesPanel.getByText(texts.planning.locked)).toBeVisible();
  await expect(zonesPanel).toContainText('The fovea was detected on a haemorrhage.');
  await expect(zonesPanel.getByRole('button', { name: texts.planning.zones.confirm })).toHaveCount(0);
  await expect(zonesPanel.getByLabel(texts.planning.zones.offsetX)).toBeDisabled();
  await expect(page.getByRole('button', { name: texts.planning.zones.fazHandle })).toHaveCount(0);
  await expectNoAxeViolations(page);
});
