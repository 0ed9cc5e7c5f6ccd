// The own profile through HTTP: read, edit (names, language, e-mail, avatar), password change, and the
// avatar images of the clinic's staff.
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, PASSWORD } from './fixtures';
import { linkFromMail, startServer, testClock, type TestServer } from './helper';

const INVALID_AVATAR = 'Invalid file format: PNG, JPG or JPEG only.';
const TOO_LARGE_AVATAR = 'The picture is too large: at most 3 MB.';

// ---- a tiny valid PNG, made by hand: signature, IHDR, IDAT (zlib), IEND, each chunk with its CRC-32 ----
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let server: TestServer;
let clinicId: string;

beforeAll(async () => {
  server = await startServer({ clock: testClock() });
  clinicId = await createClinic(server.db, 'Augenklinik am See');
});
afterAll(() => server.close());

interface ProfileBody {
  status: string;
  message?: string;
  code?: string;
  data: Record<string, unknown>;
  errors?: Record<string, string[]>;
}

async function signIn(email: string, password = PASSWORD): Promise<string> {
  const answer = await server.call<{ data: { token: string } }>('POST', '/sign-in', { json: { email, password } });
  expect(answer.status).toBe(200);
  return answer.body.data.token;
}

function form(fields: Record<string, string | Blob>, files: Record<string, [Buffer, string, string]> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  for (const [name, [bytes, fileName, type]] of Object.entries(files)) {
    data.set(name, new Blob([new Uint8Array(bytes)], { type }), fileName);
  }
  return data;
}

const update = (token: string, data: FormData, lang: 'en' | 'de' = 'en') =>
  server.call<ProfileBody>('POST', '/user/profile', { token, form: data, lang });

describe('profile', () => {
  it('reads the own profile', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_it_admins', firstName: 'Jonas', lastName: 'Weber' });
    const token = await signIn(user.email);
    const answer = await server.call<ProfileBody>('GET', '/user/profile', { token });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      id: user.id,
      role: 'clinic_it_admins',
      email: user.email,
      firstName: 'Jonas',
      lastName: 'Weber',
      clinicName: 'Augenklinik am See',
      passwordChangeRequired: null,
    });
  });

  it('changes names, physician name and language', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await signIn(user.email);
    const answer = await update(
      token,
      form({ firstName: ' Anna ', lastName: 'Keller', physicianName: 'Dr. med. Anna Keller', lang: 'de' }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Changes added successfully');
    expect(answer.body.data).toMatchObject({
      firstName: 'Anna',
      lastName: 'Keller',
      physicianName: 'Dr. med. Anna Keller',
      lang: 'de',
    });
    const german = await update(token, form({ physicianName: '' }), 'de');
    expect(german.body.message).toBe('Änderungen erfolgreich gespeichert');
    expect(german.body.data.physicianName).toBeNull();
    // The token still works: only an e-mail change ends sessions.
    expect((await server.call('GET', '/user/profile', { token })).status).toBe(200);
  });

  it('refuses an empty form, blank names and unknown languages with 422', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(user.email);
    const empty = await update(token, new FormData());
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({
      code: 'profile.nothing_to_change',
      message: 'There is nothing to change. Please fill in at least one field.',
    });
    const nothing = await update(token, form({ unrelated: 'x' }));
    expect(nothing.status).toBe(422);
    // A field the form does not know is refused by name, as in JSON bodies.
    expect(nothing.body).toMatchObject({ code: 'request.invalid', errors: { unrelated: ['This field is not expected here.'] } });
    const blank = await update(token, form({ firstName: '   ' }));
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual({ firstName: ['This field is required'] });
    const language = await update(token, form({ lang: 'fr' }));
    expect(language.status).toBe(422);
    expect(Object.keys(language.body.errors ?? {})).toEqual(['lang']);
    const row = await server.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ first_name: 'Test', lang: 'en' });
  });
});

