// Labelling and measuring through HTTP (issue 17): the clinic's labels, marks of each kind placed, measured at
// the plan's scale, moved with a version, removed; refused shapes with their codes in both languages; who may
// (physicians and nurses, not IT admins, not another clinic), the lock, the audit log, the realtime event, and
// marks going with their session. A ruler may be saved without a label (migration 0022 and its way back).
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as unlabelledRulers from '../../server/db/migrations/0022-unlabelled-rulers';
import { channelName } from '../../src/domain/realtime/events';
import { smallExam } from './exam-files';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { nextEvent, realtimeClient, subscribed } from './realtime-client';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const DEFAULTS_EN = ['Microaneurysm', 'Haemorrhage', 'Hard exudate', 'Leakage point', 'Oedema area', 'Drusen', 'Scar or previous laser', 'Other'];
const DEFAULTS_DE = ['Mikroaneurysma', 'Blutung', 'Harte Exsudate', 'Leckagepunkt', 'Ödemareal', 'Drusen', 'Narbe oder frühere Laserbehandlung', 'Sonstiges'];
const LOCK_DE = 'Diese Sitzung wurde gesperrt, weil ein Problem gemeldet wurde.';
const UNKNOWN_ID = '0b9f6c1e-5a39-4d8e-9c2a-3f1d7e2b8a10';

let server: TestServer;
let clinicId: string;
const users: Record<string, { id: string; token: string }> = {};

async function member(role: string, clinic = clinicId) {
  const user = await createUser(server.db, { clinicId: clinic, role, firstName: role === 'clinic_nurses' ? 'Miriam' : 'Anna', lastName: role === 'clinic_nurses' ? 'Vogel' : 'Keller' });
  return { id: user.id, token: await sessionFor(server.db, user.id) };
}

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  users.physician = await member('clinic_physicians');
  users.nurse = await member('clinic_nurses');
  users.admin = await member('clinic_it_admins');
  users.otherPhysician = await member('clinic_physicians', await createClinic(server.db, 'Augenklinik B'));
});
afterAll(() => server?.close());

interface Session {
  id: string;
  patientId: string;
  imageId: string;
  width: number;
  height: number;
  plan: Body;
}

let seed = 700;
/** A processed session of a new patient, with its fundus image and plan. */
async function newSession(token = users.nurse.token): Promise<Session> {
  seed += 1;
  const exam = await smallExam({ seed, name: `Marks${seed}`, secondName: 'Patient', deviceSideId: `MRK-${seed}` });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const upload = await server.call<Body>('POST', '/treatments', { token, form });
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  await server.jobsIdle();
  const treatment = (await server.call<Body>('GET', `/treatments/${upload.body.data.treatment.id}`, { token })).body.data;
  const fundus = treatment.images.find((image: Body) => image.role === 'fundus');
  return { id: treatment.id, patientId: treatment.patientId, imageId: fundus.id, width: fundus.width, height: fundus.height, plan: treatment.plan };
}

const marksPath = (session: Session, imageId = session.imageId) => `/treatments/${session.id}/images/${imageId}/annotations`;
const list = (session: Session, token = users.physician.token, lang: 'en' | 'de' = 'en') => server.call<Body>('GET', marksPath(session), { token, lang });
const place = (session: Session, json: unknown, token = users.physician.token, lang: 'en' | 'de' = 'en') =>
  server.call<Body>('POST', marksPath(session), { token, json, lang });
const change = (session: Session, id: string, json: unknown, token = users.physician.token, lang: 'en' | 'de' = 'en') =>
  server.call<Body>('PATCH', `${marksPath(session)}/${id}`, { token, json, lang });
const remove = (session: Session, id: string, token = users.physician.token, lang: 'en' | 'de' = 'en') =>
  server.call<Body>('DELETE', `${marksPath(session)}/${id}`, { token, lang });

async function labels(token = users.physician.token, lang: 'en' | 'de' = 'en'): Promise<Body[]> {
  const answer = await server.call<Body>('GET', '/clinic/annotation-labels', { token, lang });
  expect(answer.status).toBe(200);
  return answer.body.data;
}
const labelId = async (key: string) => (await labels()).find((label) => label.key === key)!.id as string;

let session: Session;
beforeAll(async () => {
  session = await newSession();
});

