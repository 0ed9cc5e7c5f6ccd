// Sign-off and the parameter set through HTTP (PGlite, and PostgreSQL with DATABASE_URL): a demo exam planned
// from the proposal to a downloaded parameter set that readParameterSet reads back with a valid checksum and
// the plan's spots and powers; a nurse's sign-off (403), a wrong password and a stale revision change nothing;
// a tampered stored file is never served; the audit trail ends with sign-off and packing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParameterSet } from '../../src/domain/npt/read-npt';
import { writeParameterSet } from '../../src/domain/npt/write-npt';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let clinicId: string;
const users: Record<string, { id: string; token: string }> = {};

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  for (const [key, role, firstName] of [
    ['physician', 'clinic_physicians', 'Anna'],
    ['nurse', 'clinic_nurses', 'Miriam'],
  ] as const) {
    const user = await createUser(server.db, { clinicId, role, firstName, lastName: 'Test' });
    users[key] = { id: user.id, token: await sessionFor(server.db, user.id) };
  }
});
afterAll(() => server?.close());

let seed = 900;
/** A session planned up to sign-off (wizard steps 1–3 as proposed); its plan. */
async function readyForSignOff(): Promise<{ id: string; plan: Body }> {
  seed += 1;
  const exam = await smallExam({ seed, name: `Signed${seed}`, secondName: 'Patient', deviceSideId: `SIGN-${seed}` });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const created = await server.call<Body>('POST', '/treatments', { token: users.nurse.token, form });
  expect(created.status).toBe(201);
  await server.jobsIdle();
  const id: string = created.body.data.treatment.id;
  return { id, plan: await planToSignOff(server, id, users.nurse.token) };
}

const signOff = (id: string, revision: number, token = users.physician.token, password = PASSWORD, lang: 'en' | 'de' = 'en') =>
  server.call<Body>('POST', `/treatments/${id}/confirm`, { token, json: { revision, password, confirm: true }, lang });

const download = (id: string, token = users.physician.token) => server.call<Body>('GET', `/treatments/${id}/parameter-set`, { token });

describe('sign-off and the parameter set', () => {
  it('signs off, packs in the background, and serves a parameter set with the plan’s spots and powers', async () => {
    const { id, plan } = await readyForSignOff();
    expect((await download(id)).body).toMatchObject({ code: 'treatment.parameter_set_not_ready' });

    const signed = await signOff(id, plan.revision);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({ message: 'Plan signed off. The parameter set is being prepared for the laser.', data: { step: 'npt_packing', planStatus: 'processing' } });
    expect(signed.body.data.plan.signOff).toMatchObject({ by: { id: users.physician.id, name: 'Anna Test' } });

    await server.jobsIdle();
    const packed = (await server.call<Body>('GET', `/treatments/${id}`, { token: users.nurse.token })).body.data;
    expect(packed).toMatchObject({ step: 'available', stepIndex: 8, planStatus: 'plan_available' });
    const info = packed.plan.parameterSet;
    expect(info.fileName).toMatch(new RegExp(`^parameter-set-${id.slice(0, 8)}-(OD|OS)-\\d{4}-\\d{2}-\\d{2}\\.npt$`));

    const file = await download(id, users.nurse.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${info.fileName}"`);
    expect(file.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(file.body as unknown as Buffer);
    expect(bytes.length).toBe(info.size);
    const read = readParameterSet(bytes);
    expect(read.ok, JSON.stringify(read)).toBe(true);
    if (!read.ok) return;
    const { manifest } = read.value;
    expect(manifest.plan.treatmentId).toBe(id);
    expect(manifest.plan.signOff.by).toEqual({ id: users.physician.id, name: 'Anna Test' });
    const treated = plan.spots.filter((spot: Body) => spot.enabled);
    expect(manifest.plan.spots).toEqual(treated.map(({ id: spotId, x, y, xUm, yUm, powerMw }: Body) => ({ id: spotId, x, y, xUm, yUm, powerMw })));
    expect(manifest.plan.laser).toEqual({ spotSizeUm: 100, spotSpacing: 2, pulseDurationMs: 15, laserMode: 'micropulse', laserDose: 90, dutyCyclePercent: 5, wavelengthNm: 577 });
    expect(manifest.plan.exclusionZones.map((zone) => zone.kind)).toEqual(['FAZ', 'ONH']);

    const trail = (await server.call<Body>('GET', `/treatments/${id}/audit`, { token: users.nurse.token })).body.data;
    expect(trail.slice(-2).map((entry: Body) => [entry.action, entry.step, entry.by?.name ?? null])).toEqual([
      ['signed_off', 'npt_packing', 'Anna Test'],
      ['parameter_set_packed', 'available', null],
    ]);
    expect(trail.at(-2).summary).toBe(`Plan signed off with ${treated.length} laser spots.`);

    // Signed off: the plan takes no more changes, and a second sign-off is refused.
    expect((await signOff(id, packed.plan.revision)).body.code).toBe('plan.signed_off');
    const again = await server.call<Body>('POST', `/treatments/${id}/plan/brightness`, { token: users.physician.token, json: { revision: packed.plan.revision } });
    expect(again.body).toMatchObject({ code: 'plan.signed_off', message: 'This plan has been signed off and can no longer be changed.' });
  });

  it('lets only physicians sign off, with their own password and on the revision they saw', async () => {
    const { id, plan } = await readyForSignOff();
    expect((await signOff(id, plan.revision, users.nurse.token)).status).toBe(403);

    const wrong = await signOff(id, plan.revision, users.physician.token, 'not-the-password', 'de');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'auth.password_invalid', errors: { password: ['Das Passwort ist nicht korrekt.'] } });

    const stale = await signOff(id, plan.revision - 1);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'plan.revision_stale', plan: { revision: plan.revision, step: 'confirm_sign_off' } });

    const current = (await server.call<Body>('GET', `/treatments/${id}/plan`, { token: users.physician.token })).body.data;
    expect(current).toEqual(plan);
  });

  it('never serves a stored parameter set that no longer matches its checksum', async () => {
    const { id, plan } = await readyForSignOff();
    expect((await signOff(id, plan.revision)).status).toBe(200);
    await server.jobsIdle();
    const row = await server.db.selectFrom('treatments').select('parameter_set_path').where('id', '=', id).executeTakeFirstOrThrow();
    const path = join(server.dataDir, 'files', row.parameter_set_path!);
    const original = readFileSync(path);
    // Re-packed as a careful tamperer would: the last digit of one spot's power one up (72 → 73, 72.5 → 72.6),
    // written with the format's own writer, so the ZIP's CRCs and the plan checksum inside are valid again; of
    // the spots so changed, one whose file keeps the original's size (the manifest is deflated). Only the
    // stored SHA-256 can tell this file from the one packed.
    const read = readParameterSet(new Uint8Array(original));
    if (!read.ok) throw new Error('the packed parameter set must read');
    const packed = read.value.manifest;
    const manifest = { plan: packed.plan, createdAt: packed.createdAt, device: packed.device, patient: packed.patient, exam: packed.exam };
    const nudged = (power: number) => Number(String(power).slice(0, -1) + (Number(String(power).at(-1)) + 1));
    let tampered: Buffer | undefined;
    for (let k = 0; k < manifest.plan.spots.length && !tampered; k++) {
      if (String(manifest.plan.spots[k].powerMw).at(-1) === '9') continue;
      const spots = manifest.plan.spots.map((spot, index) => (index === k ? { ...spot, powerMw: nudged(spot.powerMw) } : spot));
      const bytes = Buffer.from(writeParameterSet({ manifest: { ...manifest, plan: { ...manifest.plan, spots } } }));
      if (bytes.length === original.length) tampered = bytes;
    }
    if (!tampered) throw new Error('no one-digit change keeps the size');
    const tamperedRead = readParameterSet(new Uint8Array(tampered));
    expect(tamperedRead.ok).toBe(true);
    expect(tampered.equals(original)).toBe(false);
    writeFileSync(path, tampered);
    for (const lang of ['en', 'de'] as const) {
      const answer = await server.call<Body>('GET', `/treatments/${id}/parameter-set`, { token: users.physician.token, lang });
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('treatment.parameter_set_corrupted');
    }
    writeFileSync(path, original);
    expect((await download(id)).status).toBe(200);
  });
});

