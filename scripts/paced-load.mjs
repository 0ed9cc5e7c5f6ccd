// @ts-check
// A steady request rate from a worker thread of its own (scripts/bench-responsiveness.ts): a benchmark that
// runs the server in its own process must not send from the server's thread, whose stalls it measures.
// Requests leave on a fixed schedule whether or not earlier ones have been answered, and each latency is counted
// from the moment its request was due, so a stall shows in every request it held up (no coordinated omission).
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string; headers: Record<string, string>; rate: number; timeoutMs: number }} */
const { url, headers, rate, timeoutMs } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const interval = 1000 / rate;

/** The phase a request belongs to: the one current when it was due ('warm-up' is not reported). */
let phase = 'warm-up';
let stopped = false;
/** @type {{ phase: string; latencyMs: number; status: number }[]} */
const samples = [];
/** @type {Promise<void>[]} */
const inFlight = [];

/** @param {number} due @param {string} during */
async function send(due, during) {
  let status = 0;
  try {
    const answer = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    await answer.arrayBuffer();
    status = answer.status;
  } catch {
    status = 0;
  }
  samples.push({ phase: during, latencyMs: performance.now() - due, status });
}

port.on('message', (message) => {
  if (message === 'stop') stopped = true;
  else phase = message;
});

const start = performance.now();
for (let i = 0; !stopped; i += 1) {
  const due = start + i * interval;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  if (stopped) break;
  inFlight.push(send(due, phase));
}
await Promise.all(inFlight);
port.postMessage(samples.filter((sample) => sample.phase !== 'warm-up'));
port.close();
