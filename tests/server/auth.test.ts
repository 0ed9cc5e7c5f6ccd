// Accounts through HTTP: sign-in, sessions (remember, logout, idle logout), forced and expired passwords,
// password recovery by e-mail link, and invitation acceptance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueInvite } from '../../server/services/invites';
import { createClinic, createUser, PASSWORD } from './fixtures';
import { linkFromMail, startServer, testClock, type TestServer } from './helper';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WRONG_EN = 'Incorrect username or password. Authentication failed. Please check your credentials and try again.';
const WRONG_DE =
  'Die E-Mail-Adresse oder das Passwort ist falsch. Die Anmeldung ist fehlgeschlagen. Bitte überprüfen Sie Ihre Angaben und versuchen Sie es erneut.';

let server: TestServer;
let clinicId: string;

interface SignInData {
  token: string;
  expiresAt: string;
  profile: Record<string, unknown>;
}

beforeAll(async () => {
  server = await startServer({ clock: testClock() });
  clinicId = await createClinic(server.db, 'Augenklinik am See');
});
afterAll(() => server.close());
// Every test starts without throttling state (all requests come from 127.0.0.1).
beforeEach(async () => {
  await server.db.deleteFrom('throttles').execute();
});

const signInCall = (email: string, password: string, options: { remember?: boolean; lang?: 'en' | 'de' } = {}) =>
  server.call<{ data: SignInData; message: string; code: string }>('POST', '/sign-in', {
    json: { email, password, remember: options.remember ?? true },
    lang: options.lang,
  });

async function signedIn(email: string, password = PASSWORD, remember = true): Promise<SignInData> {
  const answer = await signInCall(email, password, { remember });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

const profileOf = (token: string) => server.call<{ data: Record<string, unknown>; code?: string }>('GET', '/user/profile', { token });

describe('sign-in', () => {
  it('answers a token, its expiry and the profile; the e-mail is case-insensitive', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Anna', lastName: 'Keller' });
    const now = server.clock.now().getTime();
    const answer = await signInCall(user.email.toUpperCase(), PASSWORD);
    expect(answer.status).toBe(200);
    const { token, expiresAt, profile } = answer.body.data;
    expect(token.length).toBeGreaterThanOrEqual(22);
    expect(new Date(expiresAt).getTime()).toBe(now + 30 * DAY);
    expect(profile).toEqual({
      id: user.id,
      lang: 'en',
      role: 'clinic_physicians',
      avatar: null,
      physicianName: null,
      email: user.email,
      firstName: 'Anna',
      lastName: 'Keller',
      clinicId,
      clinicName: 'Augenklinik am See',
      passwordStrength: 'standard',
      passwordChangeRequired: null,
      nextPasswordChange: null,
      logoutAfterSeconds: null,
      pendingEmail: null,
      twoFactor: { enabled: false, required: false, setupRequired: false, recoveryCodesLeft: 0 },
    });
    const own = await profileOf(token);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual(profile);

    const row = await server.db.selectFrom('users').select('last_sign_in_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.last_sign_in_at?.getTime()).toBe(now);
    // Only the hash of the token is stored.
    const sessions = await server.db.selectFrom('auth_sessions').selectAll().where('user_id', '=', user.id).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].token_hash).not.toContain(token);
    expect(sessions[0].remember).toBe(true);
    const audit = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'signIn')
      .where('target_id', '=', user.id)
      .execute();
    expect(audit.map((a) => a.outcome)).toEqual(['success']);
  });

  it('refuses a wrong password and an unknown address with the spec text, in English and German', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    for (const [email, password] of [
      [user.email, 'Wrong-Password-1'],
      ['nobody@clinic.example', PASSWORD],
    ]) {
      const en = await signInCall(email, password);
      expect(en.status).toBe(401);
      expect(en.body).toEqual({ status: 'Error', message: WRONG_EN, code: 'auth.invalid_credentials' });
      const de = await signInCall(email, password, { lang: 'de' });
      expect(de.status).toBe(401);
      expect(de.body).toMatchObject({ message: WRONG_DE, code: 'auth.invalid_credentials' });
    }
    const failures = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'signIn')
      .where('outcome', '=', 'failure')
      .execute();
    expect(failures.length).toBeGreaterThanOrEqual(4);
    const logged = JSON.stringify(failures);
    expect(logged).not.toContain('Wrong-Password-1');
    expect(logged).not.toContain(PASSWORD);
  });

  it.each(['deactivated', 'pending', 'invite_expired', 'archived', 'deleting', 'archiving', 'creation_in_progress'])(
    'refuses a %s account with the same answer as a wrong password',
    async (status) => {
      const user = await createUser(server.db, { clinicId, role: 'clinic_physicians', status });
      const answer = await signInCall(user.email, PASSWORD);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ status: 'Error', message: WRONG_EN, code: 'auth.invalid_credentials' });
      const sessions = await server.db.selectFrom('auth_sessions').select('id').where('user_id', '=', user.id).execute();
      expect(sessions).toHaveLength(0);
    },
  );

  it('keeps a token 12 hours without "remember me" and 30 days with it', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const start = server.clock.now().getTime();
    const short = await signedIn(user.email, PASSWORD, false);
    const long = await signedIn(user.email, PASSWORD, true);
    expect(new Date(short.expiresAt).getTime()).toBe(start + 12 * HOUR);
    expect(new Date(long.expiresAt).getTime()).toBe(start + 30 * DAY);
    server.clock.advance(11 * HOUR);
    expect((await profileOf(short.token)).status).toBe(200);
    server.clock.advance(HOUR + MINUTE);
    const expired = await profileOf(short.token);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('auth.unauthenticated');
    expect((await profileOf(long.token)).status).toBe(200);
  });

  it('refuses a malformed body with 400 and missing fields with 422', async () => {
    const malformed = await server.call('POST', '/sign-in', { body: '{', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
    const missing = await server.call('POST', '/sign-in', { json: { email: 'a@b.example' } });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: { password: ['This field is required'] } });
  });
});