describe('labels', () => {
  it('lists the eight defaults first, in both languages, with the same ids', async () => {
    const en = await labels(users.physician.token, 'en');
    const de = await labels(users.nurse.token, 'de');
    expect(en.slice(0, 8).map((label) => label.name)).toEqual(DEFAULTS_EN);
    expect(de.slice(0, 8).map((label) => label.name)).toEqual(DEFAULTS_DE);
    expect(en.slice(0, 8).map((label) => label.key)).toEqual(['microaneurysm', 'haemorrhage', 'hard_exudate', 'leakage_point', 'oedema_area', 'drusen', 'scar_or_previous_laser', 'other']);
    expect(de.map((label) => label.id)).toEqual(en.map((label) => label.id));
    expect(en[1]).toMatchObject({ names: { en: 'Haemorrhage', de: 'Blutung' }, createdBy: null });
    // Another clinic has its own rows.
    const theirs = await labels(users.otherPhysician.token);
    expect(theirs.map((label) => label.id)).not.toContain(en[0].id);
  });

  it('adds a label named in one language (shown so in both), after the defaults; a clash in either language is refused', async () => {
    const added = await server.call<Body>('POST', '/clinic/annotation-labels', { token: users.nurse.token, json: { nameEn: '  Pigment clumping ' } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ message: 'Label added', data: { key: null, name: 'Pigment clumping', names: { en: 'Pigment clumping', de: 'Pigment clumping' }, createdBy: { id: users.nurse.id, name: 'Miriam Vogel' } } });
    const after = await labels(users.physician.token, 'de');
    expect(after.at(-1)).toMatchObject({ id: added.body.data.id, name: 'Pigment clumping' });
    expect(after.slice(0, 8).map((label) => label.name)).toEqual(DEFAULTS_DE);

    const both = await server.call<Body>('POST', '/clinic/annotation-labels', { token: users.physician.token, json: { nameEn: 'Retinal fold', nameDe: 'Netzhautfalte' }, lang: 'de' });
    expect(both.status).toBe(201);
    expect(both.body).toMatchObject({ message: 'Beschriftung hinzugefügt', data: { name: 'Netzhautfalte', names: { en: 'Retinal fold', de: 'Netzhautfalte' } } });

    for (const [json, lang] of [
      [{ nameDe: 'PIGMENT clumping' }, 'en'],
      [{ nameEn: 'netzhautFALTE' }, 'en'],
      [{ nameEn: 'Something new', nameDe: 'blutung' }, 'de'],
      [{ nameEn: 'hard exudate' }, 'en'],
    ] as const) {
      const refused = await server.call<Body>('POST', '/clinic/annotation-labels', { token: users.physician.token, json, lang });
      expect(refused.status, JSON.stringify(json)).toBe(409);
      expect(refused.body.code).toBe('annotation_label.duplicate');
      expect(refused.body.message).toBe(lang === 'de' ? 'Eine Beschriftung mit diesem Namen gibt es bereits.' : 'A label with this name already exists.');
    }
    // The same name in another clinic is that clinic's business.
    expect((await server.call('POST', '/clinic/annotation-labels', { token: users.otherPhysician.token, json: { nameEn: 'Pigment clumping' } })).status).toBe(201);
  });

  it('refuses a blank name, one with control characters, none at all and unknown fields', async () => {
    const post = (json: unknown) => server.call<Body>('POST', '/clinic/annotation-labels', { token: users.physician.token, json });
    const blank = await post({ nameEn: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual({ nameEn: ['This field is required'] });
    const control = await post({ nameDe: 'Fleck\u0007' });
    expect(control.status).toBe(422);
    expect(control.body.errors).toEqual({ nameDe: ['The name contains characters that are not allowed.'] });
    expect((await post({})).status).toBe(422);
    expect((await post({ nameEn: 'x'.repeat(61) })).status).toBe(422);
    expect((await post({ name: 'Fleck' })).status).toBe(422);
  });

  it('keeps a clinic at 200 labels, the defaults included', async () => {
    const clinic = await createClinic(server.db, 'Augenklinik Voll');
    const physician = await member('clinic_physicians', clinic);
    await labels(physician.token);
    await server.db
      .insertInto('annotation_labels')
      .values(Array.from({ length: 192 }, (_, i) => ({ clinic_id: clinic, name_en: `Label ${i}`, name_de: `Beschriftung ${i}` })))
      .execute();
    expect(await labels(physician.token)).toHaveLength(200);
    const refused = await server.call<Body>('POST', '/clinic/annotation-labels', { token: physician.token, json: { nameEn: 'One more' }, lang: 'de' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'annotation_label.too_many', message: 'Die Klinik hat bereits 200 Beschriftungen; weitere können nicht hinzugefügt werden.' });
  });
});

describe('marks', () => {
  it('places each kind and reads it back with its figures at the plan’s scale, and the scale’s source', async () => {
    const { umPerPixel, source } = session.plan.scale;
    const discDiameterPx = session.plan.opticDisc.radiusPx * 2;
    const other = await labelId('other');
    const cx = session.width / 2;
    const cy = session.height / 2;

    const point = await place(session, { shape: { kind: 'point', at: { x: cx, y: cy } }, labelId: await labelId('microaneurysm') });
    expect(point.status, JSON.stringify(point.body)).toBe(201);
    expect(point.body).toMatchObject({ message: 'Marking saved', data: { label: 'Microaneurysm', note: null, measurement: null, version: 1, createdBy: { id: users.physician.id, name: 'Anna Keller' } } });

    // A ruler of exactly 200 px.
    const line = await place(session, { shape: { kind: 'line', start: { x: cx - 120, y: cy - 80 }, end: { x: cx + 0, y: cy + 80 } }, labelId: other, note: ' Fovea to the arcade \n(superior) ' });
    expect(line.status).toBe(201);
    expect(line.body.data.note).toBe('Fovea to the arcade \n(superior)');
    expect(line.body.data.measurement).toEqual({
      kind: 'line',
      scaleSource: source,
      lengthUm: Math.round(200 * umPerPixel),
      lengthDd: Math.round((200 / discDiameterPx) * 100) / 100,
    });

    const circle = await place(session, { shape: { kind: 'circle', center: { x: cx, y: cy }, radiusPx: 20 }, labelId: await labelId('leakage_point') });
    expect(circle.status).toBe(201);
    expect(circle.body.data.measurement).toEqual({
      kind: 'circle',
      scaleSource: source,
      radiusUm: Math.round(20 * umPerPixel),
      diameterUm: Math.round(40 * umPerPixel),
      diameterDd: Math.round((40 / discDiameterPx) * 100) / 100,
      areaMm2: Math.round(((Math.PI * 400 * umPerPixel * umPerPixel) / 1e6) * 10_000) / 10_000,
    });

    // A 100 × 50 px rectangle.
    const rectangle = [
      { x: cx, y: cy },
      { x: cx + 100, y: cy },
      { x: cx + 100, y: cy + 50 },
      { x: cx, y: cy + 50 },
    ];
    const polygon = await place(session, { shape: { kind: 'polygon', points: rectangle }, labelId: await labelId('oedema_area') }, users.nurse.token, 'de');
    expect(polygon.status).toBe(201);
    expect(polygon.body).toMatchObject({ message: 'Markierung gespeichert', data: { label: 'Ödemareal' } });
    expect(polygon.body.data.measurement).toEqual({
      kind: 'polygon',
      scaleSource: source,
      areaMm2: Math.round(((5000 * umPerPixel * umPerPixel) / 1e6) * 10_000) / 10_000,
      perimeterUm: Math.round(300 * umPerPixel),
    });

    const read = await list(session, users.nurse.token, 'de');
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ treatmentId: session.id, imageId: session.imageId, locked: false, scale: { umPerPixel, source, discDiameterPx } });
    const ids = [point, line, circle, polygon].map((answer) => answer.body.data.id);
    const marks = read.body.data.annotations.filter((mark: Body) => ids.includes(mark.id));
    expect(marks.map((mark: Body) => mark.shape.kind)).toEqual(['point', 'line', 'circle', 'polygon']);
    expect(marks.map((mark: Body) => mark.label)).toEqual(['Mikroaneurysma', 'Sonstiges', 'Leckagepunkt', 'Ödemareal']);
    expect(marks[1].measurement).toEqual(line.body.data.measurement);
    expect(marks[3].shape.points).toEqual(rectangle);
  });

  it('moves, relabels and re-notes a mark from its version; a change from an older version is refused with the mark as it is', async () => {
    const placed = await place(session, { shape: { kind: 'circle', center: { x: 100, y: 100 }, radiusPx: 10 }, labelId: await labelId('drusen'), note: 'first' });
    const id = placed.body.data.id;
    const moved = await change(session, id, { version: 1, shape: { kind: 'circle', center: { x: 120, y: 110 }, radiusPx: 15 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ version: 2, note: 'first', label: 'Drusen', shape: { center: { x: 120, y: 110 }, radiusPx: 15 } });
    expect(moved.body.data.measurement.radiusUm).toBe(Math.round(15 * session.plan.scale.umPerPixel));

    const relabelled = await change(session, id, { version: 2, labelId: await labelId('haemorrhage'), note: null }, users.nurse.token);
    expect(relabelled.status).toBe(200);
    expect(relabelled.body.data).toMatchObject({ version: 3, note: null, label: 'Haemorrhage' });

    const stale = await change(session, id, { version: 2, note: 'late' }, users.physician.token, 'de');
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'annotation.stale', annotation: { id, version: 3, note: null, label: 'Blutung' } });
    expect(stale.body.message).toContain('Jemand anderes hat diese Markierung inzwischen geändert');

    // A change must change something, and a shape is checked as when placed.
    expect((await change(session, id, { version: 3 })).status).toBe(422);
    const outside = await change(session, id, { version: 3, shape: { kind: 'point', at: { x: session.width + 1, y: 5 } } });
    expect(outside.status).toBe(422);
    expect(outside.body.code).toBe('annotation.outside_image');
    expect((await change(session, UNKNOWN_ID, { version: 1, note: 'x' })).status).toBe(404);
  });

  it('removes a mark for good', async () => {
    const placed = await place(session, { shape: { kind: 'point', at: { x: 10, y: 10 } }, labelId: await labelId('other') });
    const id = placed.body.data.id;
    const removed = await remove(session, id, users.nurse.token, 'de');
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ status: 'Success', message: 'Markierung gelöscht' });
    expect((await list(session)).body.data.annotations.map((mark: Body) => mark.id)).not.toContain(id);
    expect((await remove(session, id)).status).toBe(404);
    expect((await change(session, id, { version: 1, note: 'x' })).status).toBe(404);
  });

  it('refuses a shape off the image or a polygon that crosses itself, with their codes, in English and German', async () => {
    const other = await labelId('other');
    const offImage = { shape: { kind: 'polygon', points: [{ x: 10, y: 10 }, { x: 50, y: 10 }, { x: 30, y: session.height + 5 }] }, labelId: other };
    const en = await place(session, offImage);
    expect(en.status).toBe(422);
    expect(en.body).toEqual({
      status: 'Error',
      code: 'annotation.outside_image',
      message: 'The marking must lie within the image.',
      errors: { 'shape.points.2': ['The marking must lie within the image.'] },
    });
    const de = await place(session, offImage, users.physician.token, 'de');
    expect(de.body).toMatchObject({ code: 'annotation.outside_image', message: 'Die Markierung muss innerhalb des Bildes liegen.' });

    const bowTie = { shape: { kind: 'polygon', points: [{ x: 10, y: 10 }, { x: 60, y: 60 }, { x: 60, y: 10 }, { x: 10, y: 60 }] }, labelId: other };
    const crossingEn = await place(session, bowTie);
    expect(crossingEn.status).toBe(422);
    expect(crossingEn.body).toMatchObject({ code: 'annotation.polygon_self_intersecting', message: 'The outline of the area must not cross itself.', errors: { 'shape.points': ['The outline of the area must not cross itself.'] } });
    const crossingDe = await place(session, bowTie, users.nurse.token, 'de');
    expect(crossingDe.body).toMatchObject({ code: 'annotation.polygon_self_intersecting', message: 'Der Umriss der Fläche darf sich nicht selbst kreuzen.' });

    // A circle reaching over the edge, a ruler of no length.
    expect((await place(session, { shape: { kind: 'circle', center: { x: 5, y: 100 }, radiusPx: 6 }, labelId: other })).body.code).toBe('annotation.outside_image');
    expect((await place(session, { shape: { kind: 'line', start: { x: 5, y: 5 }, end: { x: 5, y: 5 } }, labelId: other })).body.code).toBe('annotation.line_degenerate');
    expect((await place(session, { shape: { kind: 'polygon', points: [{ x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3 }] }, labelId: other })).body.code).toBe('annotation.polygon_degenerate');
  });

  it('refuses a label the clinic does not have, a note with control characters, and input the contract does not allow', async () => {
    const shape = { kind: 'point', at: { x: 20, y: 20 } };
    const unknown = await place(session, { shape, labelId: UNKNOWN_ID }, users.physician.token, 'de');
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'annotation.label_unknown', errors: { labelId: ['Bitte wählen Sie eine Beschriftung aus der Liste.'] } });
    const theirs = (await labels(users.otherPhysician.token))[0].id;
    expect((await place(session, { shape, labelId: theirs })).body.code).toBe('annotation.label_unknown');
    const note = await place(session, { shape, labelId: await labelId('other'), note: 'bell\u0007' });
    expect(note.body).toMatchObject({ code: 'annotation.note_invalid', errors: { note: ['The note contains characters that are not allowed.'] } });

    const other = await labelId('other');
    const before = (await list(session)).body.data.annotations.length;
    for (const body of [
      { shape: { kind: 'polygon', points: Array.from({ length: 101 }, (_, i) => ({ x: i, y: (i * 7) % 50 })) }, labelId: other },
      { shape: { kind: 'polygon', points: Array.from({ length: 100_000 }, () => ({ x: 1, y: 1 })) }, labelId: other },
      { shape: { kind: 'hexagon', at: { x: 1, y: 1 } }, labelId: other },
      { shape: { kind: 'point', at: { x: '1', y: 1 } }, labelId: other },
      { shape: { kind: 'circle', center: { x: 50, y: 50 }, radiusPx: 0 }, labelId: other },
      { shape: { kind: 'point', at: { x: 1, y: 1 }, extra: 1 }, labelId: other },
      { shape: { kind: 'point', at: { x: 1e308, y: 1 } }, labelId: other },
      { shape, labelId: 'not-a-uuid' },
      { shape, labelId: other, note: 'x'.repeat(1001) },
      { shape },
    ]) {
      const answer = await place(session, body);
      expect([413, 422], JSON.stringify(body).slice(0, 120)).toContain(answer.status);
      expect(answer.body.status).toBe('Error');
    }
    expect((await list(session)).body.data.annotations.length).toBe(before);

    // The schema's errors are those of the shape's own kind, not of every other kind.
    const twoVertices = await place(session, { shape: { kind: 'polygon', points: [{ x: 1, y: 1 }, { x: 9, y: 9 }] }, labelId: other }, users.physician.token, 'de');
    expect(twoVertices.status).toBe(422);
    expect(twoVertices.body.errors).toEqual({ 'shape.points': ['Eine Fläche braucht 3 bis 100 Eckpunkte.'] });
    const noRadius = await place(session, { shape: { kind: 'circle', center: { x: 50, y: 50 } }, labelId: other });
    expect(noRadius.body.errors).toEqual({ 'shape.radiusPx': ['This field is required'] });
    const hexagon = await place(session, { shape: { kind: 'hexagon', at: { x: 1, y: 1 } }, labelId: other });
    expect(Object.keys(hexagon.body.errors)).toEqual(['shape']);
    const malformed = await server.call('POST', marksPath(session), { token: users.physician.token, body: '{"shape": [1, 2', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
  });

  it('keeps an image at 500 marks', async () => {
    const full = await newSession();
    const other = await labelId('other');
    await server.db
      .insertInto('annotations')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          clinic_id: clinicId,
          treatment_id: full.id,
          image_id: full.imageId,
          label_id: other,
          shape: JSON.stringify({ kind: 'point', at: { x: i % full.width, y: 1 } }),
          created_by_name: 'Fixture',
        })),
      )
      .execute();
    expect((await list(full)).body.data.annotations).toHaveLength(500);
    const refused = await place(full, { shape: { kind: 'point', at: { x: 1, y: 1 } }, labelId: other });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'annotation.too_many', message: 'This image already has 500 markings; no more can be added.' });
  });

  it('measures nothing on an image the plan’s scale does not belong to', async () => {
    const infrared = await server.db
      .insertInto('treatment_images')
      .values({
        clinic_id: clinicId,
        treatment_id: session.id,
        role: 'infrared',
        entry: 'images/infrared.png',
        width: 400,
        height: 300,
        original_width: 400,
        original_height: 300,
        display_path: `${clinicId}/none/display`,
        thumbnail_path: `${clinicId}/none/thumbnail`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const onInfrared = { ...session, imageId: infrared.id, width: 400, height: 300 };
    const line = await place(onInfrared, { shape: { kind: 'line', start: { x: 10, y: 10 }, end: { x: 110, y: 10 } }, labelId: await labelId('scar_or_previous_laser') });
    expect(line.status).toBe(201);
    expect(line.body.data.measurement).toBeNull();
    // Its own size bounds it, not the fundus image's.
    expect((await place(onInfrared, { shape: { kind: 'point', at: { x: 401, y: 10 } }, labelId: await labelId('other') })).body.code).toBe('annotation.outside_image');
    const read = await list(onInfrared);
    expect(read.body.data).toMatchObject({ imageId: infrared.id, scale: null });
    expect(read.body.data.annotations).toHaveLength(1);
    // The fundus image's marks are its own.
    expect((await list(session)).body.data.annotations.map((mark: Body) => mark.id)).not.toContain(line.body.data.id);
  });
});

