// "Report issue" through HTTP, beyond the lock itself (treatment-changes.test.ts): who is told (the clinic's
// IT admins and the uploader, in their own language, never another clinic), what the lists then show, that
// the plan steps, sign-off and the parameter set answer the lock message too, and the roles of x-roles.
// "Withdraw report": the session unlocked with its plan status as before, the parameter set served again, the
// trail and the access log, who is told, and that a withdrawn session may be reported again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractOperations, exampleRequest } from './contract-requests';
import { smallExam } from './exam-files';
import { ALL_ROLES, PASSWORD, createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff } from './planning';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const LOCK_EN = 'This session has been locked because the issue was reported.';
const LOCK_DE = 'Diese Sitzung wurde gesperrt, weil ein Problem gemeldet wurde.';

let server: TestServer;
let clinicId: string;
const users: Record<string, { id: string; token: string }> = {};
let otherClinicAdmin: { id: string; token: string };

async function member(role: string, names: { firstName?: string; lastName?: string } = {}, clinic = clinicId) {
  const user = await createUser(server.db, { clinicId: clinic, role, ...names });
  return { id: user.id, token: await sessionFor(server.db, user.id) };
}

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  users.physician = await member('clinic_physicians', { firstName: 'Anna', lastName: 'Keller' });
  users.nurse = await member('clinic_nurses', { firstName: 'Miriam', lastName: 'Vogel' });
  users.admin = await member('clinic_it_admins');
  users.adminDe = await member('clinic_it_admins');
  await server.db.updateTable('users').set({ lang: 'de' }).where('id', '=', users.adminDe.id).execute();
  users.bystander = await member('clinic_physicians');
  otherClinicAdmin = await member('clinic_it_admins', {}, await createClinic(server.db, 'Augenklinik B'));
});
afterAll(() => server?.close());

let seed = 300;
/** A processed session of a new patient, uploaded by `uploader`. */
async function newSession(uploader = users.nurse.token): Promise<{ id: string; patientId: string; name: string }> {
  seed += 1;
  const name = `Report${seed}`;
  const exam = await smallExam({ seed, name, secondName: 'Patient', deviceSideId: `REP-${seed}` });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
  const answer = await server.call<Body>('POST', '/treatments', { token: uploader, form });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  await server.jobsIdle();
  return { id: answer.body.data.treatment.id, patientId: answer.body.data.patient.id, name: `${name} Patient` };
}

const report = (id: string, token: string, reason = 'The optic disc was detected on a vessel crossing.') =>
  server.call<Body>('POST', `/treatments/${id}/reports`, { token, json: { reason } });
const withdraw = (id: string, token: string, lang: 'en' | 'de' = 'en') => server.call<Body>('DELETE', `/treatments/${id}/reports`, { token, lang });
const sessionOf = async (id: string) => (await server.call<Body>('GET', `/treatments/${id}`, { token: users.physician.token })).body.data;

/** The notifications the user sees, as the notification screen lists them. */
async function inbox(token: string, lang: 'en' | 'de' = 'en'): Promise<Body[]> {
  const answer = await server.call<Body>('GET', '/notifications?perPage=100', { token, lang });
  expect(answer.status).toBe(200);
  return answer.body.data;
}
const reportsIn = async (token: string, lang: 'en' | 'de' = 'en') =>
  (await inbox(token, lang)).filter((note) => note.event === 'issue_reported');

