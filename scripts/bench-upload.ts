// Upload and processing benchmark (`npm run bench:upload`): the reference server in this process on a fresh
// PGlite data directory (or PostgreSQL with DATABASE_URL), over HTTP on loopback. Prints how long a 10 MB exam
// takes from upload to planning, and the throughput of uploads (accepted per second, MB/s) and of processing
// (sessions per minute) for a batch of typical 1600 × 1200 exams. Bounded: a fixed number of files, and every
// wait has a timeout.
import { buildSampleExam } from '../server/seed/sample-exam';
import { largeExam, startBenchServer, uploadExam, untilSession } from './bench-server';

const BATCH = Number(process.env.BENCH_UPLOADS ?? 20);
const CONCURRENCY = 4;
const MB = 1024 * 1024;

async function main(): Promise<void> {
  const server = await startBenchServer();
  const { base, headers, kind } = server;
  try {
    const upload = (bytes: Uint8Array) => uploadExam(server, bytes);
    const untilPlanning = async (id: string) => void (await untilSession(server, id, (session) => session.planStatus === 'planning'));

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
    await server.close();
  }
}

await main();
