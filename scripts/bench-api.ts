// `npm run bench:api`: how fast the patient list answers with 10,000 patients, on the reference server and on
// Prism (the contract's mock), at 64 connections for 10 s each, in three kinds of request measured apart:
// - cached page: one URL (`page=20&perPage=20`) after warming that same URL, so the server answers it from
//   its page cache — what a clinic meets when it reopens the list it just saw;
// - random page and sort: each request one of 6,000 URLs (every page of every order, 500 pages × 12 orders),
//   most of them not in the server's memory — what paging and sorting through a clinic meets;
// - search: each request one of 10,000 search terms made from the seeded names (a given name, a second
//   name, the start of one, both in either order, in any case) — what typing a name meets.
// On the embedded database (PGlite) and on PostgreSQL (`--db pglite|postgres|both`, DATABASE_URL names the
// server, default postgres://postgres@127.0.0.1:5432/test; the bench makes a database of its own there and
// drops it). Prints a table per database with requests per second, p50, p99 and errors of the server and of
// Prism for the same requests, and their ratio; a bare Fastify route for scale. Loopback only; stops by itself.
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
    // Only the kinds of request whose name contains this (e.g. `random`), to compare changes quickly.
    only: { type: 'string', default: '' },
  },
});
const PATIENTS = Number(values.patients);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SERVER_PORT = 8096;
const PRISM_PORT = 4096;
const FASTIFY_PORT = 8097;

// The seeded names (seedPatients): given names Bench0…Bench96, second names Patient00000…
const givenName = (n: number) => `Bench${n % 97}`;
const secondName = (n: number) => `Patient${String(n).padStart(5, '0')}`;

// Every page of 20 of the seeded patients (500 of 10,000) in each of the 12 orders.
const PAGES = Math.ceil(PATIENTS / 20);
const SORTS = ['name', 'secondName', 'birthday', 'latestSessionDate', 'treatmentsCount', 'createdAt'].flatMap((key) => [key, `-${key}`]);

/** The three kinds of request, each a set of paths below /api that a request picks one of at random. */
const ALL_SCENARIOS: { name: string; paths: string[] }[] = [
  { name: 'cached page (page 20)', paths: ['/patients?page=20&perPage=20'] },
  {
    name: `random page and sort (${(SORTS.length * PAGES).toLocaleString('en')})`,
    paths: SORTS.flatMap((sort) => Array.from({ length: PAGES }, (_, i) => `/patients?page=${i + 1}&perPage=20&sort=${sort}`)),
  },
  {
    name: `search (${PATIENTS.toLocaleString('en')} terms)`,
    paths: Array.from({ length: PATIENTS }, (_, n) => {
      // A patient's names, spread over the clinic (a stride coprime to the count), typed in one of five ways.
      const m = (n * 7919) % PATIENTS;
      const terms = [givenName(m), secondName(m), secondName(m).slice(0, 10), `${givenName(m)} ${secondName(m)}`, `${secondName(m)} ${givenName(m)}`];
      const term = terms[n % terms.length]!;
      return `/patients?search=${encodeURIComponent(n % 2 ? term.toLowerCase() : term.toUpperCase())}`;
    }),
  },
];
const SCENARIOS = ALL_SCENARIOS.filter((scenario) => scenario.name.includes(values.only));

type Figures = { rps: number; p50: number; p99: number; errors: number };

/**
 * `paths` at random (one each request) below `api` (the server's /api, Prism's root), after a short warm-up
 * on the same paths. A first request of each path kind must answer 200: figures of error answers mean nothing.
 */
