// Staff users through HTTP: list, read, add (draft and invite), edit, invites, delete/restore, bulk
// actions, own-account protections and clinic isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, PASSWORD, sessionFor, signIn } from './fixtures';
import { linkFromMail, startServer, type TestServer } from './helper';

const DAY = 24 * 60 * 60 * 1000;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

interface UserData {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  status: string;
  inviteStatus: string;
  avatar?: string | null;
  inviteExpiresAt?: string | null;
  physicianName?: string | null;
}
interface ListBody {
  data: UserData[];
  meta: { page: number; perPage: number; total: number; lastPage: number };
}

let server: TestServer;
let clinicA: string;
let clinicB: string;
let admin: { id: string; email: string };
let adminToken: string;
let adminB: { id: string; email: string };
let adminBToken: string;

/** A bearer token for a user, on the server's clock (fast: no password check). */
const tokenFor = (userId: string) => sessionFor(server.db, userId, { clock: server.clock, days: 365 });

function userForm(fields: Record<string, string>, avatar?: { data: Buffer; type: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (avatar) form.append('avatar', new Blob([new Uint8Array(avatar.data)], { type: avatar.type }), 'avatar.png');
  return form;
}

const unique = (name: string) => `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@clinic.example`;

async function addUser(fields: Record<string, string>, token = adminToken) {
  return server.call<{ data: UserData; message: string }>('POST', '/users', { token, form: userForm(fields) });
}

async function statusOf(id: string) {
  return server.db.selectFrom('users').select(['status', 'invite_status', 'previous_status']).where('id', '=', id).executeTakeFirstOrThrow();
}

async function inviteToken(email: string): Promise<string> {
  return linkFromMail(server, email).searchParams.get('token')!;
}

beforeAll(async () => {
  server = await startServer();
  clinicA = await createClinic(server.db, 'Augenklinik A');
  clinicB = await createClinic(server.db, 'Augenklinik B');
  admin = await createUser(server.db, { clinicId: clinicA, role: 'clinic_it_admins', firstName: 'Jonas', lastName: 'Weber' });
  adminToken = await tokenFor(admin.id);
  adminB = await createUser(server.db, { clinicId: clinicB, role: 'clinic_it_admins', firstName: 'Bea', lastName: 'Berg' });
  adminBToken = await tokenFor(adminB.id);
});
afterAll(() => server.close());

describe('listUsers', () => {
  let clinic: string;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    clinic = await createClinic(server.db, 'Listenklinik');
    const me = await createUser(server.db, { clinicId: clinic, role: 'clinic_it_admins', firstName: 'Ida', lastName: 'Admin', email: unique('ida') });
    ids.admin = me.id;
    token = await tokenFor(me.id);
    const people: [string, string, string, string, string][] = [
      ['anna', 'Anna', 'Keller', 'clinic_physicians', 'active'],
      ['markus', 'Markus', 'Schulz', 'clinic_physicians', 'deactivated'],
      ['miriam', 'Miriam', 'Vogel', 'clinic_nurses', 'active'],
      ['petra', 'Petra', 'Lange', 'clinic_nurses', 'archived'],
      ['dora', 'Dora', 'Zander', 'clinic_physicians', 'deleting'],
      ['stefan', 'Stefan', 'Krüger', 'clinic_it_admins', 'active'],
    ];
    for (const [key, firstName, lastName, role, status] of people) {
      const user = await createUser(server.db, { clinicId: clinic, role, status, firstName, lastName, email: unique(key) });
      ids[key] = user.id;
    }
    // Distinct creation times for the createdAt sort: Anna oldest, Stefan newest.
    const order = ['admin', 'anna', 'markus', 'miriam', 'petra', 'dora', 'stefan'];
    for (const [index, key] of order.entries()) {
      await server.db.updateTable('users').set({ created_at: new Date(Date.UTC(2026, 0, 1 + index)) } as never).where('id', '=', ids[key]).execute();
    }
    await server.db.updateTable('users').set({ physician_name: 'Dr. Anna Keller' }).where('id', '=', ids.anna).execute();
  });

  const list = (query: string) => server.call<ListBody>('GET', `/users${query}`, { token });
  const names = (body: ListBody) => body.data.map((u) => u.lastName);

  it('leaves archived and deleting users out by default and sorts by last name', async () => {
    const answer = await list('');
    expect(answer.status).toBe(200);
    expect(names(answer.body)).toEqual(['Admin', 'Keller', 'Krüger', 'Schulz', 'Vogel']);
    expect(answer.body.meta).toEqual({ page: 1, perPage: 20, total: 5, lastPage: 1 });
    const anna = answer.body.data.find((u) => u.lastName === 'Keller')!;
    expect(anna).toMatchObject({ role: 'clinic_physicians', status: 'active', inviteStatus: 'accepted', physicianName: 'Dr. Anna Keller', avatar: null });
  });

  it('filters by role in both spellings', async () => {
    for (const [plural, singular] of [
      ['clinic_physicians', 'clinic_physician'],
      ['clinic_nurses', 'nurse'],
      ['clinic_it_admins', 'clinic_it_admin'],
    ]) {
      const a = await list(`?role=${plural}`);
      const b = await list(`?role=${singular}`);
      expect(a.status).toBe(200);
      expect(a.body.data.length, plural).toBeGreaterThan(0);
      expect(names(b.body)).toEqual(names(a.body));
      expect(a.body.data.every((u) => u.role === plural)).toBe(true);
    }
    expect(names((await list('?role=clinic_physician')).body)).toEqual(['Keller', 'Schulz']);
    expect((await list('?role=surgeon')).status).toBe(422);
  });

  it('takes several roles as a repeated parameter (the clinical staff)', async () => {
    expect(names((await list('?role=clinic_physicians&role=nurse')).body)).toEqual(['Keller', 'Schulz', 'Vogel']);
    expect(names((await list('?role=clinic_physician&role=clinic_physicians')).body)).toEqual(['Keller', 'Schulz']);
    expect((await list('?role=clinic_nurses&role=surgeon')).status).toBe(422);
  });

  it('shows archived or deleting users when the status asks for them', async () => {
    expect(names((await list('?status=archived')).body)).toEqual(['Lange']);
    expect(names((await list('?status=deleting')).body)).toEqual(['Zander']);
    expect(names((await list('?status=deactivated')).body)).toEqual(['Schulz']);
    expect(names((await list('?inviteStatus=accepted&role=nurse')).body)).toEqual(['Vogel']);
  });

  it('searches names, physician name and e-mail, case-insensitively, with literal wildcards', async () => {
    expect(names((await list('?search=KELL')).body)).toEqual(['Keller']);
    expect(names((await list('?search=dr.%20anna')).body)).toEqual(['Keller']);
    expect(names((await list('?search=miriam%20vogel')).body)).toEqual(['Vogel']);
    expect(names((await list(`?search=${encodeURIComponent('stefan.')}`)).body)).toEqual(['Krüger']);
    expect((await list('?search=%25')).body.data).toEqual([]);
    expect((await list('?search=_')).body.data).toEqual([]);
    expect((await list(`?search=${encodeURIComponent("' or 1=1 --")}`)).body.data).toEqual([]);
  });

  it('sorts by the other keys, descending with a minus', async () => {
    expect(names((await list('?sort=-name')).body)).toEqual(['Vogel', 'Schulz', 'Krüger', 'Keller', 'Admin']);
    expect(names((await list('?sort=createdAt')).body)).toEqual(['Admin', 'Keller', 'Schulz', 'Vogel', 'Krüger']);
    expect(names((await list('?sort=-createdAt')).body)).toEqual(['Krüger', 'Vogel', 'Schulz', 'Keller', 'Admin']);
    expect((await list('?sort=role')).body.data.map((u) => u.role)).toEqual([
      'clinic_it_admins',
      'clinic_it_admins',
      'clinic_nurses',
      'clinic_physicians',
      'clinic_physicians',
    ]);
    expect(names((await list('?sort=status')).body)).toEqual(['Admin', 'Keller', 'Krüger', 'Vogel', 'Schulz']);
    const byEmail = (await list('?sort=-email')).body.data.map((u) => u.email);
    expect(byEmail).toEqual([...byEmail].sort().reverse());
    expect((await list('?sort=age')).status).toBe(422);
  });

  it('pages with meta', async () => {
    const second = await list('?perPage=2&page=2');
    expect(names(second.body)).toEqual(['Krüger', 'Schulz']);
    expect(second.body.meta).toEqual({ page: 2, perPage: 2, total: 5, lastPage: 3 });
    const beyond = await list('?perPage=2&page=9');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toEqual({ page: 9, perPage: 2, total: 5, lastPage: 3 });
    const none = await list('?search=nobody-here');
    expect(none.body.meta).toEqual({ page: 1, perPage: 20, total: 0, lastPage: 1 });
    expect((await list('?perPage=101')).status).toBe(422);
    expect((await list('?page=0')).status).toBe(422);
  });

  it('never shows another clinic’s users', async () => {
    const answer = await server.call<ListBody>('GET', '/users?perPage=100', { token: adminBToken });
    expect(answer.body.data.map((u) => u.id)).toEqual([adminB.id]);
  });
});

