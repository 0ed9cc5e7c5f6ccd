// NPT upload through HTTP: a valid exam becomes a patient and a session that reaches planning with FAZ and
// ONH proposals; a bad file gets its specific answer or error state and leaves no rows or files behind.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleParameterSet } from '../../src/domain/npt/test-fixtures';
import { writeParameterSet } from '../../src/domain/npt/write-npt';
import {
  declaredZipBomb,
  entriesOf,
  fundusEntry,
  lyingZipBomb,
  rawZip,
  repack,
  smallExam,
  undecodableJpeg,
  withManifest,
} from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { type Answer, startServer, type TestServer } from './helper';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let physician: string;
let nurse: string;
let otherClinic: string;
let itAdmin: string;

beforeAll(async () => {
  // A small upload limit, so that "too large" needs no 100 MB file.
  server = await startServer({ env: { MAX_UPLOAD_MB: '3' } });
  const clinicId = await createClinic(server.db);
  physician = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_physicians' })).id);
  nurse = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
  itAdmin = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_it_admins' })).id);
  const clinicB = await createClinic(server.db, 'Augenklinik B');
  otherClinic = await sessionFor(server.db, (await createUser(server.db, { clinicId: clinicB, role: 'clinic_physicians' })).id);
});
afterAll(() => server?.close());

type UploadOptions = { token?: string; name?: string; patientId?: string; confirmDevicePatientId?: boolean; lang?: 'en' | 'de' };

function upload(bytes: Uint8Array, options: UploadOptions = {}) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), options.name ?? 'exam.npt');
  const query = options.patientId
    ? `?patientId=${options.patientId}${options.confirmDevicePatientId ? '&confirmDevicePatientId=true' : ''}`
    : '';
  return server.call<Body>('POST', `/treatments${query}`, { token: options.token ?? physician, form, lang: options.lang });
}

async function untilProcessed(id: string, token = physician): Promise<Body> {
  for (let i = 0; i < 300; i += 1) {
    const answer = await server.call<Body>('GET', `/treatments/${id}`, { token });
    expect(answer.status).toBe(200);
    if (!['file_uploaded', 'processing'].includes(answer.body.data.planStatus)) return answer.body.data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`treatment ${id} still processing after 30 s`);
}

async function tableCounts() {
  const counts: Record<string, number> = {};
  for (const table of ['patients', 'treatments', 'treatment_images', 'jobs'] as const) {
    const { n } = await server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(n);
  }
  return counts;
}

