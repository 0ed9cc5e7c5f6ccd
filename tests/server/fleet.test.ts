// A fleet on one machine: two server processes on one PostgreSQL database and one object store, each with a
// data directory of its own (nothing shared on disk), behind a round-robin proxy. A session is uploaded through
// A, processed by whichever instance claims it, planned through B, signed off through A, and its parameter set
// downloaded through B with the same bytes and SHA-256 as through A. Then an instance is killed with SIGKILL in
// the middle of processing, and the other finishes the job, once.
// PostgreSQL only: embedded PGlite belongs to one process.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSampleExam } from '../../server/seed/sample-exam';
import { sha256Hex } from '../../server/storage/store';
import { createClinic, createUser, PASSWORD, sessionFor, signIn } from './fixtures';
import { callApi, startServer, type TestServer } from './helper';
import { OBJECT_STORE_CREDENTIALS, type ObjectStore, startObjectStore } from './object-store';
import { planToSignOff } from './planning';
import { type ServerProcess, spawnServer, until } from './server-process';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `callApi`

const databaseUrl = process.env.DATABASE_URL || null;

/** Sends each request to the next instance in turn (a load balancer without affinity). */
function roundRobin(targets: string[]): Promise<{ url: string; server: Server; served: number[] }> {
  const served = targets.map(() => 0);
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const index = next;
    next = (next + 1) % targets.length;
    served[index] += 1;
    const target = new URL(targets[index]);
    const forward = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, served })),
  );
}

