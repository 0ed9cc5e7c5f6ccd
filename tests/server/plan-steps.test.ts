// The plan steps of the wizard through HTTP (on PGlite, and on PostgreSQL with DATABASE_URL): a generated exam
// planned from the proposal to the final adjustments, each answer re-checked with the domain's invariant
// check; steps out of order, invalid geometry, powers beyond the device, going back (what it resets), two
// users saving the same revision, Modified, and the audit trail in English and German.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spotPowerMw } from '../../src/domain/planning/brightness';
import { checkPlan, type CheckedPlan } from '../../src/domain/planning/plan-invariants';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff, zonesAsProposed } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let clinicId: string;
const users: Record<string, { id: string; token: string }> = {};

async function member(role: string, firstName: string, lastName: string) {
  const user = await createUser(server.db, { clinicId, role, firstName, lastName });
  return { id: user.id, token: await sessionFor(server.db, user.id) };
}

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  users.physician = await member('clinic_physicians', 'Anna', 'Weber');
  users.otherPhysician = await member('clinic_physicians', 'Jonas', 'Brandt');
  users.nurse = await member('clinic_nurses', 'Miriam', 'Vogel');
  users.admin = await member('clinic_it_admins', 'Ida', 'Admin');
});
afterAll(() => server?.close());