async function measure(api: string, paths: string[], headers: Record<string, string> = {}): Promise<Figures> {
  const { origin, pathname } = new URL(api);
  const prefix = pathname.replace(/\/$/, '');
  for (const path of new Set([paths[0], paths.at(-1)])) {
    const answer = await fetch(`${origin}${prefix}${path}`, { headers });
    if (answer.status !== 200) throw new Error(`GET ${origin}${prefix}${path} answered ${answer.status}: ${await answer.text()}`);
  }
  const pick = (request: { path: string }) => ({ ...request, path: `${prefix}${paths[Math.floor(Math.random() * paths.length)]}` });
  const requests = [{ method: 'GET' as const, path: `${prefix}${paths[0]}`, headers, setupRequest: pick }];
  // A short warm-up, so JIT and caches are the same for every target.
  await autocannon({ url: origin, requests, connections: 8, duration: 2 });
  const result = await autocannon({ url: origin, requests, connections: CONNECTIONS, duration: SECONDS });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** PATIENTS active patients of the demo clinic, most with one to three sessions in every state. */
async function seedPatients(databaseUrl: string | null, dataDir: string): Promise<void> {
  const { db } = await openConfiguredDatabase({ databaseUrl, dataDir });
  try {
    const { id: clinicId } = await db.selectFrom('clinics').select('id').executeTakeFirstOrThrow();
    const left = await db.selectFrom('jobs').select(['kind', 'state']).where('state', 'in', ['queued', 'running']).execute();
    if (left.length) console.log(`  jobs of the demo clinic still queued: ${left.map((job) => `${job.kind} (${job.state})`).join(', ')}`);
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
              name: givenName(n),
              second_name: secondName(n),
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

/** Waits (at most two minutes) until no job of the demo seed is left in the queue. */
async function demoProcessed(baseUrl: string): Promise<void> {
  const headers = { Authorization: `Bearer ${await signInToken(baseUrl)}` };
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answers = await Promise.all(
      ['processing', 'file_uploaded'].map((status) =>
        fetch(`${baseUrl}/api/patients?planStatus=${status}`, { headers }).then((answer) => answer.json() as Promise<{ meta: { total: number } }>),
      ),
    );
    if (answers.every((answer) => answer.meta.total === 0)) break;
    if (Date.now() > deadline) throw new Error('the demo clinic\'s exams were not processed within two minutes');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Every scenario on the reference server on `database`, with PATIENTS patients seeded beside the demo clinic. */
async function benchReferenceServer(database: 'pglite' | 'postgres'): Promise<Figures[]> {
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
    // A busy machine may take minutes to start a server (the test run of another checkout beside it).
    const start = { dataDir, databaseUrl, root: values.root, readyTimeoutMs: 300_000 };
    let server = await startReferenceServer(SERVER_PORT, start);
    // The demo clinic's exams are processed in the background after the first start. Left queued, they would
    // run during the measurements, and each raise the clinic's list version (what a list request is then
    // measured against is a clinic whose exams are being processed: bench:responsiveness).
    await demoProcessed(server.url);
    await server.stop();
    const seeding = performance.now();
    await seedPatients(databaseUrl || null, dataDir);
    console.log(`  ${database}: seeded ${PATIENTS} patients in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    server = await startReferenceServer(SERVER_PORT, start);
    try {
      const headers = { Authorization: `Bearer ${await signInToken(server.url)}` };
      const figures: Figures[] = [];
      for (const scenario of SCENARIOS) figures.push(await measure(`${server.url}/api`, scenario.paths, headers));
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase();
  }
}

async function benchPrism(): Promise<Figures[]> {
  const prism = spawn(process.execPath, ['node_modules/@stoplight/prism-cli/dist/index.js', 'mock', 'generated/openapi.yaml', '--host', '127.0.0.1', '--port', String(PRISM_PORT), '--errors', 'false'], {
    stdio: 'ignore',
  });
  // Prism serves the contract's paths at its root, without the server's /api.
  const origin = `http://127.0.0.1:${PRISM_PORT}`;
  const headers = { Authorization: 'Bearer x' };
  try {
    for (let waited = 0; waited < 60_000; waited += 250) {
      const up = await fetch(`${origin}${SCENARIOS[0]!.paths[0]}`, { headers }).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const figures: Figures[] = [];
    for (const scenario of SCENARIOS) figures.push(await measure(origin, scenario.paths, headers));
    return figures;
  } finally {
    prism.kill('SIGTERM');
  }
}

async function benchFastify(): Promise<Figures> {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ status: 'Success', data: { hello: 'world' } }));
  await app.listen({ port: FASTIFY_PORT, host: '127.0.0.1' });
  try {
    return await measure(`http://127.0.0.1:${FASTIFY_PORT}`, ['/hello']);
  } finally {
    await app.close();
  }
}

const cells = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(9)}${`${f.p50} ms`.padStart(9)}${`${f.p99} ms`.padStart(10)}${String(f.errors).padStart(7)}`;
const heading = `${'req/s'.padStart(9)}${'p50'.padStart(9)}${'p99'.padStart(10)}${'errors'.padStart(7)}`;

function table(database: string, server: Figures[], prism: Figures[]): string {
  const lines = [
    `\n${database} — ${PATIENTS.toLocaleString('en')} patients, ${CONNECTIONS} connections × ${SECONDS} s`,
    `${''.padEnd(30)}${'reference server'.padEnd(35)}${'Prism'.padEnd(35)}`,
    `${'GET /api/patients'.padEnd(30)}${heading}  ${heading}${'× Prism'.padStart(10)}`,
  ];
  SCENARIOS.forEach((scenario, i) => {
    const ratio = `${(server[i]!.rps / prism[i]!.rps).toFixed(2)} ×`;
    lines.push(`${scenario.name.padEnd(30)}${cells(server[i]!)}  ${cells(prism[i]!)}${ratio.padStart(10)}`);
  });
  return lines.join('\n');
}

async function main() {
  const databases = values.db === 'both' ? (['pglite', 'postgres'] as const) : [values.db as 'pglite' | 'postgres'];
  console.log(`bench:api — GET /api/patients, ${PATIENTS} patients, ${CONNECTIONS} connections × ${SECONDS} s per measurement`);
  const prism = await benchPrism();
  const fastify = await benchFastify();
  const measured = [];
  for (const database of databases) measured.push({ database, figures: await benchReferenceServer(database) });
  for (const { database, figures } of measured) console.log(table(database === 'pglite' ? 'PGlite' : 'PostgreSQL', figures, prism));
  console.log(`\nbare Fastify (a small JSON answer, for scale): ${cells(fastify)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
