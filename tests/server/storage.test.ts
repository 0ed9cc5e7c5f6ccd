// The file store, one suite for both implementations: the local directory and S3-compatible object storage
// (an S3 server started on loopback). First the store as the server uses it, then through HTTP.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Config, loadConfig } from '../../server/config';
import { createFileStore, type FileStore, StorageIntegrityError, StorageUnavailableError } from '../../server/storage';
import { createS3Store } from '../../server/storage/s3';
import { sha256Hex } from '../../server/storage/store';
import { buildSampleExam } from '../../server/seed/sample-exam';
import { createClinic, createUser, sessionFor } from './fixtures';
import { startServer, type TestServer, watchFolder } from './helper';
import { OBJECT_STORE_CREDENTIALS, type ObjectStore, startObjectStore } from './object-store';

let objects: ObjectStore;
const scratch = mkdtempSync(join(tmpdir(), 'macula-storage-'));
beforeAll(async () => {
  objects = await startObjectStore();
});
afterAll(async () => {
  await objects.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Kind {
  name: string;
  env(): Record<string, string>;
  /** The store keeps a checksum with each file and checks it on every read. */
  verifiesOnRead: boolean;
  /** Changes a stored file's bytes behind the store's back (a damaged disk, a tampered object). */
  tamper(config: Config, key: string): Promise<void>;
}

const KINDS: Kind[] = [
  {
    name: 'a local directory',
    env: () => ({}),
    verifiesOnRead: false,
    async tamper(config, key) {
      if (config.storage.kind !== 'directory') throw new Error('not a directory store');
      const path = join(config.storage.dir, key);
      const bytes = readFileSync(path);
      bytes[0] ^= 0xff;
      writeFileSync(path, bytes);
    },
  },
  {
    name: 'S3-compatible object storage',
    env: () => objects.env(`files-${randomUUID().slice(0, 8)}`),
    verifiesOnRead: true,
    async tamper(config, key) {
      if (config.storage.kind !== 's3') throw new Error('not an object store');
      const { prefix } = config.storage;
      const client = new S3Client({ endpoint: objects.endpoint, region: 'eu-central-1', forcePathStyle: true, credentials: OBJECT_STORE_CREDENTIALS });
      const Key = `${prefix}${key}`;
      const stored = await client.send(new GetObjectCommand({ Bucket: objects.bucket, Key }));
      const bytes = Buffer.from(await stored.Body!.transformToByteArray());
      bytes[0] ^= 0xff;
      // The same metadata (the SHA-256 of the bytes as written) over other bytes.
      await client.send(new PutObjectCommand({ Bucket: objects.bucket, Key, Body: bytes, Metadata: stored.Metadata }));
      client.destroy();
    },
  },
];

const clinic = randomUUID();
const folder = `treatments/${randomUUID()}/${randomUUID()}`;

describe.each(KINDS)('the file store in $name', (kind) => {
  let store: FileStore;
  let config: Config;
  beforeAll(async () => {
    config = loadConfig({ DATA_DIR: mkdtempSync(join(scratch, 'data-')), ...kind.env() });
    store = createFileStore(config);
    await store.check();
  });

  it('keeps a file and gives back the same bytes, whole or streamed; a missing one is null', async () => {
    const data = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    const key = await store.put(clinic, 'avatars', data);
    expect(key).toMatch(new RegExp(`^${clinic}/avatars/[0-9a-f-]{36}$`));
    expect((await store.get(key))!.equals(data)).toBe(true);
    const opened = (await store.open(key))!;
    expect(opened.size).toBe(data.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);

    const missing = `${clinic}/avatars/${randomUUID()}`;
    expect(await store.get(missing)).toBeNull();
    expect(await store.open(missing)).toBeNull();
  });

  it('replaces a named file whole, and refuses keys and folders it did not make', async () => {
    const name = randomUUID();
    const first = await store.put(clinic, folder, Buffer.from('first attempt, longer'), name);
    const second = await store.put(clinic, folder, Buffer.from('second'), name);
    expect(second).toBe(first);
    expect((await store.get(first))!.toString()).toBe('second');
    await expect(store.get('../etc/passwd')).rejects.toThrow('invalid file key');
    await expect(store.put(clinic, '../up', Buffer.from('x'))).rejects.toThrow('invalid file kind');
    await expect(store.removePrefix('')).rejects.toThrow('invalid prefix');
  });

  it('stages an upload with its size and checksums, keeps it in the store, and leaves no staged file', async () => {
    const data = Buffer.from(new Uint8Array(2_000_000).map((_, i) => i % 256));
    const staged = await store.stage(Readable.from([data.subarray(0, 1_000_000), data.subarray(1_000_000)]), 'exam.npt', () => false);
    expect(staged).toMatchObject({ size: data.length, sha256: sha256Hex(data), truncated: false, filename: 'exam.npt' });
    expect(readFileSync(staged.path).equals(data)).toBe(true);
    const key = await store.keep(staged, clinic, folder);
    expect(existsSync(staged.path)).toBe(false);
    expect((await store.get(key))!.equals(data)).toBe(true);
    await store.discard(staged);

    // A truncated upload is written, then removed within stage(): the watch sees it pass.
    const staging = watchFolder(dirname(staged.path));
    onTestFinished(() => staging.close());
    const cut = await store.stage(Readable.from([data]), 'big.npt', () => true);
    expect(cut.truncated).toBe(true);
    expect(await staging.seen()).toContain(basename(cut.path));
    expect(existsSync(cut.path)).toBe(false);

    const dropped = await store.stage(Readable.from([data]), 'dropped.npt', () => false);
    expect(existsSync(dropped.path)).toBe(true);
    await store.discard(dropped);
    expect(existsSync(dropped.path)).toBe(false);
  });

  it('sweeps staged files older than asked, and only those', async () => {
    const old = await store.stage(Readable.from([Buffer.from('left by a stopped process')]), 'old.npt', () => false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const young = await store.stage(Readable.from([Buffer.from('an upload in flight')]), 'young.npt', () => false);
    const { utimes } = await import('node:fs/promises');
    await utimes(old.path, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    expect(await store.sweepStaging(60_000)).toBe(1);
    expect(existsSync(old.path)).toBe(false);
    expect(existsSync(young.path)).toBe(true);
    await store.discard(young);
  });

  it('removes a session folder and nothing beside it', async () => {
    const patient = randomUUID();
    const [one, two] = [randomUUID(), randomUUID()];
    const inOne = await Promise.all([1, 2, 3].map((n) => store.put(clinic, `treatments/${patient}/${one}`, Buffer.from(`file ${n}`))));
    const inTwo = await store.put(clinic, `treatments/${patient}/${two}`, Buffer.from('kept'));
    await store.removePrefix(`${clinic}/treatments/${patient}/${one}`);
    for (const key of inOne) expect(await store.get(key)).toBeNull();
    expect((await store.get(inTwo))!.toString()).toBe('kept');
    await store.remove(inTwo);
    await store.remove(inTwo);
    expect(await store.get(inTwo)).toBeNull();
  });

  it.runIf(kind.verifiesOnRead)('refuses a file whose bytes no longer match their checksum, whole and at the end of a stream', async () => {
    const data = Buffer.from('a fundus image, as stored');
    const key = await store.put(clinic, 'avatars', data);
    await kind.tamper(config, key);
    await expect(store.get(key)).rejects.toBeInstanceOf(StorageIntegrityError);
    const opened = (await store.open(key))!;
    await expect(text(opened.stream)).rejects.toBeInstanceOf(StorageIntegrityError);
  });
});

describe('a store that cannot be used says why', () => {
  const s3 = (overrides: Partial<Parameters<typeof createS3Store>[0]>) =>
    createS3Store({
      bucket: objects.bucket,
      prefix: '',
      endpoint: objects.endpoint,
      region: 'eu-central-1',
      forcePathStyle: true,
      credentials: OBJECT_STORE_CREDENTIALS,
      stagingDir: join(scratch, 'staging'),
      ...overrides,
    });

  it('names a missing bucket, refused credentials and an endpoint that does not answer', async () => {
    const failure = (store: FileStore) => store.check().then(() => null, (error: unknown) => error);
    const noBucket = await failure(s3({ bucket: 'no-such-bucket' }));
    expect(noBucket).toBeInstanceOf(StorageUnavailableError);
    expect(String(noBucket)).toContain('s3://no-such-bucket/');
    expect(String(noBucket)).toContain('does not exist');

    const denied = await failure(s3({ credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'wrong' } }));
    expect(denied).toBeInstanceOf(StorageUnavailableError);
    expect(String(denied)).toContain('access denied');

    const closed = await failure(s3({ endpoint: 'http://127.0.0.1:9' }));
    expect(closed).toBeInstanceOf(StorageUnavailableError);
    expect(String(closed)).toContain('ECONNREFUSED');

    const file = join(scratch, 'not-a-directory');
    writeFileSync(file, 'x');
    const directory = await failure(createFileStore({ dataDir: scratch, storage: { kind: 'directory', dir: file } }));
    expect(directory).toBeInstanceOf(StorageUnavailableError);
  });

  it('refuses a STORAGE_URL without a bucket, or with credentials in it', () => {
    expect(() => loadConfig({ STORAGE_URL: 's3:///prefix' })).toThrow('STORAGE_URL must name a bucket');
    expect(() => loadConfig({ STORAGE_URL: 's3://key:secret@bucket/prefix' })).toThrow('S3_ENDPOINT');
    expect(() => loadConfig({ STORAGE_URL: 'https://bucket/prefix' })).toThrow('STORAGE_URL must start with s3://');
    expect(loadConfig({ STORAGE_URL: 's3://clinic-files/group/a', S3_ENDPOINT: 'http://minio:9000' }).storage).toEqual({
      kind: 's3',
      bucket: 'clinic-files',
      prefix: 'group/a/',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
    });
  });
});

describe.each(KINDS)('the server with its files in $name', (kind) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer({ env: kind.env() });
    const clinicId = await createClinic(server.db);
    token = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
  });
  afterAll(async () => server?.close());

  const upload = async (seed: number) => {
    const exam = await buildSampleExam({ seed });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(exam.bytes)]), 'exam.npt');
    const uploaded = await server.call<{ data: { treatment: { id: string } } }>('POST', '/treatments', { token, form });
    expect(uploaded.status).toBe(201);
    return uploaded.body.data.treatment.id;
  };

  it('takes an exam, processes it from the store, serves its images and removes them with the session', async () => {
    const staging = kind.name.startsWith('S3') ? join(server.dataDir, 'staging') : join(server.dataDir, 'files', '.staging');
    const watch = watchFolder(staging);
    onTestFinished(() => watch.close());
    const id = await upload(4711);
    await server.jobsIdle();
    const treatment = await server.call<{ data: { planStatus: string; images: { id: string }[] } }>('GET', `/treatments/${id}`, { token });
    expect(treatment.body.data.planStatus).toBe('planning');
    const imageId = treatment.body.data.images[0].id;
    const image = await server.call('GET', `/treatments/${id}/images/${imageId}/display`, { token });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(image.headers.get('content-length'))).toBe((image.body as unknown as Buffer).length);
    // Nothing left in this instance's staging folder, which the upload passed through.
    expect(await watch.seen()).not.toEqual([]);
    expect(readdirSync(staging)).toEqual([]);

    const { display_path } = await server.db.selectFrom('treatment_images').select('display_path').where('treatment_id', '=', id).executeTakeFirstOrThrow();
    expect((await server.call('DELETE', `/treatments/${id}`, { token })).status).toBe(200);
    expect(await server.ctx.files.get(display_path)).toBeNull();
  });

  it('a damaged exam in the store fails processing with its reason, in both languages', async () => {
    // Damaged between upload and processing: the worker waits meanwhile.
    await server.restart({ jobs: false });
    const id = await upload(4712);
    const { file_path } = await server.db.selectFrom('treatments').select('file_path').where('id', '=', id).executeTakeFirstOrThrow();
    await kind.tamper(server.ctx.config, file_path!);
    await server.restart({ jobs: true });
    await server.jobsIdle();
    const messages = [];
    for (const lang of ['en', 'de'] as const) {
      const read = await server.call<{ data: { error: { code: string; message: string } | null } }>('GET', `/treatments/${id}`, { token, lang });
      expect(read.body.data.error?.code).toBe('treatment.file_damaged');
      messages.push(read.body.data.error?.message);
    }
    expect(messages[0]).toContain('no longer matches');
    expect(messages[1]).toContain('stimmt nicht mehr');
  });
});

