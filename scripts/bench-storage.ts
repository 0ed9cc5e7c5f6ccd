// Storage benchmark (`npm run bench:storage`): the reference server in this process with its files in the local
// directory, then in S3-compatible object storage (s3rver on loopback: a development server writing to the same
// disk, so the second figures show the cost of the S3 path, not of a real object store). For each: how long a
// 10 MB exam takes from upload to planning (median of 3), and the download throughput of a parameter set and of
// a display image (4 downloads at a time). Bounded: fixed counts, and every wait has a timeout.
import { startObjectStore } from '../tests/server/object-store';
import { BENCH_PASSWORD, type BenchServer, largeExam, startBenchServer, uploadExam, untilSession } from './bench-server';

const EXAMS = 3;
const DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 200);
const AT_ONCE = 4;
const MiB = 1024 * 1024;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function api(server: BenchServer, method: string, path: string, json?: unknown) {
  const answer = await fetch(`${server.base}/api${path}`, {
    method,
    headers: { ...server.headers, ...(json ? { 'Content-Type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  const body = (await answer.json()) as { data: Record<string, any>; code?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any -- a benchmark reads a few fields
  if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status} ${body.code}`);
  return body.data;
}

/** Steps 1–3 as proposed, then the physician's sign-off; resolves once the parameter set is packed. */
async function signedOff(server: BenchServer, id: string) {
  const proposed = await api(server, 'GET', `/treatments/${id}/plan`);
  const shape = (zone: Record<string, unknown>) => ({ center: zone.center, radiusXPx: zone.radiusXPx, radiusYPx: zone.radiusYPx, rotationDeg: zone.rotationDeg });
  const { faz, onh } = proposed.exclusionZones;
  const zones = await api(server, 'POST', `/treatments/${id}/plan/exclusion-zones`, { revision: proposed.revision, faz: shape(faz), onh: shape(onh) });
  const grid = await api(server, 'POST', `/treatments/${id}/plan/macula-grid`, { revision: zones.revision, settings: zones.gridSettings });
  const brightness = await api(server, 'POST', `/treatments/${id}/plan/brightness`, { revision: grid.revision });
  await api(server, 'POST', `/treatments/${id}/confirm`, { revision: brightness.revision, password: BENCH_PASSWORD, confirm: true });
  await untilSession(server, id, (session) => session.step === 'available');
}

/** `count` downloads of `path`, `AT_ONCE` at a time: MiB/s, downloads per second and the median time of one. */
async function downloads(server: BenchServer, path: string, count: number) {
  const times: number[] = [];
  let bytes = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < count) {
        next += 1;
        const begin = performance.now();
        const answer = await fetch(`${server.base}/api${path}`, { headers: server.headers });
        const body = await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
        times.push(performance.now() - begin);
        bytes += body.byteLength;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { size: bytes / count, mibPerSecond: bytes / MiB / seconds, perSecond: count / seconds, medianMs: median(times) };
}

async function measure(label: string, env: Record<string, string>, exams: Uint8Array[]) {
  const server = await startBenchServer(env);
  try {
    console.log(`${label} (${server.ctx.files.location}), database ${server.kind}`);
    const totals: number[] = [];
    const ids: string[] = [];
    for (const exam of exams) {
      const started = performance.now();
      const id = await uploadExam(server, exam);
      await untilSession(server, id, (session) => session.planStatus === 'planning');
      totals.push(performance.now() - started);
      ids.push(id);
    }
    console.log(`  upload → planning, ${(exams[0].length / MiB).toFixed(1)} MiB exam: median ${median(totals).toFixed(0)} ms (${totals.map((t) => t.toFixed(0)).join(', ')})`);
    await signedOff(server, ids[0]);
    const parameterSet = await downloads(server, `/treatments/${ids[0]}/parameter-set`, DOWNLOADS);
    const session = await api(server, 'GET', `/treatments/${ids[0]}`);
    const image = await downloads(server, `/treatments/${ids[0]}/images/${session.images[0].id}/display`, DOWNLOADS);
    for (const [name, figures] of [['parameter set', parameterSet], ['display image', image]] as const) {
      console.log(
        `  ${name.padEnd(13)} ${(figures.size / 1024).toFixed(0).padStart(5)} KiB: ${figures.mibPerSecond.toFixed(1).padStart(6)} MiB/s, ` +
          `${figures.perSecond.toFixed(0).padStart(4)} downloads/s, median ${figures.medianMs.toFixed(1)} ms (${DOWNLOADS}, ${AT_ONCE} at a time)`,
      );
    }
  } finally {
    await server.close();
  }
}

console.log(`Storage benchmark — Node ${process.version}, ${new Date().toISOString()}\n`);
const exams: Uint8Array[] = [];
for (let seed = 7; seed < 7 + EXAMS; seed += 1) exams.push(await largeExam(seed));
await measure('Local directory', {}, exams);
const objects = await startObjectStore('macula-bench');
try {
  await measure('\nObject storage', objects.env('bench'), exams);
} finally {
  await objects.close();
}
