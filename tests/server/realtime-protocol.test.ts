// The realtime endpoint speaks the Pusher protocol (version 7): pusher-js in Node connects, is authorised,
// subscribes and receives what the official `pusher` SDK publishes; forged signatures, foreign channels,
// client events and wrong keys are refused with the protocol's codes; ping and pong; a client comes back
// after the server restarts.
import { createHmac } from 'node:crypto';
import type PusherClient from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelName } from '../../src/domain/realtime/events';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { connected, nextEvent, rawSocket, realtimeClient, serverSdk, subscribed, waitFor } from './realtime-client';

let server: TestServer;
let clinicId: string;
let otherClinicId: string;
let nurse: { id: string; token: string };
const clients: PusherClient[] = [];

beforeAll(async () => {
  // A short activity timeout, so that the server's pings come within a test.
  server = await startServer({ env: { REALTIME_ACTIVITY_TIMEOUT_SECONDS: '1' } });
  clinicId = await createClinic(server.db);
  otherClinicId = await createClinic(server.db, 'Other clinic');
  const user = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
  nurse = { id: user.id, token: await sessionFor(server.db, user.id) };
});
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});
afterAll(() => server.close());

const client = (options: Parameters<typeof realtimeClient>[1] = {}) => {
  const made = realtimeClient(server, { token: nurse.token, ...options });
  clients.push(made);
  return made;
};

