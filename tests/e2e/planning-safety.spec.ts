// The wizard says why a plan would be refused before the user saves it (issue 26, docs/clinical-limits.md): an
// ONH zone drawn too small for the disc and its margin (step 1); a FAZ shrunk and a ring from 0 µm, so that spots
// come closer to the fovea than the foveal minimum (step 2), counted and measured as the server would; the
// spots left out of the brightness median (step 3); a bound above the titrated power only by a physician's
// explicit choice, which a nurse cannot make. The confirm button stays disabled while a refusal stands.
import { randomInt } from 'node:crypto';
import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import sharp from 'sharp';
import type { Language } from '../../generated/model/language';
import type { Treatment } from '../../generated/model/treatment';
import { paintSyntheticFundus } from '../../src/domain/fundus/synthetic-fundus';
import { DEFAULT_CLINICAL_LIMITS, fovealMinimumUm } from '../../src/domain/planning/clinical-limits';
import { retinaFrame } from '../../src/domain/planning/frames';
import { gridSurroundings, layOutGrid } from '../../src/domain/planning/macula-grid';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { setCheckbox } from './form-controls';
import { apiAs, examFile, uniqueTag, uploadedSession } from './patients';
import { signInToHome } from './session';
import { fill, type Texts } from './texts';

const planningOf = (id: string, step?: number) => `/physician/planning?treatmentId=${id}${step === undefined ? '' : `&step=${step}`}`;
const panel = (page: Page, texts: Texts, step: 1 | 2 | 3) => page.getByRole('region', { name: texts.planning.steps[step] });
const numbers = (lang: Language) => new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB');
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A message of the catalogue as a pattern: the named placeholders filled in, the others anything. */
const message = (template: string, values: Record<string, string | number>) =>
  new RegExp(
    escaped(template).replace(/\\\{\\\{(\w+)\\\}\\\}/g, (_, name: string) => (name in values ? escaped(String(values[name])) : '.+?')),
  );
/** A field by its label, which says "≈" after it when the plan's scale is estimated. */
const field = (scope: Locator, label: string) => scope.getByRole('spinbutton', { name: new RegExp(`^${escaped(label)}( ≈)?$`) });

/**
 * A new patient's session, once processing has proposed its zones, from a right eye's synthetic fundus with
 * bright exudate-like patches and a dark blot in the macula, so that some spots lie outside ordinary fundus.
 * The photograph is wrapped without a scale, as a camera's may be: the scale is estimated from disc and fovea.
 */
async function plannableSession(api: APIRequestContext, testInfo: TestInfo): Promise<Treatment> {
  const { raster, truth, umPerPixel } = paintSyntheticFundus({ width: 640, height: 480, eye: 'OD', seed: randomInt(1, 2 ** 31) });
  const patch = (xUm: number, yUm: number, radiusUm: number, colour: [number, number, number]) => {
    const cx = truth.fovea.x + xUm / umPerPixel;
    const cy = truth.fovea.y - yUm / umPerPixel;
    const r = radiusUm / umPerPixel;
    for (let y = Math.floor(cy - r); y <= cy + r; y++) {
      for (let x = Math.floor(cx - r); x <= cx + r; x++) {
        if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= r) raster.data.set(colour, (y * raster.width + x) * 3);
      }
    }
  };
  for (const [xUm, yUm] of [[1300, 400], [1500, -300], [-1100, 1200], [-1400, -900], [400, 1800]]) patch(xUm, yUm, 150, [250, 236, 160]);
  patch(-2000, 300, 150, [70, 14, 10]);
  const image = testInfo.outputPath('fundus.png');
  await sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), { raw: { width: raster.width, height: raster.height, channels: 3 } })
    .png()
    .toFile(image);
  const treatment = await uploadedSession(api, await examFile({ name: 'Ida', secondName: uniqueTag(), image, eye: 'OD' }));
  expect(treatment.planStatus).toBe('planning');
  return treatment;
}

async function saved(api: APIRequestContext, treatment: Treatment, path: string, data: object): Promise<Treatment['plan']> {
  const response = await api.post(`/api/treatments/${treatment.id}/plan/${path}`, { data });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: Treatment['plan'] }).data;
}

