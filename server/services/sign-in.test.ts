// The sign-in rules, called as services without HTTP: a right password starts a session (its token kept only as a
// hash) with the profile; a wrong one, an unknown address and an account that is not active are refused alike and
// audited with their reason; an account with a second factor gets a challenge and no session; logout ends the
// caller's own session only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../../generated/model/signedIn';
import { createUser, PASSWORD } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal, serverWithClinic } from '../../tests/server/service-calls';
import { hashToken } from '../security/tokens';
import { REMEMBERED_SESSION_MS, SHORT_SESSION_MS } from './sessions';
import { logout, signIn, type SignInOrigin } from './sign-in';
import { newTotpSecret } from '../security/totp';

let server: TestServer;
let clinicId: string;

beforeAll(async () => ({ server, clinicId } = await serverWithClinic()));
afterAll(() => server.close());

let addresses = 0;
/** A client address of its own for each call site: no test is held back by another's failures. */
const origin = (): SignInOrigin => ({ ip: `203.0.113.${++addresses}`, lang: 'en', userAgent: 'unit test' });

const sessionOf = (token: string) =>
  server.db.selectFrom('auth_sessions').select(['id', 'user_id', 'ip', 'user_agent', 'expires_at', 'ended_at', 'ended_reason']).where('token_hash', '=', hashToken(token)).executeTakeFirst();

const sessionsOf = (userId: string) => server.db.selectFrom('auth_sessions').select(['id', 'ended_at', 'ended_reason']).where('user_id', '=', userId).execute();

describe('signing in with a password', () => {
  it('starts a session for the right password in any spelling of the address: a token kept as a hash, the profile, the sign-in time, the audit', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const from = origin();
    const answer = (await signIn(server.ctx, from, { email: ` ${user.email.toUpperCase()} `, password: PASSWORD, remember: false })) as SignedIn;

    expect(answer.token).toEqual(expect.any(String));
    expect(answer.profile).toMatchObject({ id: user.id, email: user.email, role: 'clinic_nurses', clinicName: 'Augenklinik Test' });
    expect(new Date(answer.expiresAt).getTime()).toBe(server.clock.now().getTime() + SHORT_SESSION_MS);
    const session = await sessionOf(answer.token);
    expect(session).toMatchObject({ user_id: user.id, ip: from.ip, user_agent: 'unit test', ended_at: null });
    const stored = await server.db.selectFrom('users').select('last_sign_in_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.last_sign_in_at?.getTime()).toBe(server.clock.now().getTime());
    expect(await auditEntries(server.db, 'signIn', user.id)).toEqual([
      expect.objectContaining({ outcome: 'success', actor_id: user.id, actor_role: 'clinic_nurses', clinic_id: clinicId, ip: from.ip, detail: { remember: false } }),
    ]);
  });

  it('keeps a remembered session 30 days', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const answer = (await signIn(server.ctx, origin(), { email: user.email, password: PASSWORD })) as SignedIn;
    expect(new Date(answer.expiresAt).getTime()).toBe(server.clock.now().getTime() + REMEMBERED_SESSION_MS);
  });

  it('refuses a wrong password, an unknown address and a deactivated account alike, audits why, and starts no session', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const deactivated = await createUser(server.db, { clinicId, role: 'clinic_physicians', status: 'deactivated' });
    const unknownFrom = origin();

    const refusals = [
      await refusal(signIn(server.ctx, origin(), { email: user.email, password: 'Not-The-Password-1' })),
      await refusal(signIn(server.ctx, unknownFrom, { email: 'nobody@clinic.example', password: PASSWORD })),
      await refusal(signIn(server.ctx, origin(), { email: deactivated.email, password: PASSWORD })),
    ];
    for (const refused of refusals) expect(refused).toMatchObject({ status: 401, code: 'auth.invalid_credentials', key: 'auth.invalid_credentials' });

    expect((await auditEntries(server.db, 'signIn', user.id)).map((entry) => [entry.outcome, entry.actor_id, entry.detail])).toEqual([
      ['failure', null, { reason: 'wrong_password' }],
    ]);
    expect((await auditEntries(server.db, 'signIn', deactivated.id)).map((entry) => entry.detail)).toEqual([{ reason: 'status_deactivated' }]);
    const unknown = await server.db.selectFrom('audit_log').select(['outcome', 'detail']).where('action', '=', 'signIn').where('ip', '=', unknownFrom.ip).execute();
    expect(unknown.map((row) => [row.outcome, typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail])).toEqual([['failure', { reason: 'unknown_account' }]]);
    expect(await sessionsOf(user.id)).toEqual([]);
    expect(await sessionsOf(deactivated.id)).toEqual([]);
  });

  it('answers a challenge for the second step, and no session, where the account has a second factor', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    await server.db.updateTable('users').set({ totp_secret: newTotpSecret(), totp_enabled_at: server.clock.now() }).where('id', '=', user.id).execute();
    const answer = await signIn(server.ctx, origin(), { email: user.email, password: PASSWORD });
    expect(answer).toEqual({ secondFactor: { challenge: expect.any(String), expiresAt: expect.any(String), rememberDeviceDays: 0 } });
    expect(await sessionsOf(user.id)).toEqual([]);
    const challenges = await server.db.selectFrom('sign_in_challenges').select('token_hash').where('user_id', '=', user.id).execute();
    expect(challenges).toHaveLength(1);
    // Kept only as a hash.
    expect(challenges[0].token_hash).toBe(hashToken((answer as { secondFactor: { challenge: string } }).secondFactor.challenge));
  });
});

describe('logging out', () => {
  it("ends the caller's own session only, and audits it", async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const here = (await signIn(server.ctx, origin(), { email: user.email, password: PASSWORD })) as SignedIn;
    const elsewhere = (await signIn(server.ctx, origin(), { email: user.email, password: PASSWORD })) as SignedIn;
    const session = (await sessionOf(here.token))!;

    await logout(server.ctx, actorFor(user, clinicId, 'clinic_nurses', session.id));

    expect(await sessionOf(here.token)).toMatchObject({ ended_at: server.clock.now(), ended_reason: 'logout' });
    expect(await sessionOf(elsewhere.token)).toMatchObject({ ended_at: null });
    expect(await auditEntries(server.db, 'logout', user.id)).toEqual([expect.objectContaining({ outcome: 'success', actor_id: user.id })]);
  });
});
