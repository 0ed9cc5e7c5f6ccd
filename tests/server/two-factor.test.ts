// Two-factor sign-in (issue 27, build 1): enrolment with a password and a code, the second sign-in step with a
// TOTP code (once only) or a recovery code (once only), remembered devices only where the clinic allows them, the
// clinic requiring a second factor per role, and the IT admin's audited reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCode } from '../../server/security/totp';
import { createClinic, createUser, PASSWORD, signIn } from './fixtures';
import { startServer, testClock, type TestServer } from './helper';

const STEP = 30_000;

let server: TestServer;
let clinicId: string;
let admin: { id: string; email: string };

beforeAll(async () => {
  server = await startServer({ clock: testClock() });
  clinicId = await createClinic(server.db, 'Klinik mit zweitem Faktor');
  admin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
});
afterAll(() => server.close());

interface SignInAnswer {
  data: { token?: string; secondFactor?: { challenge: string; expiresAt: string }; rememberedDevice?: { token: string }; profile?: { twoFactor: { enabled: boolean; required: boolean; setupRequired: boolean; recoveryCodesLeft: number } } };
  code?: string;
  message?: string;
  errors?: Record<string, string[]>;
}

const firstStep = (email: string, extra: object = {}) =>
  server.call<SignInAnswer>('POST', '/sign-in', { json: { email, password: PASSWORD, remember: true, ...extra } });
const secondStep = (json: object, lang: 'en' | 'de' = 'en') => server.call<SignInAnswer>('POST', '/sign-in/second-factor', { json, lang });

/** Enrols the user and answers the secret and the recovery codes. */
async function enrol(token: string): Promise<{ secret: string; codes: string[] }> {
  const started = await server.call<{ data: { secret: string; uri: string; qrCode: string } }>('POST', '/user/two-factor/enrolment', { token, json: { currentPassword: PASSWORD } });
  expect(started.status).toBe(200);
  const { secret } = started.body.data;
  const confirmed = await server.call<{ data: { recoveryCodes: string[] } }>('POST', '/user/two-factor', { token, json: { code: currentCode(secret, server.clock.now()) } });
  expect(confirmed.status).toBe(200);
  return { secret, codes: confirmed.body.data.recoveryCodes };
}

describe('setting up an authenticator app', () => {
  it('needs the current password, shows a QR code of an otpauth URI, and is on only once a code confirms it', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await signIn(server, user.email);
    const wrong = await server.call<SignInAnswer>('POST', '/user/two-factor/enrolment', { token, json: { currentPassword: 'Not-The-Password-1' }, lang: 'de' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ currentPassword: ['Das aktuelle Passwort ist nicht korrekt.'] });

    const started = await server.call<{ data: { secret: string; uri: string; qrCode: string } }>('POST', '/user/two-factor/enrolment', { token, json: { currentPassword: PASSWORD } });
    expect(started.body.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.data.uri).toMatch(new RegExp(`^otpauth://totp/Macula%20Planner:${encodeURIComponent(user.email)}\\?`));
    expect(Buffer.from(started.body.data.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    // Not yet in force: the password alone still signs in.
    expect((await firstStep(user.email)).body.data.token).toBeDefined();

    const badCode = await server.call<SignInAnswer>('POST', '/user/two-factor', { token, json: { code: '000000' } });
    expect(badCode.status).toBe(422);
    expect(badCode.body.errors?.code?.[0]).toMatch(/not valid/);

    const confirmed = await server.call<{ data: { recoveryCodes: string[] } }>('POST', '/user/two-factor', { token, json: { code: currentCode(started.body.data.secret, server.clock.now()) } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.data.recoveryCodes).size).toBe(10);
    const profile = await server.call<{ data: SignInAnswer['data']['profile'] }>('GET', '/user/profile', { token });
    expect(profile.body.data?.twoFactor).toEqual({ enabled: true, required: false, setupRequired: false, recoveryCodesLeft: 10 });
    expect(server.outbox().some((m) => m.text.includes(`To: ${user.email}`) && m.text.includes('two-factor sign-in was switched on'))).toBe(true);
    // Only hashes are kept.
    const stored = await server.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored.map((row) => row.code_hash)).not.toContain(confirmed.body.data.recoveryCodes[0]);
  });
});