describe('a ruler without a label', () => {
  const ruler = { kind: 'line', start: { x: 40, y: 60 }, end: { x: 240, y: 60 } };

  it('is saved and read back with no label, and measures as a labelled one does', async () => {
    const placed = await place(session, { shape: ruler, labelId: null });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data).toMatchObject({ labelId: null, label: null, note: null, version: 1, shape: ruler });
    expect(placed.body.data.measurement).toMatchObject({ kind: 'line', lengthUm: Math.round(200 * session.plan.scale.umPerPixel) });
    const read = await list(session, users.nurse.token, 'de');
    expect(read.status).toBe(200);
    const mark = read.body.data.annotations.find((candidate: Body) => candidate.id === placed.body.data.id);
    expect(mark).toMatchObject({ labelId: null, label: null, shape: ruler });
  });

  it('refuses a point, circle or area without a label (400 annotation.label_required), in English and German', async () => {
    const before = (await list(session)).body.data.annotations.length;
    const shapes = [
      { kind: 'point', at: { x: 30, y: 30 } },
      { kind: 'circle', center: { x: 80, y: 80 }, radiusPx: 10 },
      { kind: 'polygon', points: [{ x: 10, y: 10 }, { x: 60, y: 10 }, { x: 60, y: 60 }] },
    ];
    for (const shape of shapes) {
      const en = await place(session, { shape, labelId: null });
      expect(en.status, shape.kind).toBe(400);
      expect(en.body).toEqual({
        status: 'Error',
        code: 'annotation.label_required',
        message: 'Please choose a label; only a ruler can be saved without one.',
        errors: { labelId: ['Please choose a label; only a ruler can be saved without one.'] },
      });
    }
    const de = await place(session, { shape: shapes[0], labelId: null }, users.nurse.token, 'de');
    expect(de.status).toBe(400);
    expect(de.body).toMatchObject({ code: 'annotation.label_required', message: 'Bitte wählen Sie eine Beschriftung; nur ein Lineal kann ohne Beschriftung gespeichert werden.' });
    // Leaving the label out altogether is still an invalid request, for a ruler too.
    expect((await place(session, { shape: ruler })).status).toBe(422);
    expect((await list(session)).body.data.annotations.length).toBe(before);
  });

  it('loses and regains its label; another shape cannot lose its label, nor an unlabelled ruler become one without a label', async () => {
    const placed = await place(session, { shape: ruler, labelId: await labelId('other'), note: 'Disc to fovea' });
    const id = placed.body.data.id;
    expect(placed.body.data.label).toBe('Other');
    const unlabelled = await change(session, id, { version: 1, labelId: null }, users.nurse.token);
    expect(unlabelled.status, JSON.stringify(unlabelled.body)).toBe(200);
    expect(unlabelled.body.data).toMatchObject({ version: 2, labelId: null, label: null, note: 'Disc to fovea' });
    expect((await list(session)).body.data.annotations.find((mark: Body) => mark.id === id)).toMatchObject({ labelId: null, label: null, version: 2 });

    // Made into a point without a label given: refused, the ruler stays as it was.
    const pointWithout = await change(session, id, { version: 2, shape: { kind: 'point', at: { x: 50, y: 50 } } }, users.physician.token, 'de');
    expect(pointWithout.status).toBe(400);
    expect(pointWithout.body.code).toBe('annotation.label_required');
    // Moved as a ruler, it needs none.
    const moved = await change(session, id, { version: 2, shape: { kind: 'line', start: { x: 40, y: 80 }, end: { x: 200, y: 80 } } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ version: 3, labelId: null });
    const relabelled = await change(session, id, { version: 3, labelId: await labelId('drusen') });
    expect(relabelled.body.data).toMatchObject({ version: 4, label: 'Drusen' });

    const circle = await place(session, { shape: { kind: 'circle', center: { x: 120, y: 120 }, radiusPx: 10 }, labelId: await labelId('drusen') });
    const refused = await change(session, circle.body.data.id, { version: 1, labelId: null });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('annotation.label_required');
    expect((await list(session)).body.data.annotations.find((mark: Body) => mark.id === circle.body.data.id)).toMatchObject({ version: 1, label: 'Drusen' });
  });

  it('is kept labelled for every other shape by the database itself', async () => {
    const placed = await place(session, { shape: { kind: 'point', at: { x: 15, y: 15 } }, labelId: await labelId('drusen') });
    const id: string = placed.body.data.id;
    await expect(server.db.updateTable('annotations').set({ label_id: null }).where('id', '=', id).execute()).rejects.toThrow(/annotations_label_unless_line/);
  });

  it('is recorded in the audit log as any mark is, without a label name', async () => {
    const placed = await place(session, { shape: ruler, labelId: null });
    const rows = await server.db.selectFrom('audit_log').select(['action', 'detail']).where('target_id', '=', placed.body.data.id).execute();
    expect(rows.map((row) => row.action)).toEqual(['annotation.created']);
    expect(rows[0].detail).toMatchObject({ kind: 'line', imageId: session.imageId });
  });
});