function storedFiles(): string[] {
  const root = join(server.dataDir, 'files');
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

describe('a valid exam', () => {
  let exam: Awaited<ReturnType<typeof smallExam>>;
  let created: Answer<Body>;

  beforeAll(async () => {
    exam = await smallExam({ seed: 11, eye: 'OD', name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17', gender: 'female' });
    created = await upload(exam.bytes);
  });

  it('creates the patient from the file and queues the session', () => {
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Session added successfully');
    const { treatment, patient, patientCreated } = created.body.data;
    expect(patientCreated).toBe(true);
    expect(patient).toMatchObject({ name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17', gender: 'female' });
    expect(patient.deviceId).toBe(exam.manifest.patient.deviceSideId);
    expect(treatment).toMatchObject({ number: 1, eye: 'OD', patientId: patient.id, error: null });
    expect(['file_uploaded', 'processing']).toContain(treatment.planStatus);
  });

  it('reaches planning with the images and the FAZ and ONH proposals of plan step 0', async () => {
    const treatment = await untilProcessed(created.body.data.treatment.id);
    expect(treatment.planStatus).toBe('planning');
    expect(treatment.step).toBe('initial_exclusion_boundaries');
    expect(treatment.error).toBeNull();
    expect(treatment.images).toHaveLength(1);
    const [image] = treatment.images;
    expect(image).toMatchObject({ role: 'fundus', width: 640, height: 480 });
    expect(treatment.thumbnailUrl).toBe(image.thumbnailUrl);
    const { plan } = treatment;
    expect(plan.scale.umPerPixel).toBeGreaterThan(0);
    const { faz, onh } = plan.exclusionZones;
    expect(faz).toMatchObject({ kind: 'FAZ', center: plan.fovea });
    // The margins of the clinical limits (docs/clinical-limits.md): 500 µm clearance plus the 100 µm aiming margin.
    expect(onh).toMatchObject({ kind: 'ONH', center: plan.opticDisc.center, marginUm: 600 });
    expect(faz).toMatchObject({ marginUm: 100 });
    // 600 µm, its pixels rounded up to 0.01 px: never smaller, and its µm are its pixels at the plan's scale.
    expect(faz.radiusXPx).toBeCloseTo(600 / plan.scale.umPerPixel, 1);
    expect(faz.radiusXUm).toBeGreaterThanOrEqual(600);
    expect(faz.radiusXUm).toBeLessThan(600 + 0.01 * plan.scale.umPerPixel);
    for (const zone of [faz, onh]) expect(zone.radiusXUm).toBe(zone.radiusXPx * plan.scale.umPerPixel);
    // The detector finds the painted fovea (truth in the file's pixels; the display image has the same size).
    const truth = exam.truth!;
    const discDiameter = 2 * truth.opticDisc.radiusPx;
    expect(Math.hypot(plan.fovea.x - truth.fovea.x, plan.fovea.y - truth.fovea.y)).toBeLessThan(0.5 * discDiameter);
    expect(Math.hypot(plan.opticDisc.center.x - truth.opticDisc.center.x, plan.opticDisc.center.y - truth.opticDisc.center.y)).toBeLessThan(
      0.5 * discDiameter,
    );
  });

  it('serves the display image and the thumbnail as JPEG, not cached, to the clinic only', async () => {
    const treatment = await untilProcessed(created.body.data.treatment.id);
    const [image] = treatment.images;
    for (const url of [image.displayUrl, image.thumbnailUrl]) {
      const answer = await server.call<Buffer>('GET', url.replace(/^\/api/, ''), { token: nurse });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/jpeg');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect([...answer.body.subarray(0, 2)]).toEqual([0xff, 0xd8]);
      expect((await server.call('GET', url.replace(/^\/api/, ''), { token: otherClinic })).status).toBe(404);
    }
    expect((await server.call('GET', `/treatments/${treatment.id}`, { token: otherClinic })).status).toBe(404);
    expect((await server.call('GET', `/treatments/${treatment.id}/plan`, { token: otherClinic })).status).toBe(404);
    expect((await server.call('GET', `/treatments/${treatment.id}`, { token: itAdmin })).status).toBe(403);
  });

  it('gives the plan alone, lists the session on the patient card and notifies the uploader', async () => {
    const treatment = await untilProcessed(created.body.data.treatment.id);
    const plan = await server.call<Body>('GET', `/treatments/${treatment.id}/plan`, { token: physician });
    expect(plan.status).toBe(200);
    expect(plan.body.data).toEqual(treatment.plan);
    const list = await server.call<Body>('GET', `/patients/${treatment.patientId}/treatments`, { token: nurse });
    expect(list.body.data).toEqual([expect.objectContaining({ id: treatment.id, planStatus: 'planning', thumbnailUrl: treatment.thumbnailUrl })]);
    const patient = await server.call<Body>('GET', `/patients/${treatment.patientId}`, { token: nurse });
    expect(patient.body.data).toMatchObject({ planStatus: 'planning', treatmentsCount: 1 });
    const notifications = await server.call<Body>('GET', '/notifications', { token: physician });
    const processed = notifications.body.data.filter((n: Body) => n.event === 'treatment_processed');
    expect(processed).toHaveLength(1);
    expect(processed[0].message).toBe('Session 1 of Elena Fischer is ready for planning.');
    const nurseNotifications = await server.call<Body>('GET', '/notifications', { token: nurse });
    expect(nurseNotifications.body.data.filter((n: Body) => n.event === 'treatment_processed')).toHaveLength(0);
  });

  it('recognises the same file uploaded again and names the existing session', async () => {
    const again = await upload(exam.bytes, { token: nurse, lang: 'de' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('treatment.duplicate_upload');
    expect(again.body.message).toBe('Diese Datei wurde bereits hochgeladen (Sitzung 1 von Elena Fischer).');
    expect(again.body.treatment).toEqual({ id: created.body.data.treatment.id, patientId: created.body.data.patient.id });
  });

  it('adds a later exam of the same patient to that patient as session 2', async () => {
    const later = await smallExam({
      seed: 12,
      eye: 'OS',
      name: 'Elena',
      secondName: 'Fischer',
      birthday: '1963-01-17',
      gender: 'female',
      deviceSideId: exam.manifest.patient.deviceSideId,
    });
    const answer = await upload(later.bytes, { patientId: created.body.data.patient.id });
    expect(answer.status).toBe(201);
    expect(answer.body.data.patientCreated).toBe(false);
    expect(answer.body.data.treatment).toMatchObject({ number: 2, eye: 'OS', patientId: created.body.data.patient.id });
    expect(answer.body.data.patient.treatmentsCount).toBe(2);
    await untilProcessed(answer.body.data.treatment.id);
  });

  it('keeps the file’s diagnostic data with the session', async () => {
    const answer = await server.call<Body>('GET', `/treatments/${created.body.data.treatment.id}`, { token: nurse });
    expect(answer.body.data.diagnostics).toEqual({ ...exam.manifest.diagnostics, additional: [] });
    expect(answer.body.data.iolStatus).toBe(exam.manifest.diagnostics.iolStatus);
  });

  it('keeps diagnostic fields of a newer file version it does not know, as written', async () => {
    const later = await smallExam({ seed: 31, name: 'Jonas', secondName: 'Weber', birthday: '1958-06-02', gender: 'male' });
    const bytes = withManifest(later.bytes, (manifest) => {
      manifest.version = '1.3';
      Object.assign(manifest.diagnostics as Record<string, unknown>, { intraocularPressureMmHg: 17, fluid: { subretinal: true } });
    });
    const answer = await upload(bytes);
    expect(answer.status).toBe(201);
    const session = await server.call<Body>('GET', `/treatments/${answer.body.data.treatment.id}`, { token: physician });
    expect(session.body.data.diagnostics).toEqual({
      ...later.manifest.diagnostics,
      additional: [
        { key: 'intraocularPressureMmHg', value: '17' },
        { key: 'fluid', value: '{"subretinal":true}' },
      ],
    });
  });

  it('names the file’s patient when the file belongs to another patient ("Go to the patient"), and what differs', async () => {
    const other = await smallExam({ seed: 13, name: 'Walter', secondName: 'Zimmermann', birthday: '1949-02-02', gender: 'male' });
    const elena = created.body.data.patient;
    const unknown = await upload(other.bytes, { patientId: elena.id });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toMatchObject({
      code: 'treatment.patient_mismatch',
      message:
        "This file belongs to another patient (Walter Zimmermann, born 2 February 1949). Different from this patient's card: device patient ID, name, second name, birthday and gender.",
      patient: { id: null, name: 'Walter', secondName: 'Zimmermann', birthday: '1949-02-02', gender: 'male' },
      comparison: {
        differences: ['deviceId', 'name', 'secondName', 'birthday', 'gender'],
        file: { deviceId: other.manifest.patient.deviceSideId, name: 'Walter', secondName: 'Zimmermann', birthday: '1949-02-02', gender: 'male' },
        uploadedFor: { id: elena.id, deviceId: elena.deviceId, name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17', gender: 'female' },
        confirmable: false,
      },
    });
    // Confirming the device id does not take a file of someone else.
    const forced = await upload(other.bytes, { patientId: elena.id, confirmDevicePatientId: true });
    expect(forced.status).toBe(409);
    expect(forced.body.comparison.confirmable).toBe(false);
    // Once Walter is a patient of the clinic, the answer carries his id.
    const walter = await upload(other.bytes);
    expect(walter.status).toBe(201);
    const third = await smallExam({ seed: 14, name: 'Walter', secondName: 'Zimmermann', birthday: '1949-02-02', gender: 'male',
      deviceSideId: other.manifest.patient.deviceSideId });
    const known = await upload(third.bytes, { patientId: created.body.data.patient.id, lang: 'de' });
    expect(known.status).toBe(409);
    expect(known.body.message).toBe(
      'Diese Datei gehört zu einem anderen Patienten (Walter Zimmermann, geboren am 2. Februar 1949). Abweichend von dieser Patientenkarte: Patienten-ID am Gerät, Vorname, Nachname, Geburtsdatum und Geschlecht.',
    );
    expect(known.body.patient.id).toBe(walter.body.data.patient.id);
    await untilProcessed(walter.body.data.treatment.id);
  });

  it('says plainly when only the device patient id differs, and adds the session when a person confirms it (audited)', async () => {
    const elena = created.body.data.patient;
    const sameNameOtherId = await smallExam({
      seed: 16,
      name: ' ELENA ',
      secondName: 'fischer',
      birthday: '1963-01-17',
      gender: 'female',
      deviceSideId: 'NPT-0000999',
    });
    const refused = await upload(sameNameOtherId.bytes, { patientId: elena.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'treatment.patient_mismatch',
      message: `The device patient ID is NPT-0000999 in this file and ${elena.deviceId} on this patient's card; name, second name, birthday and gender agree. Add the session to this card only if it is the same person.`,
      comparison: { differences: ['deviceId'], file: { deviceId: 'NPT-0000999' }, uploadedFor: { id: elena.id, deviceId: elena.deviceId }, confirmable: true },
    });
    const german = await upload(sameNameOtherId.bytes, { patientId: elena.id, lang: 'de' });
    expect(german.body.message).toBe(
      `Die Patienten-ID am Gerät ist in dieser Datei NPT-0000999, auf dieser Patientenkarte ${elena.deviceId}; Vorname, Nachname, Geburtsdatum und Geschlecht stimmen überein. Fügen Sie die Sitzung nur hinzu, wenn es sich um dieselbe Person handelt.`,
    );
    const before = await server.call<Body>('GET', `/patients/${elena.id}`, { token: nurse });

    const confirmed = await upload(sameNameOtherId.bytes, { patientId: elena.id, confirmDevicePatientId: true, token: nurse });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.data.patientCreated).toBe(false);
    expect(confirmed.body.data.treatment.number).toBe(before.body.data.treatmentsCount + 1);
    // The patient keeps their own device id.
    expect(confirmed.body.data.patient).toMatchObject({ id: elena.id, deviceId: elena.deviceId });
    const audit = await server.db
      .selectFrom('audit_log')
      .select(['detail', 'outcome'])
      .where('action', '=', 'treatment.uploaded')
      .where('target_id', '=', confirmed.body.data.treatment.id)
      .executeTakeFirstOrThrow();
    const detail = typeof audit.detail === 'string' ? JSON.parse(audit.detail) : audit.detail;
    expect(detail).toMatchObject({ patientId: elena.id, devicePatientIdConfirmed: true });
    await untilProcessed(confirmed.body.data.treatment.id);
  });

  it('deletes a session with its files; the file can then be uploaded again', async () => {
    const extra = await smallExam({ seed: 15 });
    const first = await upload(extra.bytes);
    const treatment = await untilProcessed(first.body.data.treatment.id);
    const before = storedFiles().length;
    const deleted = await server.call<Body>('DELETE', `/treatments/${treatment.id}`, { token: nurse });
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Session deleted successfully');
    expect(storedFiles().length).toBe(before - 3);
    expect((await server.call('GET', `/treatments/${treatment.id}`, { token: nurse })).status).toBe(404);
    const again = await upload(extra.bytes);
    expect(again.status).toBe(201);
    expect(again.body.data.patientCreated).toBe(false);
    await untilProcessed(again.body.data.treatment.id);
  });

  it('refuses an upload without a sign-in before reading it, and for the wrong role', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
    const anonymous = await server.call<Body>('POST', '/treatments', { form });
    expect(anonymous.status).toBe(401);
    expect((await upload(exam.bytes, { token: itAdmin })).status).toBe(403);
  });
});

describe('malformed files', () => {
  let valid: Uint8Array;
  let image: string;

  beforeAll(async () => {
    valid = (await smallExam({ seed: 21 })).bytes;
    image = fundusEntry(valid);
  });

  const random = (length: number, seed: number) => {
    let state = seed;
    return new Uint8Array(length).map(() => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state & 0xff;
    });
  };

  // [name, file, file name, status, code]
  const cases: [string, () => Uint8Array, string, number, string][] = [
    ['random bytes', () => random(5000, 1), 'exam.npt', 422, 'npt.not_a_zip'],
    ['an empty file', () => new Uint8Array(0), 'exam.npt', 422, 'npt.not_a_zip'],
    ['a truncated ZIP', () => valid.subarray(0, Math.floor(valid.length / 2)), 'exam.npt', 422, 'npt.not_a_zip'],
    ['a ZIP missing its last byte', () => valid.subarray(0, valid.length - 1), 'exam.npt', 422, 'npt.not_a_zip'],
    ['a ZIP bomb whose entry lies about its size', () => lyingZipBomb(64 * 1024 * 1024), 'exam.npt', 422, 'npt.not_a_zip'],
    ['a ZIP bomb declaring 4 GB', () => declaredZipBomb(0xfffffff0), 'exam.npt', 422, 'npt.too_large'],
    ['10,000 entries', () => repack(valid, (e) => { for (let i = 0; i < 10_000; i += 1) e[`x${i}.txt`] = new Uint8Array(0); }), 'exam.npt', 422, 'npt.too_many_entries'],
    ['a ../ entry name', () => repack(valid, (e) => { e['../../etc/passwd'] = strToU8('root'); }), 'exam.npt', 422, 'npt.path_traversal'],
    ['an absolute entry name', () => repack(valid, (e) => { e['/tmp/evil'] = strToU8('x'); }), 'exam.npt', 422, 'npt.path_traversal'],
    ['no manifest', () => repack(valid, (e) => { delete e['manifest.json']; }), 'exam.npt', 422, 'npt.manifest_missing'],
    ['a manifest that is not JSON', () => repack(valid, (e) => { e['manifest.json'] = strToU8('{"format": "macula-npt",'); }), 'exam.npt', 422, 'npt.manifest_invalid'],
    ['a bad checksum', () => withManifest(valid, (m) => { m.images[0].sha256 = '0'.repeat(64); }), 'exam.npt', 422, 'npt.checksum_mismatch'],
    ['an unknown version', () => withManifest(valid, (m) => { m.version = '2.0'; }), 'exam.npt', 422, 'npt.unknown_version'],
    ['another format', () => withManifest(valid, (m) => { m.format = 'other-format'; }), 'exam.npt', 422, 'npt.unknown_version'],
    ['a parameter set instead of an exam', () => writeParameterSet(sampleParameterSet()), 'exam.npt', 422, 'npt.wrong_kind'],
    ['a manifest of unknown kind', () => withManifest(valid, (m) => { m.kind = 'report'; }), 'exam.npt', 422, 'npt.field_invalid'],
    ['a missing image', () => repack(valid, (e) => { delete e[image]; }), 'exam.npt', 422, 'npt.image_missing'],
    ['an image of another size than declared', () => withManifest(valid, (m) => { m.images[0].width = 1024; }), 'exam.npt', 422, 'npt.image_invalid'],
    ['an extra entry', () => repack(valid, (e) => { e['notes.txt'] = strToU8('hello'); }), 'exam.npt', 422, 'npt.unexpected_entry'],
    ['a wrong birthday format', () => withManifest(valid, (m) => { m.patient.birthday = '17.01.1963'; }), 'exam.npt', 422, 'npt.field_invalid'],
    ['an impossible birthday', () => withManifest(valid, (m) => { m.patient.birthday = '1963-02-30'; }), 'exam.npt', 422, 'npt.field_invalid'],
    ['a birthday in the future', () => withManifest(valid, (m) => { m.patient.birthday = '2099-01-01'; }), 'exam.npt', 422, 'npt.field_invalid'],
    ['an unknown gender', () => withManifest(valid, (m) => { m.patient.gender = 'unknown'; }), 'exam.npt', 422, 'npt.field_invalid'],
    ['an unknown eye', () => withManifest(valid, (m) => { m.exam.eye = 'OU'; }), 'exam.npt', 422, 'npt.field_invalid'],
    ['no patient name', () => withManifest(valid, (m) => { m.patient.name = ''; }), 'exam.npt', 422, 'npt.field_invalid'],
    ['an encrypted entry', () => rawZip('manifest.json', strToU8('{}'), 0, 2, 1), 'exam.npt', 422, 'npt.not_a_zip'],
    ['a JPEG named .npt', () => entriesOf(valid)[image], 'exam.npt', 415, 'upload.unsupported_type'],
    ['a valid exam named .zip', () => valid, 'exam.zip', 415, 'upload.unsupported_type'],
    ['a file over the upload limit', () => random(3 * 1024 * 1024 + 10, 2), 'exam.npt', 413, 'upload.too_large'],
  ];

  it(`answers each of ${cases.length} bad files with its own code, in both languages, and stores nothing`, async () => {
    // The sessions of the tests before may still be tidying up after they reached "processed": count once
    // the store has been still for half a second.
    let files = storedFiles().length;
    for (let still = 0; still < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = storedFiles().length;
      still = now === files ? still + 1 : 0;
      files = now;
    }
    // The store holds the sessions of the tests before, so an unchanged count below means nothing was added.
    expect(files).toBeGreaterThan(0);
    const counts = await tableCounts();
    for (const [name, make, fileName, status, code] of cases) {
      const answer = await upload(make(), { name: fileName });
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status, code });
      expect(answer.body.message, name).not.toMatch(/\{\{|^npt\.|^upload\./);
      const german = await upload(make(), { name: fileName, lang: 'de' });
      expect(german.body.code, name).toBe(code);
      expect(german.body.message, name).not.toBe(answer.body.message);
    }
    expect(await tableCounts()).toEqual(counts);
    expect(storedFiles().length).toBe(files);
  });

  it('names the invalid manifest field', async () => {
    const answer = await upload(withManifest(valid, (m) => { m.patient.birthday = '1963-13-45'; }));
    expect(answer.body.errors['patient.birthday']).toEqual([
      'The field patient.birthday in this file is missing or invalid. Please check the patient and exam data on the laser system and export the file again.',
    ]);
    const future = await upload(withManifest(valid, (m) => { m.patient.birthday = '2099-01-01'; }), { lang: 'de' });
    expect(future.body.errors['patient.birthday']).toEqual(['Das Geburtsdatum in der Datei liegt in der Zukunft.']);
  });

  it('asks for the file when the field is missing', async () => {
    const form = new FormData();
    form.append('other', 'x');
    const answer = await server.call<Body>('POST', '/treatments', { token: physician, form });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.file).toEqual(['This field is required']);
    const text = new FormData();
    text.append('file', 'not a file');
    const notAFile = await server.call<Body>('POST', '/treatments', { token: physician, form: text });
    expect(notAFile.status).toBe(422);
    expect(notAFile.body.errors.file).toEqual(['Please choose an NPT file to upload.']);
  });

  it('ends an exam whose image does not decode in an error state, which deleting clears', async () => {
    const counts = await tableCounts();
    const files = storedFiles().length;
    const broken = repack(valid, (e) => { e[image] = undecodableJpeg(e[image]); });
    const fixed = withManifest(broken, (m) => {
      const entry = entriesOf(broken)[image];
      m.images[0].size = entry.length;
      m.images[0].sha256 = createHash('sha256').update(entry).digest('hex');
    });
    const answer = await upload(fixed);
    expect(answer.status).toBe(201);
    const treatment = await untilProcessed(answer.body.data.treatment.id);
    expect(treatment.planStatus).toBe('no_plan_available');
    expect(treatment.error.code).toBe('npt.image_undecodable');
    expect(treatment.error.message).toContain(image);
    expect(treatment.images).toEqual([]);
    expect(treatment.plan.exclusionZones).toBeNull();
    // The exam file stays stored with the failed session until the session is deleted.
    expect(storedFiles().length).toBeGreaterThan(files);
    const german = await server.call<Body>('GET', `/treatments/${treatment.id}`, { token: physician, lang: 'de' });
    expect(german.body.data.error.message).not.toBe(treatment.error.message);
    expect((await server.call('DELETE', `/treatments/${treatment.id}`, { token: physician })).status).toBe(200);
    // The patient created from the file stays (patients are deleted by request); session, job and images went.
    expect(await tableCounts()).toEqual({ ...counts, patients: counts.patients + 1 });
    expect(storedFiles().length).toBe(files);
  });
});
