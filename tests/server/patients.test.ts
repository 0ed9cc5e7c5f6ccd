// Patients through HTTP: lists with their columns, filters, search, sort and paging; the patient card;
// the deletion workflow (request, restore, erase for good); sessions; clinic isolation; bad input.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Patient } from '../../generated/model/patient';
import type { TreatmentSummary } from '../../generated/model/treatmentSummary';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

interface Staff {
  clinicId: string;
  physician: { id: string; token: string };
  nurse: { id: string; token: string };
  admin: { id: string; token: string };
}

async function member(clinicId: string, role: string, firstName: string, lastName: string) {
  const user = await createUser(server.db, { clinicId, role, firstName, lastName });
  return { id: user.id, token: await sessionFor(server.db, user.id) };
}

async function clinicWithStaff(name = 'Augenklinik Test'): Promise<Staff> {
  const clinicId = await createClinic(server.db, name);
  return {
    clinicId,
    physician: await member(clinicId, 'clinic_physicians', 'Anna', 'Keller'),
    nurse: await member(clinicId, 'clinic_nurses', 'Miriam', 'Vogel'),
    admin: await member(clinicId, 'clinic_it_admins', 'Jonas', 'Weber'),
  };
}

interface PatientSeed {
  name: string;
  secondName: string;
  birthday?: string;
  gender?: string;
  status?: string;
  createdAt?: Date;
}