let seed = 700;
/** A processed session of a new patient (640 × 480 synthetic fundus, laser settings 100 µm, 2 ×, 90 mW). */
async function newSession(): Promise<string> {
  seed += 1;
  const exam = await smallExam({ seed, name: `Plan${seed}`, secondName: 'Patient', deviceSideId: `PLAN-${seed}` });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const answer = await server.call<Body>('POST', '/treatments', { token: users.nurse.token, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await server.jobsIdle();
  return answer.body.data.treatment.id;
}

const plan = async (id: string, token = users.physician.token) => (await server.call<Body>('GET', `/treatments/${id}/plan`, { token })).body.data;
const save = (id: string, step: string, json: Body, token = users.physician.token, lang: 'en' | 'de' = 'en') =>
  server.call<Body>('POST', `/treatments/${id}/plan/${step}`, { token, json, lang });

/** The domain's invariant check over an answered plan. */
function problemsOf(current: Body, laserDose: number | null, powers: boolean) {
  return checkPlan({ ...(current as CheckedPlan), laserDose }, { field: current.imagedField, powers }).map((problem) => problem.code);
}

const throughBrightness = (id: string) => planToSignOff(server, id, users.physician.token);

describe('a session planned step by step', () => {
  it('goes from the proposal to the final adjustments, every answer keeping the invariants, with its audit trail in both languages', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    expect(proposed).toMatchObject({ step: 'initial_exclusion_boundaries', stepIndex: 0, revision: 0, gridSettings: null, spots: [] });
    expect(proposed.imagedField).toMatchObject({ width: 640, height: 480 });

    // Step 1: the zones as proposed; the server proposes the grid around the fovea.
    const zones = await save(id, 'exclusion-zones', { revision: 0, ...zonesAsProposed(proposed) }, users.nurse.token);
    expect(zones.status, JSON.stringify(zones.body)).toBe(200);
    expect(zones.body).toMatchObject({ message: 'Changes added successfully', data: { step: 'pre_macula_grid_pattern', stepIndex: 2, revision: 1 } });
    expect(zones.body.data.gridSettings).toEqual({ pattern: 'hexagonal', spotSizeUm: 100, spacing: 2, innerRadiusUm: 600, outerRadiusUm: 3000 });
    expect(zones.body.data.spots.length).toBeGreaterThan(50);
    expect(problemsOf(zones.body.data, null, false)).toEqual([]);

    // Step 2: the grid with two spots removed; the server proposes the powers.
    const removed = zones.body.data.spots.slice(0, 2).map((spot: Body) => spot.id);
    const grid = await save(id, 'macula-grid', { revision: 1, settings: zones.body.data.gridSettings, disabledSpotIds: removed }, users.nurse.token);
    expect(grid.status, JSON.stringify(grid.body)).toBe(200);
    expect(grid.body.data).toMatchObject({ step: 'pre_brightness', stepIndex: 4, revision: 2 });
    expect(grid.body.data.spots.filter((spot: Body) => !spot.enabled).map((spot: Body) => spot.id)).toEqual(removed);
    expect(grid.body.data.spots.map((spot: Body) => spot.id)).toEqual(zones.body.data.spots.map((spot: Body) => spot.id));
    const { brightness: model } = grid.body.data;
    expect(model).toMatchObject({ minFactor: 0.8, maxFactor: 1, gamma: 0.5, aboveTitration: null });
    expect(model.medianBrightness).toBeGreaterThan(0);
    for (const spot of grid.body.data.spots) expect(spot.powerMw).toBe(spotPowerMw(90, spot.powerFactor));

    // Step 3: a narrower lower bound; never above the titrated power; the plan moves on to sign-off.
    const brightness = await save(id, 'brightness', { revision: 2, minFactor: 0.9, maxFactor: 1 }, users.nurse.token);
    expect(brightness.status, JSON.stringify(brightness.body)).toBe(200);
    expect(brightness.body.data).toMatchObject({ step: 'confirm_sign_off', stepIndex: 6, revision: 3, brightness: { minFactor: 0.9, maxFactor: 1 } });
    const factors = brightness.body.data.spots.map((spot: Body) => spot.powerFactor);
    expect(Math.min(...factors)).toBeGreaterThanOrEqual(0.9);
    expect(Math.max(...factors)).toBeLessThanOrEqual(1);
    expect(problemsOf(brightness.body.data, 90, true)).toEqual([]);

    // Step 4: the physician raises the dose: powers follow the confirmed factors, and the nurse's plan is Modified.
    const final = await save(id, 'final-adjustments', { revision: 3, laserDose: 95, pulseDurationMs: 20 });
    expect(final.status, JSON.stringify(final.body)).toBe(200);
    expect(final.body.data).toMatchObject({ step: 'confirm_sign_off', revision: 4 });
    expect(final.body.data.spots).toHaveLength(grid.body.data.spots.length);
    for (const spot of final.body.data.spots) expect(spot.powerMw).toBe(spotPowerMw(95, spot.powerFactor));
    expect(problemsOf(final.body.data, 95, true)).toEqual([]);
    const session = (await server.call<Body>('GET', `/treatments/${id}`, { token: users.physician.token })).body.data;
    expect(session).toMatchObject({ laserDose: 95, pulseDurationMs: 20, spotSizeUm: 100, spotSpacing: 2 });
    expect(session.totalSpots).toBe(final.body.data.spots.length - 2);
    expect(session.modified).toMatchObject({ by: { id: users.physician.id, name: 'Anna Weber' } });

    const trail = await server.call<Body>('GET', `/treatments/${id}/audit`, { token: users.nurse.token });
    expect(trail.status).toBe(200);
    expect(trail.body.data.map((entry: Body) => [entry.action, entry.revision, entry.by?.name ?? null])).toEqual([
      ['proposed', 0, null],
      ['exclusion_zones_saved', 1, 'Miriam Vogel'],
      ['macula_grid_saved', 2, 'Miriam Vogel'],
      ['brightness_saved', 3, 'Miriam Vogel'],
      ['final_adjustments_saved', 4, 'Anna Weber'],
    ]);
    const spots = grid.body.data.spots.length;
    expect(trail.body.data[2].summary).toBe(
      `Macula grid confirmed: hexagonal, spot size 100 µm, spacing 2 × spot diameter, ring 600–3000 µm, ${spots} spots (2 removed).`,
    );
    expect(trail.body.data[3].summary).toMatch(/^Brightness confirmed: median 0\.\d+, power factor 0\.9–1\.( \d+ spots outside ordinary fundus left out of the median and kept at most at the titrated power\.)?$/);
    expect(trail.body.data[4].summary).toBe('Final adjustments saved: sub-visible laser power 90 → 95 mW, pulse duration 15 → 20 ms.');
    const german = await server.call<Body>('GET', `/treatments/${id}/audit`, { token: users.nurse.token, lang: 'de' });
    expect(german.body.data[2].summary).toBe(
      `Makula-Raster bestätigt: hexagonal, Spotgröße 100 µm, Spotabstand 2 × Spotdurchmesser, Ring 600–3000 µm, ${spots} Spots (2 entfernt).`,
    );
    expect(german.body.data[3].summary).toMatch(/^Helligkeit bestätigt: Median 0,\d+, Leistungsfaktor 0,9–1\.( \d+ Spots außerhalb des gewöhnlichen Fundus aus dem Median ausgenommen und höchstens mit der titrierten Leistung\.)?$/);
    expect(german.body.data[4].summary).toBe('Letzte Anpassungen gespeichert: subvisuelle Laserleistung 90 → 95 mW, Pulsdauer 15 → 20 ms.');
  });

  it('going back to the zones discards the grid and the powers (and says so), keeping the laser settings', async () => {
    const id = await newSession();
    const atSignOff = await throughBrightness(id);
    const current = await plan(id);
    const moved = zonesAsProposed(current);
    moved.faz.center = { x: moved.faz.center.x + 3, y: moved.faz.center.y - 2 };
    const again = await save(id, 'exclusion-zones', { revision: atSignOff.revision, ...moved });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ step: 'pre_macula_grid_pattern', brightness: null, fovea: moved.faz.center });
    expect(again.body.data.spots.length).toBeGreaterThan(50);
    expect(again.body.data.spots.every((spot: Body) => spot.powerMw == null && spot.enabled)).toBe(true);
    const trail = (await server.call<Body>('GET', `/treatments/${id}/audit`, { token: users.physician.token })).body.data;
    expect(trail.at(-1).summary).toMatch(/ Reset: macula grid, brightness\.$/);
    const session = (await server.call<Body>('GET', `/treatments/${id}`, { token: users.physician.token })).body.data;
    expect(session).toMatchObject({ laserDose: 90, pulseDurationMs: 15, laserMode: 'micropulse', brightness: null });
  });
});