describe('the Pusher-protocol endpoint', () => {
  it('connects pusher-js, authorises and subscribes the clinic channel, and delivers what the SDK publishes', async () => {
    const pusher = client();
    await connected(pusher);
    expect(pusher.connection.socket_id).toMatch(/^\d+\.\d+$/);
    const channel = await subscribed(pusher, channelName('clinic', clinicId));
    const event = nextEvent(channel, 'treatment.processed');
    await serverSdk(server).trigger(channelName('clinic', clinicId), 'treatment.processed', { patientId: 'p1', treatmentId: 't1' });
    expect(await event).toEqual({ patientId: 'p1', treatmentId: 't1' });

    // Batches too, and an event goes only to its channel.
    const own = await subscribed(pusher, channelName('user', nurse.id));
    const note = nextEvent(own, 'notification.created');
    await serverSdk(server).triggerBatch([
      { channel: channelName('clinic', otherClinicId), name: 'notification.created', data: { notificationId: 'elsewhere' } },
      { channel: channelName('user', nurse.id), name: 'notification.created', data: { notificationId: 'n1' } },
    ]);
    expect(await note).toEqual({ notificationId: 'n1' });
  });

  it('leaves out the socket that published an event (socket_id), and stops delivering after unsubscribing', async () => {
    const first = client();
    const second = client();
    await Promise.all([connected(first), connected(second)]);
    const name = channelName('clinic', clinicId);
    const [mine, theirs] = await Promise.all([subscribed(first, name), subscribed(second, name)]);
    const received: string[] = [];
    mine.bind('patients.changed', () => received.push('first'));
    const arrives = nextEvent(theirs, 'patients.changed');
    await serverSdk(server).trigger(name, 'patients.changed', { patientIds: ['a'] }, { socket_id: first.connection.socket_id });
    await arrives;
    expect(received).toEqual([]);

    second.unsubscribe(name);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const raw = await rawSocket(server);
    await raw.frame('pusher:connection_established');
    const late: unknown[] = [];
    theirs.bind('patients.changed', (data: unknown) => late.push(data));
    const toFirst = nextEvent(mine, 'patients.changed');
    await serverSdk(server).trigger(name, 'patients.changed', { patientIds: ['b'] });
    await toFirst;
    expect(late).toEqual([]);
    raw.ws.close();
  });

  it('refuses a forged signature with 4009 and a subscription error', async () => {
    const pusher = client({ forge: (socketId, channel) => `${server.ctx.config.realtime.key}:${createHmac('sha256', 'not-the-secret').update(`${socketId}:${channel}`).digest('hex')}` });
    await connected(pusher);
    const error = waitFor<{ data: { code: number } }>((resolve) => pusher.connection.bind('error', resolve));
    const refused = await subscribed(pusher, channelName('clinic', clinicId)).catch((e: { data: unknown }) => e.data);
    expect(refused).toMatchObject({ type: 'AuthError', status: 401 });
    expect((await error).data.code).toBe(4009);
    // A signature made for another socket does not fit this one either.
    const raw = await rawSocket(server);
    await raw.frame('pusher:connection_established');
    const channel = channelName('clinic', clinicId);
    const stolen = createHmac('sha256', server.ctx.config.realtime.secret).update(`1.1:${channel}`).digest('hex');
    raw.send('pusher:subscribe', { channel, auth: `${server.ctx.config.realtime.key}:${stolen}` });
    expect((await raw.frame('pusher:error')).data).toMatchObject({ code: 4009 });
    expect(raw.frames.some((f) => f.event === 'pusher_internal:subscription_succeeded')).toBe(false);
    raw.ws.close();
  });

  it('refuses another clinic\'s channel (the server signs none) and public or presence channels', async () => {
    const pusher = client();
    await connected(pusher);
    const refused = await subscribed(pusher, channelName('clinic', otherClinicId)).catch((e: { data: unknown }) => e.data);
    expect(refused).toMatchObject({ type: 'AuthError', error: expect.stringContaining('403') });

    const raw = await rawSocket(server);
    await raw.frame('pusher:connection_established');
    raw.send('pusher:subscribe', { channel: `clinic.${clinicId}` });
    expect(await raw.frame('pusher:subscription_error')).toMatchObject({ channel: `clinic.${clinicId}`, data: { status: 403 } });
    raw.ws.close();
  });

  it('answers ping with pong, pings a quiet socket and closes it with 4201 when no pong comes', async () => {
    const raw = await rawSocket(server);
    const established = await raw.frame('pusher:connection_established');
    expect(established.data).toMatchObject({ activity_timeout: 1 });
    expect(String(established.data.socket_id)).toMatch(/^\d+\.\d+$/);
    raw.send('pusher:ping', {});
    await raw.frame('pusher:pong');
    await raw.frame('pusher:ping', 4000);
    expect(await raw.closed(4000)).toMatchObject({ code: 4201 });

    // pusher-js answers the server's pings and stays connected.
    const pusher = client();
    await connected(pusher);
    const states: string[] = [];
    pusher.connection.bind('state_change', ({ current }: { current: string }) => states.push(current));
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(states).toEqual([]);
    expect(pusher.connection.state).toBe('connected');
  });

  it('refuses client events, a wrong app key and an unsupported protocol version', async () => {
    const raw = await rawSocket(server);
    await raw.frame('pusher:connection_established');
    raw.send('client-typing', { channel: channelName('clinic', clinicId) });
    expect((await raw.frame('pusher:error')).data.message).toMatch(/client events/i);
    raw.ws.close();

    const wrongKey = await rawSocket(server, '/app/someone-elses-key?protocol=7');
    expect((await wrongKey.frame('pusher:error')).data).toMatchObject({ code: 4001 });
    expect(await wrongKey.closed()).toMatchObject({ code: 4001 });

    const oldProtocol = await rawSocket(server, `/app/${server.ctx.config.realtime.key}?protocol=3`);
    expect(await oldProtocol.closed()).toMatchObject({ code: 4007 });

    // The same endpoint under /api, where a same-origin SPA finds it.
    const underApi = await rawSocket(server, `/api/app/${server.ctx.config.realtime.key}?protocol=7`);
    await underApi.frame('pusher:connection_established');
    underApi.ws.close();
  });

  it('takes events only signed with the app\'s secret, for its app id, within Pusher\'s limits', async () => {
    const channel = channelName('clinic', clinicId);
    const status = (promise: Promise<unknown>) => promise.then(() => 200, (error: { status?: number }) => error.status);
    expect(await status(serverSdk(server, { secret: 'wrong' }).trigger(channel, 'x', {}))).toBe(401);
    expect(await status(serverSdk(server, { appId: 'other-app' }).trigger(channel, 'x', {}))).toBe(404);
    expect(await status(serverSdk(server).trigger(channel, 'x', { text: 'x'.repeat(11 * 1024) }))).toBe(413);
    // By hand: a request signed long ago is not taken again.
    const answer = await fetch(`${server.url}/apps/${server.ctx.config.realtime.appId}/events?auth_key=${server.ctx.config.realtime.key}&auth_timestamp=1000&auth_version=1.0&auth_signature=x`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(401);
  });

  it('announces the product\'s changes: a patient created, a deletion requested, the IT admin\'s notification', async () => {
    const adminUser = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
    const admin = { id: adminUser.id, token: await sessionFor(server.db, adminUser.id) };
    const nurseClient = client();
    const adminClient = client({ token: admin.token });
    await Promise.all([connected(nurseClient), connected(adminClient)]);
    const clinic = await subscribed(nurseClient, channelName('clinic', clinicId));
    const adminOwn = await subscribed(adminClient, channelName('user', admin.id));

    const created = nextEvent<{ patientIds: string[] }>(clinic, 'patients.created');
    const answer = await server.call<{ data: { id: string } }>('POST', '/patients', {
      token: nurse.token,
      json: { name: 'Olga', secondName: 'Wendt', birthday: '1958-04-04', gender: 'female' },
    });
    expect(answer.status).toBe(201);
    expect(await created).toEqual({ patientIds: [answer.body.data.id] });

    const changed = nextEvent<{ patientIds: string[] }>(clinic, 'patients.changed');
    const notified = nextEvent<{ notificationId: string }>(adminOwn, 'notification.created');
    const request = await server.call('POST', `/patients/${answer.body.data.id}/deletion-request`, { token: nurse.token, json: { reason: 'duplicate' } });
    expect(request.status).toBe(200);
    expect(await changed).toEqual({ patientIds: [answer.body.data.id] });
    const { notificationId } = await notified;
    const list = await server.call<{ data: { id: string; event: string }[]; meta: { unread: number } }>('GET', '/notifications', { token: admin.token });
    expect(list.body.data[0]).toMatchObject({ id: notificationId, event: 'deletion_requested' });
    expect(list.body.meta.unread).toBe(1);
  });

  it('does not echo a change to the page that made it (X-Socket-Id), only to the others', async () => {
    const mine = client();
    const theirs = client();
    await Promise.all([connected(mine), connected(theirs)]);
    const name = channelName('clinic', clinicId);
    const [own, other] = await Promise.all([subscribed(mine, name), subscribed(theirs, name)]);
    const echoed: unknown[] = [];
    own.bind('patients.created', (data: unknown) => echoed.push(data));
    const heard = nextEvent<{ patientIds: string[] }>(other, 'patients.created');
    const answer = await server.call<{ data: { id: string } }>('POST', '/patients', {
      token: nurse.token,
      headers: { 'X-Socket-Id': mine.connection.socket_id },
      json: { name: 'Ada', secondName: 'Lindner', birthday: '1961-02-03', gender: 'female' },
    });
    expect(answer.status).toBe(201);
    expect(await heard).toEqual({ patientIds: [answer.body.data.id] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(echoed).toEqual([]);
  });

  it('comes back after the server restarts, subscribed again, and receives what is published then', async () => {
    const pusher = client();
    await connected(pusher);
    const channel = await subscribed(pusher, channelName('clinic', clinicId));
    const states: string[] = [];
    pusher.connection.bind('state_change', ({ current }: { current: string }) => states.push(current));
    await server.restart({ samePort: true });
    await waitFor<void>((resolve) => {
      const check = ({ current }: { current: string }) => current === 'connected' && resolve();
      pusher.connection.bind('state_change', check);
    }, 15_000, 'reconnected');
    expect(states[0]).not.toBe('connected');
    // pusher-js subscribes its channels again on its own.
    await waitFor<void>((resolve) => (channel.subscribed ? resolve() : channel.bind('pusher:subscription_succeeded', () => resolve())), 5000, 'subscribed again');
    const event = nextEvent(channel, 'treatment.modified');
    await serverSdk(server).trigger(channelName('clinic', clinicId), 'treatment.modified', { patientId: 'p', treatmentId: 't' });
    expect(await event).toEqual({ patientId: 'p', treatmentId: 't' });
  }, 30_000);
});