describe('who is told', () => {
  it('tells every IT admin of the clinic (in their language, without name or reason, with the admin entry) and the uploader (with the card link); nobody else', async () => {
    const session = await newSession(users.nurse.token);
    const before = {
      admin: (await reportsIn(users.admin.token)).length,
      bystander: (await reportsIn(users.bystander.token)).length,
      physician: (await reportsIn(users.physician.token)).length,
      other: (await reportsIn(otherClinicAdmin.token)).length,
    };
    expect((await report(session.id, users.physician.token)).status).toBe(200);

    const [forAdmin] = await reportsIn(users.admin.token);
    expect(forAdmin).toMatchObject({
      category: 'patients',
      read: false,
      title: 'Issue reported for a session',
      message:
        "Anna Keller reported an issue with session 1 of a patient; the session is locked until the clinical staff resolve it. The patient's entry in the admin patient list is linked.",
    });
    // IT admins open no clinical records: the link leads to the patient's entry in the admin patient list, by id
    // (the name stays out of the address).
    expect(forAdmin.link).toBe(`/admin/patient-list/active?patientId=${session.patientId}`);
    for (const name of session.name.split(' ')) expect(forAdmin.link).not.toContain(name);
    expect(JSON.stringify(forAdmin)).not.toContain('vessel crossing');
    expect((await reportsIn(users.admin.token)).length).toBe(before.admin + 1);
    const [forAdminDe] = await reportsIn(users.adminDe.token, 'de');
    expect(forAdminDe.title).toBe('Problem zu einer Sitzung gemeldet');
    expect(forAdminDe.message).toContain('Anna Keller hat ein Problem zu Sitzung 1 eines Patienten gemeldet');
    expect(forAdminDe.message).not.toContain(session.name);

    const [forUploader] = await reportsIn(users.nurse.token);
    expect(forUploader.message).toContain(session.name);
    expect(forUploader.message).toContain('vessel crossing');
    expect(forUploader.link).toBe(`/physician/patient-card?patientId=${session.patientId}`);

    // Not the reporter, not a colleague who has nothing to do with it, not another clinic.
    expect((await reportsIn(users.physician.token)).length).toBe(before.physician);
    expect((await reportsIn(users.bystander.token)).length).toBe(before.bystander);
    expect((await reportsIn(otherClinicAdmin.token)).length).toBe(before.other);
  });

  it('does not tell the uploader about their own report; the IT admins still hear of it', async () => {
    const session = await newSession(users.physician.token);
    const uploaderBefore = (await reportsIn(users.physician.token)).length;
    const adminBefore = (await reportsIn(users.admin.token)).length;
    expect((await report(session.id, users.physician.token)).status).toBe(200);
    expect((await reportsIn(users.physician.token)).length).toBe(uploaderBefore);
    expect((await reportsIn(users.admin.token)).length).toBe(adminBefore + 1);
  });

  it('tells no one when the report is refused', async () => {
    const session = await newSession();
    expect((await report(session.id, users.physician.token)).status).toBe(200);
    const adminBefore = (await reportsIn(users.admin.token)).length;
    expect((await report(session.id, users.nurse.token, 'again')).status).toBe(409);
    expect((await report(session.id, otherClinicAdmin.token)).status).toBe(403);
    expect((await server.call('POST', `/treatments/${session.id}/reports`, { token: users.nurse.token, json: { reason: '' } })).status).toBe(422);
    expect((await reportsIn(users.admin.token)).length).toBe(adminBefore);
  });

  it('keeps the report in the audit trail without the reason, and the name and reason leave the notifications when the patient is erased', async () => {
    const session = await newSession();
    expect((await report(session.id, users.physician.token, 'Secret clinical detail')).status).toBe(200);
    const audit = await server.db.selectFrom('audit_log').selectAll().where('target_id', '=', session.id).where('action', '=', 'treatment.issue_reported').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: users.physician.id, outcome: 'success' });
    expect(JSON.stringify(audit[0])).not.toContain('Secret clinical detail');

    const requested = await server.call('POST', `/patients/${session.patientId}/deletion-request`, {
      token: users.nurse.token,
      json: { reason: 'Test record' },
    });
    expect(requested.status).toBe(200);
    const linkedBefore = (await reportsIn(users.admin.token)).filter((note) => note.link).length;
    expect((await server.call('DELETE', `/patients/${session.patientId}`, { token: users.admin.token })).status).toBe(200);
    const texts = JSON.stringify(await reportsIn(users.admin.token));
    expect(texts).not.toContain(session.name);
    // Nor the link that searched for the name: this report's is gone, the other reports keep theirs.
    expect((await reportsIn(users.admin.token)).filter((note) => note.link).length).toBe(linkedBefore - 1);
    expect(texts).not.toContain('Secret clinical detail');
  });
});

