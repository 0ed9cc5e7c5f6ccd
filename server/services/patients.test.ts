// The rules of the patients area, called as services without HTTP: the field checks, the likely duplicate
// of a new patient, who may see which list, the deletion workflow (request, restore, erase) and the bulk
// transitions, all or nothing; what each refuses (status, code, message key), writes and audits. The list's
// pages are checked against the whole list they are cut from, before and after changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientSort } from '../../generated/model/patientSort';
import { createClinic, createUser } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal, serverWithClinic } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import {
  bulkUpdatePatients,
  checkPatientFields,
  compareTreatments,
  createPatient,
  erasePatients,
  listPatients,
  listTreatments,
  readPatient,
  requestDeletion,
  updatePatient,
} from './patients';
import { patientListPage } from './patient-list';
import { renderNotification } from './notifications';

let server: TestServer;
let clinicId: string;
let physician: Actor;
let nurse: Actor;
let admin: Actor;
let stranger: Actor;

let born = 0;
/** A patient of the clinic with a birthday no other test uses (duplicates are found by birthday). */
async function addPatient(fields: { name?: string; secondName?: string; birthday?: string; gender?: 'female' | 'male' | 'other' } = {}, by = physician) {
  born += 1;
  const birthday = fields.birthday ?? new Date(Date.UTC(1960, 0, born)).toISOString().slice(0, 10);
  return createPatient(server.ctx, by, { name: 'Test', secondName: `Patient ${born}`, gender: 'female', birthday, confirmDuplicate: true, ...fields });
}

const statusOf = async (id: string) => (await server.db.selectFrom('patients').select('status').where('id', '=', id).executeTakeFirst())?.status;

const auditOf = (action: string, targetId: string) => auditEntries(server.db, action, targetId);

/** The user's audited list reads of `outcome`, oldest first: the patients each showed, and its detail. */
const listReads = (userId: string, outcome: string) =>
  server.db
    .selectFrom('audit_log')
    .select(['patient_ids', 'detail'])
    .where('action', '=', 'patient.list')
    .where('outcome', '=', outcome)
    .where('actor_id', '=', userId)
    .orderBy('seq')
    .execute();

/** The user's notifications of `event`, their parameters as objects (some drivers give the JSON as text). */
async function notificationsOf(userId: string, event: string) {
  const rows = await server.db.selectFrom('notifications').select(['params', 'link']).where('user_id', '=', userId).where('event', '=', event).orderBy('created_at').execute();
  return rows.map((row) => ({ params: (typeof row.params === 'string' ? JSON.parse(row.params) : row.params) as Record<string, string>, link: row.link }));
}

beforeAll(async () => {
  ({ server, clinicId } = await serverWithClinic());
  const user = async (role: string, firstName: string, lastName: string) => actorFor(await createUser(server.db, { clinicId, role, firstName, lastName }), clinicId, role);
  physician = await user('clinic_physicians', 'Petra', 'Lenz');
  nurse = await user('clinic_nurses', 'Nora', 'Hell');
  admin = await user('clinic_it_admins', 'Ida', 'Marx');
  const other = await createClinic(server.db, 'Augenklinik Anders');
  stranger = actorFor(await createUser(server.db, { clinicId: other, role: 'clinic_it_admins' }), other, 'clinic_it_admins');
});
afterAll(() => server?.close());