describe('getUser', () => {
  it('reads a user of the clinic, 404 for unknown, malformed and other clinics’ ids', async () => {
    const answer = await server.call<{ data: UserData }>('GET', `/users/${admin.id}`, { token: adminToken });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ id: admin.id, email: admin.email, role: 'clinic_it_admins' });
    expect((await server.call('GET', '/users/6b8f1cd0-0663-4009-8a0a-d4845894bfb9', { token: adminToken })).status).toBe(404);
    expect((await server.call('GET', '/users/not-a-uuid', { token: adminToken })).status).toBe(404);
    expect((await server.call('GET', `/users/${admin.id}`, { token: adminBToken })).status).toBe(404);
  });

  it('is for IT admins only', async () => {
    const physician = await createUser(server.db, { clinicId: clinicA, role: 'clinic_physicians' });
    const answer = await server.call('GET', `/users/${admin.id}`, { token: await tokenFor(physician.id) });
    expect(answer.status).toBe(403);
  });
});

describe('createUser', () => {
  it('saves a draft without an invite', async () => {
    const email = unique('felix');
    const before = server.outbox().length;
    const answer = await addUser({ firstName: 'Felix', lastName: 'Wagner', email, role: 'clinic_physicians', physicianName: 'Dr. Felix Wagner', draft: '1' });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Draft saved. No invitation was sent: open the draft and choose “Confirm and send invite” when it is ready.');
    expect(answer.body.data).toMatchObject({
      firstName: 'Felix',
      email,
      status: 'creation_in_progress',
      inviteStatus: 'creation_in_progress',
      physicianName: 'Dr. Felix Wagner',
      inviteExpiresAt: null,
    });
    expect(server.outbox().slice(before).some((m) => m.text.includes(email))).toBe(false);
    const row = await server.db.selectFrom('users').select(['password_hash', 'clinic_id']).where('id', '=', answer.body.data.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, clinic_id: clinicA });
  });

  it('invites at once: the e-mail link opens the invite for 7 days', async () => {
    const email = unique('lena');
    const answer = await addUser({ firstName: 'Lena', lastName: 'Hoffmann', email, role: 'clinic_nurses' });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Invite sent');
    expect(answer.body.data).toMatchObject({ status: 'pending', inviteStatus: 'pending' });
    const expires = new Date(answer.body.data.inviteExpiresAt!).getTime();
    expect(Math.abs(expires - (server.clock.now().getTime() + 7 * DAY))).toBeLessThan(60_000);
    const link = linkFromMail(server, email);
    expect(link.pathname).toBe('/approve-account');
    const invite = await server.call<{ data: { email: string } }>('GET', `/user-invites?token=${encodeURIComponent(link.searchParams.get('token')!)}`);
    expect(invite.status).toBe(200);
    expect(invite.body.data.email).toBe(email);
    const mail = server.outbox().find((m) => m.text.includes(`To: ${email}`))!.text;
    expect(mail).toContain('Hello Lena Hoffmann,');
  });

  it('answers in German', async () => {
    const answer = await server.call<{ message: string }>('POST', '/users', {
      token: adminToken,
      lang: 'de',
      form: userForm({ firstName: 'Max', lastName: 'Entwurf', email: unique('max'), role: 'clinic_nurses', draft: '1' }),
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Entwurf gespeichert. Es wurde keine Einladung gesendet: Öffnen Sie den Entwurf und wählen Sie „Bestätigen und Einladung senden“, sobald er fertig ist.');
  });

  it('refuses an address in use, whatever the case and the clinic', async () => {
    const other = await createUser(server.db, { clinicId: clinicB, role: 'clinic_nurses', email: unique('taken') });
    const count = async () => Number((await server.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const answer = await addUser({ firstName: 'Tina', lastName: 'Doppelt', email: other.email.toUpperCase(), role: 'clinic_nurses' });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'user.email_taken', errors: { email: ['This email address is already in use.'] } });
    expect(await count()).toBe(before);
  });

  it('validates the form', async () => {
    const missing = await server.call('POST', '/users', { token: adminToken, form: userForm({ firstName: 'Ohne', email: unique('x'), role: 'clinic_nurses' }) });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: { lastName: ['This field is required'] } });
    const blank = await server.call('POST', '/users', { token: adminToken, form: userForm({ firstName: '  ', lastName: 'X', email: unique('x'), role: 'clinic_nurses' }) });
    expect(blank.status).toBe(422);
    const badRole = await server.call('POST', '/users', { token: adminToken, form: userForm({ firstName: 'A', lastName: 'B', email: unique('x'), role: 'admins' }) });
    expect(badRole.status).toBe(422);
    const badEmail = await server.call('POST', '/users', { token: adminToken, form: userForm({ firstName: 'A', lastName: 'B', email: 'not-an-address', role: 'clinic_nurses' }) });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body).toMatchObject({ errors: { email: ['Please enter a valid email address'] } });
  });

  it('stores a PNG avatar and refuses other formats and oversized files', async () => {
    const ok = await server.call<{ data: UserData }>('POST', '/users', {
      token: adminToken,
      form: userForm({ firstName: 'Bild', lastName: 'Mensch', email: unique('bild'), role: 'clinic_nurses', draft: '1' }, { data: PNG, type: 'image/png' }),
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.avatar).toBe(`/api/users/${ok.body.data.id}/avatar`);
    const row = await server.db.selectFrom('users').select(['avatar_path', 'avatar_type']).where('id', '=', ok.body.data.id).executeTakeFirstOrThrow();
    expect(row.avatar_type).toBe('image/png');
    expect(await server.ctx.files.get(row.avatar_path!)).toEqual(PNG);

    const wrongEmail = unique('wrong');
    const wrong = await server.call('POST', '/users', {
      token: adminToken,
      form: userForm({ firstName: 'Falsch', lastName: 'Format', email: wrongEmail, role: 'clinic_nurses' }, { data: Buffer.from('GIF89a not an image'), type: 'image/png' }),
    });
    expect(wrong.status).toBe(415);
    expect(wrong.body).toMatchObject({ code: 'avatar.invalid_format' });
    const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
    const bigEmail = unique('big');
    const tooBig = await server.call('POST', '/users', {
      token: adminToken,
      form: userForm({ firstName: 'Zu', lastName: 'Groß', email: bigEmail, role: 'clinic_nurses' }, { data: big, type: 'image/png' }),
    });
    expect(tooBig.status).toBe(413);
    const written = await server.db.selectFrom('users').select('id').where('email', 'in', [wrongEmail, bigEmail]).execute();
    expect(written).toEqual([]);
    expect(server.outbox().some((m) => m.text.includes(wrongEmail) || m.text.includes(bigEmail))).toBe(false);
  });
});

