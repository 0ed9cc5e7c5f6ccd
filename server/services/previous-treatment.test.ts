// The rules of the previous treatment on today's image, called as a service without HTTP: only an earlier
// session of the same eye with a planned grid is offered; today's exam must be processed first; the first read
// queues the registration once (a second reader finds it queued), an unregistrable pair is an answer that is
// not queued again, and it is found again once a landmark it was found from has moved. The images themselves are
// never registered here (the HTTP suite tests/server/previous-treatment.test.ts does that): the sessions' states
// and plans are set in the database as processing and planning would leave them.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallExam } from '../../tests/server/exam-files';
import { createUser } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { actorFor, refusal, serverWithClinic } from '../../tests/server/service-calls';
import { translate } from '../i18n';
import { runQueuedJob } from '../jobs/worker';
import { acceptExam } from './exam-upload';
import { previousTreatment, previousTreatmentRegistration } from './previous-treatment';

let server: TestServer;
let clinicId: string;
let earlier: string;
let today: string;
let wakes = 0;
const wakeJobs = () => {
  wakes += 1;
};

const SPOT = { id: 's1', x: 10, y: 12, ring: 1 };
/** What a registration is found from: a plan with scale, fovea and disc (from processing and step 1). */
const landmarks = (x: number) => ({ scale: { umPerPixel: 10 }, fovea: { x, y: 200 }, opticDisc: { center: { x: 500, y: 210 } } });

const read = (earlierSessionId?: string) => previousTreatment(server.ctx, clinicId, today, 'en', wakeJobs, earlierSessionId);

async function setSession(id: string, change: { processing_state?: string; step_index?: number; plan?: Record<string, unknown> }) {
  const { plan, ...columns } = change;
  await server.db
    .updateTable('treatments')
    .set({ ...columns, ...(plan && { plan: JSON.stringify(plan) }) })
    .where('id', '=', id)
    .execute();
}

const registrations = () => server.db.selectFrom('treatment_registrations').select(['earlier_treatment_id', 'state', 'error_code']).where('treatment_id', '=', today).execute();
const registerJobs = () => server.db.selectFrom('jobs').select('state').where('kind', '=', 'treatment.register').where('subject_id', '=', today).execute();

beforeAll(async () => {
  ({ server, clinicId } = await serverWithClinic());
  const physician = actorFor(await createUser(server.db, { clinicId, role: 'clinic_physicians' }), clinicId, 'clinic_physicians');
  const person = { name: 'Maria', secondName: 'Vogt', birthday: '1950-03-04', gender: 'female', deviceSideId: 'PREV-U1', eye: 'OD' } as const;
  const upload = async (seed: number, capturedAt: string) => {
    const exam = await smallExam({ ...person, seed, capturedAt });
    const file = await server.ctx.files.stage(Readable.from([Buffer.from(exam.bytes)]), 'exam.npt', () => false);
    return (await acceptExam(server.ctx, physician, file, {})).treatment.id;
  };
  earlier = await upload(7301, '2026-05-04T09:00:00+02:00');
  today = await upload(7302, '2026-08-04T09:00:00+02:00');
  // Processed, as the (switched off) worker would leave them; the earlier one not planned yet.
  await setSession(earlier, { processing_state: 'processed' });
  await setSession(today, { processing_state: 'processed' });
});
afterAll(() => server?.close());

describe('previous treatment service', () => {
  it('has none while the earlier session has no planned grid, queues nothing, and refuses to show that session', async () => {
    // A grid proposed but not confirmed (step 2), and a confirmed step without spots.
    for (const unplanned of [{ step_index: 2, plan: { spots: [SPOT] } }, { step_index: 3, plan: { spots: [] } }]) {
      await setSession(earlier, unplanned);
      expect(await read()).toMatchObject({ state: 'none', session: null, earlierSessions: [], registration: null, spots: [] });
      expect(await refusal(read(earlier))).toMatchObject({ status: 422, fields: { earlierSessionId: ['previous_treatment.not_earlier'] } });
    }
    expect(await registrations()).toEqual([]);
    expect(wakes).toBe(0);
  });

  it('offers the planned earlier session but waits, without queuing, while today’s exam is not processed', async () => {
    await setSession(earlier, { step_index: 3, plan: { spots: [SPOT] } });
    await setSession(today, { processing_state: 'file_uploaded' });
    const answer = await read();
    expect(answer).toMatchObject({ state: 'pending', session: { id: earlier, signedOff: false }, registration: null });
    expect(answer.earlierSessions.map((session) => session.id)).toEqual([earlier]);
    expect(await registrations()).toEqual([]);
    expect(await registerJobs()).toEqual([]);
  });

  it('queues the registration on the first read and finds it queued on the next: one row, one job, one wake', async () => {
    await setSession(today, { processing_state: 'processed' });
    expect(await read()).toMatchObject({ state: 'pending', session: { id: earlier } });
    expect(await read()).toMatchObject({ state: 'pending', session: { id: earlier } });
    expect(await registrations()).toEqual([{ earlier_treatment_id: earlier, state: 'pending', error_code: null }]);
    expect(await registerJobs()).toEqual([{ state: 'queued' }]);
    expect(wakes).toBe(1);
  });

  it('answers a pair without landmarks as failed once the job has run, and does not queue it again', async () => {
    await runQueuedJob(server.ctx, 'treatment.register', today, previousTreatmentRegistration(server.ctx));
    expect(await registrations()).toEqual([{ earlier_treatment_id: earlier, state: 'failed', error_code: 'previous_treatment.unregistrable' }]);
    expect(await read()).toMatchObject({ state: 'failed', session: { id: earlier }, message: translate('en', 'previous_treatment.unregistrable') });
    expect(await registerJobs()).toHaveLength(1);
    expect(wakes).toBe(1);
  });

  it('queues it again, once, when the landmarks it was found from have changed', async () => {
    await setSession(earlier, { plan: { spots: [SPOT], ...landmarks(300) } });
    await setSession(today, { plan: { spots: [], ...landmarks(310) } });
    expect(await read()).toMatchObject({ state: 'pending' });
    expect(await read()).toMatchObject({ state: 'pending' });
    expect(await registrations()).toMatchObject([{ state: 'pending' }]);
    expect(await registerJobs()).toHaveLength(2);
    expect(wakes).toBe(2);
  });
});