describe('when the object store goes away', () => {
  let own: ObjectStore;
  let server: TestServer;
  afterAll(async () => {
    await server?.close();
  });

  it('health says which part fails, files answer 503 in the caller’s language, a deletion is done, an upload leaves nothing behind', async () => {
    own = await startObjectStore('going-away');
    server = await startServer({ env: own.env() });
    const clinicId = await createClinic(server.db);
    const token = await sessionFor(server.db, (await createUser(server.db, { clinicId, role: 'clinic_nurses' })).id);
    expect((await server.call('GET', '/health')).body).toEqual({ status: 'Success', data: { database: 'ok', storage: 'ok' } });
    const form = async (seed: number) => {
      const data = new FormData();
      data.append('file', new Blob([new Uint8Array((await buildSampleExam({ seed })).bytes)]), 'exam.npt');
      return data;
    };
    const { body } = await server.call<{ data: { treatment: { id: string } } }>('POST', '/treatments', { token, form: await form(4713) });
    await server.jobsIdle();
    const id = body.data.treatment.id;
    const imageId = (await server.call<{ data: { images: { id: string }[] } }>('GET', `/treatments/${id}`, { token })).body.data.images[0].id;

    await own.close();
    const health = await server.call<{ code: string; errors: Record<string, string[]> }>('GET', '/health', { lang: 'de' });
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toBe('10');
    expect(health.body.code).toBe('storage.unavailable');
    expect(Object.keys(health.body.errors)).toEqual(['storage']);
    const image = await server.call<{ code: string; message: string }>('GET', `/treatments/${id}/images/${imageId}/display`, { token, lang: 'de' });
    expect(image.status).toBe(503);
    expect(image.body.message).toContain('Dateispeicher ist im Moment nicht erreichbar');

    // A deletion is done once committed: its files stay behind, unreferenced, and the answer says it is done.
    expect((await server.call('DELETE', `/treatments/${id}`, { token })).status).toBe(200);
    expect((await server.call('GET', `/treatments/${id}`, { token })).status).toBe(404);

    const sessions = () => server.db.selectFrom('treatments').select('id').execute();
    const before = await sessions();
    const staging = watchFolder(join(server.dataDir, 'staging'));
    onTestFinished(() => staging.close());
    const again = await server.call<{ code: string }>('POST', '/treatments', { token, form: await form(4714) });
    expect(again.status).toBe(503);
    expect(again.body.code).toBe('storage.unavailable');
    expect(await sessions()).toEqual(before);
    // The upload was staged before the store refused it, and its staged copy is gone.
    expect(await staging.seen()).not.toEqual([]);
    expect(readdirSync(join(server.dataDir, 'staging'))).toEqual([]);
  });
});
