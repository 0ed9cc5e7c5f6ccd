// Packing checks the plan's invariants once more: a plan broken between sign-off and packing (e.g. edited in
// the database) is never packed; the session goes back to sign-off, its audit trail says why, and the physician
// who signed it off is told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type Worker } from '../../server/jobs/worker';
import { examProcessing } from '../../server/services/exam-processing';
import { parameterSetPacking } from '../../server/services/parameter-set';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let token: string;

beforeAll(async () => {
  // No worker of its own: the test runs the jobs when it wants them run.
  server = await startServer({ jobs: false });
  const clinicId = await createClinic(server.db);
  const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Anna', lastName: 'Weber' });
  token = await sessionFor(server.db, physician.id);
});
afterAll(() => server?.close());

async function runJobs(): Promise<void> {
  const worker: Worker = startWorker(server.ctx, { 'treatment.process': examProcessing(server.ctx), 'treatment.pack': parameterSetPacking(server.ctx) }, { leaseMs: 10_000 });
  await worker.idle();
  await worker.stop();
}

describe('packing', () => {
  it('never packs a plan whose spot was moved into the FAZ after sign-off', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array((await smallExam({ seed: 961 })).bytes)]), 'exam.npt');
    const created = await server.call<Body>('POST', '/treatments', { token, form });
    await runJobs();
    const id: string = created.body.data.treatment.id;
    const atSignOff = await planToSignOff(server, id, token);
    const signed = await server.call<Body>('POST', `/treatments/${id}/confirm`, { token, json: { revision: atSignOff.revision, password: PASSWORD, confirm: true } });
    expect(signed.status).toBe(200);

    // Broken while the packing job waits: the first spot moved next to the fovea.
    const row = await server.db.selectFrom('treatments').select('plan').where('id', '=', id).executeTakeFirstOrThrow();
    const plan = row.plan!;
    const [first, ...rest] = plan.spots;
    const moved = { ...first, x: plan.fovea!.x + 1, y: plan.fovea!.y, xUm: plan.scale!.umPerPixel, yUm: 0 };
    await server.db.updateTable('treatments').set({ plan: JSON.stringify({ ...plan, spots: [moved, ...rest] }) }).where('id', '=', id).execute();
    await runJobs();

    const session = (await server.call<Body>('GET', `/treatments/${id}`, { token })).body.data;
    expect(session).toMatchObject({ step: 'confirm_sign_off', planStatus: 'planning' });
    expect(session.plan).toMatchObject({ signOff: null, parameterSet: null });
    expect((await server.call<Body>('GET', `/treatments/${id}/parameter-set`, { token })).body.code).toBe('treatment.parameter_set_not_ready');
    const trail = (await server.call<Body>('GET', `/treatments/${id}/audit`, { token })).body.data;
    expect(trail.at(-1)).toMatchObject({ action: 'packing_failed', step: 'confirm_sign_off', by: null });
    expect(trail.at(-1).summary).toBe(
      'The parameter set could not be prepared; the plan is back at sign-off. The plan no longer keeps its safety rules, so no parameter set was prepared. Please check the plan and sign it off again.',
    );
    // The physician who signed off expects a parameter set: a notification in their language leads to the planning.
    const notifications = (await server.call<Body>('GET', '/notifications', { token, lang: 'de' })).body.data;
    // Beside the one of the processed exam (the test's clock may give both the same time).
    const failed = notifications.find((notification: Body) => notification.event === 'parameter_set_failed');
    expect(failed).toMatchObject({
      event: 'parameter_set_failed',
      category: 'patients',
      read: false,
      title: 'Parametersatz nicht erstellt',
      link: `/physician/planning?treatmentId=${id}`,
    });
    expect(failed.message).toMatch(
      /^Der Parametersatz der Sitzung 1 von .+ konnte nicht erstellt werden; der Plan ist wieder im Schritt „Anpassung und Freigabe“\. Der Plan hält seine Sicherheitsregeln nicht mehr ein, daher wurde kein Parametersatz erstellt\. Bitte prüfen Sie den Plan und geben Sie ihn erneut frei\.$/,
    );
    const jobs = await server.db.selectFrom('jobs').select(['kind', 'state']).where('subject_id', '=', id).orderBy('created_at').execute();
    expect(jobs).toEqual([
      { kind: 'treatment.process', state: 'done' },
      { kind: 'treatment.pack', state: 'failed' },
    ]);
  });
});