describe('invites', () => {
  it('resending invalidates the old link', async () => {
    const email = unique('sophie');
    const created = await addUser({ firstName: 'Sophie', lastName: 'Brandt', email, role: 'clinic_nurses' });
    const first = await inviteToken(email);
    const resent = await server.call<{ data: UserData; message: string }>('POST', `/users/${created.body.data.id}/invite`, { token: adminToken });
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe('Invite sent');
    expect(resent.body.data.status).toBe('pending');
    const second = await inviteToken(email);
    expect(second).not.toBe(first);
    expect((await server.call('GET', `/user-invites?token=${encodeURIComponent(first)}`)).status).toBe(404);
    expect((await server.call('GET', `/user-invites?token=${encodeURIComponent(second)}`)).status).toBe(200);
  });

  it('confirms a draft by resending', async () => {
    const email = unique('draft');
    const created = await addUser({ firstName: 'Dirk', lastName: 'Draft', email, role: 'clinic_physicians', draft: '1' });
    const resent = await server.call<{ data: UserData }>('POST', `/users/${created.body.data.id}/invite`, { token: adminToken });
    expect(resent.body.data).toMatchObject({ status: 'pending', inviteStatus: 'pending' });
    expect(linkFromMail(server, email).pathname).toBe('/approve-account');
  });

  it('refuses users who accepted (409), and is scoped to the clinic', async () => {
    const accepted = await server.call('POST', `/users/${admin.id}/invite`, { token: adminToken });
    expect(accepted.status).toBe(409);
    expect(accepted.body).toMatchObject({ code: 'invite.already_accepted' });
    const created = await addUser({ firstName: 'Kurt', lastName: 'Fremd', email: unique('kurt'), role: 'clinic_nurses', draft: '1' });
    expect((await server.call('POST', `/users/${created.body.data.id}/invite`, { token: adminBToken })).status).toBe(404);
  });
});