test('a physician sees each refusal before saving: the ONH too small, spots too close to the fovea; the spots left out of the median; a bound above the titration chosen explicitly', async ({
  page,
  staff,
  texts,
  playwright,
  lang,
}, testInfo) => {
  test.setTimeout(180_000);
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const treatment = await plannableSession(api, testInfo);
  expect(treatment.plan.scale!.source).toBe('estimated');
  const p = texts.planning;
  const n = numbers(lang);
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(treatment.id));

  // Step 1: the scale is estimated, and the step says how uncertain its µm are. The ONH zone drawn smaller than
  // the disc with its 600 µm margin.
  const zones = panel(page, texts, 1);
  await expect(zones.getByText(fill(p.safety.estimated, { percent: 7 }))).toBeVisible();
  // The viewer's scale says so too, and its scale bar is approximate.
  const [before, after] = fill(p.viewer.scaleEstimated, { value: '@', percent: 7 }).split('@');
  await expect(page.getByText(new RegExp(`^${escaped(before)}[\\d.,]+${escaped(after)}$`))).toBeVisible();
  await expect(page.getByText(/^≈[\d.,]+ µm$/)).toBeVisible();
  const confirmZones = zones.getByRole('button', { name: p.zones.confirm });
  await expect(confirmZones).toBeEnabled();
  const onh = zones.getByRole('group', { name: p.zones.onh });
  await field(onh, p.zones.radiusX).fill('100');
  await field(onh, p.zones.radiusY).fill('100');
  const refusal = zones.getByRole('alert').filter({ hasText: p.safety.title });
  await expect(refusal).toContainText(message(p.safety.discNotCovered, { margin: n.format(600) }));
  await expect(confirmZones).toBeDisabled();
  await expect(confirmZones).toHaveAccessibleDescription(message(p.safety.discNotCovered, { margin: n.format(600) }));
  await expectNoAxeViolations(page);
  // Undone, the zone holds the disc again and may be confirmed.
  await zones.getByRole('button', { name: p.undo, exact: true }).click();
  await zones.getByRole('button', { name: p.undo, exact: true }).click();
  await expect(refusal).toHaveCount(0);
  await expect(confirmZones).toBeEnabled();

  // The FAZ shrunk to 100 µm: allowed (the proposed ring still starts at the foveal minimum), and said so.
  const minimum = fovealMinimumUm(DEFAULT_CLINICAL_LIMITS);
  await field(zones.getByRole('group', { name: p.zones.faz }), p.zones.radius).fill('100');
  await expect(zones.getByText(fill(p.safety.fazBelowMinimum, { value: n.format(minimum) }))).toBeVisible();
  await confirmZones.click();

  // Step 2: the ring from 0 µm. The grid as the server lays it out, to count the spots too close and the closest.
  const grid = panel(page, texts, 2);
  await expect(grid.getByRole('button', { name: p.grid.confirm })).toBeEnabled();
  const { plan } = ((await (await api.get(`/api/treatments/${treatment.id}`)).json()) as { data: Treatment }).data;
  const settings = { ...plan.gridSettings!, innerRadiusUm: 0 };
  const frame = retinaFrame(plan.fovea!, plan.scale!.umPerPixel);
  const spots = layOutGrid(settings, gridSurroundings(frame, [plan.exclusionZones!.faz, plan.exclusionZones!.onh], plan.imagedField!));
  const edges = spots.map((spot) => Math.hypot(spot.xUm, spot.yUm) - settings.spotSizeUm / 2).filter((edge) => edge < minimum);
  expect(edges.length).toBeGreaterThan(1);
  await field(grid, p.grid.innerRadius).fill('0');
  const tooClose = message(p.safety.spotNearFovea_other, { value: n.format(edges.length), minimum: n.format(minimum), closest: n.format(Math.floor(Math.min(...edges))) });
  await expect(grid.getByRole('alert').filter({ hasText: p.safety.title })).toContainText(tooClose);
  await expect(grid.getByRole('button', { name: p.grid.confirm })).toBeDisabled();
  // The spots too close are marked on the image, and the legend says what the mark means.
  await expect(page.getByRole('list', { name: p.legend.label }).getByText(p.safety.nearFovea)).toBeVisible();
  await expectNoAxeViolations(page);
  // Back to the foveal minimum: confirmed.
  await field(grid, p.grid.innerRadius).fill(String(minimum));
  await expect(grid.getByRole('alert').filter({ hasText: p.safety.title })).toHaveCount(0);
  const answer = page.waitForResponse((response) => response.url().includes('/plan/macula-grid'));
  await grid.getByRole('button', { name: p.grid.confirm }).click();
  const withPowers = ((await (await answer).json()) as { data: Treatment['plan'] }).data;

  // Step 3: the spots left out of the median (on the patches), counted as the server counted them, marked.
  const brightness = panel(page, texts, 3);
  const excluded = withPowers.brightness!.excludedSpots ?? 0;
  expect(excluded).toBeGreaterThan(1);
  await expect(brightness.getByText(fill(p.brightness.outliers.title_other, { value: n.format(excluded) }))).toBeVisible();
  await expect(brightness.getByText(p.brightness.outliers.capped)).toBeVisible();
  await expect(page.getByRole('list', { name: p.legend.label }).getByText(p.brightness.outliers.legendBright)).toBeVisible();
  await expect(brightness.getByText(p.brightness.aid)).toBeVisible();
  // A bound above the titrated power needs the physician's explicit choice.
  const confirmBrightness = brightness.getByRole('button', { name: p.brightness.confirm });
  await field(brightness, p.brightness.maxFactor).fill(lang === 'de' ? '1,2' : '1.2');
  const choice = brightness.getByRole('checkbox', { name: p.brightness.titrated.confirm });
  await expect(choice).not.toBeChecked();
  await expect(confirmBrightness).toBeDisabled();
  await expect(confirmBrightness).toHaveAccessibleDescription(p.brightness.titrated.needsConfirmation);
  await expectNoAxeViolations(page);
  await setCheckbox(choice, true);
  await expect(confirmBrightness).toBeEnabled();
  await confirmBrightness.click();
  await expect(page.getByRole('region', { name: p.steps[4] })).toBeVisible({ timeout: 15_000 });
  // Back at step 3, the plan says who chose it.
  await page.goto(planningOf(treatment.id, 3));
  await expect(panel(page, texts, 3).getByText(message(p.brightness.titrated.chosen, { name: `${physician.firstName} ${physician.lastName}` }))).toBeVisible();
});

