// Two server processes on one PostgreSQL database: an event published through one reaches a client
// connected to the other (LISTEN/NOTIFY), whether the official SDK publishes it or the product does, and
// again after the database dropped the listening connections.
// PostgreSQL only: embedded PGlite belongs to one process.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type PusherClient from 'pusher-js';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { channelName } from '../../src/domain/realtime/events';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { connected, nextEvent, realtimeClient, serverSdk, subscribed, waitFor } from './realtime-client';
import { freePort, TEST_REALTIME_SECRET } from './server-process';

const ROOT = resolve(import.meta.dirname, '..', '..');
const databaseUrl = process.env.DATABASE_URL || null;

async function serverProcess(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`server process ended early:\n${output}`);
    if (await fetch(`${url}/api/profile`).then(() => true, () => false)) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server process did not start:\n${output}`);
}

describe.skipIf(!databaseUrl)('realtime across server processes on one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  const clients: PusherClient[] = [];
  let setup: TestServer | null = null;
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    for (const child of children) child.kill('SIGKILL');
    await setup?.close();
  });

  it('delivers what one process publishes to a client of the other', async () => {
    setup = await startServer({ jobs: false, env: { PUSHER_APP_SECRET: TEST_REALTIME_SECRET } });
    const clinicId = await createClinic(setup.db);
    const user = await createUser(setup.db, { clinicId, role: 'clinic_nurses' });
    const token = await sessionFor(setup.db, user.id);
    const { key, secret } = setup.ctx.config.realtime;
    const env = {
      DATABASE_URL: `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${setup.schema}`)}`,
      PUSHER_APP_KEY: key,
      PUSHER_APP_SECRET: secret,
      DATA_DIR: setup.dataDir,
    };
    const [a, b] = await Promise.all([serverProcess(env), serverProcess(env)]);
    children.push(a.child, b.child);

    // The client is connected to B (as a load balancer might have placed it).
    const onB = { ...setup, url: b.url, ctx: setup.ctx } as TestServer;
    const client = realtimeClient(onB, { token });
    clients.push(client);
    await connected(client);
    const channel = await subscribed(client, channelName('clinic', clinicId));

    // Published through A's events API with the SDK…
    const viaSdk = nextEvent(channel, 'treatment.modified');
    await serverSdk({ ...setup, url: a.url } as TestServer).trigger(channelName('clinic', clinicId), 'treatment.modified', { patientId: 'p', treatmentId: 't' });
    expect(await viaSdk).toEqual({ patientId: 'p', treatmentId: 't' });

    // …and by the product: a patient added through A.
    const created = nextEvent<{ patientIds: string[] }>(channel, 'patients.created');
    const answer = await fetch(`${a.url}/api/patients`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Olga', secondName: 'Wendt', birthday: '1958-04-04', gender: 'female' }),
    });
    expect(answer.status).toBe(201);
    const { data } = (await answer.json()) as { data: { id: string } };
    expect(await created).toEqual({ patientIds: [data.id] });

    // The database drops the processes' LISTEN connections: once B listens again it sends its clients to
    // reconnect (what they show is refetched), and events reach them again.
    const states: string[] = [];
    client.connection.bind('state_change', ({ current }: { current: string }) => states.push(current));
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN macula_realtime' and pid <> pg_backend_pid()`.execute(setup.db);
    await expect.poll(() => states.includes('connecting') && client.connection.state === 'connected', { timeout: 20_000 }).toBe(true);
    await waitFor<void>((resolve) => (channel.subscribed ? resolve() : channel.bind('pusher:subscription_succeeded', () => resolve())), 10_000, 'subscribed again');
    const afterGap = nextEvent(channel, 'treatment.modified');
    await serverSdk({ ...setup, url: a.url } as TestServer).trigger(channelName('clinic', clinicId), 'treatment.modified', { patientId: 'p', treatmentId: 'after' });
    expect(await afterGap).toEqual({ patientId: 'p', treatmentId: 'after' });
  }, 90_000);
});