describe('a locked session', () => {
  it('shows Issue reported on the card and in the list', async () => {
    const session = await newSession();
    expect((await report(session.id, users.nurse.token)).status).toBe(200);
    const sessions = await server.call<Body>('GET', `/patients/${session.patientId}/treatments`, { token: users.physician.token });
    expect(sessions.body.data[0]).toMatchObject({ id: session.id, locked: true, planStatus: 'issue_reported' });
    const patient = await server.call<Body>('GET', `/patients/${session.patientId}`, { token: users.physician.token });
    expect(patient.body.data.planStatus).toBe('issue_reported');
    const list = await server.call<Body>('GET', `/patients?search=${encodeURIComponent(session.name)}`, { token: users.physician.token });
    expect(list.body.data.map((row: Body) => [row.id, row.planStatus])).toEqual([[session.patientId, 'issue_reported']]);
  });

  const planChanges = contractOperations().filter((op) =>
    ['saveExclusionZones', 'saveMaculaGrid', 'saveBrightness', 'saveFinalAdjustments', 'confirmTreatment', 'downloadParameterSet'].includes(
      op.operationId,
    ),
  );

  it.each(planChanges.map((op) => [op.operationId, op] as const))('answers %s with the lock message', async (_name, operation) => {
    const session = await newSession();
    expect((await report(session.id, users.nurse.token)).status).toBe(200);
    const request = exampleRequest(operation, { id: session.id });
    for (const [lang, message] of [['en', LOCK_EN], ['de', LOCK_DE]] as const) {
      const answer = await server.call<Body>(operation.method, request.path, { token: users.physician.token, json: request.json, lang });
      expect(answer.status, JSON.stringify(answer.body)).toBe(423);
      expect(answer.body).toMatchObject({ code: 'treatment.locked', message });
    }
    // Another clinic's caller learns nothing about the session, not even that it is locked.
    const other = await member('clinic_physicians', {}, await createClinic(server.db, `Klinik ${seed}`));
    expect((await server.call(operation.method, request.path, { token: other.token, json: request.json })).status).toBe(404);
  });

  it('a report racing a deletion: exactly one of them wins', async () => {
    const session = await newSession();
    const [reported, deleted] = await Promise.all([
      report(session.id, users.physician.token),
      server.call<Body>('DELETE', `/treatments/${session.id}`, { token: users.nurse.token }),
    ]);
    const outcome = [reported.status, deleted.status].sort().join(' ');
    expect(['200 404', '200 423']).toContain(outcome);
    const row = await server.db.selectFrom('treatments').select('locked').where('id', '=', session.id).executeTakeFirst();
    if (deleted.status === 200) expect(row).toBeUndefined();
    else expect(row).toEqual({ locked: true });
  });
});

