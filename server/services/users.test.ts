// The rules of the staff area, called as services without HTTP: the lifecycle actions (what fits which status,
// all or nothing, never one's own access), invites that run out after seven days, IT admin rights granted only
// with the acting admin's password, and an address in use changed only by its owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, PASSWORD, sessionFor } from '../../tests/server/fixtures';
import { startServer, testClock, type TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { INVITE_DAYS } from './invites';
import { applyStaffAction, createUser as addStaff, getUser, listUsers, resendInvite, updateUser, type StaffEdit } from './users';

const DAY = 24 * 60 * 60 * 1000;
const NO_EDIT: StaffEdit = { avatar: null, removeAvatar: false, confirmDraft: false };

let server: TestServer;
let clinicId: string;
let otherClinic: string;
let admin: Actor;

beforeAll(async () => {
  server = await startServer({ clock: testClock(), jobs: false });
  clinicId = await createClinic(server.db);
  otherClinic = await createClinic(server.db, 'Andere Klinik');
  admin = actorFor(await createUser(server.db, { clinicId, role: 'clinic_it_admins' }), clinicId, 'clinic_it_admins');
});
afterAll(() => server.close());

const row = (id: string) =>
  server.db.selectFrom('users').select(['status', 'invite_status', 'previous_status', 'role', 'email']).where('id', '=', id).executeTakeFirstOrThrow();

const openSessions = async (userId: string) =>
  (await server.db.selectFrom('auth_sessions').select('id').where('user_id', '=', userId).where('ended_at', 'is', null).execute()).length;

let mails = 0;
const newStaff = (fields: { draft?: boolean; role?: string; currentPassword?: string } = {}) => ({
  firstName: 'Eva',
  lastName: `Roth ${++mails}`,
  email: `Eva.Roth.${mails}@Clinic.example`,
  role: fields.role ?? 'clinic_nurses',
  physicianName: null,
  draft: fields.draft ?? false,
  avatar: null,
  currentPassword: fields.currentPassword,
});

describe('lifecycle actions', () => {
  it('deactivate ends access at once and activate gives it back; each change is audited with its from and to', async () => {
    const nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    await sessionFor(server.db, nurse.id, { clock: server.clock });
    expect(await openSessions(nurse.id)).toBe(1);

    expect(await applyStaffAction(server.ctx, admin, [nurse.id, nurse.id], 'deactivate')).toEqual([nurse.id]);
    expect(await row(nurse.id)).toMatchObject({ status: 'deactivated', invite_status: 'accepted' });
    expect(await openSessions(nurse.id)).toBe(0);

    await applyStaffAction(server.ctx, admin, [nurse.id], 'activate');
    expect((await row(nurse.id)).status).toBe('active');
    expect((await auditEntries(server.db, 'user.deactivate', nurse.id)).map((e) => [e.outcome, e.actor_id, e.detail])).toEqual([
      ['success', admin.userId, { from: 'active', to: 'deactivated' }],
    ]);
    expect((await auditEntries(server.db, 'user.activate', nurse.id))[0]!.detail).toEqual({ from: 'deactivated', to: 'active' });
  });

  it('changes nothing when one user does not fit, and names that user in the actor’s language', async () => {
    const active = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const deactivated = await createUser(server.db, { clinicId, role: 'clinic_nurses', status: 'deactivated', firstName: 'Jan', lastName: 'Kühn' });
    const answer = await refusal(applyStaffAction(server.ctx, { ...admin, lang: 'de' }, [active.id, deactivated.id], 'deactivate'));
    expect(answer).toMatchObject({ status: 409, code: 'user.invalid_transition' });
    expect(JSON.stringify(answer.extra)).toContain('Jan Kühn');
    expect((await row(active.id)).status).toBe('active');
  });

  it('archive remembers the status before and unarchive returns to it; delete and restore likewise', async () => {
    const nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses', status: 'deactivated' });
    await applyStaffAction(server.ctx, admin, [nurse.id], 'archive');
    expect(await row(nurse.id)).toMatchObject({ status: 'archived', previous_status: 'deactivated' });
    expect(await refusal(applyStaffAction(server.ctx, admin, [nurse.id], 'archive'))).toMatchObject({ status: 409, code: 'user.invalid_transition' });
    await applyStaffAction(server.ctx, admin, [nurse.id], 'unarchive');
    expect(await row(nurse.id)).toMatchObject({ status: 'deactivated', previous_status: null });

    await applyStaffAction(server.ctx, admin, [nurse.id], 'delete');
    expect((await row(nurse.id)).status).toBe('deleting');
    await applyStaffAction(server.ctx, admin, [nurse.id], 'restore');
    expect((await row(nurse.id)).status).toBe('deactivated');
  });

  it('never takes the actor’s own access, and refused calls are audited as failures', async () => {
    const other = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    expect(await refusal(applyStaffAction(server.ctx, admin, [other.id, admin.userId], 'delete'))).toMatchObject({ status: 409, code: 'user.self_delete' });
    for (const action of ['deactivate', 'archive'] as const) {
      expect(await refusal(applyStaffAction(server.ctx, admin, [admin.userId], action))).toMatchObject({ status: 409, code: 'user.self_status_change' });
    }
    expect((await row(other.id)).status).toBe('active');
    expect((await row(admin.userId)).status).toBe('active');
    const failures = await server.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'user.delete')
      .where('outcome', '=', 'failure')
      .where('actor_id', '=', admin.userId)
      .execute();
    expect(failures.map((f) => (typeof f.detail === 'string' ? JSON.parse(f.detail) : f.detail))).toContainEqual({ ids: [other.id, admin.userId], code: 'user.self_delete' });
  });

  it('answers 404 for another clinic’s user, and changes no one of the request', async () => {
    const mine = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const theirs = await createUser(server.db, { clinicId: otherClinic, role: 'clinic_nurses' });
    expect(await refusal(applyStaffAction(server.ctx, admin, [mine.id, theirs.id], 'deactivate'))).toMatchObject({ status: 404 });
    expect((await row(mine.id)).status).toBe('active');
    expect((await row(theirs.id)).status).toBe('active');
    expect(await refusal(getUser(server.ctx, admin, theirs.id))).toMatchObject({ status: 404 });
  });
});

