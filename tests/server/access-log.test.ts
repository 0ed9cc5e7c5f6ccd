// The access log through HTTP, on PGlite and PostgreSQL: every read of a patient's data (list, card, sessions,
// session, image, plan, audit trail, annotations, previous treatment, notifications that name the patient, an
// upload conflict) and every change is recorded with the patient; an IT admin reads one patient's history with
// who, what, when and from where, filtered by user, action and time; other clinics' entries stay out; an erased
// patient's entries stay, without a name; and reading the log is recorded too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../generated/model/accessLogEntry';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`
type LogBody = { data: AccessLogEntry[]; meta: { total: number; lastPage: number } };

let server: TestServer;
const users = {} as Record<'physician' | 'nurse' | 'admin' | 'otherAdmin', { id: string; token: string }>;
let patientId: string;
let treatmentId: string;

// The physician works at 10.20.4.17, the nurse at 10.20.4.31 (the test server trusts one proxy hop).
const PHYSICIAN_IP = '10.20.4.17';
const NURSE_IP = '10.20.4.31';
const as = (who: keyof typeof users, ip = who === 'nurse' ? NURSE_IP : PHYSICIAN_IP) => ({ token: users[who].token, headers: { 'X-Forwarded-For': ip } });

async function user(clinicId: string, role: string, firstName: string, lastName: string) {
  const { id } = await createUser(server.db, { clinicId, role, firstName, lastName });
  return { id, token: await sessionFor(server.db, id) };
}

async function log(query: string, who: keyof typeof users = 'admin'): Promise<LogBody> {
  const answer = await server.call<LogBody>('GET', `/clinic/access-log${query}`, as(who));
  expect(answer.status, query).toBe(200);
  return answer.body;
}

function upload(bytes: Uint8Array, query = '') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'exam.npt');
  return server.call<Body>('POST', `/treatments${query}`, { ...as('physician'), form });
}

beforeAll(async () => {
  server = await startServer();
  const clinicId = await createClinic(server.db);
  users.physician = await user(clinicId, 'clinic_physicians', 'Miriam', 'Vogel');
  users.nurse = await user(clinicId, 'clinic_nurses', 'Lukas', 'Brandt');
  users.admin = await user(clinicId, 'clinic_it_admins', 'Jonas', 'Weber');
  users.otherAdmin = await user(await createClinic(server.db, 'Augenklinik B'), 'clinic_it_admins', 'Eva', 'Lang');
  const exam = await smallExam({ seed: 11, name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17', gender: 'female' });
  const created = await upload(exam.bytes);
  expect(created.status).toBe(201);
  patientId = created.body.data.patient.id;
  treatmentId = created.body.data.treatment.id;
  await server.jobsIdle();
}, 60_000);
afterAll(() => server.close());

describe('recording', () => {
  it('names the patient in every read of their data and in every change', async () => {
    const reads: [string, string][] = [
      ['patient.list', '/patients'],
      ['patient.read', `/patients/${patientId}`],
      ['patient.treatments.list', `/patients/${patientId}/treatments`],
      ['treatment.read', `/treatments/${treatmentId}`],
      ['plan.read', `/treatments/${treatmentId}/plan`],
      ['plan.audit_read', `/treatments/${treatmentId}/audit`],
      ['plan.previous_treatment_read', `/treatments/${treatmentId}/previous-treatment`],
    ];
    for (const [, path] of reads) expect((await server.call('GET', path, as('physician'))).status, path).toBe(200);
    const session = await server.call<Body>('GET', `/treatments/${treatmentId}`, as('nurse'));
    const [image] = session.body.data.images;
    expect((await server.call('GET', image.thumbnailUrl.replace(/^\/api/, ''), as('nurse'))).status).toBe(200);
    expect((await server.call('GET', `/treatments/${treatmentId}/images/${image.id}/annotations`, as('nurse'))).status).toBe(200);
    // An upload for the card of another patient's file: the conflict answer shows this patient's data.
    const other = await smallExam({ seed: 13, name: 'Walter', secondName: 'Zimmermann', birthday: '1949-02-02', gender: 'male' });
    expect((await upload(other.bytes, `?patientId=${patientId}`)).status).toBe(409);
    expect((await server.call('POST', `/patients/${patientId}`, { ...as('nurse'), json: { description: 'Follow-up in 3 months' } })).status).toBe(200);

    const history = await log(`?patientId=${patientId}&perPage=100`);
    const actions = history.data.map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        ...reads.map(([action]) => action),
        'treatment.uploaded',
        'patient.created',
        'treatment.image_read',
        'annotation.read',
        'patient.updated',
      ]),
    );
    for (const entry of history.data) expect(entry.patient).toEqual({ id: patientId, name: 'Elena Fischer' });
    const conflict = history.data.find((entry) => entry.action === 'treatment.uploaded' && entry.outcome === 'failure');
    expect(conflict).toMatchObject({ actor: { id: users.physician.id, name: 'Miriam Vogel', role: 'clinic_physicians' }, ip: PHYSICIAN_IP });
    expect(history.data.find((entry) => entry.action === 'treatment.image_read')).toMatchObject({
      actor: { id: users.nurse.id, name: 'Lukas Brandt', role: 'clinic_nurses' },
      ip: NURSE_IP,
      patientCount: 1,
    });
    // Newest first, by the chain's order.
    const seqs = history.data.map((entry) => entry.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  });

  it('names the patients of a notification list', async () => {
    const { body } = await server.call<Body>('POST', '/patients', {
      ...as('nurse'),
      json: { name: 'Rita', secondName: 'Sommer', birthday: '1950-05-05', gender: 'female' },
    });
    const rita = body.data.id as string;
    expect((await server.call('POST', `/patients/${rita}/deletion-request`, { ...as('nurse'), json: { reason: 'Duplicate record' } })).status).toBe(200);
    expect((await server.call('GET', '/notifications', as('admin', '10.20.9.2'))).status).toBe(200);
    const history = await log(`?patientId=${rita}&action=notification.list`);
    expect(history.data).toHaveLength(1);
    expect(history.data[0]).toMatchObject({ actor: { id: users.admin.id, role: 'clinic_it_admins' }, ip: '10.20.9.2', patient: { id: rita, name: 'Rita Sommer' } });
  });
});

