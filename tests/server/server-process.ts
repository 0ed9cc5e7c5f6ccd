// The server and the first-admin command as real processes (`node --import tsx`), as `npm start` and
// `npm run create-admin` run them: for what only shows between processes (the data directory's lock) or
// on their console (log lines).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A realtime secret production takes (20 characters or more, no placeholder): for test processes only. */
export const TEST_REALTIME_SECRET = '6f1c9a2e7d4b8053a1e6c9f2d7b4a8e1';

/** A production-like environment on embedded PGlite in `dataDir` (no demo clinic, no SMTP). */
export const processEnv = (dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  SMTP_URL: '',
  NODE_ENV: 'production',
  PUSHER_APP_SECRET: TEST_REALTIME_SECRET,
  HOST: '127.0.0.1',
  LOG_LEVEL: '',
  LOG_FORMAT: '',
  ...env,
});

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** Origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
}

/** Spawns `server/main.ts`; resolves once it answers HTTP, or once it has exited (then `child.exitCode` is set). */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: processEnv(dataDir, { PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await fetch(`${url}/api/user/profile`).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (child.exitCode === null && child.signalCode === null && Date.now() >= end) {
    child.kill('SIGKILL');
    throw new Error(`server process did not start within ${timeoutMs} ms:\n${output}`);
  }
  // Let the exit event settle when the process ended on its own.
  if (child.exitCode !== null) await exited;
  return { child, url, output: () => output, exited };
}

/** Polls `probe` every 50 ms until it gives a value (not null); fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Stops a server the way Ctrl-C does and waits for it to end. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs one of the server's commands (`server/cli/<name>.ts`) as a process on `dataDir`. */
export function serverCommand(
  name: 'create-admin' | 'storage-migrate',
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<CommandResult> {
  const started = Date.now();
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `server/cli/${name}.ts`, ...args],
      { cwd: ROOT, env: processEnv(dataDir, env), timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

/** Runs `npm run create-admin -- …` as a process on `dataDir`. */
export const createAdminCommand = (dataDir: string, args: string[], timeoutMs = 30_000) => serverCommand('create-admin', dataDir, args, {}, timeoutMs);