describe('adding users and invites', () => {
  it('an invite is open for seven days, then expires; a new invite opens it again', async () => {
    const input = newStaff();
    const { user, message } = await addStaff(server.ctx, admin, input);
    expect(message).toBe('invite.sent');
    expect(user).toMatchObject({ status: 'pending', inviteStatus: 'pending', email: input.email.toLowerCase() });
    expect(Date.parse(user.inviteExpiresAt!)).toBe(server.clock.now().getTime() + INVITE_DAYS * DAY);

    server.clock.advance(INVITE_DAYS * DAY - 60_000);
    expect((await getUser(server.ctx, admin, user.id)).status).toBe('pending');
    server.clock.advance(2 * 60_000);
    expect(await getUser(server.ctx, admin, user.id)).toMatchObject({ status: 'invite_expired', inviteStatus: 'invite_expired' });

    const again = await resendInvite(server.ctx, admin, user.id);
    expect(again.status).toBe('pending');
    expect(Date.parse(again.inviteExpiresAt!)).toBe(server.clock.now().getTime() + INVITE_DAYS * DAY);
  });

  it('a draft gets no invite until it is confirmed', async () => {
    const { user, message } = await addStaff(server.ctx, admin, newStaff({ draft: true }));
    expect(message).toBe('user.draft_saved');
    expect(user).toMatchObject({ status: 'creation_in_progress', inviteExpiresAt: null });
    const confirmed = await updateUser(server.ctx, admin, user.id, { ...NO_EDIT, confirmDraft: true });
    expect(confirmed.message).toBe('invite.sent');
    expect(confirmed.user.status).toBe('pending');
  });

  it('refuses an address another account has in any clinic and any spelling, and an invite to an accepted user', async () => {
    const taken = await createUser(server.db, { clinicId: otherClinic, role: 'clinic_nurses' });
    expect(await refusal(addStaff(server.ctx, admin, { ...newStaff(), email: taken.email.toUpperCase() }))).toMatchObject({
      status: 409,
      code: 'user.email_taken',
      fields: { email: ['user.email_taken'] },
    });
    const accepted = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    expect(await refusal(resendInvite(server.ctx, admin, accepted.id))).toMatchObject({ status: 409, code: 'invite.already_accepted' });
  });

  it('the list, kept in memory while the staff is unchanged, shows an invite run out by time and new password rules', async () => {
    const { user } = await addStaff(server.ctx, admin, newStaff());
    const shown = async () => (await listUsers(server.ctx, admin, { search: user.lastName })).data.find((u) => u.id === user.id);
    expect(await shown()).toMatchObject({ status: 'pending', passwordType: 'standard' });
    server.clock.advance(INVITE_DAYS * DAY + 1000);
    expect(await shown()).toMatchObject({ status: 'invite_expired', inviteStatus: 'invite_expired' });
    await server.db.updateTable('security_settings').set({ password_strength: 'advanced' }).where('clinic_id', '=', clinicId).execute();
    expect((await shown())?.passwordType).toBe('advanced');
    await applyStaffAction(server.ctx, admin, [user.id], 'archive');
    expect(await shown()).toBeUndefined();
    await server.db.updateTable('security_settings').set({ password_strength: 'standard' }).where('clinic_id', '=', clinicId).execute();
  });

  it('lists the clinic’s users without archived ones unless asked, with the login hints’ role spellings', async () => {
    const archived = await createUser(server.db, { clinicId, role: 'clinic_physicians', status: 'archived', lastName: 'Zeh-Ärchiv' });
    const listed = await listUsers(server.ctx, admin, { search: 'Ärchiv', perPage: 100 });
    expect(listed.data).toEqual([]);
    const asked = await listUsers(server.ctx, admin, { search: 'ärchiv', status: 'archived', role: ['clinic_physician'] });
    expect(asked.data.map((u) => u.id)).toEqual([archived.id]);
    expect(asked.meta).toMatchObject({ page: 1, perPage: 20, total: 1, lastPage: 1 });
  });
});

