// The previous treatment on today's image (issue 17): Maria Schneider's second demo session shows her first
// session's spots, registered by the vessels, in the planner and in its image on the card; and a patient of the journey's own, planned once and
// photographed again, is warned that today's grid lies on the earlier spots — planning over them still works.
import type { APIRequestContext } from '@playwright/test';
import type { Treatment } from '../../generated/model/treatment';
import { buildSampleExam } from '../../server/seed/sample-exam';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { apiAs, uniqueTag, uploadedSession } from './patients';
import { signInToHome } from './session';
import { fill } from './texts';

const planningOf = (id: string) => `/physician/planning?treatmentId=${id}`;
const dateOf = (timestamp: string, lang: string) =>
  new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(timestamp));

/** An exam's bytes uploaded; the session once processed, in planning. */
async function uploaded(api: APIRequestContext, bytes: Uint8Array, patientId?: string): Promise<Treatment> {
  const treatment = await uploadedSession(api, { name: 'exam.npt', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) }, patientId);
  expect(treatment.planStatus).toBe('planning');
  return treatment;
}

test('Maria Schneider’s second session shows the spots of her first, laid on by the vessels', async ({ page, staff, texts, lang, playwright }) => {
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const patients = (await (await api.get('/api/patients?search=Maria%20Schneider')).json()) as { data: { id: string }[] };
  const sessions = (await (await api.get(`/api/patients/${patients.data[0].id}/treatments`)).json()) as { data: Treatment[] };
  const [second, first] = sessions.data;
  const p = texts.previousTreatment;
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(second.id));

  const previous = page.getByRole('group', { name: p.label });
  // The demo's laser reported her first session treated: it is named by that day, its spots are those delivered.
  expect(first.transfer).toMatchObject({ status: 'treated' });
  const session = fill(p.session_treated, { number: 1, date: dateOf(first.transfer!.finishedAt!, lang) });
  const show = previous.getByRole('checkbox', { name: fill(p.show, { session }) });
  await expect(show).toBeChecked({ timeout: 30_000 });
  await expect(previous).toContainText(p.reported);
  await expect(previous).toContainText(fill(p.detail_treated_other, { count: first.transfer!.deliveredSpots!, method: p.method.vessels, uncertainty: '' }).split('±')[0]);
  await expect(previous).toContainText(p.method.vessels);
  await expect(previous).toContainText(/±\d+ µm/);
  await expectNoAxeViolations(page);
  // Blueprint's switch is a checkbox drawn by its label: the label takes the click.
  await previous.getByText(fill(p.show, { session })).click();
  await expect(show).not.toBeChecked();

  // On the card: the second session's image, opened large, carries the first's spots too.
  await page.goto(`/physician/patient-card?patientId=${patients.data[0].id}`);
  const card = texts.patientCard;
  const secondCard = page.getByRole('article', { name: fill(card.session.title, { number: 2, date: dateOf(second.date, lang) }) });
  await secondCard.getByRole('button', { name: card.session.imageAndMarks }).click();
  const dialog = page.getByRole('dialog');
  const onCard = dialog.getByRole('group', { name: p.label });
  await expect(onCard.getByRole('checkbox', { name: fill(p.show, { session }) })).toBeChecked({ timeout: 30_000 });
  await expect(onCard).toContainText(p.method.vessels);
  await expect(dialog.locator('.mp-previous-svg circle').first()).toBeAttached();
  await expectNoAxeViolations(page);
});

