// What the patient card changes on a session, through HTTP: its description ("Adjust description") and
// "Report issue", which locks it for good: the lock message then answers every change and the deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const LOCK_EN = 'This session has been locked because the issue was reported.';
const LOCK_DE = 'Diese Sitzung wurde gesperrt, weil ein Problem gemeldet wurde.';

let server: TestServer;
let physician: string;
let nurse: string;
let itAdmin: string;
let otherClinic: string;

beforeAll(async () => {
  server = await startServer();
  const clinicId = await createClinic(server.db);
  physician = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Anna', lastName: 'Keller' })).id);
  nurse = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
  itAdmin = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_it_admins' })).id);
  const clinicB = await createClinic(server.db, 'Augenklinik B');
  otherClinic = await sessionFor(server.db, (await createUser(server.db, { clinicId: clinicB, role: 'clinic_physicians' })).id);
});
afterAll(() => server?.close());

let seed = 100;
/** A new session of a new patient (each exam's patient differs by its seed). */
async function newSession(): Promise<string> {
  seed += 1;
  const form = new FormData();
  const exam = await smallExam({ seed, name: `Test${seed}`, secondName: 'Patient', deviceSideId: `DEV-${seed}` });
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const answer = await server.call<Body>('POST', '/treatments', { token: physician, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  // Processed, so that a comparison of before and after sees only what the call under test did.
  await server.jobsIdle();
  return answer.body.data.treatment.id;
}

describe('adjust a session’s description', () => {
  it('saves it trimmed, answers the session and says so; null or blank clears it', async () => {
    const id = await newSession();
    const answer = await server.call<Body>('POST', `/treatments/${id}`, { token: nurse, json: { description: '  Focal leakage.\nOCT: CST 412 µm.  ' } });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Changes added successfully');
    expect(answer.body.data.description).toBe('Focal leakage.\nOCT: CST 412 µm.');
    expect((await server.call<Body>('GET', `/treatments/${id}`, { token: physician })).body.data.description).toBe(
      'Focal leakage.\nOCT: CST 412 µm.',
    );
    const cleared = await server.call<Body>('POST', `/treatments/${id}`, { token: physician, json: { description: '   ' } });
    expect(cleared.body.data.description).toBeNull();
    const nulled = await server.call<Body>('POST', `/treatments/${id}`, { token: physician, json: { description: null } });
    expect(nulled.body.data.description).toBeNull();
  });

  it('refuses too long or control characters with the field named, and other clinics and roles', async () => {
    const id = await newSession();
    const long = await server.call<Body>('POST', `/treatments/${id}`, { token: physician, json: { description: 'x'.repeat(2001) } });
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.errors)).toEqual(['description']);
    const control = await server.call<Body>('POST', `/treatments/${id}`, { token: physician, json: { description: 'a\u0007b' } });
    expect(control.status).toBe(422);
    expect(Object.keys(control.body.errors)).toEqual(['description']);
    expect((await server.call('POST', `/treatments/${id}`, { token: otherClinic, json: { description: 'x' } })).status).toBe(404);
    expect((await server.call('POST', `/treatments/${id}`, { token: itAdmin, json: { description: 'x' } })).status).toBe(403);
  });

  it('refuses any other field, and a body without the description, naming the field and changing nothing', async () => {
    const id = await newSession();
    const before = (await server.call<Body>('GET', `/treatments/${id}`, { token: physician })).body.data;
    const other = await server.call<Body>('POST', `/treatments/${id}`, { token: physician, json: { description: 'new', pulseDurationMs: 20 } });
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(['pulseDurationMs']);
    const none = await server.call<Body>('POST', `/treatments/${id}`, { token: physician, json: {} });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors)).toEqual(['description']);
    const after = (await server.call<Body>('GET', `/treatments/${id}`, { token: physician })).body.data;
    expect(after).toEqual(before);
  });

  it('is kept in the audit trail, without the text', async () => {
    const id = await newSession();
    await server.call('POST', `/treatments/${id}`, { token: physician, json: { description: 'Private remark' } });
    const rows = await server.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).where('action', '=', 'treatment.updated').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain('Private remark');
  });
});

describe('report an issue', () => {
  it('locks the session with the reason, who and when; then changes and deletion answer the lock message', async () => {
    const id = await newSession();
    const answer = await server.call<Body>('POST', `/treatments/${id}/reports`, {
      token: physician,
      json: { reason: ' The optic disc was detected on a vessel crossing. ' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toContain(LOCK_EN);
    expect(answer.body.data).toMatchObject({
      locked: true,
      planStatus: 'issue_reported',
      issueReport: { reason: 'The optic disc was detected on a vessel crossing.', reportedBy: { name: 'Anna Keller' } },
    });

    const read = await server.call<Body>('GET', `/treatments/${id}`, { token: nurse });
    expect(read.body.data.issueReport.reason).toBe('The optic disc was detected on a vessel crossing.');

    const change = await server.call<Body>('POST', `/treatments/${id}`, { token: physician, json: { description: 'x' }, lang: 'de' });
    expect(change.status).toBe(423);
    expect(change.body.message).toBe(LOCK_DE);
    const deletion = await server.call<Body>('DELETE', `/treatments/${id}`, { token: physician });
    expect(deletion.status).toBe(423);
    expect(deletion.body.message).toBe(LOCK_EN);

    const again = await server.call<Body>('POST', `/treatments/${id}/reports`, { token: nurse, json: { reason: 'again' } });
    expect(again.status).toBe(409);
  });

  it('needs a reason, and the session of the caller’s clinic', async () => {
    const id = await newSession();
    const blank = await server.call<Body>('POST', `/treatments/${id}/reports`, { token: physician, json: { reason: '   ' } });
    expect(blank.status).toBe(422);
    expect(Object.keys(blank.body.errors)).toEqual(['reason']);
    expect((await server.call('POST', `/treatments/${id}/reports`, { token: otherClinic, json: { reason: 'x' } })).status).toBe(404);
    expect((await server.call('POST', `/treatments/${id}/reports`, { token: itAdmin, json: { reason: 'x' } })).status).toBe(403);
    expect((await server.call<Body>('GET', `/treatments/${id}`, { token: physician })).body.data.locked).toBe(false);
  });
});