describe('logout and idle logout', () => {
  it('logout ends the calling token only', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const first = await signedIn(user.email);
    const second = await signedIn(user.email);
    const answer = await server.call('POST', '/logout', { token: first.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'Success', message: 'You have been logged out.' });
    expect((await profileOf(first.token)).status).toBe(401);
    expect((await server.call('POST', '/logout', { token: first.token })).status).toBe(401);
    expect((await profileOf(second.token)).status).toBe(200);
    const row = await server.db
      .selectFrom('auth_sessions')
      .select(['ended_reason', 'ended_at'])
      .where('user_id', '=', user.id)
      .where('ended_at', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(row.ended_reason).toBe('logout');
  });

  it("signs out after the clinic's idle interval", async () => {
    const idleClinic = await createClinic(server.db, 'Idle Clinic');
    await server.db
      .updateTable('security_settings')
      .set({ logout_time_interval: 5, logout_time_period: 'minutes' })
      .where('clinic_id', '=', idleClinic)
      .execute();
    const user = await createUser(server.db, { clinicId: idleClinic, role: 'clinic_it_admins' });
    const { token, profile } = await signedIn(user.email);
    expect(profile.logoutAfterSeconds).toBe(300);
    server.clock.advance(4 * MINUTE);
    expect((await profileOf(token)).status).toBe(200);
    server.clock.advance(4 * MINUTE); // 8 minutes after sign-in, 4 after the last call
    expect((await profileOf(token)).status).toBe(200);
    server.clock.advance(6 * MINUTE);
    const idle = await profileOf(token);
    expect(idle.status).toBe(401);
    expect(idle.body.code).toBe('auth.idle_timeout');
    // A fresh sign-in works again.
    expect((await profileOf((await signedIn(user.email)).token)).status).toBe(200);
  });
});

