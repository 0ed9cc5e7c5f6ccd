// What a background job changes is announced to every page of the clinic, the page that queued the job
// included. A request's own change is not echoed to the page that made it (X-Socket-Id), but the job it
// queues finishes later: the uploading page must hear that its session is processed, and the signing
// page that its parameter set is packed. (The worker used to run in the waking request's context, so the
// job's events left out that page, which then waited for its 15-s safety-net re-read.)
import type PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelName } from '../../src/domain/realtime/events';
import { smallExam } from './exam-files';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { planToSignOff } from './planning';
import { connected, nextEvent, realtimeClient, subscribed } from './realtime-client';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

let server: TestServer;
let clinicId: string;
let token: string;
const clients: PusherClient[] = [];

beforeAll(async () => {
  server = await startServer();
  clinicId = await createClinic(server.db);
  const physician = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
  token = await sessionFor(server.db, physician.id);
});
afterAll(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await server.close();
});

async function page() {
  const client = realtimeClient(server, { token });
  clients.push(client);
  await connected(client);
  return { socketId: client.connection.socket_id, channel: await subscribed(client, channelName('clinic', clinicId)) };
}

describe('events of the jobs a page queued', () => {
  it('reach that page: processed after its upload, packed after its sign-off', async () => {
    const mine = await page();
    const headers = { 'X-Socket-Id': mine.socketId };

    const processed = nextEvent<{ treatmentId: string }>(mine.channel, 'treatment.processed', 15_000);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array((await smallExam({ seed: 71 })).bytes)]), 'exam.npt');
    const created = await server.call<Body>('POST', '/treatments', { token, form, headers });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.treatment.id as string;
    expect((await processed).treatmentId).toBe(id);

    const plan = await planToSignOff(server, id, token);
    const packed = new Promise<void>((resolve) => {
      mine.channel.bind('treatment.modified', async ({ treatmentId }: { treatmentId: string }) => {
        if (treatmentId !== id) return;
        const session = await server.call<Body>('GET', `/treatments/${id}`, { token });
        if (session.body.data.step === 'available') resolve();
      });
    });
    const signed = await server.call<Body>('POST', `/treatments/${id}/confirm`, { token, headers, json: { revision: plan.revision, password: PASSWORD, confirm: true } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await expect(Promise.race([packed.then(() => 'heard'), new Promise((resolve) => setTimeout(resolve, 10_000, 'not heard'))])).resolves.toBe('heard');
  }, 60_000);
});
