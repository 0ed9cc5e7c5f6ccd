// The rules of accepting an uploaded exam, called as a service without HTTP: the file's patient is matched by
// the device's patient id (or created, audited as from the file), a file already kept is a duplicate, an upload
// made for a card patient the file does not describe is answered with the comparison (and only a differing
// device id can be confirmed by a person), and a refused upload keeps no session. Nurses and physicians upload
// under the same rules (who may upload at all is the route's security, not the service's).
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleExamOptions } from '../seed/sample-exam';
import { smallExam, withManifest } from '../../tests/server/exam-files';
import { createUser } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal, serverWithClinic } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { acceptExam } from './exam-upload';
import { createPatient } from './patients';

let server: TestServer;
let clinicId: string;
let physician: Actor;
let nurse: Actor;

const GRETA = { name: 'Greta', secondName: 'Lindner', birthday: '1948-02-03', gender: 'female', deviceSideId: 'UP-1' } as const;

let seed = 7100;
/** A new exam (its own bytes) of the given person, staged as the upload route stages it. */
async function staged(person: SampleExamOptions, bytes?: Uint8Array) {
  seed += 1;
  const exam = bytes ?? (await smallExam({ seed, capturedAt: '2026-03-02T10:00:00+01:00', ...person })).bytes;
  return { bytes: exam, file: await server.ctx.files.stage(Readable.from([Buffer.from(exam)]), 'exam.npt', () => false) };
}

async function sessionsOfClinic(): Promise<number> {
  const { count } = await server.db
    .selectFrom('treatments')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('clinic_id', '=', clinicId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

beforeAll(async () => {
  ({ server, clinicId } = await serverWithClinic());
  physician = actorFor(await createUser(server.db, { clinicId, role: 'clinic_physicians' }), clinicId, 'clinic_physicians');
  nurse = actorFor(await createUser(server.db, { clinicId, role: 'clinic_nurses' }), clinicId, 'clinic_nurses');
});
afterAll(() => server?.close());

describe('exam upload service', () => {
  let greta: { patientId: string; bytes: Uint8Array };

  it('creates the file’s patient when none of the clinic is theirs, audited as from the file, and queues the processing', async () => {
    const { bytes, file } = await staged(GRETA);
    const accepted = await acceptExam(server.ctx, physician, file, {});
    expect(accepted.patientCreated).toBe(true);
    expect(accepted.patient).toMatchObject({ name: 'Greta', secondName: 'Lindner', birthday: '1948-02-03', deviceId: 'UP-1' });
    expect(accepted.treatment).toMatchObject({ number: 1, patientId: accepted.patient.id });
    greta = { patientId: accepted.patient.id, bytes };
    const [created] = await auditEntries(server.db, 'patient.created', accepted.patient.id);
    expect(created).toMatchObject({ actor_id: physician.userId, outcome: 'success', detail: { from: 'npt' } });
    const [uploaded] = await auditEntries(server.db, 'treatment.uploaded', accepted.treatment.id);
    expect(uploaded.detail).toMatchObject({ patientId: accepted.patient.id, sha256: file.sha256 });
    const jobs = await server.db.selectFrom('jobs').select('kind').where('subject_id', '=', accepted.treatment.id).execute();
    expect(jobs).toEqual([{ kind: 'treatment.process' }]);
  });

  it('adds a nurse’s later exam with the same device patient id to that patient as session 2, whatever the names say', async () => {
    const { file } = await staged({ ...GRETA, name: 'Grete' });
    const accepted = await acceptExam(server.ctx, nurse, file, {});
    expect(accepted.patientCreated).toBe(false);
    expect(accepted.patient).toMatchObject({ id: greta.patientId, name: 'Greta' });
    expect(accepted.treatment.number).toBe(2);
    const [uploaded] = await auditEntries(server.db, 'treatment.uploaded', accepted.treatment.id);
    expect(uploaded).toMatchObject({ actor_id: nurse.userId, actor_role: 'clinic_nurses' });
  });

  it('refuses a file the clinic already has as a duplicate, naming the session it is, and keeps nothing', async () => {
    const before = await sessionsOfClinic();
    const { file } = await staged(GRETA, greta.bytes);
    const refused = await refusal(acceptExam(server.ctx, physician, file, {}));
    expect(refused).toMatchObject({ status: 409, code: 'treatment.duplicate_upload', extra: { treatment: { patientId: greta.patientId } } });
    expect(await sessionsOfClinic()).toBe(before);
  });

  it('answers an upload for a card patient the file does not describe with what differs; a person cannot confirm names', async () => {
    const card = await createPatient(server.ctx, physician, { name: 'Otto', secondName: 'Brand', birthday: '1955-05-05', gender: 'male', confirmDuplicate: true });
    const before = await sessionsOfClinic();
    const person = { name: 'Otto', secondName: 'Brandt', birthday: '1955-05-05', gender: 'male', deviceSideId: 'UP-2' } as const;
    for (const confirmDevicePatientId of [false, true]) {
      const { file } = await staged(person);
      const refused = await refusal(acceptExam(server.ctx, physician, file, { patientId: card.id, confirmDevicePatientId }));
      expect(refused).toMatchObject({ status: 409, code: 'treatment.patient_mismatch', key: 'treatment.patient_mismatch' });
      expect(refused.extra).toMatchObject({
        patient: { id: null, secondName: 'Brandt' },
        comparison: { differences: ['secondName'], confirmable: false, uploadedFor: { id: card.id, secondName: 'Brand' } },
      });
    }
    expect(await sessionsOfClinic()).toBe(before);
  });

  it('says plainly when only the device patient id differs, and adds the session once a person confirms it', async () => {
    const other = { ...GRETA, deviceSideId: 'UP-9' };
    const refused = await refusal(acceptExam(server.ctx, physician, (await staged(other)).file, { patientId: greta.patientId }));
    expect(refused).toMatchObject({ status: 409, code: 'treatment.patient_mismatch', key: 'treatment.device_patient_id_mismatch' });
    expect(refused.extra).toMatchObject({ comparison: { differences: ['deviceId'], confirmable: true } });

    const accepted = await acceptExam(server.ctx, physician, (await staged(other)).file, { patientId: greta.patientId, confirmDevicePatientId: true });
    expect(accepted).toMatchObject({ patientCreated: false, patient: { id: greta.patientId, deviceId: 'UP-1' }, treatment: { number: 3 } });
    const [uploaded] = await auditEntries(server.db, 'treatment.uploaded', accepted.treatment.id);
    expect(uploaded.detail).toMatchObject({ devicePatientIdConfirmed: true });
  });

  it('refuses an upload for a patient the clinic does not have as not found', async () => {
    const refused = await refusal(acceptExam(server.ctx, physician, (await staged(GRETA)).file, { patientId: crypto.randomUUID() }));
    expect(refused.status).toBe(404);
  });

  it('refuses a picture as not an NPT file and a birthday after today as an invalid field', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(64)]);
    expect(await refusal(acceptExam(server.ctx, physician, (await staged(GRETA, png)).file, {}))).toMatchObject({
      status: 415,
      code: 'upload.unsupported_type',
    });
    const valid = (await smallExam({ seed: 7199, ...GRETA, deviceSideId: 'UP-3' })).bytes;
    const future = withManifest(valid, (manifest) => {
      manifest.patient.birthday = '2099-01-01';
    });
    const unborn = await refusal(acceptExam(server.ctx, physician, (await staged(GRETA, future)).file, {}));
    expect(unborn).toMatchObject({ status: 422, code: 'npt.field_invalid', fields: { 'patient.birthday': ['treatment.birthday_future'] } });
  });
});