describe('password change required', () => {
  it('forced reset: only profile, password change and logout until a new password is set', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    await server.db.updateTable('users').set({ must_change_password: true }).where('id', '=', user.id).execute();
    const { token, profile } = await signedIn(user.email);
    expect(profile.passwordChangeRequired).toBe('forced');
    const blocked = await server.call('GET', '/notifications', { token });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ code: 'auth.password_change_required' });

    const changed = await server.call('POST', '/user/password', {
      token,
      json: { currentPassword: PASSWORD, password: 'Laser-Spot-2027', passwordConfirmation: 'Laser-Spot-2027' },
    });
    expect(changed.status).toBe(200);
    const after = await profileOf(token);
    expect(after.body.data.passwordChangeRequired).toBeNull();
    // Past authorization now: the own (missing) avatar is a 404, not a 403.
    expect((await server.call('GET', `/users/${user.id}/avatar`, { token })).status).toBe(404);
  });

  it("expired password: after the clinic's renewal interval the user must choose a new one", async () => {
    const renewalClinic = await createClinic(server.db, 'Renewal Clinic');
    await server.db
      .updateTable('security_settings')
      .set({ password_renewal_interval: 1, password_renewal_period: 'months' })
      .where('clinic_id', '=', renewalClinic)
      .execute();
    const user = await createUser(server.db, { clinicId: renewalClinic, role: 'clinic_physicians' });
    const changedAt = server.clock.now();
    await server.db.updateTable('users').set({ password_changed_at: changedAt }).where('id', '=', user.id).execute();

    const fresh = await signedIn(user.email);
    expect(fresh.profile.passwordChangeRequired).toBeNull();
    expect(fresh.profile.nextPasswordChange).toBe(new Date(changedAt.getTime() + 30 * DAY).toISOString());

    server.clock.advance(31 * DAY);
    const { token, profile } = await signedIn(user.email);
    expect(profile.passwordChangeRequired).toBe('expired');
    expect((await server.call('GET', '/notifications', { token })).status).toBe(403);
    const changed = await server.call('POST', '/user/password', {
      token,
      json: { currentPassword: PASSWORD, password: 'Laser-Spot-2027', passwordConfirmation: 'Laser-Spot-2027' },
    });
    expect(changed.status).toBe(200);
    const after = await profileOf(token);
    expect(after.body.data.passwordChangeRequired).toBeNull();
    expect(after.body.data.nextPasswordChange).toBe(new Date(server.clock.now().getTime() + 30 * DAY).toISOString());
  });
});

