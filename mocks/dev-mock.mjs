#!/usr/bin/env node
// @ts-check
/**
 * `npm run dev:mock`: the SPA's dev server against the Prism mock of the contract.
 *
 * Starts Prism on the bundled contract (generated/openapi.yaml, or openapi/openapi.yaml before the first
 * `npm run generate`), waits until it listens, then starts Vite with `/api/*` proxied to Prism and the
 * `/api` prefix stripped (Prism serves `/api/x` at `/x`). Signals go to both; when either stops, the other
 * is stopped too and the exit code is passed on.
 *
 * Environment: MACULA_MOCK_PORT (Prism, default 4010), MACULA_DEV_PORT (Vite, default 5173), MACULA_MOCK_PROFILE
 * (the profile example to sign in as, see mocks/mock-examples.ts).
 * Arguments go to Prism, e.g. `npm run dev:mock -- -d` for its dynamic mode; those after a further `--` go to
 * Vite, e.g. `npm run dev:mock -- -d -- --open`. `--prism-only` (first) starts Prism alone: `npm run mock`.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const host = '127.0.0.1';
const mockPort = process.env.MACULA_MOCK_PORT || '4010';
const devPort = process.env.MACULA_DEV_PORT || '5173';
const PRISM_START_TIMEOUT_MS = 60_000;

const args = process.argv.slice(2);
const prismOnly = args[0] === '--prism-only';
if (prismOnly) args.shift();
const split = args.indexOf('--');
const prismArgs = split === -1 ? args : args.slice(0, split);
const viteArgs = split === -1 ? [] : args.slice(split + 1);
for (const owned of ['--host', '-h', '--port', '-p']) {
  if (prismArgs.includes(owned)) {
    console.error(`[dev:mock] ${owned} is set by this script; choose the port with MACULA_MOCK_PORT`);
    process.exit(1);
  }
}

const contract = ['generated/openapi.yaml', 'openapi/openapi.yaml'].find((file) => existsSync(path.join(root, file)));
if (!contract) {
  console.error('[dev:mock] no contract found: expected generated/openapi.yaml or openapi/openapi.yaml');
  process.exit(1);
}

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

if (await isListening(mockPort)) {
  console.error(`[dev:mock] port ${mockPort} is already in use; stop that process or set MACULA_MOCK_PORT`);
  process.exit(1);
}

/** @type {Map<string, import('node:child_process').ChildProcess>} */
const children = new Map();
let stopping = false;
/** @type {number | undefined} */
let exitCode;

/**
 * Runs a package's JS entry with this Node binary, so it works the same everywhere (no shell, no .cmd shims).
 * @param {string} name
 * @param {string} script path below node_modules/
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 */
function start(name, script, args, env = process.env) {
  const child = spawn(process.execPath, [path.join(root, 'node_modules', script), ...args], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`[dev:mock] ${name} exited (${signal ?? `code ${code}`}); stopping the rest`);
      exitCode = code ?? 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) process.exit(exitCode ?? 0);
  });
  child.on('error', (error) => {
    console.error(`[dev:mock] could not start ${name}: ${error.message}`);
  });
  return child;
}

/** @param {NodeJS.Signals} signal */
function stopAll(signal) {
  stopping = true;
  for (const child of children.values()) child.kill(signal);
  // Do not hang on a child that ignores the signal.
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
    process.exit(exitCode ?? 1);
  }, 5_000).unref();
}

for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    exitCode ??= 0;
    stopAll(signal);
  });
}

console.log(`[dev:mock] Prism on http://${host}:${mockPort} serving ${contract}${prismArgs.length ? ` (${prismArgs.join(' ')})` : ''}`);
start('prism', '@stoplight/prism-cli/dist/index.js', ['mock', contract, '--host', host, '--port', mockPort, ...prismArgs]);
if (prismOnly) await new Promise(() => {}); // `npm run mock`: Prism alone, until it stops or is stopped

const deadline = Date.now() + PRISM_START_TIMEOUT_MS;
while (!(await isListening(mockPort))) {
  if (stopping) await new Promise(() => {}); // the exit handler ends the process
  if (Date.now() > deadline) {
    console.error(`[dev:mock] Prism did not listen on port ${mockPort} within ${PRISM_START_TIMEOUT_MS / 1000} s`);
    exitCode = 1;
    stopAll('SIGTERM');
    await new Promise(() => {});
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

console.log(`[dev:mock] Vite on http://${host}:${devPort}, /api/* → Prism`);
start('vite', 'vite/bin/vite.js', ['--port', devPort, '--strictPort', ...viteArgs], {
  ...process.env,
  MACULA_API_PROXY: `http://${host}:${mockPort}`,
  MACULA_API_STRIP_PREFIX: '1',
  // The contract Prism serves, for mocks/mock-examples.ts (the example that belongs to the id asked for).
  MACULA_MOCK_CONTRACT: path.join(root, contract),
  MACULA_DEV_PORT: devPort,
});
