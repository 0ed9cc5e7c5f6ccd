// Realtime channel authorisation (Pusher protocol): the own user channel and the own clinic channel
// are signed; every other channel answers 403, and no token 401.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';

let server: TestServer;
let clinicId: string;
let otherClinicId: string;
let user: { id: string; token: string };
let colleague: { id: string };
let admin: { id: string; token: string };

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  otherClinicId = await createClinic(server.db, 'Other clinic');
  const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
  user = { id: physician.id, token: await sessionFor(server.db, physician.id) };
  colleague = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
  const itAdmin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
  admin = { id: itAdmin.id, token: await sessionFor(server.db, itAdmin.id) };
});
afterAll(() => server.close());

const SOCKET = '123456.7890123';

const form = (socketId: string, channel: string) => ({
  body: new URLSearchParams({ socket_id: socketId, channel_name: channel }).toString(),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
});

/** What a Pusher server computes to check the signature. */
function verifies(auth: string, socketId: string, channel: string): boolean {
  const [key, signature] = auth.split(':');
  const expected = createHmac('sha256', server.ctx.config.realtime.secret).update(`${socketId}:${channel}`).digest('hex');
  return key === server.ctx.config.realtime.key && signature === expected;
}

describe('realtime channel authorisation', () => {
  it('signs the caller\'s own user channel (form, as pusher-js sends it), without envelope', async () => {
    const channel = `private-user.${user.id}`;
    const answer = await server.call<{ auth: string }>('POST', '/broadcasting/auth', { token: user.token, ...form(SOCKET, channel) });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['auth']);
    expect(verifies(answer.body.auth, SOCKET, channel)).toBe(true);
    expect(verifies(answer.body.auth, '999.1', channel)).toBe(false);
  });

  it('signs the caller\'s clinic channel, also as JSON', async () => {
    const channel = `private-clinic.${clinicId}`;
    const answer = await server.call<{ auth: string }>('POST', '/broadcasting/auth', {
      token: admin.token,
      json: { socket_id: SOCKET, channel_name: channel },
    });
    expect(answer.status).toBe(200);
    expect(verifies(answer.body.auth, SOCKET, channel)).toBe(true);
  });

  it('refuses channels of other users and clinics, presence and public channels (403)', async () => {
    for (const channel of [
      `private-user.${colleague.id}`,
      `private-clinic.${otherClinicId}`,
      `presence-clinic.${clinicId}`,
      `clinic.${clinicId}`,
      `private-user.${user.id}x`,
      `private-user.${user.id.toUpperCase()}`,
      'private-user.',
    ]) {
      const answer = await server.call('POST', '/broadcasting/auth', { token: user.token, ...form(SOCKET, channel) });
      expect(answer.status, channel).toBe(403);
      expect(answer.body).toMatchObject({ code: 'realtime.channel_forbidden', message: 'You may not listen on this channel.' });
    }
    const denied = await server.db.selectFrom('audit_log').select('outcome').where('action', '=', 'realtime.channel').where('actor_id', '=', user.id).execute();
    expect(denied.length).toBeGreaterThan(0);
  });

  it('answers 401 without a valid token', async () => {
    expect((await server.call('POST', '/broadcasting/auth', form(SOCKET, `private-user.${user.id}`))).status).toBe(401);
    expect((await server.call('POST', '/broadcasting/auth', { token: 'x'.repeat(43), ...form(SOCKET, `private-user.${user.id}`) })).status).toBe(401);
  });

  it('refuses a malformed socket id or missing fields (422)', async () => {
    expect((await server.call('POST', '/broadcasting/auth', { token: user.token, ...form('abc', `private-user.${user.id}`) })).status).toBe(422);
    const missing = await server.call('POST', '/broadcasting/auth', { token: user.token, json: { socket_id: SOCKET } });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: { channel_name: ['This field is required'] } });
  });
});

describe('realtime settings', () => {
  it('points the SPA at the server\'s own endpoint by default (host null: beside the API)', async () => {
    const answer = await server.call<{ data: Record<string, unknown> }>('GET', '/realtime/settings', { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ key: server.ctx.config.realtime.key, cluster: 'mt1', host: null, port: null, forceTLS: null });
    expect((await server.call('GET', '/realtime/settings')).status).toBe(401);
  });

  it('names the external service\'s websocket address (soketi, hosted Pusher) and lets the page connect to it', async () => {
    const external = await startServer({ env: { PUSHER_HOST: 'soketi.internal', PUSHER_PORT: '6001', PUSHER_SCHEME: 'http', PUSHER_CLIENT_HOST: 'realtime.clinic.example', PUSHER_CLIENT_PORT: '443' } });
    const hosted = await startServer({ env: { PUSHER_CLUSTER: 'eu' } });
    try {
      const clinic = await createClinic(external.db);
      const nurse = await createUser(external.db, { clinicId: clinic, role: 'clinic_nurses' });
      const answer = await external.call<{ data: Record<string, unknown> }>('GET', '/realtime/settings', { token: await sessionFor(external.db, nurse.id) });
      expect(answer.body.data).toMatchObject({ host: 'realtime.clinic.example', port: 443, forceTLS: false });
      const page = await fetch(`${external.url}/sign-in`);
      expect(page.headers.get('content-security-policy')).toContain("connect-src 'self' ws://realtime.clinic.example:443");

      const hostedClinic = await createClinic(hosted.db);
      const hostedNurse = await createUser(hosted.db, { clinicId: hostedClinic, role: 'clinic_nurses' });
      const hostedAnswer = await hosted.call<{ data: Record<string, unknown> }>('GET', '/realtime/settings', { token: await sessionFor(hosted.db, hostedNurse.id) });
      expect(hostedAnswer.body.data).toMatchObject({ cluster: 'eu', host: 'ws-eu.pusher.com', port: 443, forceTLS: true });
    } finally {
      await external.close();
      await hosted.close();
    }
  });
});