describe('password recovery', () => {
  const SENT = 'If an account exists for this address, we have sent a link to reset the password.';

  async function requestReset(email: string) {
    const answer = await server.call('POST', '/reset-password', { json: { email } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'Success', message: SENT });
  }
  const tokenOf = (link: URL) => link.searchParams.get('token') ?? '';

  it('works end to end through the e-mailed link', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Lena' });
    const before = await signedIn(user.email);
    const requestedAt = server.clock.now().getTime();
    await requestReset(user.email.toUpperCase());
    const link = linkFromMail(server, user.email);
    expect(link.pathname).toBe('/new-password');
    expect(link.origin).toBe('http://127.0.0.1:8080');
    const mail = server.outbox().at(-1)!.text;
    expect(mail).toContain('Hello Lena');
    const token = tokenOf(link);

    const info = await server.call<{ data: Record<string, unknown> }>('GET', `/reset-confirmation?token=${token}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toEqual({
      email: user.email,
      passwordStrength: 'standard',
      expiresAt: new Date(requestedAt + HOUR).toISOString(),
    });

    const weak = await server.call('POST', '/reset-confirmation', {
      json: { token, password: 'foveae', passwordConfirmation: 'foveae' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body).toMatchObject({
      errors: { password: ['Please enter a valid password', 'At least 8 characters', 'A capital letter', 'A number'] },
    });
    const mismatch = await server.call('POST', '/reset-confirmation', {
      json: { token, password: 'Fundus-Photo-2027', passwordConfirmation: 'Fundus-Photo-2028' },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({ errors: { passwordConfirmation: ['Passwords do not match'] } });

    const done = await server.call('POST', '/reset-confirmation', {
      json: { token, password: 'Fundus-Photo-2027', passwordConfirmation: 'Fundus-Photo-2027' },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'Success', message: 'Your password has been changed. Please sign in.' });
    expect(server.outbox().filter((m) => m.text.includes(`To: ${user.email}`) && m.text.includes('password was changed'))).toHaveLength(1);
    // Every session of the user has ended; the new password works, the old one not.
    expect((await profileOf(before.token)).status).toBe(401);
    expect((await signInCall(user.email, PASSWORD)).status).toBe(401);
    await signedIn(user.email, 'Fundus-Photo-2027');

    // The link is used up.
    const again = await server.call('POST', '/reset-confirmation', {
      json: { token, password: 'Fundus-Photo-2029', passwordConfirmation: 'Fundus-Photo-2029' },
    });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({
      code: 'reset.invalid_token',
      message: 'This password reset link has expired or was already used. Please request a new one.',
    });
    expect((await server.call('GET', `/reset-confirmation?token=${token}`)).status).toBe(404);
    // Nothing of the token or password in the audit trail.
    const logged = JSON.stringify(await server.db.selectFrom('audit_log').selectAll().execute());
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('Fundus-Photo-2027');
  });

  it('gives the same answer for unknown and inactive addresses, and sends no mail', async () => {
    const inactive = await createUser(server.db, { clinicId, role: 'clinic_nurses', status: 'deactivated' });
    const mails = server.outbox().length;
    await requestReset('nobody-at-all@clinic.example');
    await requestReset(inactive.email);
    expect(server.outbox()).toHaveLength(mails);
    const malformed = await server.call('POST', '/reset-password', { json: { email: 'not-an-address' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body).toMatchObject({ errors: { email: ['Please enter a valid email address'] } });
  });

  it('writes the e-mail in the language of the user', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses', firstName: 'Jonas', lastName: 'Berger' });
    await server.db.updateTable('users').set({ lang: 'de' }).where('id', '=', user.id).execute();
    await requestReset(user.email);
    const mail = server.outbox().at(-1)!.text;
    // Formal ("Sie") throughout, so the salutation is too: the full name, which needs no gender.
    expect(mail).toContain('Guten Tag Jonas Berger,');
    expect(mail).not.toMatch(/Hallo|\bdu\b|\bdein/i);
    expect(mail).toContain('60 Minuten');
  });

  it('expires a link after one hour, and a newer request replaces the older link', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    await requestReset(user.email);
    const first = tokenOf(linkFromMail(server, user.email));
    await requestReset(user.email);
    const second = tokenOf(linkFromMail(server, user.email));
    expect(second).not.toBe(first);
    expect((await server.call('GET', `/reset-confirmation?token=${first}`)).status).toBe(404);
    expect((await server.call('GET', `/reset-confirmation?token=${second}`)).status).toBe(200);

    server.clock.advance(HOUR + MINUTE);
    const expired = await server.call('GET', `/reset-confirmation?token=${second}`);
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({ code: 'reset.invalid_token' });
    const confirm = await server.call('POST', '/reset-confirmation', {
      json: { token: second, password: 'Fundus-Photo-2027', passwordConfirmation: 'Fundus-Photo-2027' },
    });
    expect(confirm.status).toBe(404);
    // The old password still works.
    await signedIn(user.email);
  });

  it('answers an unknown token with 404', async () => {
    const answer = await server.call('GET', `/reset-confirmation?token=${'a'.repeat(43)}`, { lang: 'de' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      code: 'reset.invalid_token',
      message: 'Dieser Link zum Zurücksetzen des Passworts ist abgelaufen oder wurde bereits verwendet. Bitte fordern Sie einen neuen an.',
    });
  });
});

describe('invitations', () => {
  async function invited(firstName = 'Tom', lastName = 'Richter', role = 'clinic_nurses') {
    const user = await createUser(server.db, { clinicId, role, status: 'pending', firstName, lastName });
    await server.db.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
    await issueInvite(server.ctx, { id: user.id, email: user.email, first_name: firstName, clinic_id: clinicId }, 'en');
    const token = linkFromMail(server, user.email).searchParams.get('token') ?? '';
    return { ...user, token };
  }

  const accept = (token: string, password: string, extra: Record<string, unknown> = {}, lang: 'en' | 'de' = 'en') =>
    server.call<{ errors?: Record<string, string[]>; code?: string; message: string }>('POST', '/accept-invite', {
      json: { token, password, passwordConfirmation: password, acceptEula: true, acceptPrivacyNotice: true, ...extra },
      lang,
    });

  it('works end to end: read, refuse bad passwords, accept, notify the IT admins, sign in', async () => {
    const admin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
    const user = await invited('Tom', 'Richter');
    const link = linkFromMail(server, user.email);
    expect(link.pathname).toBe('/approve-account');

    const info = await server.call<{ data: Record<string, unknown> }>('GET', `/user-invites?token=${user.token}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({
      email: user.email,
      firstName: 'Tom',
      lastName: 'Richter',
      role: 'clinic_nurses',
      clinicName: 'Augenklinik am See',
      passwordStrength: 'standard',
      expired: false,
      eulaVersion: '2026-01',
      privacyNoticeVersion: '2026-01',
    });
    expect(new Date(info.body.data.expiresAt as string).getTime()).toBe(server.clock.now().getTime() + 7 * DAY);

    const weak = await accept(user.token, 'macula');
    expect(weak.status).toBe(422);
    expect(weak.body.errors?.password).toEqual([
      'Please enter a valid password',
      'At least 8 characters',
      'A capital letter',
      'A number',
    ]);
    const common = await accept(user.token, 'Password123');
    expect(common.status).toBe(422);
    expect(common.body.errors?.password).toEqual(['This password is too common. Please choose one that is harder to guess.']);
    const commonDe = await accept(user.token, 'Qwerty123', {}, 'de');
    expect(commonDe.body.errors?.password).toEqual([
      'Dieses Passwort wird zu häufig verwendet. Bitte wählen Sie eines, das schwerer zu erraten ist.',
    ]);
    // Characters outside the allowed set are refused by the contract's pattern already (see the report).
    const badCharacters = await accept(user.token, 'Macula Grid 2026');
    expect(badCharacters.status).toBe(422);
    expect(badCharacters.body.errors?.password).toEqual(['Invalid characters. Use only letters, numbers, and !@#$%^&*-_=']);
    const short = await accept(user.token, 'Ab1');
    expect(short.body.errors?.password).toEqual(['Please enter a valid password']);
    const mismatch = await accept(user.token, 'Macula-Grid-2026', { passwordConfirmation: 'Macula-Grid-2027' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ passwordConfirmation: ['Passwords do not match'] });
    const noConfirmation = await accept(user.token, 'Macula-Grid-2026', { passwordConfirmation: '' });
    expect(noConfirmation.body.errors).toEqual({ passwordConfirmation: ['Confirm password is required'] });
    const noEula = await accept(user.token, 'Macula-Grid-2026', { acceptEula: false });
    expect(noEula.status).toBe(422);
    expect(noEula.body.errors).toEqual({ acceptEula: ['You must accept the EULA'] });
    const noPrivacy = await accept(user.token, 'Macula-Grid-2026', { acceptPrivacyNotice: false }, 'de');
    expect(noPrivacy.body.errors).toEqual({ acceptPrivacyNotice: ['Bitte bestätigen Sie, dass Sie die Datenschutzerklärung gelesen haben und akzeptieren'] });
    // Nothing changed by the refused attempts.
    const pending = await server.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: 'pending', invite_status: 'pending', password_hash: null });

    const accepted = await accept(user.token, 'Macula-Grid-2026');
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ status: 'Success', message: 'Your account is active. You can now sign in.' });
    const row = await server.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'active',
      invite_status: 'accepted',
      eula_version: '2026-01',
      privacy_version: '2026-01',
      must_change_password: false,
    });
    expect(row.eula_accepted_at?.getTime()).toBe(server.clock.now().getTime());
    expect(row.privacy_accepted_at?.getTime()).toBe(server.clock.now().getTime());

    const notifications = await server.db.selectFrom('notifications').selectAll().where('user_id', '=', admin.id).execute();
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ event: 'invite_accepted', link: '/admin/physicians', params: { name: 'Tom Richter' } });

    const session = await signedIn(user.email, 'Macula-Grid-2026');
    expect(session.profile).toMatchObject({ firstName: 'Tom', role: 'clinic_nurses' });

    // The link cannot be used again.
    const again = await accept(user.token, 'Macula-Grid-2027');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({
      code: 'invite.not_found',
      message: 'This invitation link is not valid. Please ask your IT administrator for a new one.',
    });
    expect((await server.call('GET', `/user-invites?token=${user.token}`)).status).toBe(404);
  });

  it('an expired invite is shown as expired and cannot be accepted', async () => {
    const user = await invited('Eva', 'Brandt');
    server.clock.advance(8 * DAY);
    const info = await server.call<{ data: Record<string, unknown> }>('GET', `/user-invites?token=${user.token}`);
    expect(info.status).toBe(200);
    expect(info.body.data.expired).toBe(true);
    const answer = await accept(user.token, 'Macula-Grid-2026', {}, 'de');
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      code: 'invite.expired',
      message: 'Diese Einladung ist abgelaufen. Bitte wenden Sie sich für eine neue Einladung an Ihre IT-Administration.',
    });
    const row = await server.db.selectFrom('users').select('status').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('a resent invite invalidates the old link', async () => {
    const user = await invited('Mia', 'Sommer');
    await issueInvite(server.ctx, { id: user.id, email: user.email, first_name: 'Mia', clinic_id: clinicId }, 'en');
    const newToken = linkFromMail(server, user.email).searchParams.get('token') ?? '';
    expect(newToken).not.toBe(user.token);
    expect((await server.call('GET', `/user-invites?token=${user.token}`)).status).toBe(404);
    expect((await accept(user.token, 'Macula-Grid-2026')).status).toBe(404);
    expect((await accept(newToken, 'Macula-Grid-2026')).status).toBe(200);
  });

  it('an unknown token, or the invite of a user who was deactivated meanwhile, is not found', async () => {
    const unknown = await server.call('GET', `/user-invites?token=${'b'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'invite.not_found' });
    const user = await invited('Paul', 'Winter');
    await server.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', user.id).execute();
    expect((await server.call('GET', `/user-invites?token=${user.token}`)).status).toBe(404);
    expect((await accept(user.token, 'Macula-Grid-2026')).status).toBe(404);
  });

  it("applies the clinic's strength level", async () => {
    await server.db
      .updateTable('security_settings')
      .set({ password_strength: 'advanced' })
      .where('clinic_id', '=', clinicId)
      .execute();
    try {
      const user = await invited('Ben', 'Adler');
      const info = await server.call<{ data: Record<string, unknown> }>('GET', `/user-invites?token=${user.token}`);
      expect(info.body.data.passwordStrength).toBe('advanced');
      const standardOnly = await accept(user.token, 'MaculaGrid2026');
      expect(standardOnly.status).toBe(422);
      expect(standardOnly.body.errors?.password).toEqual([
        'Please enter a valid password',
        'A special character',
      ]);
      expect((await accept(user.token, 'Macula-Grid-2026!')).status).toBe(200);
    } finally {
      await server.db
        .updateTable('security_settings')
        .set({ password_strength: 'standard' })
        .where('clinic_id', '=', clinicId)
        .execute();
    }
  });
});
