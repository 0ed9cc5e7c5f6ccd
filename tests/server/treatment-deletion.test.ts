// Deleting a session that is still being processed (the contract: allowed, the processing is cancelled and
// nothing of it is kept). Processing is slowed down here, so that the deletion lands while the worker holds
// the job: the worker's results must not bring the session, its images or its files back.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let nurse: string;

beforeAll(async () => {
  server = await startServer({ env: { MACULA_FAULT_JOB_PAUSE_MS: '1500' } });
  const clinicId = await createClinic(server.db);
  nurse = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
});
afterAll(() => server?.close());

function storedFiles(): string[] {
  try {
    return readdirSync(join(server.dataDir, 'files'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

async function upload(seed: number) {
  const exam = await smallExam({ seed, name: `Deleted${seed}`, secondName: 'Patient', deviceSideId: `DEL-${seed}` });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const answer = await server.call<Body>('POST', '/treatments', { token: nurse, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { exam, treatment: answer.body.data.treatment as Body };
}

describe('deleting a session that is being processed', () => {
  it('cancels the processing: the session, its job, images and files are gone for good, and the file can come again', async () => {
    const filesBefore = storedFiles();
    const { exam, treatment } = await upload(501);
    // The exam file is in the store under the session's folder: the checks below see it go.
    expect(storedFiles().filter((file) => file.includes(treatment.id))).not.toEqual([]);
    // Wait until the worker has taken the job (processing), then delete while it works.
    for (let i = 0; i < 100; i += 1) {
      const read = await server.call<Body>('GET', `/treatments/${treatment.id}`, { token: nurse });
      if (read.body.data.planStatus === 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const state = await server.db.selectFrom('jobs').select('state').where('subject_id', '=', treatment.id).executeTakeFirst();
    expect(state?.state).toBe('running');

    const deleted = await server.call<Body>('DELETE', `/treatments/${treatment.id}`, { token: nurse, lang: 'de' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Sitzung erfolgreich gelöscht');

    // The worker finishes its pause, writes its images, finds its claim gone and discards them.
    await server.jobsIdle();
    expect((await server.call('GET', `/treatments/${treatment.id}`, { token: nurse })).status).toBe(404);
    expect(await server.db.selectFrom('jobs').select('id').where('subject_id', '=', treatment.id).execute()).toEqual([]);
    expect(await server.db.selectFrom('treatment_images').select('id').where('treatment_id', '=', treatment.id).execute()).toEqual([]);
    expect(storedFiles().filter((file) => file.includes(treatment.id))).toEqual([]);
    expect(storedFiles().length).toBe(filesBefore.length);
    const sessions = await server.call<Body>('GET', `/patients/${treatment.patientId}/treatments`, { token: nurse });
    expect(sessions.body.data).toEqual([]);

    // The same file is no duplicate any more.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
    const again = await server.call<Body>('POST', '/treatments', { token: nurse, form });
    expect(again.status).toBe(201);
    await server.jobsIdle();
    const processed = await server.call<Body>('GET', `/treatments/${again.body.data.treatment.id}`, { token: nurse });
    expect(processed.body.data.planStatus).toBe('planning');
  });

  it('deletes a session still waiting in the queue before the worker takes it', async () => {
    const stopped = await startServer({ jobs: false });
    try {
      const clinicId = await createClinic(stopped.db);
      const token = await sessionFor(stopped.db, (await createUser(stopped.db, { clinicId, role: 'clinic_physicians' })).id);
      const exam = await smallExam({ seed: 502 });
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
      const uploaded = await stopped.call<Body>('POST', '/treatments', { token, form });
      expect(uploaded.body.data.treatment.planStatus).toBe('file_uploaded');
      const id = uploaded.body.data.treatment.id;
      expect((await stopped.call('DELETE', `/treatments/${id}`, { token })).status).toBe(200);
      expect(await stopped.db.selectFrom('jobs').select('id').where('subject_id', '=', id).execute()).toEqual([]);
      expect((await stopped.call('GET', `/treatments/${id}`, { token })).status).toBe(404);
    } finally {
      await stopped.close();
    }
  });
});
