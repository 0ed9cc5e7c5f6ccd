// `treatment.file_missing` through HTTP: a session's file removed from the store behind the server's back. The
// exam file gone before processing ends the session in that error (not retried: no attempt can bring the file
// back); the display image gone answers a plan step that needs its brightness with the contract's 409. Both in
// English and German, and the clinic's other sessions, lists and deletion go on working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff, zonesAsProposed } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const MISSING = {
  en: 'The uploaded file of this session can no longer be found. Please delete the session and upload the file again.',
  de: 'Die hochgeladene Datei dieser Sitzung ist nicht mehr vorhanden. Bitte löschen Sie die Sitzung und laden Sie die Datei erneut hoch.',
};

let server: TestServer;
let nurse: string;
let physician: string;

beforeAll(async () => {
  // The worker starts once the files are removed (server.restart below).
  server = await startServer({ jobs: false });
  const clinicId = await createClinic(server.db);
  nurse = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
  physician = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_physicians' })).id);
});
afterAll(() => server?.close());

async function upload(seed: number): Promise<Body> {
  const exam = await smallExam({ seed, name: `Missing${seed}`, secondName: 'Patient', deviceSideId: `MISS-${seed}` });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const answer = await server.call<Body>('POST', '/treatments', { token: nurse, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

/** Removes a stored file, after checking that it was there. */
async function removeFromStore(key: string) {
  expect(await server.ctx.files.get(key)).not.toBeNull();
  await server.ctx.files.remove(key);
  expect(await server.ctx.files.get(key)).toBeNull();
}

describe('treatment.file_missing', () => {
  it('ends a session whose exam file is gone before processing in that error, in both languages; the others are processed', async () => {
    const missing = await upload(2851);
    const intact = await upload(2852);
    const id: string = missing.treatment.id;
    const { file_path } = await server.db.selectFrom('treatments').select('file_path').where('id', '=', id).executeTakeFirstOrThrow();
    await removeFromStore(file_path!);

    await server.restart({ jobs: true });
    await server.jobsIdle();

    for (const lang of ['en', 'de'] as const) {
      const read = await server.call<Body>('GET', `/treatments/${id}`, { token: nurse, lang });
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ planStatus: 'no_plan_available', images: [], error: { code: 'treatment.file_missing', message: MISSING[lang] } });
    }
    // A missing file is no passing failure: one attempt, then the session's error.
    const jobs = await server.db.selectFrom('jobs').select(['state', 'attempts', 'last_error']).where('subject_id', '=', id).execute();
    expect(jobs).toEqual([{ state: 'failed', attempts: 1, last_error: 'treatment.file_missing' }]);

    // The clinic's other work goes on: the intact exam reached planning, the list shows both, the session can go.
    expect((await server.call<Body>('GET', `/treatments/${intact.treatment.id}`, { token: nurse })).body.data).toMatchObject({ planStatus: 'planning', error: null });
    const patient = await server.call<Body>('GET', `/patients/${missing.patient.id}`, { token: nurse });
    expect(patient.body.data).toMatchObject({ planStatus: 'no_plan_available', latestSessionFailed: true });
    const list = await server.call<Body>('GET', '/patients?perPage=100', { token: nurse });
    expect(list.body.data.map((p: Body) => p.id)).toEqual(expect.arrayContaining([missing.patient.id, intact.patient.id]));
    expect((await server.call<Body>('DELETE', `/treatments/${id}`, { token: nurse })).status).toBe(200);
    expect((await server.call('GET', `/treatments/${id}`, { token: nurse })).status).toBe(404);
  });

  it('answers a plan step that needs the display image, when it is gone, with 409 in both languages, and changes nothing', async () => {
    const { treatment } = await upload(2853);
    const id: string = treatment.id;
    const otherId: string = (await upload(2854)).treatment.id;
    await server.jobsIdle();
    const proposed = (await server.call<Body>('GET', `/treatments/${id}/plan`, { token: physician })).body.data;
    const zones = await server.call<Body>('POST', `/treatments/${id}/plan/exclusion-zones`, { token: physician, json: { revision: proposed.revision, ...zonesAsProposed(proposed) } });
    expect(zones.status, JSON.stringify(zones.body)).toBe(200);
    const image = await server.db.selectFrom('treatment_images').select(['id', 'display_path']).where('treatment_id', '=', id).executeTakeFirstOrThrow();
    await removeFromStore(image.display_path);

    // The grid step proposes the powers from the display image's brightness.
    const grid = { revision: zones.body.data.revision, settings: zones.body.data.gridSettings };
    for (const lang of ['en', 'de'] as const) {
      const refused = await server.call<Body>('POST', `/treatments/${id}/plan/macula-grid`, { token: physician, json: grid, lang });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ status: 'Error', code: 'treatment.file_missing', message: MISSING[lang] });
    }
    const after = (await server.call<Body>('GET', `/treatments/${id}/plan`, { token: physician })).body.data;
    expect(after).toMatchObject({ step: 'pre_macula_grid_pattern', revision: zones.body.data.revision });
    expect(after).toEqual(zones.body.data);

    // The session still reads, its image answers without a server error, and another session is planned as before.
    expect((await server.call<Body>('GET', `/treatments/${id}`, { token: physician })).status).toBe(200);
    const display = await server.call('GET', `/treatments/${id}/images/${image.id}/display`, { token: physician });
    expect(display.status).toBe(404);
    const other = await planToSignOff(server, otherId, physician);
    expect(other.step).toBe('confirm_sign_off');
  });
});
