// Our reference server as `npm start` runs it (migrate, seed the demo clinic on an empty database), in a
// child process on a port of the caller's choosing with a fresh data directory, for the CI check, the fuzz
// run and the load benchmark. A child process, so its memory can be measured and nothing of it is imported.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DEMO_PASSWORD = 'Demo-Clinic-2026!';
/** The demo clinic's accounts, one per clinic role (server/seed/demo.ts). */
export const DEMO_LOGINS = {
  clinic_it_admins: { email: 'admin@clinic.example', password: DEMO_PASSWORD },
  clinic_physicians: { email: 'physician@clinic.example', password: DEMO_PASSWORD },
  clinic_nurses: { email: 'nurse@clinic.example', password: DEMO_PASSWORD },
};


export interface ReferenceServer {
  url: string;
  pid: number;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export interface ReferenceServerOptions {
  root?: string;
  readyTimeoutMs?: number;
  /** A data directory of the caller's, kept when the server stops (default: a fresh one, removed after). */
  dataDir?: string;
  /** PostgreSQL instead of the embedded database (default: the embedded one). */
  databaseUrl?: string;
}

export async function startReferenceServer(
  port: number,
  { root = process.cwd(), readyTimeoutMs = 60_000, dataDir: ownDataDir, databaseUrl = '' }: ReferenceServerOptions = {},
): Promise<ReferenceServer> {
  if (!existsSync(join(root, 'server/main.ts')) || !existsSync(join(root, 'node_modules/tsx/dist/cli.mjs'))) {
    throw new Error(`the reference server needs the Macula Planner repository with its dependencies (npm ci), run from its folder (not found in ${root})`);
  }
  const dataDir = ownDataDir ?? mkdtempSync(join(tmpdir(), `macula-contract-check-${port}-`));
  const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The embedded database of the data directory unless one is named, even when the shell names
      // PostgreSQL: the demo seed runs on an empty database only.
      DATABASE_URL: databaseUrl,
      SMTP_URL: '',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    if (!ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  // Ready when it answers HTTP: it listens only after migrating and seeding (whatever it prints).
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the reference server did not start on port ${port}:\n${output}`);
    }
    const answered = await fetch(`http://127.0.0.1:${port}/api/user/profile`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, process: child, output: () => output, stop };
}

/**
 * A laser of the demo clinic enrolled for the check (issue 29): the IT admin adds it and its sync app exchanges
 * the code, as a clinic does. The check calls the `device` operations with its credential and keeps its own
 * destructive calls (revoking, a new code) off it.
 */
export async function enrolDemoDevice(url: string): Promise<{ credential: string; id: string }> {
  const call = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { data?: Record<string, unknown> & { token?: string } };
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer.data!;
  };
  const admin = await call('/sign-in', { email: DEMO_LOGINS.clinic_it_admins.email, password: DEMO_LOGINS.clinic_it_admins.password });
  const added = (await call('/clinic/devices', { deviceId: `CHECK-${Date.now()}`, opticalHeadId: 'OH-CHECK', camera: 'Contract check' }, admin.token)) as {
    device: { id: string };
    enrolment: { code: string };
  };
  const enrolled = (await call('/device/enrolment', { code: added.enrolment.code, syncAppVersion: 'contract-check' })) as { credential: string };
  return { credential: enrolled.credential, id: added.device.id };
}

