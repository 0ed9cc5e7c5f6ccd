// The rules of an e-mail address change, called as services without HTTP: a request mails a link valid a day to
// the new address and keeps one request open; the confirmation changes the address once, ends every session and
// revokes open reset links; an expired or used link, and an address taken meanwhile, are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../tests/server/fixtures';
import { linkFromMail, type TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal, serverWithClinic } from '../../tests/server/service-calls';
import type { Origin } from '../actor';
import { createSession } from './sessions';
import { confirmEmailChange, EMAIL_LINK_MS, emailLinkInfo, requestEmailChange } from './email-change';
import { issueResetLink } from './reset-links';

let server: TestServer;
let clinicId: string;
const fromMailbox: Origin = { ip: '192.0.2.10', lang: 'en' };

beforeAll(async () => ({ server, clinicId } = await serverWithClinic()));
afterAll(() => server.close());

let mailboxes = 0;
const newAddress = () => `moved.${++mailboxes}.${Date.now()}@elsewhere.example`;

/** Asks for the change as the user, and answers the token of the link mailed to the new address. */
async function request(user: { id: string }, newEmail: string): Promise<string> {
  await requestEmailChange(server.ctx, actorFor(user, clinicId, 'clinic_physicians'), { userId: user.id, newEmail, byAdmin: false });
  await server.ctx.mailer.settled?.();
  return linkFromMail(server, newEmail).searchParams.get('token')!;
}

const emailOf = async (userId: string) => (await server.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;

describe('changing the e-mail address', () => {
  it('leaves the address as it is until the link is used; the link shows both addresses and works a day; the request is audited as the user', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const target = newAddress();
    const token = await request(user, target);
    expect(await emailOf(user.id)).toBe(user.email);
    expect(await emailLinkInfo(server.ctx, token)).toEqual({
      email: user.email,
      newEmail: target,
      expiresAt: new Date(server.clock.now().getTime() + EMAIL_LINK_MS).toISOString(),
    });
    expect(await auditEntries(server.db, 'email_change.requested', user.id)).toEqual([
      expect.objectContaining({ outcome: 'success', actor_id: user.id, clinic_id: clinicId, detail: { byAdmin: false } }),
    ]);
  });

  it('changes the address once confirmed: every session ends, open reset links are revoked, the link is used up', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const target = newAddress();
    const token = await request(user, target);
    await createSession(server.ctx, user, { remember: true });
    await createSession(server.ctx, user, { remember: false });
    await issueResetLink(server.db, user.id, server.clock.now(), 60_000);

    await confirmEmailChange(server.ctx, fromMailbox, token);

    expect(await emailOf(user.id)).toBe(target);
    const sessions = await server.db.selectFrom('auth_sessions').select('ended_reason').where('user_id', '=', user.id).execute();
    expect(sessions.map((session) => session.ended_reason)).toEqual(['email_changed', 'email_changed']);
    const openResets = await server.db
      .selectFrom('user_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'reset')
      .where('revoked_at', 'is', null)
      .execute();
    expect(openResets).toEqual([]);
    expect(await auditEntries(server.db, 'email_change.confirmed', user.id)).toEqual([
      expect.objectContaining({ outcome: 'success', actor_id: user.id, ip: fromMailbox.ip }),
    ]);
    expect(await refusal(confirmEmailChange(server.ctx, fromMailbox, token))).toMatchObject({ status: 404, code: 'email_change.invalid_token' });
  });

  it('keeps one request open: a second one revokes the first link', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const first = await request(user, newAddress());
    const second = newAddress();
    await request(user, second);
    expect(await refusal(emailLinkInfo(server.ctx, first))).toMatchObject({ status: 404, code: 'email_change.invalid_token' });
    expect(await refusal(confirmEmailChange(server.ctx, fromMailbox, first))).toMatchObject({ status: 404 });
  });

  it('refuses a link after a day, and leaves the address', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const token = await request(user, newAddress());
    server.clock.advance(EMAIL_LINK_MS - 1000);
    expect((await emailLinkInfo(server.ctx, token)).email).toBe(user.email);
    server.clock.advance(1000);
    expect(await refusal(emailLinkInfo(server.ctx, token))).toMatchObject({ status: 404, code: 'email_change.invalid_token', key: 'email_change.invalid_token' });
    expect(await refusal(confirmEmailChange(server.ctx, fromMailbox, token))).toMatchObject({ status: 404, code: 'email_change.invalid_token' });
    expect(await emailOf(user.id)).toBe(user.email);
  });

  it('refuses an address another account took meanwhile (any case), and leaves the link open', async () => {
    const user = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
    const target = newAddress();
    const token = await request(user, target);
    await createUser(server.db, { clinicId, role: 'clinic_nurses', email: target.toUpperCase() });
    expect(await refusal(confirmEmailChange(server.ctx, fromMailbox, token))).toMatchObject({ status: 409, code: 'user.email_taken' });
    expect(await emailOf(user.id)).toBe(user.email);
    expect((await emailLinkInfo(server.ctx, token)).newEmail).toBe(target);
  });
});