describe('withdrawing a report', () => {
  it('unlocks the session in planning, with its planStatus as before, the report gone from the session, the trail and the access log saying so', async () => {
    const session = await newSession();
    const before = await sessionOf(session.id);
    expect(before).toMatchObject({ locked: false, planStatus: 'planning' });
    expect((await report(session.id, users.nurse.token)).status).toBe(200);
    expect(await sessionOf(session.id)).toMatchObject({ locked: true, planStatus: 'issue_reported' });

    const answer = await withdraw(session.id, users.physician.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      message: 'Issue report withdrawn. The session is no longer locked.',
      data: { treatmentId: session.id, patientId: session.patientId, number: 1, locked: false, planStatus: before.planStatus },
    });
    // No clinical details in the answer: IT admins may withdraw too.
    expect(JSON.stringify(answer.body)).not.toContain('vessel crossing');
    const after = await sessionOf(session.id);
    expect(after).toMatchObject({ locked: false, planStatus: before.planStatus, step: before.step, issueReport: null });
    const patient = await server.call<Body>('GET', `/patients/${session.patientId}`, { token: users.physician.token });
    expect(patient.body.data.planStatus).toBe(before.planStatus);

    // The plan steps take changes again.
    const plan = (await server.call<Body>('GET', `/treatments/${session.id}/plan`, { token: users.physician.token })).body.data;
    const saved = await server.call<Body>('POST', `/treatments/${session.id}/plan/macula-grid`, {
      token: users.physician.token,
      json: { revision: plan.revision, settings: plan.gridSettings },
    });
    expect(saved.status).not.toBe(423);

    const trail = (await server.call<Body>('GET', `/treatments/${session.id}/audit`, { token: users.physician.token })).body.data as Body[];
    const actions = trail.map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['issue_reported', 'issue_report_withdrawn']));
    const entry = trail.find((change) => change.action === 'issue_report_withdrawn')!;
    expect(entry).toMatchObject({ by: { id: users.physician.id, name: 'Anna Keller' }, summary: 'Issue report by Miriam Vogel withdrawn; the session is unlocked.' });

    const audit = await server.db.selectFrom('audit_log').selectAll().where('target_id', '=', session.id).where('action', '=', 'treatment.issue_report_withdrawn').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: users.physician.id, outcome: 'success' });
    const kept = await server.db.selectFrom('treatment_issue_reports').selectAll().where('treatment_id', '=', session.id).execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ withdrawn_by: users.physician.id, withdrawn_by_name: 'Anna Keller' });
    expect(kept[0].withdrawn_at).not.toBeNull();
  });

  it('serves the parameter set of a signed-off plan again', async () => {
    const session = await newSession();
    const plan = await planToSignOff(server, session.id, users.nurse.token);
    const signed = await server.call<Body>('POST', `/treatments/${session.id}/confirm`, {
      token: users.physician.token,
      json: { revision: plan.revision, password: PASSWORD, confirm: true },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await server.jobsIdle();
    expect(await sessionOf(session.id)).toMatchObject({ planStatus: 'plan_available' });
    const download = () => server.call<Body>('GET', `/treatments/${session.id}/parameter-set`, { token: users.physician.token });
    expect((await download()).status).toBe(200);

    expect((await report(session.id, users.physician.token)).status).toBe(200);
    expect((await download()).status).toBe(423);
    const answer = await withdraw(session.id, users.admin.token, 'de');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ message: 'Problemmeldung zurückgezogen. Die Sitzung ist nicht mehr gesperrt.', data: { planStatus: 'plan_available' } });
    expect(await sessionOf(session.id)).toMatchObject({ locked: false, planStatus: 'plan_available', step: 'available' });
    expect((await download()).status).toBe(200);
  });

  it('refuses nurses (403), another clinic (404), an unknown session (404), and a session without an open report (409, in the caller’s language)', async () => {
    const session = await newSession();
    expect((await withdraw(session.id, users.physician.token)).body).toMatchObject({ code: 'treatment.no_issue_report' });
    expect((await report(session.id, users.nurse.token)).status).toBe(200);
    expect((await withdraw(session.id, users.nurse.token)).status).toBe(403);
    expect((await withdraw(session.id, otherClinicAdmin.token)).status).toBe(404);
    expect((await withdraw('00000000-0000-4000-8000-000000000000', users.physician.token)).status).toBe(404);
    expect(await sessionOf(session.id)).toMatchObject({ locked: true });

    expect((await withdraw(session.id, users.physician.token)).status).toBe(200);
    const again = await withdraw(session.id, users.physician.token);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'treatment.no_issue_report', message: 'This session has no open issue report to withdraw.' });
    expect((await withdraw(session.id, users.physician.token, 'de')).body.message).toBe(
      'Zu dieser Sitzung gibt es keine offene Problemmeldung, die zurückgezogen werden könnte.',
    );
    const audit = await server.db.selectFrom('audit_log').select('action').where('target_id', '=', session.id).where('action', '=', 'treatment.issue_report_withdrawn').execute();
    expect(audit).toHaveLength(1);
  });

  it('lets a withdrawn session be reported again (one open report at a time), and withdrawn again', async () => {
    const session = await newSession();
    expect((await report(session.id, users.nurse.token, 'First')).status).toBe(200);
    expect((await withdraw(session.id, users.physician.token)).status).toBe(200);
    const again = await report(session.id, users.physician.token, 'Second look: the fovea is misplaced.');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ locked: true, planStatus: 'issue_reported', issueReport: { reason: 'Second look: the fovea is misplaced.', reportedBy: { name: 'Anna Keller' } } });
    expect((await report(session.id, users.nurse.token, 'Third')).status).toBe(409);
    expect((await withdraw(session.id, users.admin.token)).status).toBe(200);
    const rows = await server.db.selectFrom('treatment_issue_reports').select(['reason', 'withdrawn_at']).where('treatment_id', '=', session.id).orderBy('reported_at').execute();
    expect(rows.map((row) => [row.reason, row.withdrawn_at !== null])).toEqual([
      ['First', true],
      ['Second look: the fovea is misplaced.', true],
    ]);
    // The test clock stands still: the trail keeps the order the entries were written in (migration 0025).
    const trail = (await server.call<Body>('GET', `/treatments/${session.id}/audit`, { token: users.physician.token })).body.data as Body[];
    expect(trail.map((entry) => entry.action).filter((action) => String(action).startsWith('issue_'))).toEqual([
      'issue_reported',
      'issue_report_withdrawn',
      'issue_reported',
      'issue_report_withdrawn',
    ]);
  });

  it('the database keeps one open report per session', async () => {
    const session = await newSession();
    expect((await report(session.id, users.nurse.token)).status).toBe(200);
    await expect(
      server.db
        .insertInto('treatment_issue_reports')
        .values({ clinic_id: clinicId, treatment_id: session.id, reason: 'twice', reported_by_name: 'X' })
        .execute(),
    ).rejects.toThrow();
  });

  it('tells those told of the report (IT admins, the uploader), not the one who withdraws', async () => {
    const session = await newSession(users.nurse.token);
    expect((await report(session.id, users.bystander.token)).status).toBe(200);
    const withdrawals = async (token: string, lang: 'en' | 'de' = 'en') => (await inbox(token, lang)).filter((note) => note.event === 'issue_report_withdrawn');
    const before = {
      admin: (await withdrawals(users.admin.token)).length,
      adminDe: (await withdrawals(users.adminDe.token)).length,
      nurse: (await withdrawals(users.nurse.token)).length,
      bystander: (await withdrawals(users.bystander.token)).length,
    };
    expect((await withdraw(session.id, users.admin.token)).status).toBe(200);
    expect((await withdrawals(users.admin.token)).length).toBe(before.admin);
    const [forAdminDe] = await withdrawals(users.adminDe.token, 'de');
    expect((await withdrawals(users.adminDe.token)).length).toBe(before.adminDe + 1);
    expect(forAdminDe).toMatchObject({ category: 'patients', title: 'Problemmeldung zurückgezogen' });
    expect(forAdminDe.message).not.toContain(session.name);
    // The test clock stands still: this session's notification is the one that links to its patient.
    const forUploader = (await withdrawals(users.nurse.token)).find((note) => note.link?.endsWith(session.patientId));
    expect((await withdrawals(users.nurse.token)).length).toBe(before.nurse + 1);
    expect(forUploader?.message).toContain(session.name);
    expect(forUploader?.link).toBe(`/physician/patient-card?patientId=${session.patientId}`);
    expect((await withdrawals(users.bystander.token)).length).toBe(before.bystander);
  });
});