describe('field checks', () => {
  it('trims names, makes an empty description none, and keeps line breaks in a description', () => {
    const checked = checkPatientFields(server.ctx, { name: '  Eva ', secondName: '\tMaier ', description: ' \n ' });
    expect(checked).toEqual({ name: 'Eva', secondName: 'Maier', description: null });
    expect(checkPatientFields(server.ctx, { description: 'first\nsecond' }).description).toBe('first\nsecond');
  });

  it('refuses blank names, control characters, a birthday in the future or before 1900, all fields at once', async () => {
    const tomorrow = new Date(server.clock.now().getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const checked = refusal(Promise.resolve().then(() => checkPatientFields(server.ctx, { name: '   ', secondName: 'Ma\u0000ier', birthday: tomorrow, description: 'a\u0007b' })));
    expect(await checked).toMatchObject({
      status: 422,
      code: 'request.invalid',
      fields: { name: ['validation.required'], secondName: ['validation.invalid'], birthday: ['patient.birthday_future'], description: ['validation.invalid'] },
    });
    const early = await refusal(Promise.resolve().then(() => checkPatientFields(server.ctx, { birthday: '1899-12-31' })));
    expect(early.fields).toEqual({ birthday: ['patient.birthday_too_early'] });
    expect(checkPatientFields(server.ctx, { birthday: '1900-01-01' }).birthday).toBe('1900-01-01');
  });

  it('refuses an update with a bad field before it changes anything', async () => {
    const patient = await addPatient({ name: 'Rolf' });
    expect(await refusal(updatePatient(server.ctx, physician, patient.id, { name: ' ' }))).toMatchObject({ status: 422, fields: { name: ['validation.required'] } });
    expect((await readPatient(server.ctx, physician, patient.id)).name).toBe('Rolf');
  });
});

describe('likely duplicates of a new patient', () => {
  it('names the patient with the same birthday and the same names in other case, accents and spelled-out umlauts', async () => {
    const first = await addPatient({ name: 'Jürgen', secondName: 'Müller', birthday: '1951-02-03', gender: 'male' });
    const answer = await refusal(createPatient(server.ctx, physician, { name: ' JUERGEN ', secondName: 'Muller', birthday: '1951-02-03', gender: 'male' }));
    expect(answer).toMatchObject({ status: 409, code: 'patient.likely_duplicate', key: 'patient.likely_duplicate.male' });
    expect(answer.extra.patients).toEqual([{ id: first.id, name: 'Jürgen', secondName: 'Müller', birthday: '1951-02-03', gender: 'male', status: 'active' }]);
    // Another birthday, another second name: another person.
    expect((await createPatient(server.ctx, physician, { name: 'Jürgen', secondName: 'Müller', birthday: '1951-02-04', gender: 'male' })).name).toBe('Jürgen');
    expect((await createPatient(server.ctx, physician, { name: 'Jürgen', secondName: 'Müllner', birthday: '1951-02-03', gender: 'male' })).secondName).toBe('Müllner');
  });

  it('counts archived patients but not those waiting for erasure, and says "many" for more than one', async () => {
    const birthday = '1952-03-04';
    const archived = await addPatient({ name: 'Lena', secondName: 'Ost', birthday });
    await bulkUpdatePatients(server.ctx, admin, [archived.id], 'archive');
    const leaving = await addPatient({ name: 'Lena', secondName: 'Ost', birthday });
    await requestDeletion(server.ctx, physician, leaving.id, 'Created twice');
    const one = await refusal(createPatient(server.ctx, nurse, { name: 'lena', secondName: 'ost', birthday, gender: 'female' }));
    expect(one).toMatchObject({ status: 409, key: 'patient.likely_duplicate.female' });
    expect((one.extra.patients as { id: string; status: string }[]).map((p) => [p.id, p.status])).toEqual([[archived.id, 'archived']]);

    const active = await addPatient({ name: 'Lena', secondName: 'Ost', birthday });
    const many = await refusal(createPatient(server.ctx, nurse, { name: 'Lena', secondName: 'Ost', birthday, gender: 'female' }));
    // Active first, then the archived one.
    expect(many).toMatchObject({ status: 409, key: 'patient.likely_duplicate_many' });
    expect((many.extra.patients as { id: string }[]).map((p) => p.id)).toEqual([active.id, archived.id]);
  });

  it('adds the patient once confirmed, and audits whom it was confirmed to be other than', async () => {
    const first = await addPatient({ name: 'Karl', secondName: 'Stein', birthday: '1953-04-05', gender: 'male' });
    const second = await createPatient(server.ctx, physician, { name: 'Karl', secondName: 'Stein', birthday: '1953-04-05', gender: 'male', confirmDuplicate: true });
    expect(second.id).not.toBe(first.id);
    const [entry] = await auditOf('patient.created', second.id);
    expect(entry).toMatchObject({ actor_id: physician.userId, outcome: 'success', detail: { confirmedDuplicateOf: [first.id] } });
  });
});

describe('who may read what', () => {
  it('refuses physicians and nurses any list but the active one, and audits the refusal', async () => {
    for (const who of [physician, nurse]) {
      for (const status of ['archived', 'deleting'] as const) {
        expect(await refusal(listPatients(server.ctx, who, { status }))).toMatchObject({ status: 403, code: 'auth.forbidden' });
      }
    }
    const denied = await listReads(nurse.userId, 'denied');
    expect(denied.map((entry) => entry.detail)).toEqual([{ status: 'archived' }, { status: 'deleting' }]);
    expect((await listPatients(server.ctx, admin, { status: 'archived' })).meta.page).toBe(1);
  });

  it('refuses a reversed birthday range and a search with control characters', async () => {
    expect(await refusal(listPatients(server.ctx, physician, { birthdayFrom: '1960-01-02', birthdayTo: '1960-01-01' }))).toMatchObject({
      status: 422,
      fields: { birthdayTo: ['patient.birthday_range'] },
    });
    expect((await listPatients(server.ctx, physician, { birthdayFrom: '1960-01-01', birthdayTo: '1960-01-01' })).meta.page).toBe(1);
    expect(await refusal(listPatients(server.ctx, physician, { search: 'a\u0000' }))).toMatchObject({ status: 422, fields: { search: ['validation.invalid'] } });
  });

  it('audits a list read with the ids of the patients it showed', async () => {
    const patient = await addPatient({ name: 'Zora', secondName: 'Audit' });
    const page = await listPatients(server.ctx, nurse, { search: 'Zora Audit' });
    expect(page.data.map((p) => p.id)).toEqual([patient.id]);
    const entry = (await listReads(nurse.userId, 'success')).at(-1);
    expect(entry).toMatchObject({ patient_ids: [patient.id], detail: { status: 'active', count: 1, total: 1, page: 1 } });
  });

  it('opens an archived patient for IT admins only, auditing the miss with the id asked for', async () => {
    const patient = await addPatient();
    await bulkUpdatePatients(server.ctx, admin, [patient.id], 'archive');
    expect(await refusal(readPatient(server.ctx, physician, patient.id))).toMatchObject({ status: 404, code: 'resource.not_found' });
    expect((await auditOf('patient.read', patient.id)).map((entry) => [entry.actor_id, entry.outcome])).toEqual([[physician.userId, 'failure']]);
    expect((await readPatient(server.ctx, admin, patient.id)).status).toBe('archived');
    expect(await refusal(readPatient(server.ctx, stranger, patient.id))).toMatchObject({ status: 404 });
  });

  it('keeps another clinic\'s patients out of reach of every change', async () => {
    const patient = await addPatient({ name: 'Fremd' });
    expect((await refusal(updatePatient(server.ctx, stranger, patient.id, { name: 'X' }))).status).toBe(404);
    expect((await refusal(bulkUpdatePatients(server.ctx, stranger, [patient.id], 'archive'))).status).toBe(404);
    expect((await refusal(erasePatients(server.ctx, stranger, [patient.id]))).status).toBe(404);
    expect((await refusal(listTreatments(server.ctx, stranger, patient.id, { page: 1, perPage: 20 }))).status).toBe(404);
    expect(await statusOf(patient.id)).toBe('active');
  });

  it('refuses to compare a session with itself before looking for it, in any case of the id', async () => {
    const id = 'AAAAAAAA-0000-4000-8000-000000000000';
    expect(await refusal(compareTreatments(server.ctx, physician, id, id, id.toLowerCase()))).toMatchObject({
      status: 422,
      code: 'comparison.same_treatment',
      fields: { second: ['comparison.same_treatment'] },
    });
  });
});

describe('the deletion workflow', () => {
  it('takes a request with its reason, tells the IT admins who asked, and takes no second request', async () => {
    const patient = await addPatient({ name: 'Olaf', secondName: 'Brandt' });
    expect(await refusal(requestDeletion(server.ctx, physician, patient.id, '  '))).toMatchObject({ status: 422, fields: { reason: ['validation.required'] } });
    expect(await refusal(requestDeletion(server.ctx, physician, patient.id, 'bad\u0000'))).toMatchObject({ status: 422, fields: { reason: ['validation.invalid'] } });
    expect(await statusOf(patient.id)).toBe('active');

    const requested = await requestDeletion(server.ctx, physician, patient.id, '  Created twice ');
    expect(requested.deletionRequest).toMatchObject({ reason: 'Created twice', requestedBy: { id: physician.userId, name: 'Petra Lenz' } });
    expect((await auditOf('patient.deletion_requested', patient.id)).map((entry) => entry.actor_id)).toEqual([physician.userId]);
    expect(await notificationsOf(admin.userId, 'deletion_requested')).toContainEqual({
      params: { requester: 'Petra Lenz', patient: 'Olaf Brandt', reason: 'Created twice', patientId: patient.id },
      link: '/admin/patient-list/deleting',
    });

    expect(await refusal(requestDeletion(server.ctx, nurse, patient.id, 'Again'))).toMatchObject({ status: 409, code: 'patient.deletion_already_requested' });
    // Neither an unknown nor an archived patient can be asked for.
    expect((await refusal(requestDeletion(server.ctx, nurse, '00000000-0000-4000-8000-000000000000', 'Gone'))).status).toBe(404);
    const archived = await addPatient();
    await bulkUpdatePatients(server.ctx, admin, [archived.id], 'archive');
    expect((await refusal(requestDeletion(server.ctx, nurse, archived.id, 'Gone'))).status).toBe(404);
  });

  it('restores a patient waiting for erasure, forgets the request and tells whoever asked', async () => {
    const patient = await addPatient({ name: 'Rita', secondName: 'Zurück' });
    await requestDeletion(server.ctx, nurse, patient.id, 'Mistake');
    expect(await bulkUpdatePatients(server.ctx, admin, [patient.id], 'restore')).toEqual([patient.id]);
    const restored = await readPatient(server.ctx, physician, patient.id);
    expect(restored).toMatchObject({ status: 'active', deletionRequest: null });
    const row = await server.db.selectFrom('patients').select(['deletion_reason', 'deletion_requested_by', 'deletion_requested_at']).where('id', '=', patient.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ deletion_reason: null, deletion_requested_by: null, deletion_requested_at: null });
    expect(await notificationsOf(nurse.userId, 'patient_restored')).toContainEqual({
      params: { patient: 'Rita Zurück', actor: 'Ida Marx', patientId: patient.id },
      link: `/physician/patient-card?patientId=${patient.id}`,
    });
  });

  it('erases for good: the row, its files, its name in notifications; the audit keeps the id only; whoever asked is told', async () => {
    const patient = await addPatient({ name: 'Erika', secondName: 'Weg' });
    const file = await server.ctx.files.put(clinicId, `treatments/${patient.id}`, new Uint8Array([1, 2, 3]));
    await requestDeletion(server.ctx, physician, patient.id, 'Left the country');
    expect((await notificationsOf(admin.userId, 'deletion_requested')).some((note) => note.params.patientId === patient.id)).toBe(true);

    await erasePatients(server.ctx, admin, [patient.id.toUpperCase()]);
    expect(await statusOf(patient.id)).toBeUndefined();
    expect(await server.ctx.files.get(file)).toBeNull();
    const mentions = (await notificationsOf(admin.userId, 'deletion_requested')).map((note) => note.params);
    expect(mentions.some((params) => params.patientId === patient.id || params.patient === 'Erika Weg' || params.reason === 'Left the country')).toBe(false);
    expect(mentions).toContainEqual({ requester: 'Petra Lenz', erased: 1 });
    // Read afterwards, it says that the record was erased instead of leaving gaps where name and reason were.
    expect(renderNotification('en', 'deletion_requested', { requester: 'Petra Lenz', erased: 1 }).message).toBe(
      'Petra Lenz asked to delete a patient record; it has since been erased for good.',
    );
    expect(renderNotification('de', 'issue_reported', { reporter: 'Petra Lenz', number: 1, erased: 1 }).message).toBe(
      'Betraf einen Patientendatensatz, der inzwischen endgültig gelöscht wurde.',
    );
    const [entry] = await auditOf('patient.erased', patient.id);
    expect(entry).toMatchObject({ actor_id: admin.userId, detail: {} });
    expect(await notificationsOf(physician.userId, 'patient_erased')).toContainEqual({ params: { actor: 'Ida Marx' }, link: null });
  });

  it('erases all named patients or none', async () => {
    const patient = await addPatient();
    expect((await refusal(erasePatients(server.ctx, admin, [patient.id, '00000000-0000-4000-8000-000000000001']))).status).toBe(404);
    expect(await statusOf(patient.id)).toBe('active');
  });
});