describe('signing in with a second factor', () => {
  it('asks for a code after the password, takes each code once, and refuses a wrong one in the user’s language', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const { secret } = await enrol(await signIn(server, user.email));
    server.clock.advance(STEP);

    const first = await firstStep(user.email);
    expect(first.status).toBe(200);
    expect(first.body.data.token).toBeUndefined();
    const challenge = first.body.data.secondFactor!.challenge;

    const wrong = await secondStep({ challenge, code: '123456' }, 'de');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'auth.second_factor_invalid', message: expect.stringMatching(/Code ist nicht gültig/) });

    const code = currentCode(secret, server.clock.now());
    const signed = await secondStep({ challenge, code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(signed.status).toBe(200);
    expect(signed.body.data.token).toBeDefined();
    expect((await server.call('GET', '/user/profile', { token: signed.body.data.token })).status).toBe(200);

    // The challenge is spent, and the same code does not sign in a second time (RFC 6238 §5.2).
    expect((await secondStep({ challenge, code })).body.code).toBe('auth.second_factor_expired');
    const again = await firstStep(user.email);
    expect((await secondStep({ challenge: again.body.data.secondFactor!.challenge, code })).body.code).toBe('auth.second_factor_invalid');
  });

  it('takes a recovery code once, whatever its case and dashes, and counts what is left', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const { codes } = await enrol(await signIn(server, user.email));
    const challenge = (await firstStep(user.email)).body.data.secondFactor!.challenge;
    const signed = await secondStep({ challenge, recoveryCode: codes[3].toUpperCase().replace(/-/g, ' ') });
    expect(signed.status).toBe(200);
    expect(signed.body.data.profile?.twoFactor.recoveryCodesLeft).toBe(9);
    const next = (await firstStep(user.email)).body.data.secondFactor!.challenge;
    expect((await secondStep({ challenge: next, recoveryCode: codes[3] })).status).toBe(401);
  });

  it('closes a challenge after five wrong codes, which count towards the account’s sign-in throttle', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const { secret } = await enrol(await signIn(server, user.email));
    server.clock.advance(STEP);
    const challenge = (await firstStep(user.email)).body.data.secondFactor!.challenge;
    for (let i = 0; i < 5; i++) expect((await secondStep({ challenge, code: '000000' })).body.code).toBe('auth.second_factor_invalid');
    expect((await secondStep({ challenge, code: currentCode(secret, server.clock.now()) })).body.code).toBe('auth.second_factor_expired');
    // Guessing codes is guessing: the password step from this address waits now too.
    expect((await firstStep(user.email)).status).toBe(429);
  });

  it('lets a challenge expire after five minutes', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const { secret } = await enrol(await signIn(server, user.email));
    server.clock.advance(STEP);
    const late = (await firstStep(user.email)).body.data.secondFactor!.challenge;
    server.clock.advance(5 * 60_000 + 1);
    expect((await secondStep({ challenge: late, code: currentCode(secret, server.clock.now()) })).body.code).toBe('auth.second_factor_expired');
  });

  it('remembers a device only for as many days as the clinic allows, and not at all by default', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const { secret } = await enrol(await signIn(server, user.email));
    server.clock.advance(STEP);
    let challenge = (await firstStep(user.email)).body.data.secondFactor!.challenge;
    const notAllowed = await secondStep({ challenge, code: currentCode(secret, server.clock.now()), rememberDevice: true });
    expect(notAllowed.body.data.rememberedDevice).toBeUndefined();

    const adminToken = await signIn(server, admin.email);
    const settings = (await server.call<{ data: Record<string, unknown> }>('GET', '/clinic/settings', { token: adminToken })).body.data;
    expect(settings).toMatchObject({ two_factor_roles: [], remember_device_days: 0 });
    expect((await server.call('POST', '/clinic/settings', { token: adminToken, json: { ...settings, remember_device_days: 7 } })).status).toBe(200);

    server.clock.advance(STEP);
    challenge = (await firstStep(user.email)).body.data.secondFactor!.challenge;
    const remembered = await secondStep({ challenge, code: currentCode(secret, server.clock.now()), rememberDevice: true });
    const device = remembered.body.data.rememberedDevice!.token;
    expect(device).toBeDefined();
    expect((await firstStep(user.email, { rememberedDevice: device })).body.data.token).toBeDefined();
    // Another browser's guess is no remembered device.
    expect((await firstStep(user.email, { rememberedDevice: 'x'.repeat(43) })).body.data.secondFactor).toBeDefined();

    server.clock.advance(7 * 24 * 60 * 60_000 + 1);
    expect((await firstStep(user.email, { rememberedDevice: device })).body.data.secondFactor).toBeDefined();
    await server.call('POST', '/clinic/settings', { token: await signIn(server, admin.email), json: { ...settings, remember_device_days: 0 } });
  });
});