async function addPatient(clinicId: string, patient: PatientSeed): Promise<string> {
  const row = await server.db
    .insertInto('patients')
    .values({
      clinic_id: clinicId,
      name: patient.name,
      second_name: patient.secondName,
      birthday: patient.birthday ?? '1960-01-01',
      gender: patient.gender ?? 'female',
      status: patient.status ?? 'active',
      ...(patient.createdAt ? { created_at: patient.createdAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

interface TreatmentSeed {
  number: number;
  date: string;
  step?: string;
  stepIndex?: number;
  processing?: string;
  locked?: boolean;
  totalSpots?: number;
  brightness?: number | null;
  errorCode?: string;
}

async function addTreatment(clinicId: string, patientId: string, t: TreatmentSeed): Promise<string> {
  const row = await server.db
    .insertInto('treatments')
    .values({
      clinic_id: clinicId,
      patient_id: patientId,
      number: t.number,
      date: new Date(t.date),
      eye: 'OD',
      step: t.step ?? 'initial_exclusion_boundaries',
      step_index: t.stepIndex ?? 0,
      processing_state: t.processing ?? 'processed',
      locked: t.locked ?? false,
      total_spots: t.totalSpots ?? 0,
      brightness: t.brightness ?? null,
      error_code: t.errorCode ?? null,
      error_message: null,
      error_params: t.errorCode ? JSON.stringify({ file: 'fundus.jpg' }) : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

type ListBody = { data: Patient[]; meta: { page: number; perPage: number; total: number; lastPage: number } };

async function list(token: string, query = ''): Promise<ListBody> {
  const answer = await server.call<ListBody>('GET', `/patients${query}`, { token });
  expect(answer.status).toBe(200);
  return answer.body;
}

const names = (body: ListBody) => body.data.map((p) => `${p.name} ${p.secondName}`);

async function patientRow(id: string) {
  return server.db.selectFrom('patients').selectAll().where('id', '=', id).executeTakeFirst();
}

describe('the patient list', () => {
  let staff: Staff;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    staff = await clinicWithStaff();
    const c = staff.clinicId;
    ids.schneider = await addPatient(c, { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23' });
    ids.becker = await addPatient(c, { name: 'Thomas', secondName: 'Becker', birthday: '1958-09-02', gender: 'male' });
    ids.fischer = await addPatient(c, { name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17' });
    ids.wagner = await addPatient(c, { name: 'Klaus', secondName: 'Wagner', birthday: '1947-06-30', gender: 'male' });
    ids.hoffmann = await addPatient(c, { name: 'Sabine', secondName: 'Hoffmann', birthday: '1969-12-05' });
    ids.neumann = await addPatient(c, { name: 'Peter', secondName: 'Neumann', birthday: '1961-07-08', gender: 'male' });
    ids.percent = await addPatient(c, { name: 'Ann%a', secondName: 'Under_score', birthday: '1990-01-01' });
    ids.archived = await addPatient(c, { name: 'Ingrid', secondName: 'Koch', status: 'archived', birthday: '1939-02-11' });
    ids.deleting = await addPatient(c, { name: 'Jürgen', secondName: 'Schulz', status: 'deleting', birthday: '1955-03-08' });

    // Schneider: two sessions, the latest with a parameter set.
    await addTreatment(c, ids.schneider, { number: 1, date: '2026-08-12T08:20:00Z', step: 'available', stepIndex: 8 });
    await addTreatment(c, ids.schneider, { number: 2, date: '2026-11-18T08:42:00Z', step: 'available', stepIndex: 8 });
    // Becker: in planning. Fischer: file being processed. Wagner: locked after an issue report.
    await addTreatment(c, ids.becker, { number: 1, date: '2026-11-20T13:20:00Z', step: 'macula_grid_pattern', stepIndex: 3 });
    await addTreatment(c, ids.fischer, { number: 1, date: '2026-11-21T09:55:00Z', processing: 'processing' });
    await addTreatment(c, ids.wagner, { number: 1, date: '2026-11-14T11:05:00Z', step: 'brightness', stepIndex: 5, locked: true });
    // Hoffmann: processing failed.
    await addTreatment(c, ids.hoffmann, { number: 1, date: '2026-11-19T10:30:00Z', processing: 'failed', errorCode: 'npt.checksum_mismatch' });
  });

  it('shows the physician columns: latest session, plan status of the latest session, number of sessions', async () => {
    const body = await list(staff.physician.token);
    const schneider = body.data.find((p) => p.id === ids.schneider)!;
    expect(schneider).toMatchObject({
      name: 'Maria',
      secondName: 'Schneider',
      birthday: '1951-04-23',
      gender: 'female',
      status: 'active',
      latestSessionDate: '2026-11-18T08:42:00.000Z',
      planStatus: 'plan_available',
      treatmentsCount: 2,
      deletionRequest: null,
    });
    const byId = new Map(body.data.map((p) => [p.id, p]));
    expect(byId.get(ids.becker)?.planStatus).toBe('planning');
    expect(byId.get(ids.fischer)?.planStatus).toBe('processing');
    expect(byId.get(ids.wagner)?.planStatus).toBe('issue_reported');
    // "Error Detected": no plan, because processing failed — unlike a patient without any session.
    expect(byId.get(ids.hoffmann)).toMatchObject({ planStatus: 'no_plan_available', latestSessionFailed: true });
    expect(byId.get(ids.neumann)).toMatchObject({
      planStatus: 'no_plan_available',
      latestSessionFailed: false,
      treatmentsCount: 0,
      latestSessionDate: null,
    });
    expect(body.data.filter((p) => p.latestSessionFailed).map((p) => p.id)).toEqual([ids.hoffmann]);
  });

  it('lists active patients only, newest session first and patients without sessions last (by name)', async () => {
    const body = await list(staff.nurse.token);
    expect(names(body)).toEqual([
      'Elena Fischer',
      'Thomas Becker',
      'Sabine Hoffmann',
      'Maria Schneider',
      'Klaus Wagner',
      'Ann%a Under_score',
      'Peter Neumann',
    ]);
    expect(body.meta).toEqual({ page: 1, perPage: 20, total: 7, lastPage: 1 });
  });

  it('finds patients by given name, family name, both in either order, ignoring case', async () => {
    expect(names(await list(staff.physician.token, '?search=maria'))).toEqual(['Maria Schneider']);
    expect(names(await list(staff.physician.token, '?search=SCHNEID'))).toEqual(['Maria Schneider']);
    expect(names(await list(staff.physician.token, '?search=maria%20schneider'))).toEqual(['Maria Schneider']);
    expect(names(await list(staff.physician.token, '?search=Schneider%20%20Maria'))).toEqual(['Maria Schneider']);
    expect(names(await list(staff.physician.token, '?search=%20er%20'))).toHaveLength(6);
    expect((await list(staff.physician.token, '?search=Koch')).data).toEqual([]); // archived
  });

  it('takes % and _ in a search literally', async () => {
    expect(names(await list(staff.physician.token, `?search=${encodeURIComponent('%')}`))).toEqual(['Ann%a Under_score']);
    expect(names(await list(staff.physician.token, `?search=${encodeURIComponent('_')}`))).toEqual(['Ann%a Under_score']);
    expect((await list(staff.physician.token, `?search=${encodeURIComponent("'; drop table patients; --")}`)).data).toEqual([]);
  });

  it('filters by birthday, both ends inclusive', async () => {
    const body = await list(staff.physician.token, '?birthdayFrom=1951-04-23&birthdayTo=1961-07-08&sort=birthday');
    expect(names(body)).toEqual(['Maria Schneider', 'Thomas Becker', 'Peter Neumann']);
    expect(names(await list(staff.physician.token, '?birthdayFrom=1969-12-05'))).toEqual(['Sabine Hoffmann', 'Ann%a Under_score']);
    expect(names(await list(staff.physician.token, '?birthdayTo=1947-06-30'))).toEqual(['Klaus Wagner']);
  });

  it('refuses a birthday range that ends before it starts, and dates that do not exist', async () => {
    const reversed = await server.call('GET', '/patients?birthdayFrom=1970-01-01&birthdayTo=1960-01-01', { token: staff.physician.token });
    expect(reversed.status).toBe(422);
    expect(reversed.body).toMatchObject({ errors: { birthdayTo: ['The end of the birthday range cannot be before its start.'] } });
    const impossible = await server.call('GET', '/patients?birthdayFrom=1990-13-45', { token: staff.physician.token });
    expect(impossible.status).toBe(422);
    expect(Object.keys((impossible.body as { errors: object }).errors)).toEqual(['birthdayFrom']);
  });

  it('filters by the plan status of the latest session (in_planning = planning)', async () => {
    expect(names(await list(staff.physician.token, '?planStatus=plan_available'))).toEqual(['Maria Schneider']);
    expect(names(await list(staff.physician.token, '?planStatus=in_planning'))).toEqual(['Thomas Becker']);
    expect(names(await list(staff.physician.token, '?planStatus=planning'))).toEqual(['Thomas Becker']);
    expect(names(await list(staff.physician.token, '?planStatus=issue_reported'))).toEqual(['Klaus Wagner']);
    expect(names(await list(staff.physician.token, '?planStatus=no_plan_available'))).toEqual([
      'Sabine Hoffmann',
      'Ann%a Under_score',
      'Peter Neumann',
    ]);
  });

  it('sorts by every key of the contract, both ways', async () => {
    expect(names(await list(staff.physician.token, '?sort=secondName'))[0]).toBe('Thomas Becker');
    expect(names(await list(staff.physician.token, '?sort=-secondName'))[0]).toBe('Klaus Wagner');
    expect(names(await list(staff.physician.token, '?sort=name'))[0]).toBe('Ann%a Under_score');
    expect(names(await list(staff.physician.token, '?sort=-name'))[0]).toBe('Thomas Becker');
    expect(names(await list(staff.physician.token, '?sort=birthday'))[0]).toBe('Klaus Wagner');
    expect(names(await list(staff.physician.token, '?sort=-birthday'))[0]).toBe('Ann%a Under_score');
    expect(names(await list(staff.physician.token, '?sort=-treatmentsCount'))[0]).toBe('Maria Schneider');
    expect(names(await list(staff.physician.token, '?sort=treatmentsCount')).slice(0, 2)).toEqual(['Ann%a Under_score', 'Peter Neumann']);
    const oldestSession = names(await list(staff.physician.token, '?sort=latestSessionDate'));
    expect(oldestSession[0]).toBe('Klaus Wagner');
    expect(oldestSession.slice(-2)).toEqual(['Ann%a Under_score', 'Peter Neumann']);
    expect((await list(staff.physician.token, '?sort=-createdAt')).data).toHaveLength(7);
  });

  it('pages with meta', async () => {
    const first = await list(staff.physician.token, '?perPage=3');
    const third = await list(staff.physician.token, '?perPage=3&page=3');
    expect(first.meta).toEqual({ page: 1, perPage: 3, total: 7, lastPage: 3 });
    expect(names(first)).toEqual(['Elena Fischer', 'Thomas Becker', 'Sabine Hoffmann']);
    expect(names(third)).toEqual(['Peter Neumann']);
    expect((await list(staff.physician.token, '?perPage=3&page=9')).data).toEqual([]);
    const tooMany = await server.call('GET', '/patients?perPage=1000', { token: staff.physician.token });
    expect(tooMany.status).toBe(422);
  });

  it('pages the same way with a plan status filter, and keeps a patient\'s latest session and count as sessions come and go', async () => {
    const planning = await list(staff.physician.token, '?planStatus=in_planning&sort=-latestSessionDate&perPage=1');
    expect(planning.meta.total).toBe(1);
    expect(names(planning)).toEqual(['Thomas Becker']);

    // A session added, moved and removed outside the list's own code: the list follows.
    const extra = await addTreatment(staff.clinicId, ids.neumann, { number: 1, date: '2026-11-22T07:00:00Z' });
    let neumann = (await list(staff.physician.token, '?search=Neumann')).data[0];
    expect(neumann).toMatchObject({ treatmentsCount: 1, latestSessionDate: '2026-11-22T07:00:00.000Z' });
    expect(names(await list(staff.physician.token, '?perPage=1'))).toEqual(['Peter Neumann']);
    await server.db.updateTable('treatments').set({ date: new Date('2026-01-01T07:00:00Z') }).where('id', '=', extra).execute();
    neumann = (await list(staff.physician.token, '?search=Neumann')).data[0];
    expect(neumann.latestSessionDate).toBe('2026-01-01T07:00:00.000Z');
    await server.db.deleteFrom('treatments').where('id', '=', extra).execute();
    neumann = (await list(staff.physician.token, '?search=Neumann')).data[0];
    expect(neumann).toMatchObject({ treatmentsCount: 0, latestSessionDate: null });
  });

  it('gives physicians and nurses the active list only (403 for another)', async () => {
    for (const status of ['deleting', 'archived']) {
      const answer = await server.call('GET', `/patients?status=${status}`, { token: staff.physician.token });
      expect(answer.status).toBe(403);
    }
    expect((await server.call('GET', '/patients?status=active', { token: staff.nurse.token })).status).toBe(200);
  });

  it('gives IT admins the active, deleting and archived lists', async () => {
    expect(names(await list(staff.admin.token, '?status=archived'))).toEqual(['Ingrid Koch']);
    expect(names(await list(staff.admin.token, '?status=deleting'))).toEqual(['Jürgen Schulz']);
    expect((await list(staff.admin.token)).meta.total).toBe(7);
  });

  it('refuses unknown filter values and huge search strings', async () => {
    for (const query of ['?status=gone', '?planStatus=x', '?sort=ssn', `?search=${'a'.repeat(500)}`, '?page=0']) {
      const answer = await server.call('GET', `/patients${query}`, { token: staff.physician.token });
      expect(answer.status, query).toBe(422);
    }
  });

  it('audits every read of the list without names', async () => {
    await list(staff.physician.token, '?search=Schneider');
    const record = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor_id', '=', staff.physician.id)
      .where('action', '=', 'patient.list')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(record.outcome).toBe('success');
    expect(JSON.stringify(record.detail)).not.toContain('Schneider');
  });
});

describe('creating and changing patients', () => {
  let staff: Staff;
  beforeAll(async () => {
    staff = await clinicWithStaff();
  });

  it('adds a patient (201) who starts active without sessions', async () => {
    const answer = await server.call<{ message: string; data: Patient }>('POST', '/patients', {
      token: staff.physician.token,
      json: { name: 'Peter', secondName: 'Neumann', birthday: '1961-07-08', gender: 'male', description: 'Referred for assessment.' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Patient added successfully');
    expect(answer.body.data).toMatchObject({
      name: 'Peter',
      secondName: 'Neumann',
      birthday: '1961-07-08',
      gender: 'male',
      description: 'Referred for assessment.',
      status: 'active',
      latestSessionDate: null,
      planStatus: 'no_plan_available',
      treatmentsCount: 0,
      deviceId: null,
      deletionRequest: null,
    });
    const read = await server.call<{ data: Patient }>('GET', `/patients/${answer.body.data.id}`, { token: staff.nurse.token });
    expect(read.body.data).toEqual(answer.body.data);
    const audit = await server.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'detail'])
      .where('target_id', '=', answer.body.data.id)
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['patient.created', 'patient.read']);
    expect(JSON.stringify(audit)).not.toContain('Neumann');
  });

  it('answers in German when asked', async () => {
    const answer = await server.call<{ message: string }>('POST', '/patients', {
      token: staff.nurse.token,
      lang: 'de',
      json: { name: 'Hannah', secondName: 'Krüger', birthday: '1972-05-19', gender: 'female' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Patient erfolgreich hinzugefügt');
  });

  it('stores SQL and HTML in names and descriptions verbatim, as text', async () => {
    const name = "Robert'); DROP TABLE patients;--";
    const secondName = '<script>alert("x")</script>';
    const description = '<img src=x onerror=alert(1)> \' OR 1=1 -- \n second line';
    const answer = await server.call<{ data: Patient }>('POST', '/patients', {
      token: staff.physician.token,
      json: { name, secondName, birthday: '1970-01-01', gender: 'other', description },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ name, secondName, description });
    const found = await list(staff.physician.token, `?search=${encodeURIComponent('DROP TABLE')}`);
    expect(found.data.map((p) => p.secondName)).toEqual([secondName]);
    expect(await server.db.selectFrom('patients').select('id').where('clinic_id', '=', staff.clinicId).execute()).not.toHaveLength(0);
  });

  it('refuses bad input with field errors and stores nothing', async () => {
    const before = await server.db.selectFrom('patients').select('id').where('clinic_id', '=', staff.clinicId).execute();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A', secondName: 'B', birthday: '1990-13-45', gender: 'male' }, 'birthday'],
      [{ name: 'A', secondName: 'B', birthday: '1990-02-30', gender: 'male' }, 'birthday'],
      [{ name: 'A', secondName: 'B', birthday: '2999-01-01', gender: 'male' }, 'birthday'],
      [{ secondName: 'B', birthday: '1990-01-01', gender: 'male' }, 'name'],
      [{ name: '   ', secondName: 'B', birthday: '1990-01-01', gender: 'male' }, 'name'],
      [{ name: 'A\u0000', secondName: 'B', birthday: '1990-01-01', gender: 'male' }, 'name'],
      [{ name: 'x'.repeat(60_000), secondName: 'B', birthday: '1990-01-01', gender: 'male' }, 'name'],
      [{ name: 'A', secondName: 'B', birthday: '1990-01-01', gender: 'male', description: 'd'.repeat(2001) }, 'description'],
      [{ name: 'A', secondName: 'B', birthday: '1990-01-01', gender: 'unknown' }, 'gender'],
      [{ name: 'A', secondName: 'B', birthday: '1990-01-01', gender: 'male', status: 'archived' }, 'status'],
      [{ name: 42, secondName: 'B', birthday: '1990-01-01', gender: 'male' }, 'name'],
    ];
    for (const [json, field] of cases) {
      const answer = await server.call<{ errors: Record<string, string[]> }>('POST', '/patients', { token: staff.physician.token, json });
      expect(answer.status, JSON.stringify(json).slice(0, 80)).toBe(422);
      expect(Object.keys(answer.body.errors), field).toContain(field);
    }
    const future = await server.call('POST', '/patients', {
      token: staff.physician.token,
      json: { name: 'A', secondName: 'B', birthday: '2999-01-01', gender: 'male' },
    });
    expect(future.body).toMatchObject({ errors: { birthday: ['The birthday cannot be in the future.'] } });
    const malformed = await server.call('POST', '/patients', {
      token: staff.physician.token,
      body: '{"name": "A",',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const after = await server.db.selectFrom('patients').select('id').where('clinic_id', '=', staff.clinicId).execute();
    expect(after).toHaveLength(before.length);
  });

  it('edits the fields sent, and clears the description with null', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Thomas', secondName: 'Becker', birthday: '1958-09-02' });
    const described = await server.call<{ message: string; data: Patient }>('POST', `/patients/${id}`, {
      token: staff.physician.token,
      json: { description: 'Central serous chorioretinopathy, right eye.' },
    });
    expect(described.status).toBe(200);
    expect(described.body.message).toBe('Patient updated successfully');
    expect(described.body.data).toMatchObject({ name: 'Thomas', description: 'Central serous chorioretinopathy, right eye.' });

    const corrected = await server.call<{ data: Patient }>('POST', `/patients/${id}`, {
      token: staff.nurse.token,
      json: { secondName: 'Becker-Lindner', birthday: '1958-09-12', gender: 'male' },
    });
    expect(corrected.body.data).toMatchObject({
      secondName: 'Becker-Lindner',
      birthday: '1958-09-12',
      gender: 'male',
      description: 'Central serous chorioretinopathy, right eye.',
    });

    const cleared = await server.call<{ data: Patient }>('POST', `/patients/${id}`, { token: staff.physician.token, json: { description: null } });
    expect(cleared.body.data.description).toBeNull();
    expect((await patientRow(id))?.description).toBeNull();
    const audit = await server.db.selectFrom('audit_log').select('detail').where('target_id', '=', id).where('action', '=', 'patient.updated').execute();
    expect(audit).toHaveLength(3);
    expect(JSON.stringify(audit)).not.toContain('Becker');
  });

  it('refuses an empty or invalid change, and changes of patients who are not active', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Klaus', secondName: 'Wagner' });
    for (const json of [{}, { birthday: '1990-13-45' }, { name: '' }, { unknown: 1 }, { birthday: '2999-12-31' }]) {
      const answer = await server.call('POST', `/patients/${id}`, { token: staff.physician.token, json });
      expect(answer.status, JSON.stringify(json)).toBe(422);
    }
    expect((await patientRow(id))?.name).toBe('Klaus');
    const archived = await addPatient(staff.clinicId, { name: 'Ingrid', secondName: 'Koch', status: 'archived' });
    const answer = await server.call('POST', `/patients/${archived}`, { token: staff.physician.token, json: { name: 'X' } });
    expect(answer.status).toBe(404);
    expect((await server.call('POST', `/patients/${randomUUID()}`, { token: staff.physician.token, json: { name: 'X' } })).status).toBe(404);
    expect((await server.call('GET', '/patients/not-a-uuid', { token: staff.physician.token })).status).toBe(404);
  });

  it('lets physicians read active patients only, IT admins every status', async () => {
    const archived = await addPatient(staff.clinicId, { name: 'Helga', secondName: 'Braun', status: 'archived' });
    expect((await server.call('GET', `/patients/${archived}`, { token: staff.physician.token })).status).toBe(404);
    const read = await server.call<{ data: Patient }>('GET', `/patients/${archived}`, { token: staff.admin.token });
    expect(read.status).toBe(200);
    expect(read.body.data.status).toBe('archived');
  });

  it('keeps IT admins from adding and editing patients', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Otto', secondName: 'Krause' });
    expect((await server.call('POST', `/patients/${id}`, { token: staff.admin.token, json: { name: 'X' } })).status).toBe(403);
    const add = await server.call('POST', '/patients', {
      token: staff.admin.token,
      json: { name: 'A', secondName: 'B', birthday: '1990-01-01', gender: 'male' },
    });
    expect(add.status).toBe(403);
  });
});

describe('a likely duplicate', () => {
  let staff: Staff;
  let maria: string;
  type Match = { id: string; name: string; secondName: string; birthday: string; gender: string; status: string };
  type DuplicateBody = { code: string; message: string; patients: Match[] };
  const schneider = { name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female' };
  const add = (json: Record<string, unknown>, options: { token?: string; lang?: 'en' | 'de' } = {}) =>
    server.call<DuplicateBody & { data: Patient }>('POST', '/patients', { token: options.token ?? staff.nurse.token, json, lang: options.lang });
  const clinicPatients = async () =>
    (await server.db.selectFrom('patients').select('id').where('clinic_id', '=', staff.clinicId).execute()).length;

  beforeAll(async () => {
    staff = await clinicWithStaff();
    maria = await addPatient(staff.clinicId, { ...schneider, createdAt: new Date('2026-08-12T08:25:51Z') });
  });

  it('is refused with 409, naming the patient it may be, and nothing is stored', async () => {
    const before = await clinicPatients();
    const answer = await add({ ...schneider, description: 'Referred by Dr. Lang.' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      status: 'Error',
      code: 'patient.likely_duplicate',
      message: 'A patient with this name and birthday already exists.',
      patients: [{ id: maria, name: 'Maria', secondName: 'Schneider', birthday: '1951-04-23', gender: 'female', status: 'active' }],
    });
    expect(await clinicPatients()).toBe(before);
  });

  it('is told in German, as the match is a woman, a man or neither', async () => {
    const german = await add(schneider, { lang: 'de' });
    expect(german.status).toBe(409);
    expect(german.body.message).toBe('Mit diesem Namen und Geburtsdatum ist bereits eine Patientin angelegt.');
    await addPatient(staff.clinicId, { name: 'Klaus', secondName: 'Wagner', birthday: '1947-06-30', gender: 'male' });
    const male = await add({ name: 'Klaus', secondName: 'Wagner', birthday: '1947-06-30', gender: 'male' }, { lang: 'de' });
    expect(male.body.message).toBe('Mit diesem Namen und Geburtsdatum ist bereits ein Patient angelegt.');
    await addPatient(staff.clinicId, { name: 'Kim', secondName: 'Lorenz', birthday: '1980-02-02', gender: 'other' });
    const other = await add({ name: 'Kim', secondName: 'Lorenz', birthday: '1980-02-02', gender: 'other' }, { lang: 'de' });
    expect(other.body.message).toBe('Mit diesem Namen und Geburtsdatum ist bereits eine Person angelegt.');
  });

  it('matches names typed with other case, accents, spelled-out umlauts and surrounding spaces, whatever the gender', async () => {
    const variants = [
      { name: ' MARIA ', secondName: 'schneider' },
      { name: 'María', secondName: 'Schnéider  ' },
      { name: 'Mari\u0301a', secondName: 'SCHNEIDER' },
    ];
    for (const names of variants) {
      const answer = await add({ ...schneider, ...names, gender: 'other' });
      expect(answer.status, JSON.stringify(names)).toBe(409);
      expect(answer.body.patients.map((p) => p.id)).toEqual([maria]);
    }
    const guenter = await addPatient(staff.clinicId, { name: 'Günter', secondName: 'Schäfer', birthday: '1944-10-05', gender: 'male' });
    for (const names of [{ name: 'Guenter', secondName: 'Schaefer' }, { name: 'gunter', secondName: 'SCHAFER' }]) {
      const answer = await add({ ...names, birthday: '1944-10-05', gender: 'male' });
      expect(answer.status, JSON.stringify(names)).toBe(409);
      expect(answer.body.patients.map((p) => p.id)).toEqual([guenter]);
    }
  });

  it('takes another birthday, another name or a patient whose deletion was requested for another person', async () => {
    await addPatient(staff.clinicId, { name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17', status: 'deleting' });
    const cases = [
      { ...schneider, birthday: '1951-04-24' },
      { ...schneider, name: 'Marie' },
      { ...schneider, secondName: 'Schneider-Lang' },
      { name: 'Elena', secondName: 'Fischer', birthday: '1963-01-17', gender: 'female' },
    ];
    for (const json of cases) expect((await add(json)).status, JSON.stringify(json)).toBe(201);
  });

  it('counts an archived patient, listed after the active ones, and says how many there are', async () => {
    const archived = await addPatient(staff.clinicId, { ...schneider, name: 'MARIA', status: 'archived', createdAt: new Date('2020-01-01T00:00:00Z') });
    const answer = await add(schneider);
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe('2 patients with this name and birthday already exist.');
    expect(answer.body.patients.map((p) => [p.id, p.status])).toEqual([[maria, 'active'], [archived, 'archived']]);
    const german = await add(schneider, { lang: 'de' });
    expect(german.body.message).toBe('Mit diesem Namen und Geburtsdatum sind bereits 2 Personen angelegt.');
    await server.db.deleteFrom('patients').where('id', '=', archived).execute();
  });

  it('is added with confirmDuplicate, and the audit log names the patient it was confirmed beside (by id only)', async () => {
    const answer = await add({ ...schneider, confirmDuplicate: true }, { token: staff.physician.token });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ ...schneider, status: 'active' });
    expect(answer.body.data.id).not.toBe(maria);
    const record = await server.db
      .selectFrom('audit_log')
      .select(['actor_id', 'outcome', 'detail'])
      .where('action', '=', 'patient.created')
      .where('target_id', '=', answer.body.data.id)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({ actor_id: staff.physician.id, outcome: 'success' });
    expect(typeof record.detail === 'string' ? JSON.parse(record.detail) : record.detail).toEqual({ confirmedDuplicateOf: [maria] });
    expect(JSON.stringify(record)).not.toContain('Schneider');
    // Now there are two, and a third is refused naming both.
    const third = await add(schneider);
    expect(third.body.patients.map((p) => p.id)).toEqual([maria, answer.body.data.id]);
    // confirmDuplicate without a duplicate is an ordinary addition.
    const plain = await add({ name: 'Ida', secondName: 'Brandt', birthday: '1952-08-08', gender: 'female', confirmDuplicate: true });
    expect(plain.status).toBe(201);
    const plainAudit = await server.db.selectFrom('audit_log').select('detail').where('target_id', '=', plain.body.data.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(plainAudit.detail)).not.toContain('confirmedDuplicateOf');
  });

  it('ignores patients of another clinic', async () => {
    const other = await clinicWithStaff('Augenklinik Nord');
    await addPatient(other.clinicId, { name: 'Thomas', secondName: 'Becker', birthday: '1958-09-02', gender: 'male' });
    const answer = await add({ name: 'Thomas', secondName: 'Becker', birthday: '1958-09-02', gender: 'male' });
    expect(answer.status).toBe(201);
    expect(await add({ ...schneider }, { token: other.nurse.token }).then((a) => a.status)).toBe(201);
  });

  it('refuses a confirmDuplicate that is not a boolean', async () => {
    const answer = await server.call<{ errors: Record<string, string[]> }>('POST', '/patients', {
      token: staff.nurse.token,
      json: { ...schneider, confirmDuplicate: 'yes' },
    });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['confirmDuplicate']);
  });
});

describe('the deletion workflow', () => {
  let staff: Staff;
  let otherAdmin: { id: string; token: string };
  beforeAll(async () => {
    staff = await clinicWithStaff();
    otherAdmin = await member(staff.clinicId, 'clinic_it_admins', 'Felix', 'Hartmann');
  });

  const requestDeletion = (token: string, id: string, reason = 'Duplicate record created by mistake', lang: 'en' | 'de' = 'en') =>
    server.call<{ message: string; data: Patient }>('POST', `/patients/${id}/deletion-request`, { token, json: { reason }, lang });

  it('moves the patient to deleting with the reason and notifies every IT admin of the clinic', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Jürgen', secondName: 'Schulz' });
    const answer = await requestDeletion(staff.nurse.token, id);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Deletion request sent to your IT administrator.');
    expect(answer.body.data).toMatchObject({
      status: 'deleting',
      deletionRequest: { reason: 'Duplicate record created by mistake', requestedBy: { id: staff.nurse.id, name: 'Miriam Vogel' } },
    });
    expect(names(await list(staff.physician.token))).not.toContain('Jürgen Schulz');
    expect(names(await list(staff.admin.token, '?status=deleting'))).toContain('Jürgen Schulz');

    const notes = await server.db
      .selectFrom('notifications')
      .selectAll()
      .where('clinic_id', '=', staff.clinicId)
      .where('event', '=', 'deletion_requested')
      .execute();
    expect(notes.map((n) => n.user_id).sort()).toEqual([staff.admin.id, otherAdmin.id].sort());
    expect(notes[0]).toMatchObject({ link: '/admin/patient-list/deleting' });
    expect(notes[0].params).toMatchObject({ requester: 'Miriam Vogel', patient: 'Jürgen Schulz', reason: 'Duplicate record created by mistake' });

    const inbox = await server.call<{ data: { title: string; message: string; read: boolean }[] }>('GET', '/notifications', {
      token: staff.admin.token,
    });
    expect(inbox.status).toBe(200);
    expect(inbox.body.data.some((n) => n.title === 'Patient deletion requested' && n.message.includes('Jürgen Schulz'))).toBe(true);
  });

  it('answers 409 when deletion was requested already, 404 for archived patients', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Rita', secondName: 'Sommer' });
    expect((await requestDeletion(staff.physician.token, id)).status).toBe(200);
    const again = await requestDeletion(staff.nurse.token, id, 'again', 'de');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'patient.deletion_already_requested', message: 'Die Löschung dieses Patienten wurde bereits beantragt.' });
    expect((await patientRow(id))?.deletion_requested_by).toBe(staff.physician.id);
    const archived = await addPatient(staff.clinicId, { name: 'Ingrid', secondName: 'Koch', status: 'archived' });
    expect((await requestDeletion(staff.physician.token, archived)).status).toBe(404);
    expect((await requestDeletion(staff.admin.token, archived)).status).toBe(403);
  });

  it('refuses an empty or oversized reason', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Karl', secondName: 'Lehmann' });
    for (const reason of ['', '   ', 'r'.repeat(1001)]) {
      expect((await requestDeletion(staff.physician.token, id, reason)).status).toBe(422);
    }
    expect((await patientRow(id))?.status).toBe('active');
  });

  it('archives and unarchives several patients at once', async () => {
    const a = await addPatient(staff.clinicId, { name: 'Archie', secondName: 'One' });
    const b = await addPatient(staff.clinicId, { name: 'Archie', secondName: 'Two' });
    const archive = await server.call<{ message: string; data: { action: string; ids: string[] } }>('POST', '/patients/bulkUpdate', {
      token: staff.admin.token,
      json: { ids: [a, b], action: 'archive' },
    });
    expect(archive.status).toBe(200);
    expect(archive.body.data).toEqual({ action: 'archive', ids: [a, b] });
    expect(archive.body.message).toBe('2 patients archived successfully');
    expect((await patientRow(a))?.status).toBe('archived');
    expect((await patientRow(b))?.status).toBe('archived');

    const unarchive = await server.call<{ message: string }>('POST', '/patients/bulkUpdate', {
      token: staff.admin.token,
      json: { ids: [a], action: 'unarchive' },
    });
    expect(unarchive.body.message).toBe('Patient unarchived successfully');
    expect((await patientRow(a))?.status).toBe('active');
  });

  it('changes nothing when one patient is not in the starting status (409 names the conflicts)', async () => {
    const archived = await addPatient(staff.clinicId, { name: 'Konrad', secondName: 'Arch', status: 'archived' });
    const active = await addPatient(staff.clinicId, { name: 'Konrad', secondName: 'Act' });
    const answer = await server.call<{ conflicts: { id: string; status: string }[]; message: string }>('POST', '/patients/bulkUpdate', {
      token: staff.admin.token,
      json: { ids: [archived, active], action: 'unarchive' },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'patient.invalid_transition', conflicts: [{ id: active, status: 'active' }] });
    expect(answer.body.message).toBe('1 of the selected patients cannot be unarchived because they are not archived.');
    expect((await patientRow(archived))?.status).toBe('archived');
    expect((await patientRow(active))?.status).toBe('active');

    const restore = await server.call('POST', '/patients/bulkUpdate', { token: staff.admin.token, json: { ids: [active], action: 'restore' } });
    expect(restore.status).toBe(409);
    const unknown = await server.call('POST', '/patients/bulkUpdate', {
      token: staff.admin.token,
      json: { ids: [archived, randomUUID()], action: 'unarchive' },
    });
    expect(unknown.status).toBe(404);
    expect((await patientRow(archived))?.status).toBe('archived');
    for (const json of [{ ids: [], action: 'archive' }, { ids: [active], action: 'delete' }, { ids: [active, active], action: 'archive' }, { ids: ['x'], action: 'archive' }]) {
      expect((await server.call('POST', '/patients/bulkUpdate', { token: staff.admin.token, json })).status, JSON.stringify(json)).toBe(422);
    }
    expect((await server.call('POST', '/patients/bulkUpdate', { token: staff.physician.token, json: { ids: [active], action: 'archive' } })).status).toBe(403);
  });

  it('restores a patient whose deletion was requested and tells the requester', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Renate', secondName: 'Fuchs' });
    await requestDeletion(staff.physician.token, id, 'Wrong clinic');
    const answer = await server.call<{ message: string }>('POST', '/patients/bulkUpdate', {
      token: staff.admin.token,
      json: { ids: [id], action: 'restore' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Patient restored successfully');
    const row = await patientRow(id);
    expect(row).toMatchObject({ status: 'active', deletion_reason: null, deletion_requested_by: null, deletion_requested_at: null });
    const note = await server.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', staff.physician.id)
      .where('event', '=', 'patient_restored')
      .executeTakeFirstOrThrow();
    expect(note.params).toMatchObject({ patient: 'Renate Fuchs', actor: 'Jonas Weber' });
    expect(note.link).toBe(`/physician/patient-card?patientId=${id}`);
  });

  it('erases one patient for good: rows, sessions and files gone, audit and notifications without the name', async () => {
    const id = await addPatient(staff.clinicId, { name: 'Waltraud', secondName: 'Eraseme' });
    await addTreatment(staff.clinicId, id, { number: 1, date: '2026-10-01T10:00:00Z' });
    await addTreatment(staff.clinicId, id, { number: 2, date: '2026-11-01T10:00:00Z' });
    const fileKey = await server.ctx.files.put(staff.clinicId, `treatments/${id}`, new Uint8Array([1, 2, 3]));
    const keep = await addPatient(staff.clinicId, { name: 'Bernd', secondName: 'Bleibt' });
    const keptFile = await server.ctx.files.put(staff.clinicId, `treatments/${keep}`, new Uint8Array([4]));
    await requestDeletion(staff.nurse.token, id, 'Patient asked for erasure');

    const answer = await server.call<{ message: string }>('DELETE', `/patients/${id}`, { token: staff.admin.token });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Patient deleted successfully');
    expect(await patientRow(id)).toBeUndefined();
    expect(await server.db.selectFrom('treatments').select('id').where('patient_id', '=', id).execute()).toEqual([]);
    expect(await server.ctx.files.get(fileKey)).toBeNull();
    expect(await server.ctx.files.get(keptFile)).not.toBeNull();
    expect(await patientRow(keep)).toBeDefined();

    const audit = await server.db.selectFrom('audit_log').selectAll().where('action', '=', 'patient.erased').where('target_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: staff.admin.id, outcome: 'success', target_type: 'patient' });
    const everything = JSON.stringify(await server.db.selectFrom('audit_log').selectAll().where('clinic_id', '=', staff.clinicId).execute());
    expect(everything).not.toContain('Eraseme');
    expect(everything).not.toContain('erasure');

    const notes = await server.db.selectFrom('notifications').selectAll().where('clinic_id', '=', staff.clinicId).execute();
    expect(JSON.stringify(notes)).not.toContain('Eraseme');
    const requested = notes.filter((n) => n.event === 'deletion_requested' && n.params.erased === 1);
    expect(requested.length).toBeGreaterThanOrEqual(2);
    expect(requested[0].params).not.toHaveProperty('reason');
    // As the IT admins read it: the erasure said, no gaps where the name and the reason were.
    const listed = await server.call<{ data: { message: string }[] }>('GET', '/notifications', { token: staff.admin.token });
    expect(listed.body.data.map((n) => n.message)).toContain(`${requested[0].params.requester} asked to delete a patient record; it has since been erased for good.`);
    const erased = notes.find((n) => n.event === 'patient_erased' && n.user_id === staff.nurse.id);
    expect(erased?.params).toEqual({ actor: 'Jonas Weber' });

    expect((await server.call('DELETE', `/patients/${id}`, { token: staff.admin.token })).status).toBe(404);
    expect((await server.call('GET', `/patients/${id}`, { token: staff.admin.token })).status).toBe(404);
  });

  it('erases several patients in any status, all or nothing', async () => {
    const a = await addPatient(staff.clinicId, { name: 'Bulk', secondName: 'Archived', status: 'archived' });
    const b = await addPatient(staff.clinicId, { name: 'Bulk', secondName: 'Deleting', status: 'deleting' });
    const c = await addPatient(staff.clinicId, { name: 'Bulk', secondName: 'Active' });
    await addTreatment(staff.clinicId, b, { number: 1, date: '2026-10-01T10:00:00Z' });

    const unknown = await server.call('DELETE', '/patients', { token: staff.admin.token, json: { ids: [a, randomUUID()] } });
    expect(unknown.status).toBe(404);
    expect(await patientRow(a)).toBeDefined();

    const answer = await server.call<{ message: string }>('DELETE', '/patients', { token: staff.admin.token, json: { ids: [a, b, c] } });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('3 patients deleted successfully');
    for (const id of [a, b, c]) expect(await patientRow(id)).toBeUndefined();
    const audit = await server.db.selectFrom('audit_log').select('target_id').where('action', '=', 'patient.erased').where('target_id', 'in', [a, b, c]).execute();
    expect(audit).toHaveLength(3);

    expect((await server.call('DELETE', '/patients', { token: staff.admin.token, json: { ids: [] } })).status).toBe(422);
    expect((await server.call('DELETE', `/patients/${c}`, { token: staff.physician.token })).status).toBe(403);
  });
});

describe('sessions on the patient card', () => {
  let staff: Staff;
  let patient: string;
  let other: string;
  const t: Record<string, string> = {};
  beforeAll(async () => {
    staff = await clinicWithStaff();
    patient = await addPatient(staff.clinicId, { name: 'Maria', secondName: 'Schneider' });
    other = await addPatient(staff.clinicId, { name: 'Thomas', secondName: 'Becker' });
    t.first = await addTreatment(staff.clinicId, patient, {
      number: 1,
      date: '2026-08-12T08:20:00Z',
      step: 'available',
      stepIndex: 8,
      totalSpots: 748,
      brightness: 0.48,
    });
    t.second = await addTreatment(staff.clinicId, patient, {
      number: 2,
      date: '2026-11-18T08:20:00Z',
      step: 'pre_brightness',
      stepIndex: 4,
      totalSpots: 762,
      brightness: 0.5,
    });
    t.failed = await addTreatment(staff.clinicId, patient, {
      number: 3,
      date: '2026-11-20T08:20:00Z',
      processing: 'failed',
      errorCode: 'npt.checksum_mismatch',
    });
    t.foreign = await addTreatment(staff.clinicId, other, { number: 1, date: '2026-11-18T08:20:00Z' });
  });

  it('lists the sessions newest first with plan status, step, lock and error', async () => {
    const answer = await server.call<{ data: TreatmentSummary[]; meta: object }>('GET', `/patients/${patient}/treatments`, {
      token: staff.physician.token,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((s) => s.number)).toEqual([3, 2, 1]);
    expect(answer.body.data[0]).toMatchObject({
      planStatus: 'no_plan_available',
      error: {
        code: 'npt.checksum_mismatch',
        message: 'The content of fundus.jpg does not match its checksum in the file. The file may be damaged; please export it again from the laser system.',
      },
    });
    expect(answer.body.data[1]).toMatchObject({ planStatus: 'planning', step: 'pre_brightness', stepIndex: 4, locked: false, totalSpots: 762 });
    expect(answer.body.data[2]).toMatchObject({ planStatus: 'plan_available', step: 'available', brightness: 0.48, error: null });
    expect(answer.body.meta).toEqual({ page: 1, perPage: 20, total: 3, lastPage: 1 });
    const paged = await server.call<{ data: TreatmentSummary[]; meta: object }>('GET', `/patients/${patient}/treatments?perPage=2&page=2`, {
      token: staff.nurse.token,
    });
    expect(paged.body.data.map((s) => s.number)).toEqual([1]);
    expect(paged.body.meta).toEqual({ page: 2, perPage: 2, total: 3, lastPage: 2 });
  });

  it('compares two sessions of the patient', async () => {
    const answer = await server.call<{ data: { first: { plan: { step: string; spots: unknown[] } }; differences: object } }>(
      'GET',
      `/patients/${patient}/comparison?first=${t.first}&second=${t.second}`,
      { token: staff.physician.token },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.first.plan).toMatchObject({ step: 'available', stepIndex: 8, spots: [], scale: null });
    expect(answer.body.data.differences).toEqual({ totalSpots: 14, laserDose: null, brightness: 0.02, daysBetween: 98 });
  });

  it('refuses the same session twice (422) and sessions of another patient (404)', async () => {
    const same = await server.call('GET', `/patients/${patient}/comparison?first=${t.first}&second=${t.first}`, { token: staff.physician.token });
    expect(same.status).toBe(422);
    expect(same.body).toMatchObject({ code: 'comparison.same_treatment', errors: { second: ['Please choose two different sessions to compare.'] } });
    const foreign = await server.call('GET', `/patients/${patient}/comparison?first=${t.first}&second=${t.foreign}`, { token: staff.physician.token });
    expect(foreign.status).toBe(404);
    const unknown = await server.call('GET', `/patients/${randomUUID()}/treatments`, { token: staff.physician.token });
    expect(unknown.status).toBe(404);
    const notUuid = await server.call('GET', `/patients/${patient}/comparison?first=x&second=${t.first}`, { token: staff.physician.token });
    expect(notUuid.status).toBe(422);
  });
});

describe('clinic isolation', () => {
  let a: Staff;
  let b: Staff;
  let patientOfA: string;
  beforeAll(async () => {
    a = await clinicWithStaff('Augenklinik A');
    b = await clinicWithStaff('Augenklinik B');
    patientOfA = await addPatient(a.clinicId, { name: 'Gisela', secondName: 'Klinik-A' });
    await addTreatment(a.clinicId, patientOfA, { number: 1, date: '2026-11-01T10:00:00Z' });
  });

  it('answers 404 to physicians and nurses of another clinic', async () => {
    for (const token of [b.physician.token, b.nurse.token]) {
      expect((await server.call('GET', `/patients/${patientOfA}`, { token })).status).toBe(404);
      expect((await server.call('POST', `/patients/${patientOfA}`, { token, json: { name: 'X' } })).status).toBe(404);
      expect((await server.call('POST', `/patients/${patientOfA}/deletion-request`, { token, json: { reason: 'x' } })).status).toBe(404);
      expect((await server.call('GET', `/patients/${patientOfA}/treatments`, { token })).status).toBe(404);
      expect((await list(token, '?search=Klinik-A')).data).toEqual([]);
    }
    expect(await patientRow(patientOfA)).toMatchObject({ name: 'Gisela', status: 'active' });
  });

  it('answers 404 to IT admins of another clinic and changes nothing', async () => {
    const token = b.admin.token;
    expect((await server.call('GET', `/patients/${patientOfA}`, { token })).status).toBe(404);
    expect((await server.call('DELETE', `/patients/${patientOfA}`, { token })).status).toBe(404);
    expect((await server.call('DELETE', '/patients', { token, json: { ids: [patientOfA] } })).status).toBe(404);
    expect((await server.call('POST', '/patients/bulkUpdate', { token, json: { ids: [patientOfA], action: 'archive' } })).status).toBe(404);
    expect(await patientRow(patientOfA)).toMatchObject({ status: 'active' });
    expect(await server.db.selectFrom('treatments').select('id').where('patient_id', '=', patientOfA).execute()).toHaveLength(1);
  });

  it('answers 401 without a token', async () => {
    expect((await server.call('GET', '/patients')).status).toBe(401);
    expect((await server.call('GET', `/patients/${patientOfA}`)).status).toBe(401);
  });
});
