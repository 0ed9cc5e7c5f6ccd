// `npm run bench:api`: how fast the patient list answers with 10,000 patients. In one run, each at 64
// connections for 10 s: an authenticated `GET /api/patients?page=20&perPage=20` on the reference server, the
// same call on Prism (the contract's mock), and a bare Fastify route answering a small JSON object; on the
// embedded database (PGlite) and on PostgreSQL (`--db pglite|postgres|both`, DATABASE_URL names the server,
// default postgres://postgres@127.0.0.1:5432/test; the bench makes a database of its own there and drops it).
// Prints requests per second, p50 and p99 and the ratios; beside them, on each database, the same list at any
// of 6,000 pages and orders (mostly not in the server's memory). Loopback only; stops by itself.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { openConfiguredDatabase } from '../server/db/database';
import { DEMO_LOGINS, startReferenceServer } from './contract-check/reference-server';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    patients: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    // Another checkout's server (e.g. a worktree of an earlier commit), for before/after figures.
    root: { type: 'string', default: process.cwd() },
  },
});
const PATIENTS = Number(values.patients);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const LIST_PATH = '/patients?page=20&perPage=20';
const SORTS = ['name', 'secondName', 'birthday', 'latestSessionDate', 'treatmentsCount', 'createdAt'].flatMap((key) => [key, `-${key}`]);
const ANY_PAGE_PATHS = SORTS.flatMap((sort) => Array.from({ length: 500 }, (_, i) => `/api/patients?page=${i + 1}&perPage=20&sort=${sort}`));
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SERVER_PORT = 8096;
const PRISM_PORT = 4096;
const FASTIFY_PORT = 8097;

type Figures = { name: string; rps: number; p50: number; p99: number; errors: number };

async function measure(name: string, url: string, headers: Record<string, string> = {}, paths?: string[]): Promise<Figures> {
  // A short warm-up, so JIT and caches are the same for every target.
  const { origin, pathname, search } = new URL(url);
  // With `paths`, each request asks for one of them at random (setupRequest runs before every request).
  const pick = paths ? (request: { path: string }) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)] }) : undefined;
  const requests = [{ method: 'GET' as const, path: `${pathname}${search}`, headers, ...(pick ? { setupRequest: pick } : {}) }];
  await autocannon({ url: origin, requests, connections: 8, duration: 2 });
  const result = await autocannon({ url: origin, requests, connections: CONNECTIONS, duration: SECONDS });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** 10,000 active patients of the demo clinic, most with one to three sessions in every state. */
async function seedPatients(databaseUrl: string | null, dataDir: string): Promise<void> {
  const { db } = await openConfiguredDatabase({ databaseUrl, dataDir });
  try {
    const { id: clinicId } = await db.selectFrom('clinics').select('id').executeTakeFirstOrThrow();
    const states = ['processed', 'processed', 'processed', 'failed', 'processing'];
    const steps = ['initial_exclusion_boundaries', 'macula_grid_pattern', 'brightness', 'available'];
    const batch = 500;
    for (let start = 0; start < PATIENTS; start += batch) {
      const patients = await db
        .insertInto('patients')
        .values(
          Array.from({ length: Math.min(batch, PATIENTS - start) }, (_, i) => {
            const n = start + i;
            return {
              clinic_id: clinicId,
              name: `Bench${n % 97}`,
              second_name: `Patient${String(n).padStart(5, '0')}`,
              birthday: `19${40 + (n % 50)}-0${1 + (n % 9)}-1${n % 10}`,
              gender: ['male', 'female', 'other'][n % 3],
            };
          }),
        )
        .returning('id')
        .execute();
      const treatments = patients.flatMap(({ id }, i) =>
        Array.from({ length: (start + i) % 4 }, (_, k) => ({
          clinic_id: clinicId,
          patient_id: id,
          number: k + 1,
          date: new Date(Date.UTC(2025, (start + i + k) % 12, 1 + ((start + i) % 28), 8 + k)),
          eye: 'OD',
          step: steps[(start + i + k) % steps.length],
          processing_state: states[(start + i + k) % states.length],
        })),
      );
      if (treatments.length) await db.insertInto('treatments').values(treatments).execute();
    }
    // Fresh statistics, as autovacuum would gather soon after such an import: the plans are the steady state's.
    await sql`analyze`.execute(db);
  } finally {
    await db.destroy();
  }
}