describe('updateUser', () => {
  it('changes fields and keeps the others', async () => {
    const created = await addUser({ firstName: 'Anna', lastName: 'Keller', email: unique('anna'), role: 'clinic_physicians', physicianName: 'Dr. Anna Keller', draft: '1' });
    const id = created.body.data.id;
    const answer = await server.call<{ data: UserData; message: string }>('POST', `/users/${id}`, {
      token: adminToken,
      form: userForm({ physicianName: 'Dr. med. Anna Keller', role: 'clinic_nurses' }),
    });
    expect(answer.status).toBe(200);
    // Still a draft: saved again, and no invitation sent.
    expect(answer.body.message).toBe('Draft saved. No invitation was sent: open the draft and choose “Confirm and send invite” when it is ready.');
    expect(answer.body.data).toMatchObject({ firstName: 'Anna', lastName: 'Keller', physicianName: 'Dr. med. Anna Keller', role: 'clinic_nurses', status: 'creation_in_progress' });
    const cleared = await server.call<{ data: UserData }>('POST', `/users/${id}`, { token: adminToken, form: userForm({ physicianName: '' }) });
    expect(cleared.body.data.physicianName).toBeNull();
  });

  it('sets and removes the avatar', async () => {
    const created = await addUser({ firstName: 'Ava', lastName: 'Tar', email: unique('ava'), role: 'clinic_nurses', draft: '1' });
    const id = created.body.data.id;
    const withAvatar = await server.call<{ data: UserData }>('POST', `/users/${id}`, { token: adminToken, form: userForm({}, { data: PNG, type: 'image/png' }) });
    expect(withAvatar.body.data.avatar).toBe(`/api/users/${id}/avatar`);
    const key = (await server.db.selectFrom('users').select('avatar_path').where('id', '=', id).executeTakeFirstOrThrow()).avatar_path!;
    const wrong = await server.call('POST', `/users/${id}`, { token: adminToken, form: userForm({ firstName: 'Neu' }, { data: Buffer.from('%PDF-1.4'), type: 'image/png' }) });
    expect(wrong.status).toBe(415);
    expect((await server.db.selectFrom('users').select(['first_name', 'avatar_path']).where('id', '=', id).executeTakeFirstOrThrow())).toEqual({ first_name: 'Ava', avatar_path: key });
    const removed = await server.call<{ data: UserData }>('POST', `/users/${id}`, { token: adminToken, form: userForm({ removeAvatar: '1' }) });
    expect(removed.body.data.avatar).toBeNull();
    expect(await server.ctx.files.get(key)).toBeNull();
  });

  it('a new e-mail address of an active user waits for that user’s confirmation; then all of their sessions end', async () => {
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses', email: unique('nina') });
    const one = await signIn(server, nurse.email);
    const two = await tokenFor(nurse.id);
    expect((await server.call('GET', '/notifications/settings', { token: one })).status).not.toBe(401);
    const newEmail = unique('nina.neu');
    const answer = await server.call<{ data: UserData; message: string }>('POST', `/users/${nurse.id}`, { token: adminToken, form: userForm({ email: newEmail }) });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(`User updated. The new email address ${newEmail} applies once its owner opens the link we have sent to it.`);
    // Until the nurse opens the link, nothing changes: an IT admin cannot move an account's resets elsewhere.
    expect(answer.body.data).toMatchObject({ email: nurse.email, status: 'active', inviteStatus: 'accepted' });
    for (const token of [one, two]) expect((await server.call('GET', '/notifications/settings', { token })).status).toBe(200);
    const notice = server.outbox().filter((m) => m.text.includes(`To: ${nurse.email}`) && m.text.includes('your clinic\'s IT administrator asked'));
    expect(notice).toHaveLength(1);

    const link = linkFromMail(server, newEmail);
    expect((await server.call('POST', '/email-confirmation', { json: { token: link.searchParams.get('token') } })).status).toBe(200);
    for (const token of [one, two]) expect((await server.call('GET', '/notifications/settings', { token })).status).toBe(401);
    const ended = await server.db.selectFrom('auth_sessions').select(['ended_at', 'ended_reason']).where('user_id', '=', nurse.id).execute();
    expect(ended).toHaveLength(2);
    expect(ended.every((s) => s.ended_at !== null && s.ended_reason === 'email_changed')).toBe(true);
    // The admin's own session is untouched, and the nurse signs in with the new address.
    expect((await server.call('GET', '/users', { token: adminToken })).status).toBe(200);
    expect(await signIn(server, newEmail)).toBeTruthy();
  });

  it('grants IT admin rights only with the acting admin’s own password; the user and the other IT admins are told, and both tries are audited', async () => {
    const clinic = await createClinic(server.db, 'Grant Clinic');
    const me = await createUser(server.db, { clinicId: clinic, role: 'clinic_it_admins', firstName: 'Gina', lastName: 'Grant', email: unique('gina') });
    const colleague = await createUser(server.db, { clinicId: clinic, role: 'clinic_it_admins', firstName: 'Otto', lastName: 'Kollege', email: unique('otto') });
    const physician = await createUser(server.db, { clinicId: clinic, role: 'clinic_physicians', firstName: 'Paul', lastName: 'Arzt', email: unique('paul') });
    const token = await tokenFor(me.id);
    const grant = (fields: Record<string, string>, lang: 'en' | 'de' = 'en') =>
      server.call<{ data: UserData; errors?: Record<string, string[]> }>('POST', `/users/${physician.id}`, {
        token,
        form: userForm({ role: 'clinic_it_admins', ...fields }),
        lang,
      });
    const roleOf = async () => (await server.db.selectFrom('users').select('role').where('id', '=', physician.id).executeTakeFirstOrThrow()).role;

    const missing = await grant({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ currentPassword: ['This field is required'] });
    const wrong = await grant({ currentPassword: 'Not-The-Password-1' }, 'de');
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ currentPassword: ['Das aktuelle Passwort ist nicht korrekt.'] });
    expect(await roleOf()).toBe('clinic_physicians');

    const granted = await grant({ currentPassword: PASSWORD });
    expect(granted.status).toBe(200);
    expect(granted.body.data.role).toBe('clinic_it_admins');
    const mails = (to: string) => server.outbox().filter((m) => m.text.includes(`To: ${to}`));
    expect(mails(physician.email).filter((m) => m.text.includes('Gina Grant gave your Macula Planner account at Grant Clinic IT administrator rights'))).toHaveLength(1);
    expect(mails(colleague.email).filter((m) => m.text.includes(`Gina Grant gave IT administrator rights at Grant Clinic to Paul Arzt (${physician.email})`))).toHaveLength(1);
    expect(mails(me.email)).toEqual([]);
    const audited = await server.db
      .selectFrom('audit_log')
      .select(['action', 'outcome', 'actor_id'])
      .where('target_id', '=', physician.id)
      .where('action', '=', 'user.it_admin_granted')
      .orderBy('at')
      .execute();
    expect(audited).toEqual([
      { action: 'user.it_admin_granted', outcome: 'failure', actor_id: me.id },
      { action: 'user.it_admin_granted', outcome: 'success', actor_id: me.id },
    ]);

    // An edit that leaves an IT admin an IT admin grants nothing, and asks for nothing.
    expect((await grant({ firstName: 'Paula' })).status).toBe(200);

    // Adding a new IT admin is the same grant: the password first, then an audit entry and a notice to the others.
    const add = (fields: Record<string, string>) =>
      server.call<{ data: UserData; errors?: Record<string, string[]> }>('POST', '/users', {
        token,
        form: userForm({ firstName: 'Nina', lastName: 'Neu', email: unique('nina'), role: 'clinic_it_admins', ...fields }),
      });
    expect((await add({})).body.errors).toEqual({ currentPassword: ['This field is required'] });
    expect((await add({ currentPassword: 'Not-The-Password-1' })).status).toBe(422);
    const added = await add({ currentPassword: PASSWORD });
    expect(added.status).toBe(201);
    const grants = await server.db.selectFrom('audit_log').select(['outcome', 'actor_id']).where('target_id', '=', added.body.data.id).where('action', '=', 'user.it_admin_granted').execute();
    expect(grants).toEqual([{ outcome: 'success', actor_id: me.id }]);
    expect(mails(colleague.email).filter((m) => m.text.includes(`Gina Grant gave IT administrator rights at Grant Clinic to Nina Neu`))).toHaveLength(1);
    // The new admin learns of the role from the invite, not from a second e-mail.
    expect(mails(added.body.data.email).filter((m) => m.text.includes('gave your Macula Planner account'))).toEqual([]);
  });

  it('sends a new invite to the new address of an invited user; the old link stops working', async () => {
    const email = unique('sophie');
    const created = await addUser({ firstName: 'Sophie', lastName: 'Brandt', email, role: 'clinic_nurses' });
    const oldToken = await inviteToken(email);
    const newEmail = unique('sophie2');
    const answer = await server.call<{ data: UserData; message: string }>('POST', `/users/${created.body.data.id}`, { token: adminToken, form: userForm({ email: newEmail }) });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ email: newEmail, status: 'pending', inviteStatus: 'pending' });
    expect((await server.call('GET', `/user-invites?token=${encodeURIComponent(oldToken)}`)).status).toBe(404);
    const invite = await server.call<{ data: { email: string } }>('GET', `/user-invites?token=${encodeURIComponent(await inviteToken(newEmail))}`);
    expect(invite.body.data.email).toBe(newEmail);
  });

  it('draft 0 confirms a draft and sends the invite; draft 1 keeps it', async () => {
    const email = unique('felix');
    const created = await addUser({ firstName: 'Felix', lastName: 'Wagner', email, role: 'clinic_physicians', draft: '1' });
    const id = created.body.data.id;
    const kept = await server.call<{ data: UserData; message: string }>('POST', `/users/${id}`, { token: adminToken, form: userForm({ lastName: 'Wagner-Berg', draft: '1' }) });
    expect(kept.body.data.status).toBe('creation_in_progress');
    expect(server.outbox().some((m) => m.text.includes(`To: ${email}`))).toBe(false);
    const confirmed = await server.call<{ data: UserData; message: string }>('POST', `/users/${id}`, { token: adminToken, form: userForm({ draft: '0' }) });
    expect(confirmed.body.message).toBe('Invite sent');
    expect(confirmed.body.data).toMatchObject({ status: 'pending', inviteStatus: 'pending', lastName: 'Wagner-Berg' });
    expect(linkFromMail(server, email).pathname).toBe('/approve-account');
  });

  it('refuses an address in use and the removal of the own admin role', async () => {
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    const taken = await server.call('POST', `/users/${nurse.id}`, { token: adminToken, form: userForm({ email: admin.email.toUpperCase() }) });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'user.email_taken' });
    const own = await server.call('POST', `/users/${admin.id}`, { token: adminToken, form: userForm({ role: 'clinic_physicians', firstName: 'Nicht' }) });
    expect(own.status).toBe(409);
    expect(own.body).toMatchObject({ code: 'user.self_role_change', errors: { role: ['You cannot remove the IT admin role from your own account.'] } });
    expect((await server.db.selectFrom('users').select(['role', 'first_name']).where('id', '=', admin.id).executeTakeFirstOrThrow())).toEqual({ role: 'clinic_it_admins', first_name: 'Jonas' });
    const ownName = await server.call('POST', `/users/${admin.id}`, { token: adminToken, form: userForm({ role: 'clinic_it_admins' }) });
    expect(ownName.status).toBe(200);
  });

  it('answers 404 for another clinic’s user', async () => {
    const answer = await server.call('POST', `/users/${admin.id}`, { token: adminBToken, form: userForm({ firstName: 'Hack' }) });
    expect(answer.status).toBe(404);
    expect((await statusOf(admin.id)).status).toBe('active');
  });
});