describe('who may', () => {
  it('lets a nurse label as a physician does', async () => {
    const placed = await place(session, { shape: { kind: 'point', at: { x: 30, y: 30 } }, labelId: await labelId('drusen') }, users.nurse.token);
    expect(placed.status).toBe(201);
    expect(placed.body.data.createdBy).toEqual({ id: users.nurse.id, name: 'Miriam Vogel' });
    expect((await change(session, placed.body.data.id, { version: 1, note: 'seen by Dr. Keller' }, users.physician.token)).status).toBe(200);
  });

  it('refuses the IT admin every call (403)', async () => {
    const token = users.admin.token;
    const json = { shape: { kind: 'point', at: { x: 30, y: 30 } }, labelId: UNKNOWN_ID };
    for (const [method, path, body] of [
      ['GET', '/clinic/annotation-labels', undefined],
      ['POST', '/clinic/annotation-labels', { nameEn: 'Admin label' }],
      ['GET', marksPath(session), undefined],
      ['POST', marksPath(session), json],
      ['PATCH', `${marksPath(session)}/${UNKNOWN_ID}`, { version: 1, note: 'x' }],
      ['DELETE', `${marksPath(session)}/${UNKNOWN_ID}`, undefined],
    ] as const) {
      const answer = await server.call<Body>(method, path, { token, json: body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.code).toBe('auth.forbidden');
    }
  });

  it('answers another clinic 404, as for any session of another clinic, and a wrong image or id too', async () => {
    const placed = await place(session, { shape: { kind: 'point', at: { x: 40, y: 40 } }, labelId: await labelId('other') });
    const id = placed.body.data.id;
    const token = users.otherPhysician.token;
    const theirLabel = (await labels(token))[0].id;
    expect((await list(session, token)).status).toBe(404);
    expect((await place(session, { shape: { kind: 'point', at: { x: 1, y: 1 } }, labelId: theirLabel }, token)).status).toBe(404);
    expect((await change(session, id, { version: 1, note: 'x' }, token)).status).toBe(404);
    expect((await remove(session, id, token)).status).toBe(404);
    expect((await server.call('GET', `/treatments/${session.id}`, { token })).status).toBe(404);

    // This clinic: another session's image under this session, a malformed id.
    const second = await newSession();
    expect((await list({ ...session, imageId: second.imageId })).status).toBe(404);
    expect((await server.call('GET', `/treatments/${session.id}/images/not-a-uuid/annotations`, { token: users.physician.token })).status).toBe(404);
    expect((await server.call('DELETE', `${marksPath(session)}/${'x'.repeat(500)}`, { token: users.physician.token })).status).toBe(404);
    // The mark is still there.
    expect((await list(session)).body.data.annotations.map((mark: Body) => mark.id)).toContain(id);
  });
});

describe('a locked session', () => {
  it('refuses every change with the lock message, and still lists its marks', async () => {
    const locked = await newSession();
    const placed = await place(locked, { shape: { kind: 'point', at: { x: 5, y: 5 } }, labelId: await labelId('other') });
    const id = placed.body.data.id;
    expect((await server.call('POST', `/treatments/${locked.id}/reports`, { token: users.physician.token, json: { reason: 'Blurred exam.' } })).status).toBe(200);

    for (const answer of [
      await place(locked, { shape: { kind: 'point', at: { x: 6, y: 6 } }, labelId: await labelId('other') }, users.nurse.token, 'de'),
      await change(locked, id, { version: 1, note: 'x' }, users.physician.token, 'de'),
      await remove(locked, id, users.physician.token, 'de'),
    ]) {
      expect(answer.status).toBe(423);
      expect(answer.body).toMatchObject({ code: 'treatment.locked', message: LOCK_DE });
    }
    const read = await list(locked);
    expect(read.status).toBe(200);
    expect(read.body.data.locked).toBe(true);
    expect(read.body.data.annotations.map((mark: Body) => mark.id)).toEqual([id]);
  });
});

describe('records and announcements', () => {
  it('writes audit rows with the session and image, never the note', async () => {
    const placed = await place(session, { shape: { kind: 'point', at: { x: 50, y: 50 } }, labelId: await labelId('other'), note: 'Confidential finding' });
    const id = placed.body.data.id;
    await change(session, id, { version: 1, note: 'Another confidential finding' });
    await remove(session, id);
    const rows = await server.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).orderBy('at').execute();
    expect(rows.map((row) => row.action)).toEqual(['annotation.created', 'annotation.updated', 'annotation.deleted']);
    for (const row of rows) {
      expect(row).toMatchObject({ clinic_id: clinicId, actor_id: users.physician.id, outcome: 'success', target_type: 'annotation' });
      expect(row.detail).toMatchObject({ treatmentId: session.id, imageId: session.imageId, patientId: session.patientId });
      expect(JSON.stringify(row.detail)).not.toContain('onfidential');
    }
    const label = await server.call<Body>('POST', '/clinic/annotation-labels', { token: users.physician.token, json: { nameEn: 'Audited label' } });
    const labelRows = await server.db.selectFrom('audit_log').select(['action', 'detail']).where('target_id', '=', label.body.data.id).execute();
    expect(labelRows.map((row) => row.action)).toEqual(['annotation_label.created']);
  });

  it('tells the clinic’s screens which image’s marks changed', async () => {
    const client = realtimeClient(server, { token: users.nurse.token });
    try {
      const channel = await subscribed(client, channelName('clinic', clinicId));
      const marksChanged = nextEvent<Body>(channel, 'annotations.changed');
      const placed = await place(session, { shape: { kind: 'point', at: { x: 60, y: 60 } }, labelId: await labelId('other') });
      expect(placed.status).toBe(201);
      expect(await marksChanged).toEqual({ patientId: session.patientId, treatmentId: session.id, imageId: session.imageId });

      const removed = nextEvent<Body>(channel, 'annotations.changed');
      await remove(session, placed.body.data.id);
      expect(await removed).toEqual({ patientId: session.patientId, treatmentId: session.id, imageId: session.imageId });

      const labelAdded = nextEvent<Body>(channel, 'annotation-labels.changed');
      const label = await server.call<Body>('POST', '/clinic/annotation-labels', { token: users.physician.token, json: { nameDe: 'Gefäßschlinge' } });
      expect(await labelAdded).toEqual({ labelIds: [label.body.data.id] });
    } finally {
      client.disconnect();
    }
  });

  it('removes the marks with their session', async () => {
    const doomed = await newSession();
    await place(doomed, { shape: { kind: 'point', at: { x: 7, y: 7 } }, labelId: await labelId('other') });
    const count = async () => (await server.db.selectFrom('annotations').select('id').where('treatment_id', '=', doomed.id).execute()).length;
    expect(await count()).toBe(1);
    expect((await server.call('DELETE', `/treatments/${doomed.id}`, { token: users.physician.token })).status).toBe(200);
    expect(await count()).toBe(0);
  });
});

