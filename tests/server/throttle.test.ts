// Repeated failures are slowed, then refused for a while (429 with Retry-After) with back-off: per account
// and address, per account from addresses it never used, per address for accounts new to it. Nobody
// locks colleagues out; the lock ends with time, and a success resets the count of its own address.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureDelayMs, pruneThrottles } from '../../server/security/throttle';
import { createClinic, createUser, PASSWORD } from './fixtures';
import { linkFromMail, startServer, testClock, type TestServer } from './helper';

const MINUTE = 60_000;

let server: TestServer;
let clinicId: string;
let address = 0;

beforeAll(async () => {
  server = await startServer({ clock: testClock() });
  clinicId = await createClinic(server.db);
});
afterAll(() => server.close());

// Each test comes from an address of its own (the server trusts X-Forwarded-For behind its proxy).
let ip: string;
beforeEach(() => {
  address += 1;
  ip = `203.0.113.${address}`;
});

const signIn = (email: string, password: string, from = ip) =>
  server.call<{ code?: string; message: string; retryAfter?: number }>('POST', '/sign-in', {
    json: { email, password, remember: false },
    headers: { 'X-Forwarded-For': from },
  });

describe('one account from one address', () => {
  it('backs off: five wrong passwords, then locks of 1, 2 and 4 minutes; the right password works after each', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const started = Date.now();
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await signIn(user.email, `Wrong-Password-${attempt}`)).status).toBe(401);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Locked for this account from this address, even with the right password.
    const locked = await signIn(user.email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      status: 'Error',
      code: 'auth.throttled',
      message: 'Too many attempts. Please try again in 1 minute.',
      retryAfter: 60,
    });
    expect(locked.headers.get('retry-after')).toBe('60');
    await server.restart();
    const german = await server.call('POST', '/sign-in', {
      json: { email: user.email, password: PASSWORD },
      headers: { 'X-Forwarded-For': ip },
      lang: 'de',
    });
    expect(german.status).toBe(429);
    expect(german.body).toMatchObject({ message: 'Zu viele Versuche. Bitte versuchen Sie es in einer Minute erneut.' });

    // Each further failure after a lock doubles the next one.
    server.clock.advance(61_000);
    expect((await signIn(user.email, 'Wrong-Password')).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).body).toMatchObject({ retryAfter: 120, message: 'Too many attempts. Please try again in 2 minutes.' });
    server.clock.advance(121_000);
    expect((await signIn(user.email, 'Wrong-Password')).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).body).toMatchObject({ retryAfter: 240 });
    server.clock.advance(241_000);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
    // The success reset the count: a few wrong passwords are plain 401s again.
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await signIn(user.email, 'Wrong-Password')).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
  });

  it('holds back neither a colleague at the same address nor the account from elsewhere', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const colleague = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    for (let attempt = 0; attempt < 5; attempt += 1) await signIn(user.email, 'Wrong-Password');
    expect((await signIn(user.email, PASSWORD)).status).toBe(429);
    expect((await signIn(colleague.email, PASSWORD)).status).toBe(200);
    expect((await signIn(user.email, PASSWORD, '198.51.100.20')).status).toBe(200);
  });

  it('slows failures down after the first few', async () => {
    expect([1, 2, 3].map(failureDelayMs)).toEqual([0, 0, 0]);
    expect(failureDelayMs(4)).toBe(100);
    expect(failureDelayMs(8)).toBe(500);
    expect(failureDelayMs(50)).toBe(1000);
    // Seven failures from two addresses (no pair reaches its lock); the eighth is held for 500 ms.
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    for (let attempt = 0; attempt < 4; attempt += 1) await signIn(user.email, 'Wrong-Password');
    for (let attempt = 0; attempt < 3; attempt += 1) await signIn(user.email, 'Wrong-Password', '198.51.100.21');
    const started = Date.now();
    expect((await signIn(user.email, 'Wrong-Password', '198.51.100.22')).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(480);
    server.clock.advance(61 * MINUTE);
  });

  it('counts failures within an hour', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    for (let attempt = 0; attempt < 4; attempt += 1) await signIn(user.email, 'Wrong-Password');
    server.clock.advance(61 * MINUTE);
    // The hour ran out: four more failures (eight in all) do not lock.
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await signIn(user.email, 'Wrong-Password')).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
  });
});

describe('one account from many addresses', () => {
  it('ten wrong passwords lock the account for addresses it never signed in from, with back-off; its own address still works', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const home = ip;
    expect((await signIn(user.email, PASSWORD, home)).status).toBe(200);
    const attacker = (n: number) => `192.0.2.${n}`;
    for (let n = 1; n <= 10; n += 1) expect((await signIn(user.email, 'Wrong-Password', attacker(n))).status).toBe(401);
    const refused = await signIn(user.email, PASSWORD, attacker(11));
    expect(refused.status).toBe(429);
    expect(refused.body.retryAfter).toBe(60);
    expect((await signIn(user.email, PASSWORD, home)).status).toBe(200);
    // A success from home does not reset the count over all addresses: the next failure locks longer.
    server.clock.advance(61_000);
    expect((await signIn(user.email, 'Wrong-Password', attacker(12))).status).toBe(401);
    expect((await signIn(user.email, PASSWORD, attacker(13))).body).toMatchObject({ retryAfter: 120 });
    server.clock.advance(61 * MINUTE);
  });

  it('a wrong current password in the password change counts on the user\'s own count, not the sign-in\'s', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = (await signIn(user.email, PASSWORD)).body as unknown as { data: { token: string } };
    const change = (currentPassword: string) =>
      server.call('POST', '/user/password', {
        token: token.data.token,
        json: { currentPassword, password: 'Laser-Spot-2027', passwordConfirmation: 'Laser-Spot-2027' },
      });
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await change('Wrong-Password')).status).toBe(422);
    const refused = await change(PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    // Signing in is not held back, from a new address either.
    expect((await signIn(user.email, PASSWORD, '198.51.100.30')).status).toBe(200);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
    server.clock.advance(61_000);
    expect((await change(PASSWORD)).status).toBe(200);
    server.clock.advance(61 * MINUTE);
  });

  it('ten wrong sign-ins from strangers do not hold back the signed-in user\'s password change', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = ((await signIn(user.email, PASSWORD)).body as unknown as { data: { token: string } }).data.token;
    for (let n = 1; n <= 10; n += 1) expect((await signIn(user.email, 'Wrong-Password', `192.0.2.${60 + n}`)).status).toBe(401);
    expect((await signIn(user.email, PASSWORD, '192.0.2.90')).status).toBe(429);
    const change = await server.call('POST', '/user/password', {
      token,
      json: { currentPassword: PASSWORD, password: 'Laser-Spot-2027', passwordConfirmation: 'Laser-Spot-2027' },
    });
    expect(change.status).toBe(200);
    server.clock.advance(61 * MINUTE);
  });
});

