// `npm run bench:realtime`: the realtime endpoint of one server process (embedded PGlite, no demo data).
// 1. How many sockets it holds: opens `--sockets` websockets (default 15,000: the cost of fewer hides in the
//    embedded database's memory noise), each subscribed to a private channel of its own, and prints the
//    server's resident memory before and after (and per socket).
// 2. How fast one event reaches 1,000 subscribers of one channel (`--subscribers`): publishes `--events`
//    events (default 50) one after another through the official `pusher` SDK, as the product does, and prints
//    p50 and p99 of the time from the publish call to each subscriber's receipt, and of the time to the last.
// Clients are plain `ws` sockets speaking the protocol (pusher-js per socket would measure the clients).
// Loopback only; the server and the clients share the machine's cores. Stops by itself.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Pusher from 'pusher';
import WebSocket from 'ws';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '15000' },
    subscribers: { type: 'string', default: '1000' },
    events: { type: 'string', default: '50' },
  },
});
const SOCKETS = Number(values.sockets);
const SUBSCRIBERS = Number(values.subscribers);
const EVENTS = Number(values.events);
const PORT = 8098;
const KEY = 'bench-key';
const SECRET = '3b8e1f6a9c2d7e40b5a18f3c6e9d2b7a';
const APP_ID = 'bench-app';
const ROOT = join(import.meta.dirname, '..');

const sign = (socketId: string, channel: string) => `${KEY}:${createHmac('sha256', SECRET).update(`${socketId}:${channel}`).digest('hex')}`;
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server's resident memory once it has settled: the median of five readings a second apart. */
async function settledRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    await sleep(1000);
    readings.push(rssMiB(pid));
  }
  return readings.sort((a, b) => a - b)[2];
}

interface Client {
  ws: WebSocket;
  onEvent?: (event: string, data: string) => void;
}

/** A socket subscribed to `channel`: resolves once the server confirmed the subscription. */
function subscriber(channel: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${PORT}/app/${KEY}?protocol=7&client=bench&version=1`, { perMessageDeflate: false });
    const client: Client = { ws };
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: string; channel?: string };
      if (frame.event === 'pusher:connection_established') {
        const { socket_id: socketId } = JSON.parse(frame.data) as { socket_id: string };
        ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth: sign(socketId, channel) } }));
      } else if (frame.event === 'pusher_internal:subscription_succeeded') {
        resolve(client);
      } else if (frame.event === 'pusher:ping') {
        ws.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
      } else if (!frame.event.startsWith('pusher')) {
        client.onEvent?.(frame.event, frame.data);
      } else if (frame.event === 'pusher:error' || frame.event === 'pusher:subscription_error') {
        reject(new Error(`refused: ${String(raw)}`));
      }
    });
  });
}

/** `count` subscribers, opened 200 at a time. */
async function subscribers(count: number, channelOf: (index: number) => string): Promise<Client[]> {
  const clients: Client[] = [];
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, (_, i) => subscriber(channelOf(start + i)));
    clients.push(...(await Promise.all(batch)));
  }
  return clients;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-bench-realtime-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUSHER_APP_ID: APP_ID,
      PUSHER_APP_KEY: KEY,
      PUSHER_APP_SECRET: SECRET,
      REALTIME_MAX_CONNECTIONS: String(SOCKETS + SUBSCRIBERS + 100),
      // Every bench socket comes from 127.0.0.1: the cap per address would stop them at 500.
      REALTIME_MAX_PER_ADDRESS: String(SOCKETS + SUBSCRIBERS + 100),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    for (let i = 0; ; i += 1) {
      if (await fetch(`http://127.0.0.1:${PORT}/api/legal/eula`).then(() => true, () => false)) break;
      if (i > 300 || server.exitCode !== null) throw new Error('the server did not start');
      await sleep(100);
    }
    const pid = server.pid!;
    // The embedded database's start-up allocations settle first.
    await sleep(5000);
    console.log(`Realtime bench: one server process (Node ${process.version}, PGlite), clients in this process, loopback.`);

    // 1. Sockets held.
    const before = await settledRss(pid);
    const started = Date.now();
    const held = await subscribers(SOCKETS, (index) => `private-user.bench-${index}`);
    const after = await settledRss(pid);
    console.log(
      `sockets: ${held.length} open and subscribed in ${((Date.now() - started) / 1000).toFixed(1)} s; server RSS ${before.toFixed(0)} MiB → ${after.toFixed(0)} MiB ` +
        `(${(((after - before) * 1024) / held.length).toFixed(1)} KiB per socket)`,
    );
    for (const client of held) client.ws.close();
    await sleep(1000);

    // 2. One event to many subscribers.
    const channel = 'private-clinic.bench';
    const audience = await subscribers(SUBSCRIBERS, () => channel);
    const sdk = new Pusher({ appId: APP_ID, key: KEY, secret: SECRET, host: '127.0.0.1', port: String(PORT), useTLS: false });
    const each: number[] = [];
    const last: number[] = [];
    for (let n = 0; n < EVENTS; n += 1) {
      let received = 0;
      const sent = performance.now();
      const done = new Promise<void>((resolve) => {
        for (const client of audience) {
          client.onEvent = () => {
            each.push(performance.now() - sent);
            received += 1;
            if (received === audience.length) resolve();
          };
        }
      });
      await sdk.trigger(channel, 'treatment.modified', { patientId: 'bench', treatmentId: String(n) });
      await done;
      last.push(performance.now() - sent);
      await sleep(20);
    }
    each.sort((a, b) => a - b);
    last.sort((a, b) => a - b);
    console.log(
      `delivery of one event to ${audience.length} subscribers (${EVENTS} events, publish call → receipt): ` +
        `each p50 ${percentile(each, 50).toFixed(1)} ms, p99 ${percentile(each, 99).toFixed(1)} ms; ` +
        `last subscriber p50 ${percentile(last, 50).toFixed(1)} ms, p99 ${percentile(last, 99).toFixed(1)} ms`,
    );
    for (const client of audience) client.ws.close();
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