describe('migration 0022 (rulers without a label)', () => {
  it('down gives an unlabelled ruler its clinic’s label "other" (written if the clinic has none yet) and up allows none again', async () => {
    // A clinic that has never listed its labels: it has no default label rows yet.
    const fresh = await createClinic(server.db, 'Augenklinik Lineal');
    const nurse = await member('clinic_nurses', fresh);
    const own = await newSession(nurse.token);
    const placed = await place(own, { shape: { kind: 'line', start: { x: 10, y: 10 }, end: { x: 90, y: 10 } }, labelId: null }, nurse.token);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const db = server.db as unknown as Kysely<unknown>;

    await unlabelledRulers.down(db);
    const other = await server.db.selectFrom('annotation_labels').select('id').where('clinic_id', '=', fresh).where('key', '=', 'other').executeTakeFirstOrThrow();
    const row = await server.db.selectFrom('annotations').select('label_id').where('id', '=', placed.body.data.id).executeTakeFirstOrThrow();
    expect(row.label_id).toBe(other.id);
    expect(await server.db.selectFrom('annotations').select('id').where('label_id', 'is', null).execute()).toEqual([]);
    await expect(server.db.updateTable('annotations').set({ label_id: null }).where('id', '=', placed.body.data.id).execute()).rejects.toThrow(/null/i);

    await unlabelledRulers.up(db);
    const read = (await list(own, nurse.token)).body.data.annotations;
    expect(read).toMatchObject([{ id: placed.body.data.id, labelId: other.id, label: 'Other' }]);
    expect((await place(own, { shape: { kind: 'line', start: { x: 10, y: 20 }, end: { x: 90, y: 20 } }, labelId: null }, nurse.token)).status).toBe(201);
  });
});
