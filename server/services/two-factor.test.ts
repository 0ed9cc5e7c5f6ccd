// The rules of two-factor sign-in, called as services without HTTP: enrolment needs the password and a code of the
// new secret; the challenge of the second step lasts five minutes and five wrong codes; a code and a recovery code
// each work once; switching it off is refused where the clinic requires it; the IT admin's reset removes
// everything and ends the user's sessions, but never their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../../generated/model/signedIn';
import type { Actor } from '../actor';
import { createUser, PASSWORD } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal, serverWithClinic } from '../../tests/server/service-calls';
import { unusedRecoveryCodes } from '../repositories/two-factor';
import { currentCode } from '../security/totp';
import { createSession, type SessionState } from './sessions';
import { signIn, signInSecondFactor, type SignInOrigin } from './sign-in';
import {
  CHALLENGE_MS,
  confirmEnrolment,
  disableSecondFactor,
  resetSecondFactor,
  startEnrolment,
  takeRecoveryCode,
  takeTotpCode,
} from './two-factor';

const STEP_MS = 30_000;
const ANY_SESSION: SessionState = { passwordChangeRequired: null, twoFactorEnrolmentRequired: false };

let server: TestServer;
let clinicId: string;
let addresses = 0;
const origin = (): SignInOrigin => ({ ip: `198.51.100.${++addresses}`, lang: 'en', userAgent: 'unit test' });

beforeAll(async () => ({ server, clinicId } = await serverWithClinic()));
afterAll(() => server.close());

/** A user of the clinic with two-factor sign-in on, through the services: the actor, the secret and the recovery codes. */
async function enrolled(role = 'clinic_physicians'): Promise<{ actor: Actor; email: string; secret: string; codes: string[] }> {
  const user = await createUser(server.db, { clinicId, role });
  const actor = actorFor(user, clinicId, role);
  const { secret } = await startEnrolment(server.ctx, actor, ANY_SESSION, PASSWORD);
  const codes = await confirmEnrolment(server.ctx, actor, currentCode(secret, server.clock.now()));
  // The code that confirmed the secret is used: the next sign-in needs the next step's.
  server.clock.advance(STEP_MS);
  return { actor, email: user.email, secret, codes };
}

const challengeFor = async (email: string) => {
  const answer = await signIn(server.ctx, origin(), { email, password: PASSWORD });
  return (answer as { secondFactor: { challenge: string } }).secondFactor.challenge;
};

