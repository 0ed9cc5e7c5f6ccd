// Strangers cannot take the realtime endpoint's slots (issue 27, defect 8): one address holds at most
// REALTIME_MAX_PER_ADDRESS sockets, and a socket that subscribes to nothing within
// REALTIME_SUBSCRIBE_TIMEOUT_SECONDS is closed (subscribing needs a signed-in session's signature); a socket closes
// when the session that signed its subscriptions ends; the signed events API answers only straight from loopback.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, signIn } from './fixtures';
import { startServer, type TestServer } from './helper';
import { rawSocket } from './realtime-client';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { REALTIME_MAX_PER_ADDRESS: '3', REALTIME_SUBSCRIBE_TIMEOUT_SECONDS: '1', REALTIME_SESSION_CHECK_SECONDS: '1' } });
});
afterAll(() => server.close());

/** A subscription as the server signs it for a signed-in user (the authorization endpoint's answer). */
function signedSubscription(socketId: string, channel: string) {
  const { key, secret } = server.ctx.config.realtime;
  return { channel, auth: `${key}:${createHmac('sha256', secret).update(`${socketId}:${channel}`).digest('hex')}` };
}

describe('realtime limits', () => {
  it('refuse a socket beyond the cap of its address with 4100, and take one again once a socket has closed', async () => {
    const open = [await rawSocket(server), await rawSocket(server), await rawSocket(server)];
    for (const socket of open) await socket.frame('pusher:connection_established');
    const fourth = await rawSocket(server);
    expect(await fourth.closed()).toEqual({ code: 4100, reason: 'Over capacity: too many connections from this address' });
    open[0].ws.close();
    await open[0].closed();
    const again = await rawSocket(server);
    await again.frame('pusher:connection_established');
    for (const socket of [...open.slice(1), again]) {
      socket.ws.close();
      await socket.closed();
    }
  });

  it('close a socket that subscribes to nothing in time with 4009, and keep one that subscribed', async () => {
    const idle = await rawSocket(server);
    const member = await rawSocket(server);
    const established = await member.frame('pusher:connection_established');
    const socketId = String(established.data.socket_id);
    member.send('pusher:subscribe', signedSubscription(socketId, 'private-clinic.limits'));
    await member.frame('pusher_internal:subscription_succeeded');

    expect(await idle.closed(5000)).toEqual({ code: 4009, reason: 'No channel subscribed in time' });
    // Well past the timeout, the subscribed socket still answers a ping.
    await new Promise((wake) => setTimeout(wake, 1500));
    member.send('pusher:ping', {});
    await member.frame('pusher:pong');
    member.ws.close();
  });
});

describe('the events API', () => {
  it('answers 404 to a request through a proxy, before it looks at the signature', async () => {
    const { appId } = server.ctx.config.realtime;
    const answer = await fetch(`${server.url}/apps/${appId}/events?auth_key=x`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.5' },
      body: JSON.stringify({ name: 'x', channel: 'private-clinic.limits', data: '{}' }),
    });
    expect(answer.status).toBe(404);
    // Straight from this machine the same request reaches the signature check.
    const direct = await fetch(`${server.url}/apps/${appId}/events?auth_key=x`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x', channel: 'private-clinic.limits', data: '{}' }),
    });
    expect(direct.status).toBe(401);
  });
});

describe('a socket and its session', () => {
  it('closes with 4009 once the session that signed its subscriptions ends (logout), within the check interval', async () => {
    const clinicId = await createClinic(server.db, 'Session Clinic');
    const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
    const token = await signIn(server, user.email);
    const other = await signIn(server, user.email);
    const socket = await rawSocket(server);
    const socketId = String((await socket.frame('pusher:connection_established')).data.socket_id);
    const signed = await server.call<{ auth: string }>('POST', '/broadcasting/auth', {
      token,
      body: new URLSearchParams({ socket_id: socketId, channel_name: `private-user.${user.id}` }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(signed.status).toBe(200);
    socket.send('pusher:subscribe', { channel: `private-user.${user.id}`, auth: signed.body.auth });
    await socket.frame('pusher_internal:subscription_succeeded');
    const binding = () => server.db.selectFrom('realtime_bindings').select('socket_id').where('socket_id', '=', socketId).execute();
    expect(await binding()).toHaveLength(1);

    // Another session of the same user ending leaves this socket alone.
    expect((await server.call('POST', '/logout', { token: other })).status).toBe(200);
    await new Promise((wake) => setTimeout(wake, 1500));
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);

    expect((await server.call('POST', '/logout', { token })).status).toBe(200);
    expect(await socket.closed(5000)).toEqual({ code: 4009, reason: 'The session has ended' });
    // Its binding is gone with it.
    await new Promise((wake) => setTimeout(wake, 1500));
    expect(await binding()).toEqual([]);
  });
});