test('a nurse sees the spots left out of the median and the upper bound fixed at the titrated power', async ({ page, staff, texts, playwright, lang }, testInfo) => {
  const nurse = await staff.create('clinic_nurses');
  const api = await apiAs(playwright, nurse);
  const treatment = await plannableSession(api, testInfo);
  const zones = treatment.plan.exclusionZones!;
  const shape = (zone: typeof zones.faz) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  const atGrid = await saved(api, treatment, 'exclusion-zones', { revision: treatment.plan.revision, faz: shape(zones.faz), onh: shape(zones.onh) });
  const atBrightness = await saved(api, treatment, 'macula-grid', { revision: atGrid.revision, settings: atGrid.gridSettings });
  const p = texts.planning;
  await signInToHome(page, texts, nurse);
  await page.goto(planningOf(treatment.id, 3));

  const brightness = panel(page, texts, 3);
  const excluded = atBrightness.brightness!.excludedSpots ?? 0;
  expect(excluded).toBeGreaterThan(1);
  await expect(brightness.getByText(fill(p.brightness.outliers.title_other, { value: numbers(lang).format(excluded) }))).toBeVisible();
  const upper = field(brightness, p.brightness.maxFactor);
  await expect(upper).toBeDisabled();
  await expect(upper).toHaveValue('1');
  await expect(brightness.getByText(p.brightness.titrated.nurse)).toBeVisible();
  await expect(brightness.getByRole('checkbox', { name: p.brightness.titrated.confirm })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await brightness.getByRole('button', { name: p.brightness.confirm }).click();
  await expect(page.getByRole('region', { name: p.steps[4] })).toBeVisible({ timeout: 15_000 });
});
