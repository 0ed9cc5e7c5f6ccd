// The rules of the signed-in user's password change, called as a service without HTTP: the current password is
// needed (except right after a sign-in with the expired one), must be right and differ from the new one, which
// must meet the rules; a change ends the user's other sessions, keeps the caller's and revokes open reset links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, PASSWORD } from '../../tests/server/fixtures';
import type { TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal, serverWithClinic } from '../../tests/server/service-calls';
import { verifyPassword } from '../security/password-hash';
import { changePassword } from './passwords';
import { issueResetLink } from './reset-links';
import { createSession, FRESH_SIGN_IN_MS, type SessionState } from './sessions';

const NEW_PASSWORD = 'Augenklinik-Mainz7';
const IN_GOOD_STANDING: SessionState = { passwordChangeRequired: null, twoFactorEnrolmentRequired: false };
const EXPIRED: SessionState = { passwordChangeRequired: 'expired', twoFactorEnrolmentRequired: false };

let server: TestServer;
let clinicId: string;

beforeAll(async () => ({ server, clinicId } = await serverWithClinic()));
afterAll(() => server.close());

/** A user signed in once: the Actor of that session. */
async function signedIn() {
  const user = await createUser(server.db, { clinicId, role: 'clinic_physicians', firstName: 'Vera', lastName: 'Lindqvist' });
  const { sessionId } = await createSession(server.ctx, user, { remember: true });
  return actorFor(user, clinicId, 'clinic_physicians', sessionId);
}

const hashOf = async (userId: string) =>
  (await server.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;

describe('changing the own password', () => {
  it('needs the current password, right, and a new one that differs from it; audits a wrong one; changes nothing then', async () => {
    const actor = await signedIn();
    const before = await hashOf(actor.userId);
    const change = { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD };
    expect(await refusal(changePassword(server.ctx, actor, IN_GOOD_STANDING, change))).toMatchObject({
      status: 422,
      fields: { currentPassword: ['validation.required'] },
    });
    expect(await refusal(changePassword(server.ctx, actor, IN_GOOD_STANDING, { ...change, currentPassword: 'Not-The-Password-1' }))).toMatchObject({
      status: 422,
      fields: { currentPassword: ['validation.current_password_wrong'] },
    });
    expect(await auditEntries(server.db, 'changePassword', actor.userId)).toEqual([
      expect.objectContaining({ outcome: 'failure', actor_id: actor.userId, detail: { reason: 'wrong_current_password' } }),
    ]);
    expect(
      await refusal(changePassword(server.ctx, actor, IN_GOOD_STANDING, { currentPassword: PASSWORD, password: PASSWORD, passwordConfirmation: PASSWORD })),
    ).toMatchObject({ status: 422, fields: { password: ['validation.password_unchanged'] } });
    expect(await hashOf(actor.userId)).toBe(before);
  });

  it("applies the password rules: a short one, a mismatched confirmation and one made of the user's own name are refused", async () => {
    const actor = await signedIn();
    const tooShort = await refusal(changePassword(server.ctx, actor, IN_GOOD_STANDING, { currentPassword: PASSWORD, password: 'Ab1-', passwordConfirmation: 'Ab1-' }));
    expect(tooShort.status).toBe(422);
    expect(tooShort.fields.password?.length).toBeGreaterThan(0);
    const mismatch = await refusal(
      changePassword(server.ctx, actor, IN_GOOD_STANDING, { currentPassword: PASSWORD, password: NEW_PASSWORD, passwordConfirmation: `${NEW_PASSWORD}x` }),
    );
    expect(mismatch.fields.passwordConfirmation?.length).toBeGreaterThan(0);
    const ownName = await refusal(
      changePassword(server.ctx, actor, IN_GOOD_STANDING, { currentPassword: PASSWORD, password: 'Lindqvist26', passwordConfirmation: 'Lindqvist26' }),
    );
    expect(ownName.fields.password).toEqual(['validation.password_weak']);
  });

  it("sets it, ends the user's other sessions but not the caller's, and revokes an open reset link", async () => {
    const actor = await signedIn();
    const other = await createSession(server.ctx, { id: actor.userId }, { remember: true });
    await issueResetLink(server.db, actor.userId, server.clock.now(), 60_000);

    await changePassword(server.ctx, actor, IN_GOOD_STANDING, { currentPassword: PASSWORD, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });

    expect(await verifyPassword(await hashOf(actor.userId), NEW_PASSWORD)).toBe(true);
    const sessions = await server.db.selectFrom('auth_sessions').select(['id', 'ended_reason']).where('user_id', '=', actor.userId).execute();
    expect(Object.fromEntries(sessions.map((session) => [session.id, session.ended_reason]))).toEqual({
      [actor.sessionId!]: null,
      [other.sessionId]: 'password_changed',
    });
    const resets = await server.db.selectFrom('user_tokens').select('revoked_at').where('user_id', '=', actor.userId).where('kind', '=', 'reset').execute();
    expect(resets.map((link) => link.revoked_at)).toEqual([server.clock.now()]);
    const changed = await server.db
      .selectFrom('users')
      .select(['password_changed_at', 'must_change_password'])
      .where('id', '=', actor.userId)
      .executeTakeFirstOrThrow();
    expect(changed).toEqual({ password_changed_at: server.clock.now(), must_change_password: false });
    expect((await auditEntries(server.db, 'changePassword', actor.userId)).map((entry) => entry.outcome)).toEqual(['success']);
  });

  it('does not ask for the expired password within 15 minutes of signing in with it, and does after that', async () => {
    const actor = await signedIn();
    server.clock.advance(FRESH_SIGN_IN_MS + 1000);
    expect(await refusal(changePassword(server.ctx, actor, EXPIRED, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD }))).toMatchObject({
      fields: { currentPassword: ['validation.required'] },
    });
    // Not for a password that has not expired either: only the renewal a sign-in was sent to skips the question.
    const fresh = await signedIn();
    expect(await refusal(changePassword(server.ctx, fresh, IN_GOOD_STANDING, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD }))).toMatchObject({
      fields: { currentPassword: ['validation.required'] },
    });
    await changePassword(server.ctx, fresh, EXPIRED, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    expect(await verifyPassword(await hashOf(fresh.userId), NEW_PASSWORD)).toBe(true);
  });
});