describe('reading the access log', () => {
  it('filters by user, action and time, and refuses a range that ends before it starts', async () => {
    const byNurse = await log(`?patientId=${patientId}&actorId=${users.nurse.id}&perPage=100`);
    expect(byNurse.data.length).toBeGreaterThan(0);
    expect(new Set(byNurse.data.map((entry) => entry.actor?.id))).toEqual(new Set([users.nurse.id]));
    const cards = await log(`?patientId=${patientId}&action=patient.read`);
    expect(cards.data.map((entry) => entry.action)).toEqual(['patient.read']);

    const newest = cards.data[0]!.at;
    expect((await log(`?patientId=${patientId}&action=patient.read&from=${newest}`)).meta.total).toBe(1);
    expect((await log(`?patientId=${patientId}&action=patient.read&to=${newest}`)).meta.total).toBe(0);
    const reversed = await server.call<Body>('GET', `/clinic/access-log?from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z`, { token: users.admin.token, lang: 'de' });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ to: ['Das Ende muss nach dem Anfang liegen.'] });
  });

  it('names the device whose sync app acted, and a staff user’s entry names no device', async () => {
    const added = await server.call<Body>('POST', '/clinic/devices', {
      ...as('admin'),
      json: { deviceId: 'NAV-LOG-0001', opticalHeadId: 'OH-1', camera: 'Fundus CCD 5MP', description: 'Laser room 1' },
    });
    expect(added.status).toBe(201);
    const enrolled = await server.call<Body>('POST', '/device/enrolment', { token: null, json: { code: added.body.data.enrolment.code, syncAppVersion: '1.0.0' } });
    expect(enrolled.status).toBe(200);

    const [enrolment] = (await log('?action=device.enrolled')).data;
    expect(enrolment).toMatchObject({ actor: null, device: { id: added.body.data.device.id, deviceId: 'NAV-LOG-0001' } });
    // The IT admin who added it is the actor of that entry; the device is only its target.
    const [adding] = (await log('?action=device.added')).data;
    expect(adding).toMatchObject({ actor: { id: users.admin.id }, device: null });
  });

  it('shows a clinic only its own entries and refuses clinical staff', async () => {
    expect((await log(`?patientId=${patientId}`, 'otherAdmin')).meta.total).toBe(0);
    const all = await log('?perPage=100', 'otherAdmin');
    // Not empty: the other clinic sees its own entries (its admin's reads of the log, at least).
    expect(all.data.length).toBeGreaterThan(0);
    expect(all.data.every((entry) => entry.patient?.id !== patientId && entry.actor?.id !== users.physician.id)).toBe(true);
    expect((await server.call('GET', '/clinic/access-log', as('physician'))).status).toBe(403);
  });

  it('is itself recorded, naming the patients it showed', async () => {
    await log(`?patientId=${patientId}`);
    const reads = await log(`?patientId=${patientId}&action=access_log.read&actorId=${users.admin.id}`);
    expect(reads.data.length).toBeGreaterThan(0);
    expect(reads.data[0]).toMatchObject({ action: 'access_log.read', patient: { id: patientId, name: 'Elena Fischer' } });
  });

  it('keeps an erased patient’s history, by id and without the name', async () => {
    const before = (await log(`?patientId=${patientId}&perPage=1`)).meta.total;
    expect((await server.call('POST', `/patients/${patientId}/deletion-request`, { ...as('physician'), json: { reason: 'Requested by the patient' } })).status).toBe(200);
    expect((await server.call('DELETE', `/patients/${patientId}`, as('admin'))).status).toBe(200);
    const history = await log(`?patientId=${patientId}&perPage=100`);
    expect(history.meta.total).toBeGreaterThanOrEqual(before + 3);
    expect(history.data[0]).toMatchObject({ action: 'patient.erased', patient: { id: patientId, name: null } });
    expect(history.data.every((entry) => entry.patient?.name === null)).toBe(true);
  });
});