describe('the clinic requiring a second factor', () => {
  it('keeps a user of a required role who signs in to setting it up, then lets them work; they cannot switch it off', async () => {
    const adminToken = await signIn(server, admin.email);
    const working = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const workingToken = await signIn(server, working.email);
    const settings = (await server.call<{ data: Record<string, unknown> }>('GET', '/clinic/settings', { token: adminToken })).body.data;
    const saved = await server.call<{ data: Record<string, unknown> }>('POST', '/clinic/settings', { token: adminToken, json: { ...settings, two_factor_roles: ['clinic_physicians'] } });
    expect(saved.body.data.two_factor_roles).toEqual(['clinic_physicians']);

    const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await signIn(server, physician.email);
    const profile = await server.call<{ data: NonNullable<SignInAnswer['data']['profile']> }>('GET', '/user/profile', { token });
    expect(profile.body.data.twoFactor).toEqual({ enabled: false, required: true, setupRequired: true, recoveryCodesLeft: 0 });
    const patients = await server.call<SignInAnswer>('GET', '/patients', { token, lang: 'de' });
    expect(patients.status).toBe(403);
    expect(patients.body).toMatchObject({ code: 'auth.two_factor_required', message: expect.stringMatching(/Authenticator-App/) });
    expect((await server.call('POST', '/user/profile', { token, form: formOf({ firstName: 'X' }) })).status).toBe(403);

    // Just signed in to set it up, the sign-in stands for the password; a quarter of an hour later it does not.
    const late = await signIn(server, (await createUser(server.db, { clinicId, role: 'clinic_physicians' })).email);
    expect((await server.call('POST', '/user/two-factor/enrolment', { token, json: {} })).status).toBe(200);
    server.clock.advance(15 * 60_000 + 1);
    const asked = await server.call<SignInAnswer>('POST', '/user/two-factor/enrolment', { token: late, json: {} });
    expect(asked.body.errors).toEqual({ currentPassword: ['This field is required'] });

    await enrol(token);
    expect((await server.call('GET', '/patients', { token })).status).toBe(200);
    const off = await server.call<SignInAnswer>('POST', '/user/two-factor/disable', { token, json: { currentPassword: PASSWORD } });
    expect(off.status).toBe(409);
    expect(off.body.code).toBe('two_factor.required');

    // A physician signed in before goes on with the work; their next sign-in asks.
    expect((await server.call('GET', '/patients', { token: workingToken })).status).toBe(200);
    const next = await signIn(server, working.email);
    expect((await server.call('GET', '/patients', { token: next })).status).toBe(403);
    // Other roles are not held back.
    const nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    expect((await server.call('GET', '/patients', { token: await signIn(server, nurse.email) })).status).toBe(200);
    await server.call('POST', '/clinic/settings', { token: adminToken, json: { ...settings, two_factor_roles: [] } });
  });
});

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe('switching it off and resetting it', () => {
  it('the user switches it off with the password; the sign-in is one step again', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(server, user.email);
    await enrol(token);
    expect((await server.call('POST', '/user/two-factor/disable', { token, json: { currentPassword: 'Wrong-Password-9' } })).status).toBe(422);
    expect((await server.call('POST', '/user/two-factor/disable', { token, json: { currentPassword: PASSWORD } })).status).toBe(200);
    expect((await firstStep(user.email)).body.data.token).toBeDefined();
  });

  it('new recovery codes replace the old ones', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(server, user.email);
    const { codes } = await enrol(token);
    const renewed = await server.call<{ data: { recoveryCodes: string[] } }>('POST', '/user/two-factor/recovery-codes', { token, json: { currentPassword: PASSWORD } });
    expect(renewed.body.data.recoveryCodes).toHaveLength(10);
    const challenge = (await firstStep(user.email)).body.data.secondFactor!.challenge;
    expect((await secondStep({ challenge, recoveryCode: codes[0] })).status).toBe(401);
    expect((await secondStep({ challenge, recoveryCode: renewed.body.data.recoveryCodes[0] })).status).toBe(200);
  });

  it('an IT admin resets a user’s second factor: audited, the user told and signed out; not their own', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const userToken = await signIn(server, user.email);
    await enrol(userToken);
    const adminToken = await signIn(server, admin.email);
    const staff = await server.call<{ data: { id: string; twoFactorEnabled?: boolean }[] }>('GET', '/users?perPage=100', { token: adminToken });
    expect(staff.body.data.find((row) => row.id === user.id)?.twoFactorEnabled).toBe(true);

    const reset = await server.call('POST', `/users/${user.id}/two-factor/reset`, { token: adminToken, lang: 'de' });
    expect(reset.status).toBe(200);
    expect((await server.call('GET', '/user/profile', { token: userToken })).status).toBe(401);
    expect((await firstStep(user.email)).body.data.token).toBeDefined();
    const audit = await server.db.selectFrom('audit_log').select(['actor_id', 'outcome']).where('action', '=', 'resetTwoFactor').where('target_id', '=', user.id).execute();
    expect(audit).toEqual([{ actor_id: admin.id, outcome: 'success' }]);
    expect(server.outbox().some((m) => m.text.includes(`To: ${user.email}`) && m.text.includes('reset the two-factor sign-in'))).toBe(true);

    expect((await server.call('POST', `/users/${user.id}/two-factor/reset`, { token: adminToken })).status).toBe(409);
    expect((await server.call('POST', `/users/${admin.id}/two-factor/reset`, { token: adminToken })).status).toBe(409);
    const nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    expect((await server.call('POST', `/users/${user.id}/two-factor/reset`, { token: await signIn(server, nurse.email) })).status).toBe(403);
  });
});
