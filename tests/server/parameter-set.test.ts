// Sign-off and the parameter set through HTTP (PGlite, and PostgreSQL with DATABASE_URL): a demo exam planned
// from the proposal to a downloaded parameter set that readParameterSet reads back with a valid checksum and
// the plan's spots and powers; a nurse's sign-off (403), a wrong password and a stale revision change nothing;
// a tampered stored file is never served; the audit trail ends with sign-off and packing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParameterSet } from '../../src/domain/npt/read-npt';
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
    expect(manifest.plan.laser).toEqual({ spotSizeUm: 100, spotSpacing: 2, pulseDurationMs: 15, laserMode: 'micropulse', laserDose: 90 });
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
    // One changed byte inside the manifest's spot list, the ZIP rewritten around it as a tamperer would.
    const tampered = Buffer.from(original);
    tampered[tampered.length - 200] ^= 0x01;
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
    expect(answer.body.code).toBe('plan.spot_in_exclusion_zone');
    expect(answer.body.message).toMatch(/^Laserspots, die eine Ausschlusszone \(FAZ oder Papille\) berühren: 1\./);
    expect((await server.call<Body>('GET', `/treatments/${id}`, { token: users.physician.token })).body.data.step).toBe('confirm_sign_off');
  });
});
