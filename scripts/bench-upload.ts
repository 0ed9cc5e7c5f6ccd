// Upload and processing benchmark (`npm run bench:upload`): the reference server in this process on a fresh
// PGlite data directory (or PostgreSQL with DATABASE_URL), over HTTP on loopback. Prints how long a 10 MB exam
// takes from upload to planning, and the throughput of uploads (accepted per second, MB/s) and of processing
// (sessions per minute) for a batch of typical 1600 × 1200 exams. Bounded: a fixed number of files, and every
// wait has a timeout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { systemClock, type AppContext } from '../server/context';
import { openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { createFileStore } from '../server/files';
import { createMailer } from '../server/mail/mailer';
import { hashToken, newToken } from '../server/security/tokens';
import { paintSyntheticFundus } from '../src/domain/fundus/synthetic-fundus';
import { readExam } from '../src/domain/npt/read-npt';
import { writeExam } from '../src/domain/npt/write-npt';
import { buildSampleExam } from '../server/seed/sample-exam';

const BATCH = Number(process.env.BENCH_UPLOADS ?? 20);
const CONCURRENCY = 4;
const MB = 1024 * 1024;

/** An exam of about 10 MB: a 4096 × 3072 fundus at JPEG quality 100 with red-free and infrared PNGs of it. */
async function largeExam(): Promise<Uint8Array> {
  const base = await buildSampleExam({ width: 4096, height: 3072, jpegQuality: 100, seed: 7 });
  const read = readExam(base.bytes);
  if (!read.ok) throw new Error(read.error.code);
  const { manifest, images } = read.value;
  const painted = paintSyntheticFundus({ width: 4096, height: 3072, eye: manifest.exam.eye, seed: 7 });
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

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-bench-upload-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'development' });
  // On PostgreSQL in a schema of its own, dropped at the end.
  const schema = config.databaseUrl ? `bench_${Date.now()}` : undefined;
  const { db, kind } = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(dataDir, 'db'), schema });
  await migrate(db, schema);
  const ctx: AppContext = {
    config,
    db,
    clock: systemClock,
    mailer: createMailer({ smtpUrl: null, outboxDir: join(dataDir, 'outbox'), log: () => {} }),
    files: createFileStore(join(dataDir, 'files')),
  };
  const app = await buildApp(ctx);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const clinic = await db.insertInto('clinics').values({ name: 'Bench' }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('security_settings').values({ clinic_id: clinic.id }).execute();
    const user = await db
      .insertInto('users')
      .values({
        clinic_id: clinic.id, email: 'bench@clinic.example', first_name: 'Bench', last_name: 'User', physician_name: null,
        role: 'clinic_physicians', status: 'active', invite_status: 'accepted', previous_status: null, password_hash: null,
        password_changed_at: new Date(), avatar_path: null, avatar_type: null, eula_accepted_at: null, eula_version: null,
        privacy_accepted_at: null, privacy_version: null, last_sign_in_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = newToken();
    await db
      .insertInto('auth_sessions')
      .values({ user_id: user.id, token_hash: hashToken(token), remember: true, last_seen_at: new Date(), expires_at: new Date(Date.now() + 86_400_000) })
      .execute();
    const headers = { Authorization: `Bearer ${token}` };

    const upload = async (bytes: Uint8Array): Promise<string> => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), 'exam.npt');
      const answer = await fetch(`${base}/api/treatments`, { method: 'POST', headers, body: form });
      const body = (await answer.json()) as { data?: { treatment: { id: string } }; code?: string };
      if (answer.status !== 201 || !body.data) throw new Error(`upload answered ${answer.status} ${body.code}`);
      return body.data.treatment.id;
    };
    const untilPlanning = async (id: string): Promise<void> => {
      const end = Date.now() + 120_000;
      while (Date.now() < end) {
        const answer = await fetch(`${base}/api/treatments/${id}`, { headers });
        const { data } = (await answer.json()) as { data: { planStatus: string; error: { code: string } | null } };
        if (data.planStatus === 'planning') return;
        if (data.error) throw new Error(`processing failed: ${data.error.code}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`session ${id} not in planning after 120 s`);
    };

    console.log(`Upload and processing benchmark — ${kind}, Node ${process.version}, ${new Date().toISOString()}\n`);

    // One large exam, alone on the server.
    const large = await largeExam();
    const started = performance.now();
    const id = await upload(large);
    const accepted = performance.now();
    await untilPlanning(id);
    const finished = performance.now();
    console.log(`Large exam: ${(large.length / MB).toFixed(1)} MiB (4096 × 3072 JPEG fundus, red-free and infrared PNGs)`);
    console.log(`  upload accepted (streamed, read and checked) ${(accepted - started).toFixed(0)} ms`);
    console.log(`  processing to planning                      ${(finished - accepted).toFixed(0)} ms`);
    console.log(`  total                                       ${(finished - started).toFixed(0)} ms\n`);

    // A batch of typical exams: uploads with several at a time, then processing by the server's one worker.
    const exams: Uint8Array[] = [];
    for (let seed = 1; seed <= BATCH; seed += 1) exams.push((await buildSampleExam({ seed: 1000 + seed })).bytes);
    const bytes = exams.reduce((sum, exam) => sum + exam.length, 0);
    const ids: string[] = [];
    const batchStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < exams.length) ids.push(await upload(exams[next++]));
      }),
    );
    const uploaded = performance.now();
    for (const each of ids) await untilPlanning(each);
    const processed = performance.now();
    const uploadSeconds = (uploaded - batchStart) / 1000;
    console.log(`${BATCH} exams of 1600 × 1200 (${(bytes / BATCH / 1024).toFixed(0)} KiB each), ${CONCURRENCY} uploads at a time`);
    console.log(`  uploads accepted   ${(BATCH / uploadSeconds).toFixed(1)} per s, ${(bytes / MB / uploadSeconds).toFixed(1)} MiB/s`);
    console.log(`  all in planning    ${((processed - batchStart) / 1000).toFixed(1)} s: ${((BATCH / (processed - batchStart)) * 60_000).toFixed(0)} sessions per minute\n`);

    // Raw upload throughput on a large file: the 10 MB exam again is refused as a duplicate after it was read.
    const rounds = 5;
    const rawStart = performance.now();
    for (let i = 0; i < rounds; i += 1) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(large)]), 'exam.npt');
      const answer = await fetch(`${base}/api/treatments`, { method: 'POST', headers, body: form });
      await answer.arrayBuffer();
      if (answer.status !== 409) throw new Error(`expected the duplicate answer, got ${answer.status}`);
    }
    const rawSeconds = (performance.now() - rawStart) / 1000;
    console.log(`Streaming and checking a ${(large.length / MB).toFixed(1)} MiB file (${rounds} times, answered as duplicate):`);
    console.log(`  ${((large.length * rounds) / MB / rawSeconds).toFixed(0)} MiB/s`);
  } finally {
    await app.close();
    if (schema) await sql.raw(`drop schema ${schema} cascade`).execute(db);
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