describe('setting up an authenticator app', () => {
  it('needs the current password, keeps the secret pending, and switches on only with a code of it', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const actor = actorFor(user, clinicId, 'clinic_nurses');
    expect(await refusal(startEnrolment(server.ctx, actor, ANY_SESSION, undefined))).toMatchObject({ status: 422, fields: { currentPassword: ['validation.required'] } });
    expect(await refusal(startEnrolment(server.ctx, actor, ANY_SESSION, 'Not-The-Password-1'))).toMatchObject({
      status: 422,
      fields: { currentPassword: ['validation.current_password_wrong'] },
    });

    const { secret, uri } = await startEnrolment(server.ctx, actor, ANY_SESSION, PASSWORD);
    expect(uri).toContain(encodeURIComponent(user.email));
    const pending = await server.db.selectFrom('users').select(['totp_pending_secret', 'totp_enabled_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(pending).toEqual({ totp_pending_secret: secret, totp_enabled_at: null });

    expect(await refusal(confirmEnrolment(server.ctx, actor, '000000'))).toMatchObject({ status: 422, fields: { code: ['auth.second_factor_invalid'] } });
    const code = currentCode(secret, server.clock.now());
    const codes = await confirmEnrolment(server.ctx, actor, code);
    expect(new Set(codes).size).toBe(10);
    expect(await refusal(confirmEnrolment(server.ctx, actor, code))).toMatchObject({ status: 409, code: 'two_factor.already_enabled' });
    // The confirming code is used up: it does not also sign in.
    const stored = await server.db.selectFrom('users').select(['totp_secret', 'totp_last_step']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(await takeTotpCode(server.ctx, { id: user.id, ...stored }, code)).toBe(false);
    expect((await auditEntries(server.db, 'confirmTwoFactor', user.id)).map((entry) => entry.outcome)).toEqual(['failure', 'success']);
  });

  it('does not ask again for the password right after a sign-in sent on to set up a required second factor, but does 15 minutes later', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const { sessionId } = await createSession(server.ctx, user, { remember: true, secondFactorSetup: true });
    const actor = actorFor(user, clinicId, 'clinic_nurses', sessionId);
    const required: SessionState = { passwordChangeRequired: null, twoFactorEnrolmentRequired: true };
    expect((await startEnrolment(server.ctx, actor, required, undefined)).secret).toMatch(/^[A-Z2-7]{32}$/);
    server.clock.advance(16 * 60_000);
    expect(await refusal(startEnrolment(server.ctx, actor, required, undefined))).toMatchObject({ status: 422, fields: { currentPassword: ['validation.required'] } });
  });
});

describe('the second sign-in step', () => {
  it('takes a code within five minutes of the password, and refuses the challenge after that', async () => {
    const { email, secret, actor } = await enrolled();
    const late = await challengeFor(email);
    const inTime = await challengeFor(email);
    server.clock.advance(CHALLENGE_MS - 1000);
    const signed = await signInSecondFactor(server.ctx, origin(), { challenge: inTime, code: currentCode(secret, server.clock.now()) });
    expect(signed.profile.id).toBe(actor.userId);

    server.clock.advance(2000 + STEP_MS);
    expect(await refusal(signInSecondFactor(server.ctx, origin(), { challenge: late, code: currentCode(secret, server.clock.now()) }))).toMatchObject({
      status: 401,
      code: 'auth.second_factor_expired',
    });
  });

  it('closes a challenge after five wrong codes', async () => {
    const { email, secret } = await enrolled();
    const challenge = await challengeFor(email);
    for (let i = 0; i < 5; i++) {
      expect(await refusal(signInSecondFactor(server.ctx, origin(), { challenge, code: '000000' }))).toMatchObject({ code: 'auth.second_factor_invalid' });
    }
    expect(await refusal(signInSecondFactor(server.ctx, origin(), { challenge, code: currentCode(secret, server.clock.now()) }))).toMatchObject({
      code: 'auth.second_factor_expired',
    });
  });

  it('takes a recovery code once, whatever its case and dashes, and counts what is left', async () => {
    const { email, codes, actor } = await enrolled();
    const signed: SignedIn = await signInSecondFactor(server.ctx, origin(), { challenge: await challengeFor(email), recoveryCode: codes[2].toUpperCase().replace(/-/g, ' ') });
    expect(signed.profile.twoFactor?.recoveryCodesLeft).toBe(9);
    expect(await refusal(signInSecondFactor(server.ctx, origin(), { challenge: await challengeFor(email), recoveryCode: codes[2] }))).toMatchObject({
      status: 401,
      code: 'auth.second_factor_invalid',
    });
    expect(await takeRecoveryCode(server.ctx, actor.userId, 'too-short')).toBe(false);
    expect(await unusedRecoveryCodes(server.db, actor.userId)).toBe(9);
    expect((await auditEntries(server.db, 'signInSecondFactor', actor.userId)).map((entry) => entry.detail)).toEqual([{ method: 'recovery_code' }]);
  });
});

describe('switching it off and resetting it', () => {
  it('refuses to switch it off where the clinic requires it of the role', async () => {
    const { actor } = await enrolled('clinic_it_admins');
    await server.db.updateTable('security_settings').set({ two_factor_roles: ['clinic_it_admins'] }).where('clinic_id', '=', clinicId).execute();
    try {
      expect(await refusal(disableSecondFactor(server.ctx, actor, PASSWORD))).toMatchObject({ status: 409, code: 'two_factor.required' });
    } finally {
      await server.db.updateTable('security_settings').set({ two_factor_roles: [] }).where('clinic_id', '=', clinicId).execute();
    }
    await disableSecondFactor(server.ctx, actor, PASSWORD);
    const user = await server.db.selectFrom('users').select(['totp_secret', 'totp_enabled_at']).where('id', '=', actor.userId).executeTakeFirstOrThrow();
    expect(user).toEqual({ totp_secret: null, totp_enabled_at: null });
    expect(await unusedRecoveryCodes(server.db, actor.userId)).toBe(0);
  });

  it("the IT admin's reset removes the second factor and ends the user's sessions; an admin's own is refused", async () => {
    const admin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
    const adminActor = actorFor(admin, clinicId, 'clinic_it_admins');
    const { actor: user, email } = await enrolled();
    const pendingChallenge = await challengeFor(email);
    await createSession(server.ctx, { id: user.userId }, { remember: true });

    expect(await refusal(resetSecondFactor(server.ctx, adminActor, admin.id))).toMatchObject({ status: 409, code: 'two_factor.own_reset' });
    await resetSecondFactor(server.ctx, adminActor, user.userId);

    const row = await server.db.selectFrom('users').select(['totp_secret', 'totp_pending_secret', 'totp_enabled_at']).where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null });
    expect(await unusedRecoveryCodes(server.db, user.userId)).toBe(0);
    const open = await server.db.selectFrom('auth_sessions').select('ended_reason').where('user_id', '=', user.userId).execute();
    expect(open.map((session) => session.ended_reason)).toEqual(['two_factor_reset']);
    // A challenge opened before the reset no longer leads anywhere.
    expect(await refusal(signInSecondFactor(server.ctx, origin(), { challenge: pendingChallenge, code: '123456' }))).toMatchObject({ code: 'auth.second_factor_expired' });
    expect(await auditEntries(server.db, 'resetTwoFactor', user.userId)).toEqual([expect.objectContaining({ outcome: 'success', actor_id: admin.id })]);
    // Nothing left to reset.
    expect(await refusal(resetSecondFactor(server.ctx, adminActor, user.userId))).toMatchObject({ status: 409, code: 'two_factor.not_enabled' });
  });
});
