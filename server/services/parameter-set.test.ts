// The rules of sign-off and of handing out the parameter set, called as services without HTTP: a sign-off
// refused for a wrong password, a stale revision, a plan not yet at sign-off or one that breaks the clinical
// limits (each audited as a failure with its reason, nothing signed); a sign-off that goes through moves the plan
// on, records it in the plan's trail, queues the packing and is audited; the parameter set is served only once
// packed and never from a locked session, and each download is audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQueuedJob } from '../jobs/worker';
import { PASSWORD } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { plannedToSignOff, planningServer, processedSession } from '../../tests/server/planning';
import { auditEntries, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { parameterSetFile, parameterSetPacking, signOff } from './parameter-set';
import { saveFinalAdjustments } from './plan-steps';
import { reportIssue } from './treatment-changes';

let server: TestServer;
let physician: Actor;
let nurse: Actor;

beforeAll(async () => {
  ({ server, physician, nurse } = await planningServer());
});
afterAll(() => server?.close());

let seed = 5300;
/** A new session planned by the nurse up to sign-off; its id, patient and plan revision. */
async function readyForSignOff() {
  const session = await processedSession(server, nurse, (seed += 1));
  const plan = await plannedToSignOff(server, nurse, session.treatmentId);
  return { ...session, revision: plan.revision };
}

const signOffBy = (actor: Actor, treatmentId: string, revision: number, password = PASSWORD) =>
  signOff(server.ctx, actor, treatmentId, { revision, password, confirm: true }, () => {});

const stored = (treatmentId: string) =>
  server.db.selectFrom('treatments').select(['step', 'step_index', 'plan_revision', 'plan']).where('id', '=', treatmentId).executeTakeFirstOrThrow();

/** The failed sign-offs of a session as audited: who, and the reason each names. */
const failures = async (treatmentId: string) =>
  (await auditEntries(server.db, 'plan.sign_off', treatmentId)).filter((entry) => entry.outcome === 'failure').map((entry) => ({ actor: entry.actor_id, reason: entry.detail.reason }));

/** Nothing signed: the plan still at sign-off, on its revision, without a sign-off, and no packing queued. */
async function expectUnsigned(treatmentId: string, revision: number) {
  const row = await stored(treatmentId);
  expect(row).toMatchObject({ step: 'confirm_sign_off', plan_revision: revision });
  expect(row.plan?.signOff ?? null).toBeNull();
  const packing = await server.db.selectFrom('jobs').select('id').where('kind', '=', 'treatment.pack').where('subject_id', '=', treatmentId).execute();
  expect(packing).toEqual([]);
}

describe('sign-off', () => {
  it('signs off: the plan moves to packing with its sign-off, the trail and the audit log record it, packing is queued', async () => {
    const { treatmentId, revision } = await readyForSignOff();
    const treatment = await signOffBy(physician, treatmentId, revision);
    expect(treatment).toMatchObject({ id: treatmentId, step: 'npt_packing', planStatus: 'processing' });
    expect(treatment.plan.signOff).toMatchObject({ by: { id: physician.userId, name: 'Anna Weber' } });
    expect(await stored(treatmentId)).toMatchObject({ step: 'npt_packing', plan_revision: revision + 1 });
    const last = await server.db
      .selectFrom('plan_changes')
      .select(['action', 'user_id', 'user_name', 'step', 'revision'])
      .where('treatment_id', '=', treatmentId)
      .orderBy('revision', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ action: 'signed_off', user_id: physician.userId, user_name: 'Anna Weber', step: 'npt_packing', revision: revision + 1 });
    const jobs = await server.db.selectFrom('jobs').select('state').where('kind', '=', 'treatment.pack').where('subject_id', '=', treatmentId).execute();
    expect(jobs).toEqual([{ state: 'queued' }]);
    expect(await auditEntries(server.db, 'plan.sign_off', treatmentId)).toMatchObject([{ actor_id: physician.userId, outcome: 'success' }]);
  });

  it('refuses a wrong password (422), audits the failure with its reason, and signs nothing', async () => {
    const { treatmentId, revision } = await readyForSignOff();
    const wrong = await refusal(signOffBy(physician, treatmentId, revision, 'not-the-password'));
    expect(wrong).toMatchObject({ status: 422, code: 'auth.password_invalid', fields: { password: ['auth.password_invalid'] } });
    expect(await failures(treatmentId)).toEqual([{ actor: physician.userId, reason: 'auth.password_invalid' }]);
    await expectUnsigned(treatmentId, revision);
  });

  it('refuses a stale revision with 409 and the current plan, and a plan not yet at sign-off', async () => {
    const { treatmentId, revision } = await readyForSignOff();
    const stale = await refusal(signOffBy(physician, treatmentId, revision - 1));
    expect(stale).toMatchObject({ status: 409, code: 'plan.revision_stale' });
    expect(stale.extra.plan).toMatchObject({ revision });
    await expectUnsigned(treatmentId, revision);

    const early = await processedSession(server, nurse, (seed += 1));
    expect(await refusal(signOffBy(physician, early.treatmentId, 0))).toMatchObject({ status: 409, code: 'plan.step_out_of_order', key: 'plan.sign_off_early' });
    expect(await failures(early.treatmentId)).toEqual([{ actor: physician.userId, reason: 'plan.step_out_of_order' }]);
  });

  it('refuses a plan that breaks the clinical limits once the laser settings must be complete (micropulse without a duty cycle)', async () => {
    const { treatmentId, revision } = await readyForSignOff();
    // Saved without a duty cycle: the final adjustments may leave it open, sign-off may not.
    const cleared = await saveFinalAdjustments(server.ctx, nurse, treatmentId, { revision, dutyCyclePercent: null });
    const refused = await refusal(signOffBy(physician, treatmentId, cleared.revision));
    expect(refused).toMatchObject({ status: 409, code: 'plan.duty_cycle_missing' });
    expect(await failures(treatmentId)).toEqual([{ actor: physician.userId, reason: 'plan.duty_cycle_missing' }]);
    await expectUnsigned(treatmentId, cleared.revision);
  });
});

describe('the parameter set', () => {
  it('is not served before it is packed (409), is served and audited once packed, and never from a locked session (423)', async () => {
    const { treatmentId, patientId, revision } = await readyForSignOff();
    await signOffBy(physician, treatmentId, revision);
    expect(await refusal(parameterSetFile(server.ctx, nurse, treatmentId))).toMatchObject({ status: 409, code: 'treatment.parameter_set_not_ready' });

    await runQueuedJob(server.ctx, 'treatment.pack', treatmentId, parameterSetPacking(server.ctx));
    const file = await parameterSetFile(server.ctx, nurse, treatmentId);
    expect(file.fileName).toMatch(new RegExp(`^parameter-set-${treatmentId.slice(0, 8)}-(OD|OS)-\\d{4}-\\d{2}-\\d{2}\\.npt$`));
    expect(file.bytes.length).toBeGreaterThan(0);
    const downloads = await server.db
      .selectFrom('audit_log')
      .select(['actor_id', 'patient_ids'])
      .where('action', '=', 'plan.parameter_set_downloaded')
      .where('target_id', '=', treatmentId)
      .execute();
    expect(downloads).toEqual([{ actor_id: nurse.userId, patient_ids: [patientId] }]);

    await reportIssue(server.ctx, physician, treatmentId, { reason: 'Wrong eye on the image' });
    expect(await refusal(parameterSetFile(server.ctx, nurse, treatmentId))).toMatchObject({ status: 423, code: 'treatment.locked' });
  });
});
