// `npm run storage:migrate`: the demo clinic's files, a parameter set among them, copied from the data directory
// into object storage; the server then runs on the bucket alone (the directory moved away) and serves the same
// bytes; a second run copies nothing.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed/demo';
import { storedFiles } from '../../server/storage/directory';
import { sha256Hex } from '../../server/storage/store';
import { sessionFor } from './fixtures';
import { startServer, type TestServer } from './helper';
import { type ObjectStore, startObjectStore } from './object-store';
import { planToSignOff } from './planning';
import { serverCommand } from './server-process';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are checked against the contract by `call`

const dataDir = mkdtempSync(join(tmpdir(), 'macula-migrate-'));
let objects: ObjectStore | null = null;
let server: TestServer | null = null;
afterAll(async () => {
  await server?.close();
  await objects?.close();
  rmSync(dataDir, { recursive: true, force: true });
});


async function countFiles(dir: string) {
  const files = storedFiles(dir);
  let count = 0;
  while (!(await files.next()).done) count += 1;
  return count;
}

// The files are the subject: run on PGlite, where the second server can open the first one's database (on
// PostgreSQL every test server works in a schema of its own, dropped when it closes).
describe.skipIf(process.env.DATABASE_URL)('npm run storage:migrate', () => {
  it('copies the demo clinic to object storage; the server works on the bucket alone; a second run copies nothing', async () => {
    objects = await startObjectStore();
    server = await startServer({ dataDir });
    await seedDemo(server.ctx);
    await server.jobsIdle();
    const physician = await server.db.selectFrom('users').select('id').where('email', '=', 'physician@clinic.example').executeTakeFirstOrThrow();
    let token = await sessionFor(server.db, physician.id);

    // One session signed off and packed, so a parameter set is among the files.
    const planning = await server.db.selectFrom('treatments').select('id').where('step', '=', 'initial_exclusion_boundaries').where('locked', '=', false).executeTakeFirstOrThrow();
    const plan = await planToSignOff(server, planning.id, token);
    const signed = await server.call<Body>('POST', `/treatments/${planning.id}/confirm`, { token, json: { revision: plan.revision, password: DEMO_PASSWORD, confirm: true } });
    expect(signed.status).toBe(200);
    await server.jobsIdle();
    const before = await server.call('GET', `/treatments/${planning.id}/parameter-set`, { token });
    expect(before.status).toBe(200);
    const treatment = (await server.call<Body>('GET', `/treatments/${planning.id}`, { token })).body.data;
    const imagePath = `/treatments/${planning.id}/images/${treatment.images[0].id}/display`;
    const imageBefore = (await server.call('GET', imagePath, { token })).body as unknown as Buffer;
    await server.close();
    server = null;

    const files = join(dataDir, 'files');
    const total = await countFiles(files);
    expect(total).toBeGreaterThan(10);
    const env = objects.env('demo');
    const first = await serverCommand('storage-migrate', dataDir, [], env, 90_000);
    // (stderr may carry the AWS SDK's notice that its releases from 2027 need Node 22.)
    expect(first.stderr).not.toMatch(/failed|error/i);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`Copied ${total} files \\([\\d.]+ MiB\\) in [\\d.]+ s; 0 were in the bucket already; 0 failed\\.`));

    // The directory goes away: whatever the server serves now comes from the bucket.
    const moved = join(dataDir, 'files-moved');
    renameSync(files, moved);
    server = await startServer({ dataDir, env });
    token = await sessionFor(server.db, physician.id);
    const after = await server.call('GET', `/treatments/${planning.id}/parameter-set`, { token });
    expect(after.status).toBe(200);
    expect(sha256Hex(after.body as unknown as Buffer)).toBe(sha256Hex(before.body as unknown as Buffer));
    expect(sha256Hex(after.body as unknown as Buffer)).toBe(treatment.plan.parameterSet.sha256);
    const imageAfter = (await server.call('GET', imagePath, { token })).body as unknown as Buffer;
    expect(imageAfter.equals(imageBefore)).toBe(true);

    const second = await serverCommand('storage-migrate', dataDir, ['--from', moved], env, 90_000);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Copied 0 files (0.0 MiB)`);
    expect(second.stdout).toContain(`${total} were in the bucket already; 0 failed.`);
    // The demo's processing, a packing and two command processes: minutes on a busy 2-core machine.
  }, 240_000);

  it('says what is wrong without a bucket to copy into', async () => {
    const without = await serverCommand('storage-migrate', dataDir, [], {}, 60_000);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('STORAGE_URL must name the bucket');
    const unreachable = await serverCommand('storage-migrate', dataDir, [], { STORAGE_URL: 's3://nowhere/x', S3_ENDPOINT: 'http://127.0.0.1:9', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' }, 60_000);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('File storage is not usable');
    expect(unreachable.stderr).toContain('ECONNREFUSED');
  }, 120_000);
});
