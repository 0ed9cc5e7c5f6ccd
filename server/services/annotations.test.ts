// The rules of labelling and measuring, called as services without HTTP: what is refused and with which code,
// what is kept, and that each change is audited with its session's patient in the change's own transaction.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallExam } from '../../tests/server/exam-files';
import { createClinic, createUser } from '../../tests/server/fixtures';
import { startServer, type TestServer } from '../../tests/server/helper';
import { actorFor, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { createLabel, createMark, deleteMark, listLabels, listMarks, updateMark } from './annotations';
import { acceptExam } from './exam-upload';

let server: TestServer;
let physician: Actor;
let stranger: Actor;
let session: { treatmentId: string; patientId: string; imageId: string; width: number; height: number };


beforeAll(async () => {
  server = await startServer();
  const clinicId = await createClinic(server.db);
  physician = actorFor(await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Anna', lastName: 'Keller' }), clinicId, 'clinic_physicians');
  const otherClinic = await createClinic(server.db, 'Augenklinik B');
  stranger = actorFor(await createUser(server.db, { clinicId: otherClinic, role: 'clinic_physicians' }), otherClinic, 'clinic_physicians');
  const exam = await smallExam({ seed: 901, name: 'Service', secondName: 'Marks', deviceSideId: 'SVC-901' });
  const staged = await server.ctx.files.stage(Readable.from([Buffer.from(exam.bytes)]), 'exam.npt', () => false);
  const accepted = await acceptExam(server.ctx, physician, staged, {});
  await server.jobsIdle();
  const [fundus] = await server.db
    .selectFrom('treatment_images')
    .select(['id', 'width', 'height'])
    .where('treatment_id', '=', accepted.treatment.id)
    .where('role', '=', 'fundus')
    .execute();
  session = { treatmentId: accepted.treatment.id, patientId: accepted.patient.id, imageId: fundus.id, width: fundus.width, height: fundus.height };
});
afterAll(() => server?.close());

const labelOf = async (key: string) => (await listLabels(server.db, physician.clinicId, 'en')).find((label) => label.key === key)!.id;
const point = (x: number, y: number) => ({ kind: 'point' as const, at: { x, y } });

describe('annotations service', () => {
  it('places a mark, keeps its author, and audits it with the patient in the same transaction', async () => {
    const labelId = await labelOf('microaneurysm');
    const mark = await createMark(server.ctx, physician, session.treatmentId, session.imageId, { shape: point(10, 12), labelId });
    expect(mark).toMatchObject({ labelId, label: 'Microaneurysm', version: 1, createdBy: { id: physician.userId, name: 'Anna Keller' } });
    const entry = await server.db
      .selectFrom('audit_log')
      .select(['actor_id', 'patient_ids', 'detail'])
      .where('action', '=', 'annotation.created')
      .where('target_id', '=', mark.id)
      .executeTakeFirstOrThrow();
    expect(entry.actor_id).toBe(physician.userId);
    expect(entry.patient_ids).toEqual([session.patientId]);
    expect((await listMarks(server.ctx, physician, session.treatmentId, session.imageId)).annotations.map((a) => a.id)).toContain(mark.id);
  });

  it('refuses a point outside the image with the shape code, and a label of another clinic as unknown', async () => {
    const labelId = await labelOf('drusen');
    const outside = await refusal(createMark(server.ctx, physician, session.treatmentId, session.imageId, { shape: point(session.width + 5, 1), labelId }));
    expect(outside.status).toBe(422);
    expect(outside.code).toMatch(/^annotation\./);
    const foreignLabel = (await listLabels(server.db, stranger.clinicId, 'en'))[0].id;
    const unknown = await refusal(createMark(server.ctx, physician, session.treatmentId, session.imageId, { shape: point(1, 1), labelId: foreignLabel }));
    expect(unknown).toMatchObject({ status: 422, code: 'annotation.label_unknown' });
  });

  it('answers a change from an old version with 409 and the mark as it now is', async () => {
    const mark = await createMark(server.ctx, physician, session.treatmentId, session.imageId, { shape: point(20, 20), labelId: await labelOf('other') });
    await updateMark(server.ctx, physician, session.treatmentId, session.imageId, mark.id, { version: 1, note: 'first' });
    const stale = await refusal(updateMark(server.ctx, physician, session.treatmentId, session.imageId, mark.id, { version: 1, note: 'second' }));
    expect(stale.status).toBe(409);
    expect(stale.code).toBe('annotation.stale');
    expect(stale.extra.annotation).toMatchObject({ id: mark.id, version: 2, note: 'first' });
  });

  it('does not let another clinic see or remove a mark: 404, and the mark stays', async () => {
    const mark = await createMark(server.ctx, physician, session.treatmentId, session.imageId, { shape: point(30, 30), labelId: await labelOf('other') });
    expect((await refusal(deleteMark(server.ctx, stranger, session.treatmentId, session.imageId, mark.id))).status).toBe(404);
    expect((await refusal(listMarks(server.ctx, stranger, session.treatmentId, session.imageId))).status).toBe(404);
    expect((await listMarks(server.ctx, physician, session.treatmentId, session.imageId)).annotations.map((a) => a.id)).toContain(mark.id);
    await deleteMark(server.ctx, physician, session.treatmentId, session.imageId, mark.id);
    expect((await listMarks(server.ctx, physician, session.treatmentId, session.imageId)).annotations.map((a) => a.id)).not.toContain(mark.id);
  });

  it('refuses a clinic label whose name is taken in either language, case aside', async () => {
    await createLabel(server.ctx, physician, { nameEn: 'Cotton wool spot', nameDe: 'Cotton-Wool-Herd' });
    const taken = await refusal(createLabel(server.ctx, physician, { nameEn: 'Something else', nameDe: 'cotton-wool-herd' }));
    expect(taken).toMatchObject({ status: 409, code: 'annotation_label.duplicate' });
  });
});