describe('edits', () => {
  it('grants IT admin rights only with the acting admin’s own password; both tries are audited', async () => {
    const nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const grant = (currentPassword?: string) => updateUser(server.ctx, admin, nurse.id, { ...NO_EDIT, role: 'clinic_it_admins', currentPassword });
    expect(await refusal(grant())).toMatchObject({ status: 422, fields: { currentPassword: ['validation.required'] } });
    expect(await refusal(grant('Not-The-Password-1'))).toMatchObject({ status: 422, fields: { currentPassword: ['validation.current_password_wrong'] } });
    expect((await row(nurse.id)).role).toBe('clinic_nurses');

    expect((await grant(PASSWORD)).user.role).toBe('clinic_it_admins');
    expect((await auditEntries(server.db, 'user.it_admin_granted', nurse.id)).map((e) => [e.outcome, e.detail])).toEqual([
      ['failure', { reason: 'wrong_current_password' }],
      ['success', { from: 'clinic_nurses' }],
    ]);
  });

  it('an IT admin cannot take the role from themselves', async () => {
    expect(await refusal(updateUser(server.ctx, admin, admin.userId, { ...NO_EDIT, role: 'clinic_nurses' }))).toMatchObject({
      status: 409,
      code: 'user.self_role_change',
    });
  });

  it('the address of an account in use waits for its owner’s confirmation; an open invite follows the new address at once', async () => {
    const active = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const edit = await updateUser(server.ctx, admin, active.id, { ...NO_EDIT, email: 'Moved.Away@Clinic.example' });
    expect(edit).toMatchObject({ message: 'user.email_confirmation_sent', params: { email: 'moved.away@clinic.example' } });
    expect((await row(active.id)).email).toBe(active.email);
    expect((await auditEntries(server.db, 'email_change.requested', active.id)).map((e) => [e.actor_id, e.clinic_id, e.detail])).toEqual([
      [admin.userId, clinicId, { byAdmin: true }],
    ]);

    const { user: invited } = await addStaff(server.ctx, admin, newStaff());
    const moved = await updateUser(server.ctx, admin, invited.id, { ...NO_EDIT, email: 'New.Invitee@Clinic.example' });
    expect(moved).toMatchObject({ message: 'user.updated', user: { email: 'new.invitee@clinic.example', status: 'pending' } });
  });
});