describe.skipIf(!databaseUrl)('two server instances on one PostgreSQL and one object store, behind a round-robin proxy', () => {
  const instances: ServerProcess[] = [];
  const dirs: string[] = [];
  let objects: ObjectStore | null = null;
  let setup: TestServer | null = null;
  let proxy: Server | null = null;
  afterAll(async () => {
    proxy?.close();
    for (const instance of instances) instance.child.kill('SIGKILL');
    await setup?.close();
    await objects?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('upload through A, plan through B, sign off through A, download through B; an instance killed mid-job leaves it to the other', async () => {
    objects = await startObjectStore();
    const storage = objects.env(`fleet-${randomUUID().slice(0, 8)}`);
    setup = await startServer({ jobs: false, env: storage });
    const clinicId = await createClinic(setup.db);
    const physician = await createUser(setup.db, { clinicId, role: 'clinic_physicians' });
    const token = await sessionFor(setup.db, physician.id);
    const env = {
      ...storage,
      DATABASE_URL: `${databaseUrl}?options=${encodeURIComponent(`-c search_path=${setup.schema}`)}`,
      PUSHER_APP_KEY: setup.ctx.config.realtime.key,
      PUSHER_APP_SECRET: setup.ctx.config.realtime.secret,
      // Each job waits 3 s midway (after detection, before anything is stored), so that an instance can be
      // killed there; a dead instance's job is taken over 2 s after its last lease renewal.
      NODE_ENV: 'development',
      MACULA_FAULT_JOB_PAUSE_MS: '3000',
      JOB_LEASE_SECONDS: '2',
      LOG_LEVEL: 'warn',
    };
    for (const name of ['a', 'b']) dirs.push(mkdtempSync(join(tmpdir(), `macula-fleet-${name}-`)));
    // One after the other: the fake S3 server (s3rver) keeps objects as files and removes a folder when its last
    // object goes, so two start-up checks at once under `.macula-check/` could lose each other's folder and
    // s3rver throws an uncaught ENOENT (seen once on PostgreSQL). A real bucket has no folders.
    const a = await spawnServer(dirs[0], env, 60_000);
    instances.push(a);
    const b = await spawnServer(dirs[1], env, 60_000);
    instances.push(b);
    const balanced = await roundRobin([a.url, b.url]);
    proxy = balanced.server;
    const call = (origin: string, method: string, path: string, options: Parameters<typeof callApi>[3] = {}) =>
      callApi<Body>(origin, method, path, { token, ...options });
    const treatmentOf = async (origin: string, id: string) => (await call(origin, 'GET', `/treatments/${id}`)).body.data;

    // Sign-in throttling is shared: five wrong passwords, whichever instance hears them, hold the account back.
    const wrong = [];
    for (let i = 0; i < 6; i += 1) wrong.push((await callApi(balanced.url, 'POST', '/sign-in', { json: { email: physician.email, password: 'not-it', remember: false } })).status);
    expect(wrong).toEqual([401, 401, 401, 401, 401, 429]);
    await setup.db.deleteFrom('throttles').execute();
    // A token from one instance is good on the other.
    const signedIn = await signIn({ call: (method, path, options) => callApi(a.url, method, path, options) } as TestServer, physician.email, PASSWORD);
    expect((await callApi(b.url, 'GET', '/user/profile', { token: signedIn })).status).toBe(200);

    // Upload through A; processed by whichever instance claims it.
    const exam = await buildSampleExam({ seed: 811 });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
    const uploaded = await call(a.url, 'POST', '/treatments', { form });
    expect(uploaded.status).toBe(201);
    const id: string = uploaded.body.data.treatment.id;
    await until('planning', async () => ((await treatmentOf(balanced.url, id)).planStatus === 'planning' ? true : null));
    const imageId: string = (await treatmentOf(a.url, id)).images[0].id;
    const images = await Promise.all([a.url, b.url].map(async (origin) => (await call(origin, 'GET', `/treatments/${id}/images/${imageId}/display`)).body as unknown as Buffer));
    expect(images[0].equals(images[1])).toBe(true);

    // Plan through B, sign off through A.
    const plan = await planToSignOff({ call: (method, path, options) => callApi(b.url, method, path, options) }, id, token);
    const signed = await call(a.url, 'POST', `/treatments/${id}/confirm`, { json: { revision: plan.revision, password: PASSWORD, confirm: true } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const packed = await until('the parameter set', async () => {
      const treatment = await treatmentOf(balanced.url, id);
      return treatment.step === 'available' ? treatment : null;
    });

    // Download through B: the bytes packed (by whichever instance), as A and the proxy give them too.
    const downloads = await Promise.all([b.url, a.url, balanced.url].map((origin) => call(origin, 'GET', `/treatments/${id}/parameter-set`)));
    for (const download of downloads) expect(download.status).toBe(200);
    const [fromB, fromA, fromProxy] = downloads.map((download) => download.body as unknown as Buffer);
    expect(sha256Hex(fromB)).toBe(packed.plan.parameterSet.sha256);
    expect(fromB.length).toBe(packed.plan.parameterSet.size);
    expect(fromB.equals(fromA)).toBe(true);
    expect(fromB.equals(fromProxy)).toBe(true);
    expect(balanced.served.every((count) => count > 0)).toBe(true);

    // SIGKILL to whichever instance claimed the next job, while it is paused midway.
    const second = await buildSampleExam({ seed: 812 });
    const again = new FormData();
    again.append('file', new Blob([new Uint8Array(second.bytes)]), 'exam.npt');
    const next: string = (await call(balanced.url, 'POST', '/treatments', { form: again })).body.data.treatment.id;
    const claimedBy = await until('a claim', async () => {
      const job = await setup!.db.selectFrom('jobs').select('locked_by').where('subject_id', '=', next).where('state', '=', 'running').executeTakeFirst();
      return job?.locked_by ?? null;
    });
    const victim = instances.find((instance) => claimedBy.split(':')[1] === String(instance.child.pid))!;
    const survivor = instances.find((instance) => instance !== victim)!;
    expect(victim).toBeDefined();
    victim.child.kill('SIGKILL');
    await victim.exited;

    const finished = await until('planning on the survivor', async () => {
      const treatment = await treatmentOf(survivor.url, next);
      return treatment.planStatus === 'planning' ? treatment : null;
    });
    expect(finished.images).toHaveLength(1);
    const jobs = await setup.db.selectFrom('jobs').select(['state', 'attempts', 'kind']).where('subject_id', '=', next).execute();
    expect(jobs).toEqual([{ state: 'done', attempts: 2, kind: 'treatment.process' }]);
    // One "processed" notification for each of the two sessions: none from the killed attempt.
    const notes = (await call(survivor.url, 'GET', '/notifications')).body.data;
    expect(notes.filter((note: Body) => note.event === 'treatment_processed')).toHaveLength(2);
    // In the bucket: the exam, one display image and one thumbnail for the session; nothing left by the killed attempt.
    const client = new S3Client({ endpoint: objects.endpoint, region: 'eu-central-1', forcePathStyle: true, credentials: OBJECT_STORE_CREDENTIALS });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: objects.bucket, Prefix: storage.STORAGE_URL.replace(`s3://${objects.bucket}/`, '') }));
    client.destroy();
    const ofSession = (listed.Contents ?? []).filter((object) => object.Key!.includes(`/${next}/`));
    expect(ofSession).toHaveLength(3);
    // Two server processes to start, two exams, a packing and a lease to lapse, on a busy 2-core machine.
  }, 180_000);
});