describe('bulk transitions', () => {
  it('archives and unarchives each patient once, whatever the case of its id or how often it is named', async () => {
    const patient = await addPatient();
    expect(await bulkUpdatePatients(server.ctx, admin, [patient.id, patient.id.toUpperCase()], 'archive')).toEqual([patient.id]);
    expect(await statusOf(patient.id)).toBe('archived');
    expect((await auditOf('patient.archived', patient.id)).map((entry) => entry.actor_id)).toEqual([admin.userId]);
    await bulkUpdatePatients(server.ctx, admin, [patient.id], 'unarchive');
    expect(await statusOf(patient.id)).toBe('active');
  });

  it('refuses the whole batch when one patient is not in the state the action leaves from, naming the conflicts', async () => {
    const active = await addPatient();
    const archived = await addPatient();
    await bulkUpdatePatients(server.ctx, admin, [archived.id], 'archive');
    const answer = await refusal(bulkUpdatePatients(server.ctx, admin, [active.id, archived.id], 'archive'));
    expect(answer).toMatchObject({ status: 409, code: 'patient.invalid_transition', key: 'patient.transition.archive' });
    expect(answer.extra).toEqual({ conflicts: [{ id: archived.id, status: 'archived' }] });
    expect(await statusOf(active.id)).toBe('active');
    // Only a patient waiting for erasure can be restored.
    expect(await refusal(bulkUpdatePatients(server.ctx, admin, [active.id], 'restore'))).toMatchObject({ status: 409, key: 'patient.transition.restore' });
    expect((await refusal(bulkUpdatePatients(server.ctx, admin, [active.id, '00000000-0000-4000-8000-000000000002'], 'archive'))).status).toBe(404);
    expect(await statusOf(active.id)).toBe('active');
  });
});