test('planning over an earlier treatment: today’s spots on earlier ones are counted, and the grid can still be confirmed', async ({ page, staff, texts, playwright }) => {
  test.setTimeout(120_000);
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const person = { name: 'Rita', secondName: tag, birthday: '1949-07-01', gender: 'female' as const, eye: 'OS' as const, width: 800, height: 600, deviceSideId: `PT-${tag}` };
  const earlier = await uploaded(api, (await buildSampleExam({ ...person, seed: 7101, capturedAt: '2026-03-02T10:00:00+01:00' })).bytes);
  const post = async (id: string, path: string, data: object) => {
    const response = await api.post(`/api/treatments/${id}/plan/${path}`, { data });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { data: Treatment['plan'] }).data;
  };
  const zones = earlier.plan.exclusionZones!;
  const shape = (zone: typeof zones.faz) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  const planned = await post(earlier.id, 'exclusion-zones', { revision: earlier.plan.revision, faz: shape(zones.faz), onh: shape(zones.onh) });
  await post(earlier.id, 'macula-grid', { revision: planned.revision, settings: planned.gridSettings });
  const today = await uploaded(
    api,
    (
      await buildSampleExam({
        ...person,
        seed: 7102,
        capturedAt: '2026-06-02T10:00:00+02:00',
        sameEyeAs: { seed: 7101, pose: { rotationDeg: 4, scale: 0.97, shiftPx: { x: -20, y: 12 }, gain: 0.9 } },
      })
    ).bytes,
    earlier.patientId,
  );

  const p = texts.planning;
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(today.id));
  const previous = page.getByRole('group', { name: texts.previousTreatment.label });
  await expect(previous).toContainText(texts.previousTreatment.notSignedOff, { timeout: 30_000 });
  await page.getByRole('button', { name: p.zones.confirm }).click();
  // Step 2: the same grid again lies on the earlier spots — counted and said.
  const warning = previous.getByRole('status');
  await expect(warning).toContainText(/\d+/, { timeout: 30_000 });
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: p.grid.confirm }).click();
  await expect(page.getByRole('region', { name: p.steps[3] })).toBeVisible({ timeout: 30_000 });
});

test('every earlier planned session of the eye can be shown, chosen by its number and date', async ({ page, staff, texts, lang, playwright }) => {
  test.setTimeout(150_000);
  const physician = await staff.create('clinic_physicians');
  const api = await apiAs(playwright, physician);
  const tag = uniqueTag();
  const person = { name: 'Jonas', secondName: tag, birthday: '1952-02-11', gender: 'male' as const, eye: 'OD' as const, width: 800, height: 600, deviceSideId: `PS-${tag}` };
  const again = (seed: number, capturedAt: string, rotationDeg: number) =>
    buildSampleExam({ ...person, seed, capturedAt, sameEyeAs: { seed: 7201, pose: { rotationDeg, scale: 1, shiftPx: { x: 10, y: -6 }, gain: 1 } } });
  /** A session whose grid is confirmed (a draft plan). */
  async function planned(bytes: Uint8Array, patientId?: string): Promise<Treatment> {
    const session = await uploaded(api, bytes, patientId);
    const zones = session.plan.exclusionZones!;
    const shape = (zone: typeof zones.faz) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
    const step1 = await api.post(`/api/treatments/${session.id}/plan/exclusion-zones`, { data: { revision: session.plan.revision, faz: shape(zones.faz), onh: shape(zones.onh) } });
    const plan = ((await step1.json()) as { data: Treatment['plan'] }).data;
    expect((await api.post(`/api/treatments/${session.id}/plan/macula-grid`, { data: { revision: plan.revision, settings: plan.gridSettings } })).status()).toBe(200);
    return session;
  }
  const first = await planned((await buildSampleExam({ ...person, seed: 7201, capturedAt: '2026-02-02T10:00:00+01:00' })).bytes);
  const second = await planned((await again(7202, '2026-05-04T10:00:00+02:00', 3)).bytes, first.patientId);
  const today = await uploaded(api, (await again(7203, '2026-09-07T10:00:00+02:00', -3)).bytes, first.patientId);

  const p = texts.previousTreatment;
  await signInToHome(page, texts, physician);
  await page.goto(planningOf(today.id));
  const previous = page.getByRole('group', { name: p.label });
  const choice = previous.getByRole('combobox', { name: p.choose });
  // The latest is shown first; both are offered, newest first, each said to be a draft.
  await expect(choice).toHaveValue(second.id, { timeout: 30_000 });
  const options = [second, first].map((session, index) => fill(p.optionDraft, { number: 2 - index, date: dateOf(session.date, lang) }));
  await expect(choice.getByRole('option')).toHaveText(options);
  await expect(previous.getByRole('checkbox', { name: fill(p.show, { session: fill(p.session, { number: 2, date: dateOf(second.date, lang) }) }) })).toBeChecked({
    timeout: 60_000,
  });
  await expectNoAxeViolations(page);

  // Session 1 instead: laid onto today's image in its turn, then shown.
  await choice.selectOption(first.id);
  await expect(previous.getByRole('checkbox', { name: fill(p.show, { session: fill(p.session, { number: 1, date: dateOf(first.date, lang) }) }) })).toBeChecked({
    timeout: 60_000,
  });
  await expect(choice).toHaveValue(first.id);
  await expect(previous).toContainText(p.notSignedOff);
});
