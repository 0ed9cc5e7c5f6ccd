// Channel authorisation, called as a service without HTTP: a user's own channel and their clinic's are signed and
// the socket is bound to the sign-in session; any other channel is refused and the attempt audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelName } from '../../src/domain/realtime/events';
import { createClinic, createUser, sessionFor } from '../../tests/server/fixtures';
import { startServer, type TestServer } from '../../tests/server/helper';
import { actorFor, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { hashToken } from '../security/tokens';
import { authorizeChannel, channelSignature } from './realtime-channels';

let server: TestServer;
let actor: Actor;
let otherClinic: string;

beforeAll(async () => {
  server = await startServer({ jobs: false });
  const clinicId = await createClinic(server.db);
  otherClinic = await createClinic(server.db, 'Andere Klinik');
  const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
  const token = await sessionFor(server.db, user.id);
  const session = await server.db.selectFrom('auth_sessions').select('id').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
  actor = actorFor(user, clinicId, 'clinic_nurses', session.id);
});
afterAll(() => server.close());

describe('authorizeChannel', () => {
  it('signs the user’s own channel and the clinic’s, and binds the socket to the session', async () => {
    const { key, secret } = server.ctx.config.realtime;
    for (const channel of [channelName('user', actor.userId), channelName('clinic', actor.clinicId)]) {
      expect(await authorizeChannel(server.ctx, actor, '123.456', channel)).toBe(channelSignature(key, secret, '123.456', channel));
    }
    const bindings = await server.db.selectFrom('realtime_bindings').select(['socket_id', 'session_id']).execute();
    expect(bindings).toEqual([{ socket_id: '123.456', session_id: actor.sessionId }]);
  });

  it('refuses another clinic’s channel and any other name (403), audits the attempt and binds nothing', async () => {
    for (const channel of [channelName('clinic', otherClinic), 'presence-everyone']) {
      expect(await refusal(authorizeChannel(server.ctx, actor, '9.9', channel))).toMatchObject({ status: 403, code: 'realtime.channel_forbidden' });
    }
    const denied = await server.db.selectFrom('audit_log').select(['outcome', 'actor_id']).where('action', '=', 'realtime.channel').execute();
    expect(denied).toEqual([
      { outcome: 'denied', actor_id: actor.userId },
      { outcome: 'denied', actor_id: actor.userId },
    ]);
    expect(await server.db.selectFrom('realtime_bindings').select('socket_id').where('socket_id', '=', '9.9').execute()).toEqual([]);
  });
});
