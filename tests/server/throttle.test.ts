// Repeated failures are slowed, then refused for a while (429 with Retry-After), per account and per
// address; the lock ends with time, and a success resets the account's count.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureDelayMs, pruneThrottles } from '../../server/security/throttle';
import { createClinic, createUser, PASSWORD } from './fixtures';
import { startServer, testClock, type TestServer } from './helper';

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

describe('per account', () => {
  it('20 wrong passwords → 429 with a retry time; the right password works again after it', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const started = Date.now();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof signIn>> | null = null;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      last = await signIn(user.email, `Wrong-Password-${attempt}`);
      statuses.push(last.status);
    }
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(10).fill(429));
    expect(last!.body).toEqual({
      status: 'Error',
      code: 'auth.throttled',
      message: 'Too many attempts. Please try again in 15 minutes.',
      retryAfter: 900,
    });
    expect(last!.headers.get('retry-after')).toBe('900');

    // While locked even the right password is refused, from any address, and a restart changes nothing.
    expect((await signIn(user.email, PASSWORD)).status).toBe(429);
    await server.restart();
    const german = await server.call('POST', '/sign-in', {
      json: { email: user.email, password: PASSWORD },
      headers: { 'X-Forwarded-For': ip },
      lang: 'de',
    });
    expect(german.status).toBe(429);
    expect(german.body).toMatchObject({ message: 'Zu viele Versuche. Bitte versuchen Sie es in 15 Minuten erneut.' });
    expect((await signIn(user.email, PASSWORD, '198.51.100.7')).status).toBe(429);
    server.clock.advance(10 * MINUTE);
    const later = await signIn(user.email, PASSWORD);
    expect(later.status).toBe(429);
    expect(later.body.retryAfter).toBe(300);
    expect(later.body.message).toBe('Too many attempts. Please try again in 5 minutes.');

    server.clock.advance(5 * MINUTE + 1000);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
    // The success reset the count: a few wrong passwords are plain 401s again.
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await signIn(user.email, 'Wrong-Password')).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
  });

  it('slows failures down after the first few', async () => {
    expect([1, 2, 3].map(failureDelayMs)).toEqual([0, 0, 0]);
    expect(failureDelayMs(4)).toBe(100);
    expect(failureDelayMs(8)).toBe(500);
    expect(failureDelayMs(50)).toBe(1000);
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    for (let attempt = 0; attempt < 7; attempt += 1) await signIn(user.email, 'Wrong-Password');
    const started = Date.now();
    expect((await signIn(user.email, 'Wrong-Password')).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(480);
    server.clock.advance(16 * MINUTE);
  });

  it('a wrong current password in the password change counts against the account', async () => {
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
    expect(refused.headers.get('retry-after')).toBe('900');
    expect((await signIn(user.email, PASSWORD)).status).toBe(429);
    server.clock.advance(16 * MINUTE);
    expect((await change(PASSWORD)).status).toBe(200);
  });
});

describe('per address', () => {
  it('30 failures from one address for any accounts lock that address', async () => {
    const victims = await Promise.all(
      Array.from({ length: 10 }, () => createUser(server.db, { clinicId, role: 'clinic_nurses' })),
    );
    // Three wrong passwords per account, so no account reaches its own limit; sent ten at a time, as a
    // password-spraying client would (the growing delay holds each answer, not the others).
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(victims.map((victim) => signIn(victim.email, 'Wrong-Password')));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(401));
    }
    const other = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const refused = await signIn(other.email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'auth.throttled', retryAfter: 900 });
    // Another address is not affected.
    expect((await signIn(other.email, PASSWORD, '198.51.100.99')).status).toBe(200);
    server.clock.advance(16 * MINUTE);
    expect((await signIn(other.email, PASSWORD)).status).toBe(200);
  });

  it('counts failures in a 15-minute window', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    for (let attempt = 0; attempt < 6; attempt += 1) await signIn(user.email, 'Wrong-Password');
    server.clock.advance(16 * MINUTE);
    // The window ran out: six more failures (twelve in all) do not lock.
    for (let attempt = 0; attempt < 6; attempt += 1) expect((await signIn(user.email, 'Wrong-Password')).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
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