describe('any accounts from one address', () => {
  it("thirty wrong passwords from a clinic's shared address lock none of the colleagues who sign in there", async () => {
    const colleagues = await Promise.all(Array.from({ length: 3 }, () => createUser(server.db, { clinicId, role: 'clinic_physicians' })));
    for (const colleague of colleagues) expect((await signIn(colleague.email, PASSWORD)).status).toBe(200);
    const victims = await Promise.all(Array.from({ length: 10 }, () => createUser(server.db, { clinicId, role: 'clinic_nurses' })));
    // Three wrong passwords per account, so no account reaches its own limit; sent ten at a time, as a
    // password-spraying client would (the growing delay holds each answer, not the others).
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(victims.map((victim) => signIn(victim.email, 'Wrong-Password')));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    }
    // The colleagues who work here sign in as usual...
    for (const colleague of colleagues) expect((await signIn(colleague.email, PASSWORD)).status).toBe(200);
    // ...while accounts new to this address are held back (one minute, growing), and only from here.
    const newcomer = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const refused = await signIn(newcomer.email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'auth.throttled', retryAfter: 60 });
    expect((await signIn(newcomer.email, PASSWORD, '198.51.100.99')).status).toBe(200);
    server.clock.advance(61_000);
    expect((await signIn(newcomer.email, PASSWORD)).status).toBe(200);
    server.clock.advance(61 * MINUTE);
  });
});

describe('password reset', () => {
  it('unlocks the account from every address', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    for (let n = 1; n <= 5; n += 1) await signIn(user.email, 'Wrong-Password');
    for (let n = 1; n <= 5; n += 1) await signIn(user.email, 'Wrong-Password', `192.0.2.${100 + n}`);
    expect((await signIn(user.email, PASSWORD)).status).toBe(429);
    expect((await signIn(user.email, PASSWORD, '192.0.2.200')).status).toBe(429);
    await server.call('POST', '/reset-password', { json: { email: user.email }, headers: { 'X-Forwarded-For': ip } });
    const token = linkFromMail(server, user.email).searchParams.get('token');
    const reset = await server.call('POST', '/reset-confirmation', {
      json: { token, password: 'Laser-Spot-2027', passwordConfirmation: 'Laser-Spot-2027' },
    });
    expect(reset.status).toBe(200);
    expect((await signIn(user.email, 'Laser-Spot-2027')).status).toBe(200);
    expect((await signIn(user.email, 'Laser-Spot-2027', '192.0.2.200')).status).toBe(200);
  });

  it('password reset requests are limited per address', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      const answer = await server.call('POST', '/reset-password', {
        json: { email: `nobody${attempt}@clinic.example` },
        headers: { 'X-Forwarded-For': ip },
      });
      statuses.push(answer.status);
      if (answer.status === 429) expect(answer.headers.get('retry-after')).toBe('900');
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses[20]).toBe(429);
  });

  it('sends at most five reset e-mails to one account in 15 minutes, with the same answer', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const mailsTo = () => server.outbox().filter((m) => m.text.includes(`To: ${user.email}`)).length;
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const answer = await server.call('POST', '/reset-password', {
        json: { email: user.email },
        headers: { 'X-Forwarded-For': ip },
      });
      expect(answer.status).toBe(200);
    }
    expect(mailsTo()).toBe(5);
    server.clock.advance(16 * MINUTE);
    await server.call('POST', '/reset-password', { json: { email: user.email }, headers: { 'X-Forwarded-For': ip } });
    expect(mailsTo()).toBe(6);
  });
});

describe('housekeeping', () => {
  it('forgets keys whose window and lock have long passed, and keeps current locks', async () => {
    const now = server.clock.now().getTime();
    const days = (n: number) => new Date(now - n * 24 * 60 * MINUTE);
    await server.db
      .insertInto('throttles')
      .values([
        { key: 'account:stale@clinic.example', failures: 3, window_started_at: days(2), locked_until: null },
        { key: 'account:locked@clinic.example', failures: 10, window_started_at: days(2), locked_until: new Date(now + MINUTE) },
        { key: 'account:recent@clinic.example', failures: 2, window_started_at: new Date(now), locked_until: null },
      ])
      .execute();
    await pruneThrottles(server.ctx);
    const keys = (await server.db.selectFrom('throttles').select('key').where('key', 'like', 'account:%@clinic.example').execute())
      .map((r) => r.key)
      .filter((key) => ['stale', 'locked', 'recent'].some((name) => key.startsWith(`account:${name}@`)));
    expect(keys.sort()).toEqual(['account:locked@clinic.example', 'account:recent@clinic.example']);
  });
});