describe('refused saves change nothing', () => {
  it('takes the steps in order only', async () => {
    const id = await newSession();
    const current = await plan(id);
    const grid = await save(id, 'macula-grid', { revision: 0, settings: { pattern: 'square', spotSizeUm: 100, spacing: 2, innerRadiusUm: 500, outerRadiusUm: 2500 } });
    expect(grid.status).toBe(409);
    expect(grid.body).toMatchObject({ code: 'plan.step_out_of_order', message: 'Please confirm the exclusion zones first.' });
    const final = await save(id, 'final-adjustments', { revision: 0, laserDose: 80 }, users.physician.token, 'de');
    expect(final.body).toMatchObject({ code: 'plan.step_out_of_order', message: 'Bitte bestätigen Sie zuerst den Schritt „Helligkeit“.' });
    expect(await plan(id)).toEqual(current);
  });

  it('refuses zones off the image or overlapping, naming the zone', async () => {
    const id = await newSession();
    const current = await plan(id);
    const off = zonesAsProposed(current);
    off.onh.center = { x: 5000, y: 100 };
    const outside = await save(id, 'exclusion-zones', { revision: 0, ...off });
    expect(outside.status).toBe(422);
    expect(outside.body).toMatchObject({ code: 'plan.geometry_invalid', message: 'Please check the exclusion zones.', errors: { 'onh.center': ['The centre of an exclusion zone must lie within the image.'] } });
    const over = zonesAsProposed(current);
    over.onh.center = { ...over.faz.center };
    const overlapping = await save(id, 'exclusion-zones', { revision: 0, ...over }, users.physician.token, 'de');
    expect(overlapping.body).toMatchObject({ code: 'plan.geometry_invalid', errors: { onh: ['FAZ- und Papillenzone dürfen sich nicht überschneiden.'] } });
    expect(await plan(id)).toEqual(current);
  });

  it('refuses grid settings that cannot be laid out, and spots the grid does not have', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    const zones = (await save(id, 'exclusion-zones', { revision: 0, ...zonesAsProposed(proposed) })).body.data;
    const settings = zones.gridSettings;
    const cases: [Body, number, string, string][] = [
      [{ settings: { ...settings, innerRadiusUm: 3000, outerRadiusUm: 2000 } }, 422, 'plan.geometry_invalid', 'settings.outerRadiusUm'],
      [{ settings: { ...settings, spotSizeUm: 50, spacing: 0.5, outerRadiusUm: 6000 } }, 422, 'plan.too_many_spots', 'settings.spacing'],
      [{ settings, disabledSpotIds: [9] }, 422, 'request.invalid', 'disabledSpotIds'],
    ];
    for (const [body, status, code, field] of cases) {
      const answer = await save(id, 'macula-grid', { revision: 1, ...body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.code).toBe(code);
      expect(Object.keys(answer.body.errors)).toEqual([field]);
    }
    expect((await save(id, 'macula-grid', { revision: 1, settings, disabledSpotIds: [9] })).body.errors.disabledSpotIds).toEqual(['Spot 9 does not exist in this plan.']);
    expect(await plan(id)).toEqual(zones);
  });

  it('refuses a laser dose whose powers leave the device limits (409), keeping the plan as it was', async () => {
    const id = await newSession();
    const atSignOff = await throughBrightness(id);
    // The test clinic's laser sets 50–1500 mW in micropulse (server/seed/laser-profiles.ts).
    const answer = await save(id, 'final-adjustments', { revision: atSignOff.revision, laserDose: 55 });
    expect(answer.status).toBe(409);
    const under = atSignOff.spots.filter((spot: Body) => spot.enabled && spotPowerMw(55, spot.powerFactor) < 50).length;
    expect(under).toBeGreaterThan(0);
    expect(answer.body).toMatchObject({ code: 'plan.power_out_of_limits', message: `At a sub-visible laser power of 55 mW the power of ${under} spots is outside the limits of the laser device.` });
    expect(answer.body.errors.laserDose).toHaveLength(1);
    expect(await plan(id)).toEqual(atSignOff);
  });
});