describe('a plan broken after it was saved (e.g. edited in the database)', () => {
  const intoTheFaz = async (id: string) => {
    const row = await server.db.selectFrom('treatments').select('plan').where('id', '=', id).executeTakeFirstOrThrow();
    const plan = row.plan!;
    const [first, ...rest] = plan.spots;
    const fovea = plan.fovea!;
    const moved = { ...first, x: fovea.x + 1, y: fovea.y, xUm: plan.scale!.umPerPixel, yUm: 0 };
    await server.db.updateTable('treatments').set({ plan: JSON.stringify({ ...plan, spots: [moved, ...rest] }) }).where('id', '=', id).execute();
  };

  it('is refused at sign-off with the code of what is broken, in the reader’s language', async () => {
    const { id, plan } = await readyForSignOff();
    await intoTheFaz(id);
    const answer = await signOff(id, plan.revision, users.physician.token, PASSWORD, 'de');
    expect(answer.status).toBe(409);
    // On the fovea: the clinical limit is named first, the zone it also touches after it.
    expect(answer.body.code).toBe('plan.spot_near_fovea');
    expect(answer.body.message).toMatch(/^Laserspots näher an der Fovea als 600 µm \(Spotrand\): 1; der nächste bei 0 µm\./);
    expect((await server.call<Body>('GET', `/treatments/${id}`, { token: users.physician.token })).body.data.step).toBe('confirm_sign_off');
  });
});

describe('the password asked at sign-off', () => {
  const signInFrom = (email: string, password: string, address: string) =>
    server.call('POST', '/sign-in', { json: { email, password }, headers: { 'X-Forwarded-For': address } });

  it('is not held back by strangers\' wrong sign-ins from elsewhere, which lock only sign-in from new addresses', async () => {
    const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Jonas', lastName: 'Locked' });
    const token = await sessionFor(server.db, physician.id);
    for (let n = 1; n <= 10; n += 1) expect((await signInFrom(physician.email, 'Wrong-Password', `192.0.2.${n}`)).status).toBe(401);
    expect((await signInFrom(physician.email, PASSWORD, '192.0.2.50')).status).toBe(429);
    const { id, plan } = await readyForSignOff();
    expect((await signOff(id, plan.revision, token)).status).toBe(200);
  });

  it('is the physician\'s own to guess: ten wrong ones lock the sign-off (429) for a minute, and not the sign-in', async () => {
    const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Lena', lastName: 'Guess' });
    const token = await sessionFor(server.db, physician.id);
    const { id, plan } = await readyForSignOff();
    for (let n = 1; n <= 10; n += 1) expect((await signOff(id, plan.revision, token, 'Wrong-Password')).status).toBe(422);
    const locked = await signOff(id, plan.revision, token);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('60');
    expect((await signInFrom(physician.email, PASSWORD, '198.51.100.77')).status).toBe(200);
    server.clock.advance(61_000);
    expect((await signOff(id, plan.revision, token)).status).toBe(200);
  });
});