describe('avatar', () => {
  it('accepts a PNG, serves it back identically to the clinic, and replaces and removes it', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const colleague = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(user.email);
    const image = png(4, 3, [200, 40, 40]);
    const answer = await update(token, form({}, { avatar: [image, 'me.png', 'image/png'] }));
    expect(answer.status).toBe(200);
    expect(answer.body.data.avatar).toBe(`/api/users/${user.id}/avatar`);

    for (const reader of [token, await signIn(colleague.email)]) {
      const served = await server.call<Buffer>('GET', `/users/${user.id}/avatar`, { token: reader });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('cache-control')).toBe('no-store');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.compare(served.body, image)).toBe(0);
    }
    const first = await server.db.selectFrom('users').select('avatar_path').where('id', '=', user.id).executeTakeFirstOrThrow();

    // A new image replaces the old file.
    const second = png(2, 2, [10, 120, 60]);
    expect((await update(token, form({}, { avatar: [second, 'new.png', 'image/png'] }))).status).toBe(200);
    expect(await server.ctx.files.get(first.avatar_path!)).toBeNull();
    const served = await server.call<Buffer>('GET', `/users/${user.id}/avatar`, { token });
    expect(Buffer.compare(served.body, second)).toBe(0);

    // Removal.
    const removed = await update(token, form({ removeAvatar: '1' }));
    expect(removed.status).toBe(200);
    expect(removed.body.data.avatar).toBeNull();
    expect((await server.call('GET', `/users/${user.id}/avatar`, { token })).status).toBe(404);
  });

  it('accepts a JPEG and serves it as image/jpeg', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(user.email);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 0x01, 0x01, 0xff, 0xd9]);
    expect((await update(token, form({}, { avatar: [jpeg, 'me.jpg', 'image/jpeg'] }))).status).toBe(200);
    const served = await server.call<Buffer>('GET', `/users/${user.id}/avatar`, { token });
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.compare(served.body, jpeg)).toBe(0);
  });

  it('refuses a file over 3 MB (413) and a fake PNG (415) with the spec message, and keeps the old avatar', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await signIn(user.email);
    const image = png(1, 1, [0, 0, 0]);
    await update(token, form({}, { avatar: [image, 'me.png', 'image/png'] }));

    const big = Buffer.concat([png(1, 1, [1, 2, 3]), Buffer.alloc(4 * 1024 * 1024)]);
    const tooLarge = await update(token, form({ firstName: 'Changed' }, { avatar: [big, 'big.png', 'image/png'] }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 'avatar.too_large', message: TOO_LARGE_AVATAR, errors: { avatar: [TOO_LARGE_AVATAR] } });

    const fake = Buffer.from('this is text, not an image');
    const wrongType = await update(token, form({ firstName: 'Changed' }, { avatar: [fake, 'fake.png', 'image/png'] }));
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toMatchObject({
      code: 'avatar.invalid_format',
      message: INVALID_AVATAR,
      errors: { avatar: [INVALID_AVATAR] },
    });
    const german = await update(token, form({}, { avatar: [fake, 'fake.png', 'image/png'] }), 'de');
    expect(german.body.message).toBe('Ungültiges Dateiformat: nur PNG, JPG oder JPEG.');

    // Nothing half-written: the name did not change and the first image is still served.
    const row = await server.db.selectFrom('users').select('first_name').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Test');
    const served = await server.call<Buffer>('GET', `/users/${user.id}/avatar`, { token });
    expect(Buffer.compare(served.body, image)).toBe(0);
  });

  it("answers 404 for another clinic's avatar and for users without one", async () => {
    const otherClinic = await createClinic(server.db, 'Other Clinic');
    const stranger = await createUser(server.db, { clinicId: otherClinic, role: 'clinic_physicians' });
    const strangerToken = await signIn(stranger.email);
    expect((await update(strangerToken, form({}, { avatar: [png(1, 1, [9, 9, 9]), 'a.png', 'image/png'] }))).status).toBe(200);

    const user = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
    const token = await signIn(user.email);
    const foreign = await server.call('GET', `/users/${stranger.id}/avatar`, { token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'resource.not_found' });
    expect((await server.call('GET', `/users/${user.id}/avatar`, { token })).status).toBe(404);
    expect((await server.call('GET', '/users/00000000-0000-4000-8000-000000000000/avatar', { token })).status).toBe(404);
    expect((await server.call('GET', '/users/not-a-uuid/avatar', { token })).status).toBe(404);
    expect((await server.call('GET', `/users/${stranger.id}/avatar`)).status).toBe(401);
  });
});