describe('delete and restore', () => {
  it('deletes a user: sessions end, the invite link stops working, restore brings them back', async () => {
    const physician = await createUser(server.db, { clinicId: clinicA, role: 'clinic_physicians', status: 'deactivated' });
    const token = await tokenFor(physician.id);
    const answer = await server.call<{ message: string }>('DELETE', `/users/${physician.id}`, { token: adminToken });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('User deleted successfully');
    expect(await statusOf(physician.id)).toEqual({ status: 'deleting', invite_status: 'accepted', previous_status: 'deactivated' });
    expect((await server.call('GET', '/notifications/settings', { token })).status).toBe(401);
    const restored = await server.call<{ message: string; data: { updated: string[] } }>('POST', '/users/bulkUpdate', {
      token: adminToken,
      json: { ids: [physician.id], action: 'restore' },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ message: 'User restored successfully', data: { updated: [physician.id] } });
    expect((await statusOf(physician.id)).status).toBe('deactivated');

    const email = unique('invited');
    const invited = await addUser({ firstName: 'Ina', lastName: 'Vited', email, role: 'clinic_nurses' });
    const link = await inviteToken(email);
    await server.call('DELETE', `/users/${invited.body.data.id}`, { token: adminToken });
    expect((await server.call('GET', `/user-invites?token=${encodeURIComponent(link)}`)).status).toBe(404);
    await server.call('POST', '/users/bulkUpdate', { token: adminToken, json: { ids: [invited.body.data.id], action: 'restore' } });
    // Its link was revoked: it comes back as an expired invite, ready to be sent again.
    expect(await statusOf(invited.body.data.id)).toMatchObject({ status: 'invite_expired', invite_status: 'invite_expired' });
  });

  it('refuses the own account and other clinics’ users', async () => {
    const own = await server.call('DELETE', `/users/${admin.id}`, { token: adminToken });
    expect(own.status).toBe(409);
    expect(own.body).toMatchObject({ code: 'user.self_delete' });
    expect((await server.call('DELETE', `/users/${admin.id}`, { token: adminBToken })).status).toBe(404);
    expect((await statusOf(admin.id)).status).toBe('active');
  });

  it('bulk delete is all or nothing', async () => {
    const a = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    const b = await createUser(server.db, { clinicId: clinicA, role: 'clinic_physicians' });
    const foreign = await createUser(server.db, { clinicId: clinicB, role: 'clinic_nurses' });
    const withForeign = await server.call('DELETE', '/users', { token: adminToken, json: { ids: [a.id, foreign.id] } });
    expect(withForeign.status).toBe(404);
    const withSelf = await server.call('DELETE', '/users', { token: adminToken, json: { ids: [a.id, admin.id] } });
    expect(withSelf.status).toBe(409);
    expect(withSelf.body).toMatchObject({ code: 'user.self_delete' });
    for (const id of [a.id, b.id, foreign.id]) expect((await statusOf(id)).status).toBe('active');
    expect((await server.call('DELETE', '/users', { token: adminToken, json: { ids: [] } })).status).toBe(422);

    const ok = await server.call<{ data: { deleted: string[] } }>('DELETE', '/users', { token: adminToken, json: { ids: [a.id, b.id] } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.deleted).toEqual([a.id, b.id]);
    for (const id of [a.id, b.id]) expect(await statusOf(id)).toEqual({ status: 'deleting', invite_status: 'accepted', previous_status: 'active' });
    const listed = await server.call<ListBody>('GET', '/users?status=deleting&perPage=100', { token: adminToken });
    expect(listed.body.data.map((u) => u.id)).toEqual(expect.arrayContaining([a.id, b.id]));
  });
});

describe('bulkUpdateUsers', () => {
  const bulk = (ids: string[], action: string, token = adminToken, lang: 'en' | 'de' = 'en') =>
    server.call<{ message: string; data: { updated: string[] }; errors?: Record<string, string[]>; code?: string }>('POST', '/users/bulkUpdate', {
      token,
      lang,
      json: { ids, action },
    });

  it('deactivates active users (sessions end) and activates them again', async () => {
    const a = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    const b = await createUser(server.db, { clinicId: clinicA, role: 'clinic_physicians' });
    const token = await tokenFor(a.id);
    const answer = await bulk([a.id, b.id], 'deactivate');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ message: 'User deactivated successfully', data: { updated: [a.id, b.id] } });
    expect((await statusOf(a.id)).status).toBe('deactivated');
    expect((await server.call('GET', '/notifications/settings', { token })).status).toBe(401);
    const activated = await bulk([a.id, b.id], 'activate', adminToken, 'de');
    expect(activated.body.message).toBe('Benutzer erfolgreich aktiviert');
    expect((await statusOf(b.id)).status).toBe('active');
  });

  it('changes nothing when one user does not fit, and names that user', async () => {
    const deactivated = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses', status: 'deactivated' });
    const active = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses', firstName: 'Sophie', lastName: 'Brandt' });
    const answer = await bulk([deactivated.id, active.id], 'activate');
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'user.invalid_transition',
      errors: { ids: ['Sophie Brandt: only deactivated users can be activated.'] },
    });
    expect((await statusOf(deactivated.id)).status).toBe('deactivated');

    const draft = await addUser({ firstName: 'Dana', lastName: 'Draft', email: unique('dana'), role: 'clinic_nurses', draft: '1' });
    const deactivate = await bulk([active.id, draft.body.data.id], 'deactivate', adminToken, 'de');
    expect(deactivate.status).toBe(409);
    expect(deactivate.body.errors).toEqual({ ids: ['Dana Draft: Nur aktive Benutzer können deaktiviert werden.'] });
    expect((await statusOf(active.id)).status).toBe('active');

    const inviteActive = await bulk([draft.body.data.id, active.id], 'send_invite');
    expect(inviteActive.status).toBe(409);
    expect((await statusOf(draft.body.data.id)).status).toBe('creation_in_progress');
    expect((await bulk([active.id], 'unarchive')).status).toBe(409);
    expect((await bulk([active.id], 'restore')).status).toBe(409);
    const audits = await server.db.selectFrom('audit_log').select('id').where('target_id', 'in', [active.id, deactivated.id]).execute();
    expect(audits).toEqual([]);
  });

  it('archives (sessions end, links revoked) and unarchives to the status before', async () => {
    const deactivated = await createUser(server.db, { clinicId: clinicA, role: 'clinic_physicians', status: 'deactivated' });
    const active = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    const email = unique('pending');
    const pending = await addUser({ firstName: 'Paul', lastName: 'Pending', email, role: 'clinic_nurses' });
    const link = await inviteToken(email);
    const token = await tokenFor(active.id);
    const ids = [deactivated.id, active.id, pending.body.data.id];
    const archived = await bulk(ids, 'archive');
    expect(archived.status).toBe(200);
    expect(archived.body.message).toBe('User archived successfully');
    expect(await statusOf(active.id)).toEqual({ status: 'archived', invite_status: 'accepted', previous_status: 'active' });
    expect(await statusOf(deactivated.id)).toEqual({ status: 'archived', invite_status: 'accepted', previous_status: 'deactivated' });
    expect((await server.call('GET', '/notifications/settings', { token })).status).toBe(401);
    expect((await server.call('GET', `/user-invites?token=${encodeURIComponent(link)}`)).status).toBe(404);
    expect((await bulk([active.id], 'archive')).status).toBe(409);

    const unarchived = await bulk(ids, 'unarchive');
    expect(unarchived.body.message).toBe('User unarchived successfully');
    expect((await statusOf(active.id)).status).toBe('active');
    expect((await statusOf(deactivated.id)).status).toBe('deactivated');
    expect((await statusOf(pending.body.data.id)).status).toBe('invite_expired');
  });

  it('restores deleted and archived users', async () => {
    const a = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    const b = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses', status: 'deactivated' });
    await bulk([a.id], 'archive');
    await server.call('DELETE', `/users/${b.id}`, { token: adminToken });
    const restored = await bulk([a.id, b.id], 'restore');
    expect(restored.status).toBe(200);
    expect((await statusOf(a.id)).status).toBe('active');
    expect((await statusOf(b.id)).status).toBe('deactivated');
  });

  it('sends invites to drafts, invited and expired users', async () => {
    const emails = [unique('d1'), unique('d2')];
    const draft = await addUser({ firstName: 'Dora', lastName: 'Eins', email: emails[0], role: 'clinic_nurses', draft: '1' });
    const pending = await addUser({ firstName: 'Pia', lastName: 'Zwei', email: emails[1], role: 'clinic_nurses' });
    const oldLink = await inviteToken(emails[1]);
    const answer = await bulk([draft.body.data.id, pending.body.data.id], 'send_invite');
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Invite sent');
    for (const email of emails) expect((await server.call('GET', `/user-invites?token=${encodeURIComponent(await inviteToken(email))}`)).status).toBe(200);
    expect((await server.call('GET', `/user-invites?token=${encodeURIComponent(oldLink)}`)).status).toBe(404);
    expect((await statusOf(draft.body.data.id)).status).toBe('pending');
  });

  it('protects the own account and other clinics’ users', async () => {
    for (const action of ['deactivate', 'archive']) {
      const answer = await bulk([admin.id], action);
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('user.self_status_change');
    }
    expect((await statusOf(admin.id)).status).toBe('active');
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    expect((await bulk([nurse.id], 'deactivate', adminBToken)).status).toBe(404);
    expect((await statusOf(nurse.id)).status).toBe('active');
    expect((await bulk([nurse.id], 'explode')).status).toBe(422);
    expect((await bulk([nurse.id, nurse.id], 'deactivate')).status).toBe(422);
  });
});

describe('invite expiry', () => {
  it('becomes invite_expired after 7 days; resending makes it pending again', async () => {
    const email = unique('late');
    const created = await addUser({ firstName: 'Lara', lastName: 'Spät', email, role: 'clinic_nurses' });
    const id = created.body.data.id;
    server.clock.advance(8 * DAY);
    const token = await tokenFor(admin.id);
    const listed = await server.call<ListBody>('GET', '/users?inviteStatus=invite_expired&perPage=100', { token });
    expect(listed.body.data.find((u) => u.id === id)).toMatchObject({ status: 'invite_expired', inviteStatus: 'invite_expired' });
    const resent = await server.call<{ data: UserData }>('POST', `/users/${id}/invite`, { token });
    expect(resent.body.data).toMatchObject({ status: 'pending', inviteStatus: 'pending' });
    expect(new Date(resent.body.data.inviteExpiresAt!).getTime()).toBeGreaterThan(server.clock.now().getTime() + 6 * DAY);
  });
});