describe('pages of a list', () => {
  // A clinic of its own, so that the lists hold these patients only.
  let own: Actor;
  const ids: string[] = [];
  beforeAll(async () => {
    const id = await createClinic(server.db, 'Augenklinik Seiten');
    own = actorFor(await createUser(server.db, { clinicId: id, role: 'clinic_it_admins' }), id, 'clinic_it_admins');
    for (let n = 0; n < 23; n++) {
      const name = ['Ärger', 'Zeh', 'Amsel', 'ärger'][n % 4]!;
      ids.push((await addPatient({ name, secondName: `Seite ${String(n % 7)}`, birthday: `1970-0${1 + (n % 9)}-1${n % 10}` }, own)).id);
    }
  });

  const page = (sort: PatientSort, n: number, perPage = 5, status: 'active' | 'archived' = 'active') =>
    patientListPage(server.db, own.clinicId, { page: n, perPage, sort, status });

  it('cuts every page of every order from the whole list, nothing skipped or repeated, with its total', async () => {
    for (const sort of ['name', '-birthday', 'createdAt', '-latestSessionDate'] as const) {
      const whole = await page(sort, 1, 100);
      expect(whole.data).toHaveLength(23);
      const pages = [];
      for (let n = 1; n <= 5; n++) {
        const one = await page(sort, n);
        expect(one.meta).toEqual({ page: n, perPage: 5, total: 23, lastPage: 5 });
        pages.push(...one.data.map((p) => p.id));
      }
      expect(pages).toEqual(whole.data.map((p) => p.id));
    }
    expect((await page('name', 6)).data).toEqual([]);
  });

  it('follows a change at once: an archived patient leaves the active pages and joins the archived ones', async () => {
    const before = (await page('name', 2)).data.map((p) => p.id);
    await bulkUpdatePatients(server.ctx, own, [before[0]!], 'archive');
    const after = await page('name', 2);
    expect(after.meta.total).toBe(22);
    expect(after.data.map((p) => p.id)).not.toContain(before[0]);
    expect(after.data.map((p) => p.id).slice(0, 4)).toEqual(before.slice(1));
    expect((await page('name', 1, 5, 'archived')).data.map((p) => p.id)).toEqual([before[0]]);
    await bulkUpdatePatients(server.ctx, own, [before[0]!], 'unarchive');
    expect((await page('name', 2)).data.map((p) => p.id)).toEqual(before);
  });

  it('pages a long list the same from its first pages on and from its last pages back, in the model\'s order', async () => {
    // More patients than the first pages read straight off the index, straight into the database.
    const clinic = await createClinic(server.db, 'Augenklinik Lang');
    const count = 230;
    const rows = await server.db
      .insertInto('patients')
      .values(
        Array.from({ length: count }, (_, n) => ({
          clinic_id: clinic,
          name: `pat${String(n % 13).padStart(2, '0')}`,
          second_name: `sec${String((n * 7) % count).padStart(3, '0')}`,
          birthday: new Date(Date.UTC(1940, 0, 1 + (n % 40) * 200)).toISOString().slice(0, 10),
          gender: 'other',
          created_at: new Date(Date.UTC(2026, 0, 1, 0, n % 50)),
        })),
      )
      .returning(['id', 'name', 'second_name', 'birthday', 'created_at'])
      .execute();
    const byNames = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
      a.name.localeCompare(b.name) || a.second_name.localeCompare(b.second_name) || a.id.localeCompare(b.id);
    const models: Record<'name' | '-birthday' | 'createdAt', string[]> = {
      name: [...rows].sort(byNames).map((row) => row.id),
      '-birthday': [...rows].sort((a, b) => b.birthday.localeCompare(a.birthday) || byNames(a, b)).map((row) => row.id),
      createdAt: [...rows].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || byNames(a, b)).map((row) => row.id),
    };
    const read = async (sort: PatientSort, n: number) => {
      const one = await patientListPage(server.db, clinic, { page: n, perPage: 20, sort, status: 'active' });
      expect(one.meta).toEqual({ page: n, perPage: 20, total: count, lastPage: 12 });
      return one.data.map((p) => p.id);
    };
    for (const [sort, model] of Object.entries(models) as [PatientSort, string[]][]) {
      const forward = [];
      for (let n = 1; n <= 12; n++) forward.push(...(await read(sort, n)));
      expect(forward).toEqual(model);
    }
    // Anew after a change, from the last page back: the deep pages first, then the first ones.
    await server.db.updateTable('patients').set({ name: 'aaa' }).where('id', '=', models.name[229]!).execute();
    const moved = [models.name[229]!, ...models.name.slice(0, 229)];
    const backward = [];
    for (let n = 12; n >= 1; n--) backward.unshift(...(await read('name', n)));
    expect(backward).toEqual(moved);
  });

  it('searches the whole list by name and second name, in any case, and pages the matches', async () => {
    const matches = await patientListPage(server.db, own.clinicId, { page: 1, perPage: 100, sort: 'name', status: 'active', search: '  amsel   SEITE 3 ' });
    const expected = (await page('name', 1, 100)).data.filter((p) => p.name === 'Amsel' && p.secondName === 'Seite 3');
    expect(expected.length).toBeGreaterThan(0);
    expect(matches.data.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    expect(matches.meta.total).toBe(expected.length);
  });
});