describe('roles, as x-roles says', () => {
  const operations = contractOperations().filter((op) =>
    ['reportTreatmentIssue', 'updateTreatment', 'deleteTreatment'].includes(op.operationId),
  );

  it.each(operations.map((op) => [op.operationId, op] as const))('%s', async (_name, operation) => {
    expect(operation.roles.length).toBeGreaterThan(0);
    // A refused call changes nothing, so the refused roles share one session; each allowed call gets its own.
    const shared = await newSession();
    for (const role of ALL_ROLES) {
      const session = operation.roles.includes(role) ? await newSession() : shared;
      const caller = await member(role);
      const request = exampleRequest(operation, { id: session.id });
      const answer = await server.call<Body>(operation.method, request.path, { token: caller.token, json: request.json });
      if (operation.roles.includes(role)) expect(answer.status, `${role}: ${JSON.stringify(answer.body)}`).toBe(200);
      else expect(answer.status, role).toBe(403);
    }
    const anonymous = exampleRequest(operation, { id: shared.id });
    expect((await server.call(operation.method, anonymous.path, { json: anonymous.json })).status).toBe(401);
    expect((await server.call<Body>('GET', `/treatments/${shared.id}`, { token: users.physician.token })).body.data).toMatchObject({
      locked: false,
      description: null,
    });
  });
});

describe('withdrawIssueReport, as x-roles says', () => {
  const [operation] = contractOperations().filter((op) => op.operationId === 'withdrawIssueReport');

  it('answers the roles it names, refuses the others', async () => {
    expect(operation.roles).toEqual(['clinic_physicians', 'clinic_it_admins']);
    const shared = await newSession();
    expect((await report(shared.id, users.nurse.token)).status).toBe(200);
    for (const role of ALL_ROLES) {
      const session = operation.roles.includes(role) ? await newSession() : shared;
      if (session !== shared) expect((await report(session.id, users.nurse.token)).status).toBe(200);
      const caller = await member(role);
      const request = exampleRequest(operation, { id: session.id });
      const answer = await server.call<Body>(operation.method, request.path, { token: caller.token });
      if (operation.roles.includes(role)) expect(answer.status, `${role}: ${JSON.stringify(answer.body)}`).toBe(200);
      else expect(answer.status, role).toBe(403);
    }
    expect((await server.call(operation.method, `/treatments/${shared.id}/reports`)).status).toBe(401);
    expect(await sessionOf(shared.id)).toMatchObject({ locked: true });
  });
});
