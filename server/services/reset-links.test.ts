// The rules of password reset links, called as services without HTTP: a request mails a link to an active account
// only, and says nothing either way; the link works an hour, once; using it sets the password, ends every session
// and unlocks the account from every address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../tests/server/fixtures';
import { linkFromMail, type TestServer } from '../../tests/server/helper';
import { auditEntries, refusal, serverWithClinic } from '../../tests/server/service-calls';
import type { Origin } from '../actor';
import { verifyPassword } from '../security/password-hash';
import { accountKey, lockedFor, pairKey, PAIR_RULE, recordFailure } from '../security/throttle';
import { requestPasswordReset, RESET_LINK_MS, resetLinkInfo, resetPassword } from './reset-links';
import { createSession } from './sessions';

const NEW_PASSWORD = 'Augenklinik-Mainz7';

let server: TestServer;
let clinicId: string;
let addresses = 0;
const origin = (): Origin => ({ ip: `192.0.2.${++addresses}`, lang: 'en' });

beforeAll(async () => ({ server, clinicId } = await serverWithClinic()));
afterAll(() => server.close());

/** Asks for a link for `email` and answers its token. */
async function resetToken(email: string): Promise<string> {
  await requestPasswordReset(server.ctx, origin(), email);
  await server.ctx.mailer.settled?.();
  return linkFromMail(server, email).searchParams.get('token')!;
}

const linksOf = (userId: string) => server.db.selectFrom('user_tokens').select('id').where('user_id', '=', userId).where('kind', '=', 'reset').execute();

describe('asking for a reset link', () => {
  it('mails a link to an active account only, and audits why not otherwise', async () => {
    const active = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const deactivated = await createUser(server.db, { clinicId, role: 'clinic_nurses', status: 'deactivated' });
    await requestPasswordReset(server.ctx, origin(), active.email.toUpperCase());
    await requestPasswordReset(server.ctx, origin(), deactivated.email);
    await server.ctx.mailer.settled?.();
    expect(await linksOf(active.id)).toHaveLength(1);
    expect(await linksOf(deactivated.id)).toEqual([]);
    expect(server.outbox().some((mail) => mail.text.includes(`To: ${deactivated.email}`))).toBe(false);
    expect((await auditEntries(server.db, 'resetPassword', active.id)).map((entry) => entry.outcome)).toEqual(['success']);
    // Not active: no target either, as for an address without an account.
    expect(await auditEntries(server.db, 'resetPassword', deactivated.id)).toEqual([]);
  });
});

describe('using a reset link', () => {
  it('sets the password once, ends every session and unlocks the account from every address', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await resetToken(user.email);
    await createSession(server.ctx, user, { remember: true });
    for (let i = 0; i < PAIR_RULE.limit; i++) await recordFailure(server.ctx, pairKey(user.email, '203.0.113.9'), PAIR_RULE);
    expect(await lockedFor(server.ctx, [pairKey(user.email, '203.0.113.9')])).toBeGreaterThan(0);
    expect((await resetLinkInfo(server.ctx, token)).email).toBe(user.email);

    await resetPassword(server.ctx, origin(), { token, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });

    const stored = await server.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword(stored.password_hash, NEW_PASSWORD)).toBe(true);
    const sessions = await server.db.selectFrom('auth_sessions').select('ended_reason').where('user_id', '=', user.id).execute();
    expect(sessions.map((session) => session.ended_reason)).toEqual(['password_reset']);
    expect(await lockedFor(server.ctx, [pairKey(user.email, '203.0.113.9'), accountKey(user.email)])).toBe(0);
    expect(await auditEntries(server.db, 'resetConfirmation', user.id)).toEqual([expect.objectContaining({ outcome: 'success', actor_id: user.id })]);
    expect(await refusal(resetPassword(server.ctx, origin(), { token, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD }))).toMatchObject({
      status: 404,
      code: 'reset.invalid_token',
    });
  });

  it('works an hour, and a newer link replaces an older one', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const older = await resetToken(user.email);
    const newer = await resetToken(user.email);
    expect(await refusal(resetLinkInfo(server.ctx, older))).toMatchObject({ status: 404, code: 'reset.invalid_token' });
    server.clock.advance(RESET_LINK_MS - 1000);
    expect((await resetLinkInfo(server.ctx, newer)).passwordStrength).toBe('standard');
    server.clock.advance(1000);
    expect(await refusal(resetPassword(server.ctx, origin(), { token: newer, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD }))).toMatchObject({
      status: 404,
      code: 'reset.invalid_token',
    });
  });
});
