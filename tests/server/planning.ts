// The planning wizard's steps as the tests drive them: the zones sent back as proposed, and a session taken
// through steps 1–3 as proposed (to sign-off), through HTTP or, for the services' unit tests, by calling them.
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import type { Plan } from '../../generated/model/plan';
import type { Actor } from '../../server/actor';
import { runQueuedJob } from '../../server/jobs/worker';
import { acceptExam } from '../../server/services/exam-upload';
import { examProcessing } from '../../server/services/exam-processing';
import { readPlan, saveBrightness, saveExclusionZones, saveMaculaGrid } from '../../server/services/plan-steps';
import { smallExam } from './exam-files';
import { createUser } from './fixtures';
import type { TestServer } from './helper';
import { actorFor, serverWithClinic } from './service-calls';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

/** The plan's zones as the wizard sends them back (ExclusionZonesInput without the revision). */
export function zonesAsProposed(plan: Body) {
  const shape = (zone: Body) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  return { faz: shape(plan.exclusionZones.faz), onh: shape(plan.exclusionZones.onh) };
}

/** Zones, grid and brightness confirmed as proposed, by `token`; the plan at `confirm_sign_off`. */
export async function planToSignOff(server: Pick<TestServer, 'call'>, id: string, token: string): Promise<Body> {
  const proposed = (await server.call<Body>('GET', `/treatments/${id}/plan`, { token })).body.data;
  const zones = await server.call<Body>('POST', `/treatments/${id}/plan/exclusion-zones`, { token, json: { revision: proposed.revision, ...zonesAsProposed(proposed) } });
  const grid = await server.call<Body>('POST', `/treatments/${id}/plan/macula-grid`, { token, json: { revision: zones.body.data.revision, settings: zones.body.data.gridSettings } });
  const brightness = await server.call<Body>('POST', `/treatments/${id}/plan/brightness`, { token, json: { revision: grid.body.data.revision } });
  expect(brightness.status, JSON.stringify(brightness.body)).toBe(200);
  return brightness.body.data;
}

/** A server for calling the planning services (no background worker): one clinic with a physician and a nurse. */
export async function planningServer(): Promise<{ server: TestServer; physician: Actor; nurse: Actor }> {
  const { server, clinicId } = await serverWithClinic();
  const member = async (role: string, firstName: string, lastName: string) => actorFor(await createUser(server.db, { clinicId, role, firstName, lastName }), clinicId, role);
  return { server, physician: await member('clinic_physicians', 'Anna', 'Weber'), nurse: await member('clinic_nurses', 'Miriam', 'Vogel') };
}

/**
 * A processed session of a new patient uploaded by `actor` through the services (640 × 480 synthetic fundus,
 * laser settings 100 µm, 2 ×, 90 mW), processed at once in this process (for a server started without jobs).
 */
export async function processedSession(server: TestServer, actor: Actor, seed: number): Promise<{ treatmentId: string; patientId: string }> {
  const exam = await smallExam({ seed, name: `Unit${seed}`, secondName: 'Patient', deviceSideId: `UNIT-${seed}` });
  const staged = await server.ctx.files.stage(Readable.from([Buffer.from(exam.bytes)]), 'exam.npt', () => false);
  const accepted = await acceptExam(server.ctx, actor, staged, {});
  await runQueuedJob(server.ctx, 'treatment.process', accepted.treatment.id, examProcessing(server.ctx));
  return { treatmentId: accepted.treatment.id, patientId: accepted.patient.id };
}

/** planToSignOff through the services: zones, grid and brightness as proposed, by `actor`; the plan at `confirm_sign_off`. */
export async function plannedToSignOff(server: TestServer, actor: Actor, treatmentId: string): Promise<Plan> {
  const proposed = await readPlan(server.ctx, actor, treatmentId);
  const zones = await saveExclusionZones(server.ctx, actor, treatmentId, { revision: proposed.revision, ...zonesAsProposed(proposed) });
  const grid = await saveMaculaGrid(server.ctx, actor, treatmentId, { revision: zones.revision, settings: zones.gridSettings! });
  return saveBrightness(server.ctx, actor, treatmentId, { revision: grid.revision });
}
