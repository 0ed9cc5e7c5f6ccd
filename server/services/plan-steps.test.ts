// The rules of the wizard's plan steps, called as services without HTTP: a read and every save audited, a save
// kept in the plan's trail, refused from a stale revision, out of order, on a locked or signed-off session, a
// bound above the titrated power a physician's choice, and a physician's change to a plan someone else prepared
// marking the session Modified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { plannedToSignOff, planningServer, processedSession, zonesAsProposed } from '../../tests/server/planning';
import { auditEntries, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { signOff } from './parameter-set';
import { readPlan, saveBrightness, saveExclusionZones, saveFinalAdjustments, saveMaculaGrid } from './plan-steps';
import { reportIssue } from './treatment-changes';

let server: TestServer;
let physician: Actor;
let nurse: Actor;

beforeAll(async () => {
  ({ server, physician, nurse } = await planningServer());
});
afterAll(() => server?.close());

let seed = 5100;
const newSession = () => processedSession(server, nurse, (seed += 1));

/** The session's row as stored (what a refused save must leave alone). */
const stored = (treatmentId: string) =>
  server.db.selectFrom('treatments').select(['step', 'plan_revision', 'modified_by', 'modified_by_name']).where('id', '=', treatmentId).executeTakeFirstOrThrow();

const trail = (treatmentId: string) =>
  server.db.selectFrom('plan_changes').select(['action', 'user_id', 'revision']).where('treatment_id', '=', treatmentId).orderBy('revision').orderBy('at').execute();

describe('plan steps service', () => {
  it('reads the plan and audits the read with its patient', async () => {
    const { treatmentId, patientId } = await newSession();
    const plan = await readPlan(server.ctx, physician, treatmentId);
    expect(plan).toMatchObject({ step: 'initial_exclusion_boundaries', stepIndex: 0, revision: 0 });
    expect(plan.safety?.limits).toBeTruthy();
    const read = await server.db.selectFrom('audit_log').select(['actor_id', 'patient_ids']).where('action', '=', 'plan.read').where('target_id', '=', treatmentId).execute();
    expect(read).toEqual([{ actor_id: physician.userId, patient_ids: [patientId] }]);
  });

  it('saves a step, answers the plan as it now stands, keeps it in the trail and audits it', async () => {
    const { treatmentId } = await newSession();
    const proposed = await readPlan(server.ctx, nurse, treatmentId);
    const saved = await saveExclusionZones(server.ctx, nurse, treatmentId, { revision: proposed.revision, ...zonesAsProposed(proposed) });
    expect(saved).toMatchObject({ step: 'pre_macula_grid_pattern', stepIndex: 2, revision: 1 });
    expect(saved.spots.length).toBeGreaterThan(0);
    expect(await trail(treatmentId)).toContainEqual({ action: 'exclusion_zones_saved', user_id: nurse.userId, revision: 1 });
    const audited = await auditEntries(server.db, 'plan.exclusion_zones_saved', treatmentId);
    expect(audited).toMatchObject([{ actor_id: nurse.userId, actor_role: 'clinic_nurses', outcome: 'success' }]);
  });

  it('refuses a save from a stale revision with 409 and the current plan, changing nothing', async () => {
    const { treatmentId } = await newSession();
    const proposed = await readPlan(server.ctx, nurse, treatmentId);
    const zones = { revision: proposed.revision, ...zonesAsProposed(proposed) };
    await saveExclusionZones(server.ctx, nurse, treatmentId, zones);
    const stale = await refusal(saveExclusionZones(server.ctx, physician, treatmentId, zones));
    expect(stale).toMatchObject({ status: 409, code: 'plan.revision_stale' });
    expect(stale.extra.plan).toMatchObject({ revision: 1, step: 'pre_macula_grid_pattern' });
    expect(await stored(treatmentId)).toMatchObject({ plan_revision: 1, modified_by: null });
    expect(await auditEntries(server.db, 'plan.exclusion_zones_saved', treatmentId)).toHaveLength(1);
  });

  it('takes the steps in order: no brightness before the grid, no final adjustments before the brightness', async () => {
    const { treatmentId } = await newSession();
    const early = await refusal(saveBrightness(server.ctx, nurse, treatmentId, { revision: 0 }));
    expect(early).toMatchObject({ status: 409, code: 'plan.step_out_of_order', key: 'plan.grid_first' });
    const final = await refusal(saveFinalAdjustments(server.ctx, nurse, treatmentId, { revision: 0, laserDose: 90 }));
    expect(final).toMatchObject({ status: 409, code: 'plan.step_out_of_order', key: 'plan.brightness_first' });
    expect(await stored(treatmentId)).toMatchObject({ step: 'initial_exclusion_boundaries', plan_revision: 0 });
  });

  it('refuses a save on a session locked by an issue report (423), with the lock code', async () => {
    const { treatmentId } = await newSession();
    const proposed = await readPlan(server.ctx, nurse, treatmentId);
    await reportIssue(server.ctx, physician, treatmentId, { reason: 'Wrong eye on the image' });
    const locked = await refusal(saveExclusionZones(server.ctx, nurse, treatmentId, { revision: proposed.revision, ...zonesAsProposed(proposed) }));
    expect(locked).toMatchObject({ status: 423, code: 'treatment.locked' });
    expect(await stored(treatmentId)).toMatchObject({ plan_revision: 0 });
  });

  it('refuses a save once the plan is signed off (409 plan.signed_off)', async () => {
    const { treatmentId } = await newSession();
    const atSignOff = await plannedToSignOff(server, nurse, treatmentId);
    await signOff(server.ctx, physician, treatmentId, { revision: atSignOff.revision, password: PASSWORD, confirm: true }, () => {});
    const after = await refusal(saveFinalAdjustments(server.ctx, physician, treatmentId, { revision: atSignOff.revision + 1, laserDose: 80 }));
    expect(after).toMatchObject({ status: 409, code: 'plan.signed_off' });
    expect(await stored(treatmentId)).toMatchObject({ step: 'npt_packing', plan_revision: atSignOff.revision + 1 });
  });

  it('lets only a physician raise a bound above the titrated power, and records who did', async () => {
    const { treatmentId } = await newSession();
    const proposed = await readPlan(server.ctx, physician, treatmentId);
    const zones = await saveExclusionZones(server.ctx, physician, treatmentId, { revision: proposed.revision, ...zonesAsProposed(proposed) });
    const grid = await saveMaculaGrid(server.ctx, physician, treatmentId, { revision: zones.revision, settings: { ...zones.gridSettings!, spotSizeUm: 50 } });
    const raise = { revision: grid.revision, minFactor: 0.5, maxFactor: 1.5 };
    const byNurse = await refusal(saveBrightness(server.ctx, nurse, treatmentId, raise));
    expect(byNurse).toMatchObject({ status: 403, code: 'plan.above_titration_physician_only', fields: { maxFactor: ['plan.above_titration_physician_only'] } });
    expect(await stored(treatmentId)).toMatchObject({ plan_revision: grid.revision });
    const raised = await saveBrightness(server.ctx, physician, treatmentId, raise);
    expect(raised.brightness?.aboveTitration).toMatchObject({ by: { id: physician.userId, name: 'Anna Weber' } });
  });

  it("marks the session Modified when a physician changes a plan someone else prepared, not when they change their own", async () => {
    const { treatmentId } = await newSession();
    const proposed = await readPlan(server.ctx, physician, treatmentId);
    const own = await saveExclusionZones(server.ctx, physician, treatmentId, { revision: proposed.revision, ...zonesAsProposed(proposed) });
    const again = await saveExclusionZones(server.ctx, physician, treatmentId, { revision: own.revision, ...zonesAsProposed(own) });
    expect(await stored(treatmentId)).toMatchObject({ modified_by: null });
    const byNurse = await saveMaculaGrid(server.ctx, nurse, treatmentId, { revision: again.revision, settings: again.gridSettings! });
    expect(await stored(treatmentId)).toMatchObject({ modified_by: null });
    await saveBrightness(server.ctx, physician, treatmentId, { revision: byNurse.revision });
    expect(await stored(treatmentId)).toMatchObject({ modified_by: physician.userId, modified_by_name: 'Anna Weber' });
  });
});
