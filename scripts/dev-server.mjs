#!/usr/bin/env node
// @ts-check
/**
 * `npm run dev:server`: the SPA's dev server (Vite, hot reload) against a fresh reference server with the demo
 * clinic: the stateful way to work on the SPA (what is saved stays saved until the script stops).
 *
 * Starts the reference server (server/main.ts, as `npm start` does, without building the SPA) on an embedded
 * database in a new temporary directory, which is seeded with the demo clinic and removed at the end; waits
 * until it listens, then starts Vite with `/api/*` (and realtime's websocket) proxied to it. Signals go to both;
 * when either stops, the other is stopped too and the exit code is passed on.
 *
 * Environment: MACULA_SERVER_PORT (reference server, default 8080), MACULA_DEV_PORT (Vite, default 5173),
 * MACULA_DEV_DATA_DIR (keep the data in this directory across restarts instead: seeded when empty, never removed).
 * Arguments go to Vite, e.g. `npm run dev:server -- --open`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const host = '127.0.0.1';
const serverPort = process.env.MACULA_SERVER_PORT || '8080';
const devPort = process.env.MACULA_DEV_PORT || '5173';
// Migrating and seeding the demo clinic (its exams are processed) takes 10–60 s on a busy 2-core machine.
const SERVER_START_TIMEOUT_MS = 180_000;

/**
 * @param {string} port
 * @returns {Promise<boolean>} whether something accepts connections on host:port
 */
function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

for (const [port, variable] of [[serverPort, 'MACULA_SERVER_PORT'], [devPort, 'MACULA_DEV_PORT']]) {
  if (await isListening(port)) {
    console.error(`[dev:server] port ${port} is already in use; stop that process or set ${variable}`);
    process.exit(1);
  }
}

const keptDataDir = process.env.MACULA_DEV_DATA_DIR;
const dataDir = keptDataDir ? path.resolve(keptDataDir) : mkdtempSync(path.join(tmpdir(), 'macula-dev-server-'));
mkdirSync(dataDir, { recursive: true });
const removeData = () => {
  if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
};

/** @type {Map<string, import('node:child_process').ChildProcess>} */
const children = new Map();
let stopping = false;
/** @type {number | undefined} */
let exitCode;

const finish = () => {
  removeData();
  process.exit(exitCode ?? 0);
};

/**
 * Runs a package's JS entry with this Node binary (no shell, no .cmd shims).
 * @param {string} name
 * @param {string[]} args the script (below the repository) and its arguments
 * @param {NodeJS.ProcessEnv} env
 */
function start(name, args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`[dev:server] ${name} exited (${signal ?? `code ${code}`}); stopping the rest`);
      exitCode = code ?? 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) finish();
  });
  child.on('error', (error) => console.error(`[dev:server] could not start ${name}: ${error.message}`));
  return child;
}

/** @param {NodeJS.Signals} signal */
function stopAll(signal) {
  stopping = true;
  if (children.size === 0) finish();
  for (const child of children.values()) child.kill(signal);
  // Do not hang on a child that ignores the signal.
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    exitCode ??= 1;
    finish();
  }, 5_000).unref();
}

for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    exitCode ??= 0;
    stopAll(signal);
  });
}

console.log(`[dev:server] reference server on http://${host}:${serverPort}, data in ${dataDir}${keptDataDir ? '' : ' (removed at the end)'}`);
start('reference server', [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], {
  ...process.env,
  PORT: serverPort,
  HOST: host,
  DATA_DIR: dataDir,
  // The embedded database in DATA_DIR and the outbox there, even when the shell names others.
  DATABASE_URL: '',
  SMTP_URL: '',
  // The links in the e-mails (invites, password resets) open the SPA of the dev server.
  PUBLIC_URL: `http://${host}:${devPort}`,
  // The demo seed runs only outside production.
  NODE_ENV: 'development',
  LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
});

const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
while (!(await isListening(serverPort))) {
  if (stopping) await new Promise(() => {}); // the exit handler ends the process
  if (Date.now() > deadline) {
    console.error(`[dev:server] the reference server did not listen on port ${serverPort} within ${SERVER_START_TIMEOUT_MS / 1000} s`);
    exitCode = 1;
    stopAll('SIGTERM');
    await new Promise(() => {});
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}

console.log(`[dev:server] Vite on http://${host}:${devPort}, /api/* → the reference server`);
start('vite', [path.join(root, 'node_modules/vite/bin/vite.js'), '--port', devPort, '--strictPort', ...process.argv.slice(2)], {
  ...process.env,
  MACULA_API_PROXY: `http://${host}:${serverPort}`,
  MACULA_DEV_PORT: devPort,
});