describe('two users on one plan', () => {
  it('saving the same revision at once: one wins, the other gets 409 with the current plan, and nothing is lost', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    const mine = zonesAsProposed(proposed);
    const theirs = zonesAsProposed(proposed);
    theirs.faz.radiusXPx = theirs.faz.radiusYPx = proposed.exclusionZones.faz.radiusXPx + 2;
    const answers = await Promise.all([
      save(id, 'exclusion-zones', { revision: 0, ...mine }, users.physician.token),
      save(id, 'exclusion-zones', { revision: 0, ...theirs }, users.otherPhysician.token),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const won = answers.find((answer) => answer.status === 200)!;
    const lost = answers.find((answer) => answer.status === 409)!;
    expect(lost.body).toMatchObject({ code: 'plan.revision_stale', plan: { revision: 1 } });
    expect(lost.body.plan).toEqual(won.body.data);
    expect(await plan(id)).toEqual(won.body.data);
    // The loser saves again from what they were shown: their change goes in on top.
    const retry = await save(id, 'exclusion-zones', { revision: lost.body.plan.revision, ...(won === answers[0] ? theirs : mine) }, users.otherPhysician.token);
    expect(retry.status).toBe(200);
    expect(retry.body.data.revision).toBe(2);
    const trail = (await server.call<Body>('GET', `/treatments/${id}/audit`, { token: users.physician.token })).body.data;
    expect(trail.map((entry: Body) => entry.revision)).toEqual([0, 1, 2]);
  });

  it('an IT admin may not plan (403), as x-roles says', async () => {
    const id = await newSession();
    const proposed = await plan(id);
    expect((await save(id, 'exclusion-zones', { revision: 0, ...zonesAsProposed(proposed) }, users.admin.token)).status).toBe(403);
    expect((await server.call('GET', `/treatments/${id}/audit`, { token: users.admin.token })).status).toBe(403);
  });
});
