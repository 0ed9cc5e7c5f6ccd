// @ts-check
/**
 * The reference server of the browser benches (bench:lighthouse, bench:main-thread): the built SPA and the demo
 * clinic on PGlite in a fresh data directory, on a port of the bench's own, and the demo physician's token.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const DEMO_PHYSICIAN = { email: 'physician@clinic.example', password: 'Demo-Clinic-2026!' };

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the server on 127.0.0.1:`port` and waits until it answers (at most 60 s). `stop` ends it and removes its data.
 * @param {number} port
 */
export async function startDemoServer(port) {
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'macula-bench-'));
  const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: '', LOG_LEVEL: 'warn', PUBLIC_URL: origin },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    server.kill('SIGINT');
    await sleep(500);
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let waited = 0; waited < 60_000; waited += 250) {
    if (await fetch(`${origin}/sign-in`).then((r) => r.ok, () => false)) return { origin, stop };
    await sleep(250);
  }
  server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  throw new Error(`the reference server did not answer on ${origin} within 60 s`);
}

/** The demo physician's bearer token from the server at `origin` (signed in with "remember me"). @param {string} origin */
export async function demoPhysicianToken(origin) {
  const answer = await fetch(`${origin}/api/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...DEMO_PHYSICIAN, remember: true }),
  });
  if (!answer.ok) throw new Error(`sign-in of the demo physician on ${origin} answered ${answer.status}`);
  return /** @type {{ data: { token: string } }} */ (await answer.json()).data.token;
}
