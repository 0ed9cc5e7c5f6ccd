// The reference server in a benchmark's own process: a fresh PGlite data directory (or PostgreSQL with
// DATABASE_URL, in a schema dropped at the end), one clinic with a signed-in physician, on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { systemClock, type AppContext } from '../server/context';
import { openDatabase } from '../server/db/database';
import { dropSchema, migrate } from '../server/db/migrate';
import { createMailer } from '../server/mail/mailer';
import { hashPassword } from '../server/security/password-hash';
import { buildSampleExam } from '../server/seed/sample-exam';
import { createFileStore } from '../server/storage';
import { paintSyntheticFundus } from '../src/domain/fundus/synthetic-fundus';
import { readExam } from '../src/domain/npt/read-npt';
import { writeExam } from '../src/domain/npt/write-npt';
import { sessionFor } from '../tests/server/fixtures';

export const BENCH_PASSWORD = 'Bench-Fovea-2026';

export interface BenchServer {
  /** Origin of the server, e.g. http://127.0.0.1:40123 */
  base: string;
  kind: 'pglite' | 'postgres';
  ctx: AppContext;
  /** The physician's Authorization header (password BENCH_PASSWORD). */
  headers: { Authorization: string };
  close(): Promise<void>;
}

/** Starts the server with `env` over the machine's environment (e.g. STORAGE_URL). */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-bench-'));
  const config = loadConfig({ ...process.env, ...env, DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'development' });
  const schema = config.databaseUrl ? `bench_${Date.now()}` : undefined;
  const { db, kind } = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(dataDir, 'db'), schema });
  await migrate(db, { kind, schema });
  const ctx: AppContext = {
    config,
    db,
    clock: systemClock,
    mailer: createMailer({ smtpUrl: null, outboxDir: join(dataDir, 'outbox'), log: () => {} }),
    files: createFileStore(config),
  };
  await ctx.files.check();
  const app = await buildApp(ctx);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const clinic = await db.insertInto('clinics').values({ name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('security_settings').values({ clinic_id: clinic.id }).execute();
  const user = await db
    .insertInto('users')
    .values({
      clinic_id: clinic.id, email: 'bench@clinic.example', first_name: 'Bench', last_name: 'User', physician_name: null,
      role: 'clinic_physicians', status: 'active', invite_status: 'accepted', previous_status: null,
      password_hash: await hashPassword(BENCH_PASSWORD), password_changed_at: new Date(), avatar_path: null, avatar_type: null,
      eula_accepted_at: null, eula_version: null, privacy_accepted_at: null, privacy_version: null, last_sign_in_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = await sessionFor(db, user.id);
  return {
    base,
    kind,
    ctx,
    headers: { Authorization: `Bearer ${token}` },
    async close() {
      await app.close();
      if (schema) await dropSchema(db, schema);
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Uploads an exam; resolves with the new session's id. */
export async function uploadExam(server: BenchServer, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'exam.npt');
  const answer = await fetch(`${server.base}/api/treatments`, { method: 'POST', headers: server.headers, body: form });
  const body = (await answer.json()) as { data?: { treatment: { id: string } }; code?: string };
  if (answer.status !== 201 || !body.data) throw new Error(`upload answered ${answer.status} ${body.code}`);
  return body.data.treatment.id;
}

/** Polls the session every 20 ms until `done` says yes (at most 120 s). */
export async function untilSession(server: BenchServer, id: string, done: (session: Record<string, any>) => boolean): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- a benchmark reads a few fields
  const end = Date.now() + 120_000;
  while (Date.now() < end) {
    const answer = await fetch(`${server.base}/api/treatments/${id}`, { headers: server.headers });
    const { data } = (await answer.json()) as { data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
    if (done(data)) return data;
    if (data.error) throw new Error(`processing failed: ${data.error.code}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`session ${id} did not get there within 120 s`);
}

/** An exam of about 10 MB: a 4096 × 3072 fundus at JPEG quality 100 with red-free and infrared PNGs of it. */
export async function largeExam(seed = 7): Promise<Uint8Array> {
  const base = await buildSampleExam({ width: 4096, height: 3072, jpegQuality: 100, seed });
  const read = readExam(base.bytes);
  if (!read.ok) throw new Error(read.error.code);
  const { manifest, images } = read.value;
  const painted = paintSyntheticFundus({ width: 4096, height: 3072, eye: manifest.exam.eye, seed });
  const channel = (index: 0 | 1) =>
    sharp(Buffer.from(painted.raster.data.buffer), { raw: { width: 4096, height: 3072, channels: 3 } })
      .extractChannel(index)
      .png({ compressionLevel: 6 })
      .toBuffer();
  const [infrared, redFree] = await Promise.all([channel(0), channel(1)]);
  const { createdAt, device, patient, exam, laser, diagnostics, synthetic } = manifest;
  return writeExam({
    manifest: {
      createdAt,
      device,
      patient,
      exam,
      laser,
      diagnostics,
      synthetic,
      images: [
        ...manifest.images.map(({ role, file, mediaType, width, height }) => ({ role, file, mediaType, width, height })),
        { role: 'red_free', file: 'images/red-free.png', mediaType: 'image/png', width: 4096, height: 3072 },
        { role: 'infrared', file: 'images/infrared.png', mediaType: 'image/png', width: 4096, height: 3072 },
      ],
    },
    images: { ...images, 'images/red-free.png': new Uint8Array(redFree), 'images/infrared.png': new Uint8Array(infrared) },
  });
}
