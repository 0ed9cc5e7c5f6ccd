// `npm run bench:devices [-- --devices N --seconds S --db pglite|postgres|both]`: N lasers' sync apps (default
// 200) against one reference server process (issue 29). Each device is added by the IT admin and enrolled with
// its code, then reports itself every 10 s (staggered over the interval) and asks what waits for it, as the
// reference sync app does, for S seconds (default 60). Meanwhile one demo laser, enrolled afresh, fetches the
// parameter set queued for it when the demo was packed, once a second. Prints the p50/p99/max of heartbeats, of
// the lists and of the fetches, errors, and the server's resident memory before and after; exit 1 on any error.
// PostgreSQL: DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/test); the bench makes
// a database of its own there and drops it afterwards.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEMO_LOGINS, startReferenceServer, type ReferenceServer } from './contract-check/reference-server';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    db: { type: 'string', default: 'pglite' },
    port: { type: 'string', default: '8097' },
  },
});
const DEVICES = Number(values.devices);
const SECONDS = Number(values.seconds);
const PORT = Number(values.port);
const HEARTBEAT_MS = 10_000;
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
if (!Number.isInteger(DEVICES) || DEVICES < 1 || !Number.isFinite(SECONDS) || SECONDS < 10 || !['pglite', 'postgres', 'both'].includes(values.db!)) {
  console.error('usage: npm run bench:devices -- [--devices N ≥ 1] [--seconds S ≥ 10] [--db pglite|postgres|both]');
  process.exit(2);
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(url: string, method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; json: Json; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let json: Json = {};
  try {
    json = text ? (JSON.parse(text) as Json) : {};
  } catch {
    // A file (the parameter set): its bytes are what was timed.
  }
  return { status: response.status, json, ms };
}

const quantile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);
/** The resident memory of the server: the process and its children (tsx runs the server in a child of its own). */
function residentMiB(pid: number): number {
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return rss + children.reduce((sum, child) => sum + residentMiB(child), 0);
}

class Timings {
  readonly ms: number[] = [];
  errors = 0;
  add(answer: { status: number; ms: number }) {
    if (answer.status >= 200 && answer.status < 300) this.ms.push(answer.ms);
    else this.errors += 1;
  }
  line(name: string) {
    const sorted = [...this.ms].sort((a, b) => a - b);
    const f = (v: number) => v.toFixed(1).padStart(7);
    return `  ${name.padEnd(22)} ${String(sorted.length).padStart(6)} ok ${String(this.errors).padStart(4)} errors   p50 ${f(quantile(sorted, 0.5))} ms   p99 ${f(quantile(sorted, 0.99))} ms   max ${f(sorted.at(-1) ?? NaN)} ms`;
  }
}

async function enrolDevices(server: ReferenceServer, adminToken: string): Promise<string[]> {
  const credentials: string[] = [];
  for (let i = 0; i < DEVICES; i += 1) {
    const added = await call(server.url, 'POST', '/clinic/devices', adminToken, { deviceId: `BENCH-${String(i).padStart(5, '0')}`, opticalHeadId: 'OH-BENCH', camera: 'Bench' });
    if (added.status !== 201) throw new Error(`adding device ${i}: ${added.status} ${JSON.stringify(added.json)}`);
    const enrolled = await call(server.url, 'POST', '/device/enrolment', null, { code: added.json.data.enrolment.code, syncAppVersion: 'bench' });
    if (enrolled.status !== 200) throw new Error(`enrolling device ${i}: ${enrolled.status} ${JSON.stringify(enrolled.json)}`);
    credentials.push(enrolled.json.data.credential);
  }
  return credentials;
}

/** A demo laser enrolled afresh, and a parameter set queued for it (the demo's packed sessions). */
async function demoLaserWithParameterSet(server: ReferenceServer, adminToken: string): Promise<{ credential: string; transferId: string } | null> {
  const devices = await call(server.url, 'GET', '/clinic/devices?perPage=100&search=MLS', adminToken);
  for (const device of devices.json.data ?? []) {
    const code = await call(server.url, 'POST', `/clinic/devices/${device.id}/enrolment-code`, adminToken);
    const enrolled = await call(server.url, 'POST', '/device/enrolment', null, { code: code.json.data.enrolment.code, syncAppVersion: 'bench' });
    const credential: string = enrolled.json.data.credential;
    const waiting = await call(server.url, 'GET', '/device/parameter-sets', credential);
    if (waiting.json.data?.length) return { credential, transferId: waiting.json.data[0].id };
  }
  return null;
}

async function bench(database: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-bench-devices-'));
  let databaseUrl = '';
  const name = `macula_bench_devices_${process.pid}`;
  if (database === 'postgres') {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  const server = await startReferenceServer(PORT, { dataDir, databaseUrl, readyTimeoutMs: 300_000 });
  try {
    const signIn = await call(server.url, 'POST', '/sign-in', null, { email: DEMO_LOGINS.clinic_it_admins.email, password: DEMO_LOGINS.clinic_it_admins.password });
    const adminToken: string = signIn.json.data.token;
    const enrolling = performance.now();
    const credentials = await enrolDevices(server, adminToken);
    console.log(`${database}: ${DEVICES} devices added and enrolled in ${((performance.now() - enrolling) / 1000).toFixed(1)} s`);
    const fetcher = await demoLaserWithParameterSet(server, adminToken);
    const memoryBefore = residentMiB(server.pid);

    const heartbeats = new Timings();
    const lists = new Timings();
    const fetches = new Timings();
    const end = performance.now() + SECONDS * 1000;
    const device = async (credential: string, index: number) => {
      // Staggered over the interval, as sync apps started at different times are.
      await new Promise((resolve) => setTimeout(resolve, (index * HEARTBEAT_MS) / DEVICES));
      while (performance.now() < end) {
        const cycle = performance.now();
        heartbeats.add(await call(server.url, 'POST', '/device/heartbeat', credential, { syncAppVersion: 'bench' }));
        lists.add(await call(server.url, 'GET', '/device/parameter-sets', credential));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, HEARTBEAT_MS - (performance.now() - cycle))));
      }
    };
    const fetching = async () => {
      if (!fetcher) return;
      while (performance.now() < end) {
        fetches.add(await call(server.url, 'GET', `/device/parameter-sets/${fetcher.transferId}/file`, fetcher.credential));
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };
    await Promise.all([...credentials.map(device), fetching()]);
    const memoryAfter = residentMiB(server.pid);
    console.log(`${database}: ${DEVICES} devices, a heartbeat and a list every ${HEARTBEAT_MS / 1000} s each, for ${SECONDS} s`);
    console.log(heartbeats.line('heartbeat'));
    console.log(lists.line('list parameter sets'));
    console.log(fetcher ? fetches.line('fetch a parameter set') : '  fetch a parameter set: no demo laser had one queued');
    console.log(`  server memory (RSS)    ${memoryBefore.toFixed(0)} MiB after enrolling, ${memoryAfter.toFixed(0)} MiB at the end`);
    return heartbeats.errors + lists.errors + fetches.errors;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (database === 'postgres') {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

let errors = 0;
for (const database of values.db === 'both' ? (['pglite', 'postgres'] as const) : [values.db as 'pglite' | 'postgres']) errors += await bench(database);
process.exit(errors ? 1 : 0);
