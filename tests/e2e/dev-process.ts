// A dev server of the journey's own (`npm run dev:mock` with its own profile or Prism arguments, or
// `npm run dev:server`), on free ports, stopped with its children when the journey ends.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface DevProcess {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Runs `node <script> ...args` in its own process group and waits until `url` answers; `stop` ends the group
 * (SIGTERM, then SIGKILL after 5 s).
 */
export async function startDevProcess(script: string, args: string[], env: Record<string, string>, url: string, timeoutMs = 90_000): Promise<DevProcess> {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, output: () => output, stop };
}

/** `npm run dev:mock` (mocks/dev-mock.mjs) on free ports, with the environment and arguments given. */
export async function startDevMock(env: Record<string, string>, args: string[] = []): Promise<DevProcess> {
  const [mockPort, devPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${devPort}`;
  return startDevProcess('mocks/dev-mock.mjs', args, { ...env, MACULA_MOCK_PORT: String(mockPort), MACULA_DEV_PORT: String(devPort) }, url);
}