async function signInToken(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO_LOGINS.clinic_physicians),
  });
  return ((await answer.json()) as { data: { token: string } }).data.token;
}

/** The reference server on `database` with 10,000 patients seeded beside the demo clinic. */
async function benchReferenceServer(database: 'pglite' | 'postgres'): Promise<[Figures, Figures]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-bench-api-'));
  let databaseUrl = '';
  let dropDatabase = async () => undefined as void;
  if (database === 'postgres') {
    const name = `macula_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  try {
    // First start: migrations and the demo clinic; then the patients, with the server stopped (PGlite is
    // one process's), then the server again on the full database.
    let server = await startReferenceServer(SERVER_PORT, { dataDir, databaseUrl, root: values.root });
    await server.stop();
    const seeding = performance.now();
    await seedPatients(databaseUrl || null, dataDir);
    console.log(`  seeded ${PATIENTS} patients in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    server = await startReferenceServer(SERVER_PORT, { dataDir, databaseUrl, root: values.root });
    try {
      const token = await signInToken(server.url);
      const headers = { Authorization: `Bearer ${token}` };
      const figures = await measure(`reference server (${database})`, `${server.url}/api${LIST_PATH}`, headers);
      // Beside the target: any of 6,000 pages (every page of every order), most of them read from the
      // database, as the server keeps at most 2,000 pages in memory. Not compared with Prism.
      const anyPage = await measure(`  any page (${database})`, `${server.url}/api${LIST_PATH}`, headers, ANY_PAGE_PATHS);
      return [figures, anyPage];
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  }
}

async function benchPrism(): Promise<Figures> {
  const prism = spawn(process.execPath, ['node_modules/@stoplight/prism-cli/dist/index.js', 'mock', 'generated/openapi.yaml', '--host', '127.0.0.1', '--port', String(PRISM_PORT), '--errors', 'false'], {
    stdio: 'ignore',
  });
  try {
    for (let waited = 0; waited < 30_000; waited += 250) {
      const up = await fetch(`http://127.0.0.1:${PRISM_PORT}${LIST_PATH}`, { headers: { Authorization: 'Bearer x' } }).then(
        (r) => r.status < 500,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return await measure('Prism', `http://127.0.0.1:${PRISM_PORT}${LIST_PATH}`, { Authorization: 'Bearer x' });
  } finally {
    prism.kill('SIGTERM');
  }
}

async function benchFastify(): Promise<Figures> {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ status: 'Success', data: { hello: 'world' } }));
  await app.listen({ port: FASTIFY_PORT, host: '127.0.0.1' });
  try {
    return await measure('bare Fastify', `http://127.0.0.1:${FASTIFY_PORT}/hello`);
  } finally {
    await app.close();
  }
}

const row = (f: Figures) =>
  `${f.name.padEnd(28)}${f.rps.toFixed(0).padStart(10)}${`${f.p50} ms`.padStart(10)}${`${f.p99} ms`.padStart(10)}${String(f.errors).padStart(8)}`;

async function main() {
  const databases = values.db === 'both' ? (['pglite', 'postgres'] as const) : [values.db as 'pglite' | 'postgres'];
  console.log(`bench:api — GET /api${LIST_PATH}, ${PATIENTS} patients, ${CONNECTIONS} connections × ${SECONDS} s`);
  const prism = await benchPrism();
  const fastify = await benchFastify();
  const measured: [Figures, Figures][] = [];
  for (const database of databases) measured.push(await benchReferenceServer(database));
  const servers = measured.map(([figures]) => figures);
  console.log(`\n${'target'.padEnd(28)}${'req/s'.padStart(10)}${'p50'.padStart(10)}${'p99'.padStart(10)}${'errors'.padStart(8)}`);
  for (const figures of [...measured.flat(), prism, fastify]) console.log(row(figures));
  console.log('');
  for (const server of servers) {
    console.log(
      `${server.name}: ${(server.rps / prism.rps).toFixed(2)} × Prism, ${(server.rps / fastify.rps).toFixed(4)} × bare Fastify`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