describe('e-mail change', () => {
  it('refuses an address in use (any case, any clinic) with 409', async () => {
    const otherClinic = await createClinic(server.db, 'Third Clinic');
    const taken = await createUser(server.db, { clinicId: otherClinic, role: 'clinic_nurses' });
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(user.email);
    const answer = await update(token, form({ email: taken.email.toUpperCase() }));
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'user.email_taken',
      message: 'This email address is already in use.',
      errors: { email: ['This email address is already in use.'] },
    });
    expect((await server.call('GET', '/user/profile', { token })).status).toBe(200);
    const invalid = await update(token, form({ email: 'not an address' }));
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({ email: ['Please enter a valid email address'] });
  });

  it('needs the current password: without it or with a wrong one the address stays, in the caller’s language', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await signIn(user.email);
    const email = `takeover.${Date.now()}@elsewhere.example`;
    const missing = await update(token, form({ email }));
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ currentPassword: ['This field is required'] });
    const wrong = await update(token, form({ email, currentPassword: 'Not-The-Password-1' }), 'de');
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ currentPassword: ['Das aktuelle Passwort ist nicht korrekt.'] });
    const profile = await server.call<ProfileBody>('GET', '/user/profile', { token });
    expect(profile.body.data).toMatchObject({ email: user.email, pendingEmail: null });
    expect(server.outbox().some((m) => m.text.includes(`To: ${email}`))).toBe(false);
  });

  it('counts once the link mailed to the new address is opened: then every session ends and open reset links stop working; the old address is told twice', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await signIn(user.email);
    const otherSession = await signIn(user.email);
    const email = `renamed.${Date.now()}@clinic.example`;
    const answer = await update(token, form({ email, physicianName: 'Dr. Renamed', currentPassword: PASSWORD }));
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(`We have sent a confirmation link to ${email}. Your email address changes when you open it.`);
    // Nothing has changed yet but the physician name: the account keeps its address and its sessions.
    expect(answer.body.data).toMatchObject({ email: user.email, pendingEmail: email, physicianName: 'Dr. Renamed' });
    expect((await server.call('GET', '/user/profile', { token: otherSession })).status).toBe(200);
    expect((await server.call('POST', '/sign-in', { json: { email, password: PASSWORD } })).status).toBe(401);
    const requested = server.outbox().filter((m) => m.text.includes(`To: ${user.email}`) && m.text.includes('was requested'));
    expect(requested).toHaveLength(1);
    expect(requested[0].text).toContain(`from ${user.email} to ${email}`);

    // A reset link asked for meanwhile goes to the old address; it must not outlive the change.
    expect((await server.call('POST', '/reset-password', { json: { email: user.email } })).status).toBe(200);
    const resetToken = linkFromMail(server, user.email).searchParams.get('token') ?? '';

    const link = linkFromMail(server, email);
    expect(link.pathname).toBe('/confirm-email');
    const confirmToken = link.searchParams.get('token') ?? '';
    const info = await server.call<ProfileBody>('GET', `/email-confirmation?token=${confirmToken}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ email: user.email, newEmail: email });

    const confirmed = await server.call<ProfileBody>('POST', '/email-confirmation', { json: { token: confirmToken }, lang: 'de' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.message).toBe('Ihre E-Mail-Adresse wurde geändert. Bitte melden Sie sich mit der neuen Adresse an.');
    expect((await server.call('GET', '/user/profile', { token })).status).toBe(401);
    expect((await server.call('GET', '/user/profile', { token: otherSession })).status).toBe(401);
    expect((await server.call('POST', '/sign-in', { json: { email: user.email, password: PASSWORD } })).status).toBe(401);
    expect((await server.call('GET', `/reset-confirmation?token=${resetToken}`)).status).toBe(404);
    const changed = server.outbox().filter((m) => m.text.includes(`To: ${user.email}`) && m.text.includes('was changed from'));
    expect(changed).toHaveLength(1);
    const newToken = await signIn(email.toUpperCase());
    expect((await server.call<ProfileBody>('GET', '/user/profile', { token: newToken })).body.data).toMatchObject({ email, pendingEmail: null });

    // The link works once.
    const again = await server.call<ProfileBody>('POST', '/email-confirmation', { json: { token: confirmToken } });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('email_change.invalid_token');
  });

  it('keeps one open request: a second one revokes the first link; a day later the link has expired; an address taken meanwhile is refused', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(user.email);
    const first = `first.${Date.now()}@clinic.example`;
    const second = `second.${Date.now()}@clinic.example`;
    expect((await update(token, form({ email: first, currentPassword: PASSWORD }))).status).toBe(200);
    const firstToken = linkFromMail(server, first).searchParams.get('token') ?? '';
    expect((await update(token, form({ email: second, currentPassword: PASSWORD }))).status).toBe(200);
    expect((await server.call('GET', `/email-confirmation?token=${firstToken}`)).status).toBe(404);
    const secondToken = linkFromMail(server, second).searchParams.get('token') ?? '';

    // Someone else takes the address before the link is opened.
    const rival = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const rivalToken = await signIn(rival.email);
    expect((await update(rivalToken, form({ email: second, currentPassword: PASSWORD }))).status).toBe(200);
    const rivalLink = linkFromMail(server, second).searchParams.get('token') ?? '';
    expect((await server.call('POST', '/email-confirmation', { json: { token: rivalLink } })).status).toBe(200);
    const taken = await server.call<ProfileBody>('POST', '/email-confirmation', { json: { token: secondToken } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('user.email_taken');

    const third = `third.${Date.now()}@clinic.example`;
    expect((await update(token, form({ email: third, currentPassword: PASSWORD }))).status).toBe(200);
    const thirdToken = linkFromMail(server, third).searchParams.get('token') ?? '';
    server.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await server.call('POST', '/email-confirmation', { json: { token: thirdToken } })).status).toBe(404);
    expect((await server.call<ProfileBody>('GET', '/user/profile', { token: await signIn(user.email) })).body.data).toMatchObject({
      email: user.email,
      pendingEmail: null,
    });
  });

  it('keeps the sessions when the address is the same (only its case differs)', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(user.email);
    const answer = await update(token, form({ email: user.email.toUpperCase() }));
    expect(answer.status).toBe(200);
    expect((await server.call('GET', '/user/profile', { token })).status).toBe(200);
  });
});

describe('password change', () => {
  const change = (token: string, body: Record<string, string>, lang: 'en' | 'de' = 'en') =>
    server.call<ProfileBody>('POST', '/user/password', { token, json: body, lang });

  it('after signing in with an expired password, asks for it again only when the sign-in is over 15 minutes old', async () => {
    const clinic = await createClinic(server.db, 'Renewal Clinic');
    await server.db
      .updateTable('security_settings')
      .set({ password_renewal_interval: 30, password_renewal_period: 'days' })
      .where('clinic_id', '=', clinic)
      .execute();
    const expired = async () => {
      const user = await createUser(server.db, { clinicId: clinic, role: 'clinic_nurses' });
      await server.db
        .updateTable('users')
        .set({ password_changed_at: new Date(server.clock.now().getTime() - 40 * 24 * 3600 * 1000) })
        .where('id', '=', user.id)
        .execute();
      return user;
    };
    const renewed = { password: 'Laser-Spot-2027', passwordConfirmation: 'Laser-Spot-2027' };

    const fresh = await expired();
    const freshToken = await signIn(fresh.email);
    expect((await server.call<ProfileBody>('GET', '/user/profile', { token: freshToken })).body.data.passwordChangeRequired).toBe('expired');
    // The language chosen on the sign-in page is kept meanwhile; nothing else of the profile changes before the password.
    const language = await update(freshToken, form({ lang: 'de' }));
    expect(language.status).toBe(200);
    expect(language.body.data.lang).toBe('de');
    const name = await update(freshToken, form({ firstName: 'Erika' }));
    expect(name.status).toBe(403);
    expect(name.body.code).toBe('auth.password_change_required');
    // The same password again is no renewal, even without typing the current one.
    const same = await change(freshToken, { password: PASSWORD, passwordConfirmation: PASSWORD });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual({ password: ['The new password must be different from the current one.'] });
    expect((await change(freshToken, renewed)).status).toBe(200);
    await signIn(fresh.email, renewed.password);

    const stale = await expired();
    const staleToken = await signIn(stale.email);
    server.clock.advance(16 * 60 * 1000);
    const asked = await change(staleToken, renewed, 'de');
    expect(asked.status).toBe(422);
    expect(asked.body.errors).toEqual({ currentPassword: ['Dieses Feld ist erforderlich'] });
    expect((await change(staleToken, { currentPassword: PASSWORD, ...renewed })).status).toBe(200);

    // A password that has not expired is always asked for.
    const current = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const currentToken = await signIn(current.email);
    expect((await change(currentToken, renewed)).body.errors).toEqual({ currentPassword: ['This field is required'] });
  });

  it('needs the current password, applies the rules and ends the other sessions', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await signIn(user.email);
    const other = await signIn(user.email);
    // A reset link asked for before the change is void after it.
    expect((await server.call('POST', '/reset-password', { json: { email: user.email } })).status).toBe(200);
    const resetToken = linkFromMail(server, user.email).searchParams.get('token') ?? '';
    expect((await server.call('GET', `/reset-confirmation?token=${resetToken}`)).status).toBe(200);

    const wrong = await change(token, {
      currentPassword: 'Not-The-Password-1',
      password: 'Laser-Spot-2027',
      passwordConfirmation: 'Laser-Spot-2027',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ currentPassword: ['The current password is not correct.'] });

    const same = await change(token, { currentPassword: PASSWORD, password: PASSWORD, passwordConfirmation: PASSWORD });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual({ password: ['The new password must be different from the current one.'] });

    const weak = await change(token, { currentPassword: PASSWORD, password: 'laserspot', passwordConfirmation: 'laserspots' }, 'de');
    expect(weak.status).toBe(422);
    expect(weak.body.errors).toEqual({
      password: ['Bitte geben Sie ein gültiges Passwort ein', 'Ein Großbuchstabe', 'Eine Ziffer'],
      passwordConfirmation: ['Die Passwörter stimmen nicht überein'],
    });
    const common = await change(token, { currentPassword: PASSWORD, password: 'Welcome123', passwordConfirmation: 'Welcome123' });
    expect(common.body.errors).toEqual({
      password: ['This password is too common. Please choose one that is harder to guess.'],
    });

    const changed = await change(token, {
      currentPassword: PASSWORD,
      password: 'Laser-Spot-2027',
      passwordConfirmation: 'Laser-Spot-2027',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ status: 'Success', message: 'Your password has been changed.' });
    // The owner is told, with what to do if it was not them; the failed attempts before sent nothing.
    const notices = server.outbox().filter((m) => m.text.includes(`To: ${user.email}`) && m.text.includes('password was changed'));
    expect(notices).toHaveLength(1);
    expect(notices[0].text).toContain(`the password of your Macula Planner account ${user.email}`);
    expect(notices[0].text).toContain('http://127.0.0.1:8080/reset-password');
    expect((await server.call('GET', '/user/profile', { token })).status).toBe(200);
    expect((await server.call('GET', '/user/profile', { token: other })).status).toBe(401);
    expect((await server.call('POST', '/sign-in', { json: { email: user.email, password: PASSWORD } })).status).toBe(401);
    await signIn(user.email, 'Laser-Spot-2027');
    expect((await server.call('GET', `/reset-confirmation?token=${resetToken}`)).status).toBe(404);
    const row = await server.db
      .selectFrom('users')
      .select(['password_changed_at', 'must_change_password'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_changed_at?.getTime()).toBe(server.clock.now().getTime());
    expect(row.must_change_password).toBe(false);
    const logged = JSON.stringify(await server.db.selectFrom('audit_log').selectAll().execute());
    expect(logged).not.toContain('Laser-Spot-2027');
  });
});
