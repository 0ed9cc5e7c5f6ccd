// One embedded database, one process: a second server or `npm run create-admin` on a PGlite data
// directory in use is refused at once with a message and changes nothing; a lock left by a killed
// server does not keep the next one from starting; and what the command writes while no server runs is
// there when the server starts. (PostgreSQL serves many processes: nothing to lock there.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdminCommand, type ServerProcess, spawnServer, stopServer } from './server-process';

const onPostgres = !!process.env.DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'macula-lock-'));
const running: ServerProcess[] = [];

afterAll(async () => {
  for (const server of running) await stopServer(server, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const admin = (email: string) => ['--clinic', 'Augenklinik Nord', '--email', email, '--first-name', 'Eva', '--last-name', 'Roth'];

async function inviteOf(server: ServerProcess, link: string) {
  const token = new URL(link).searchParams.get('token')!;
  const answer = await fetch(`${server.url}/api/user-invites?token=${encodeURIComponent(token)}`);
  return answer.status;
}

describe.skipIf(onPostgres)('the PGlite data directory', () => {
  it('is refused to create-admin and to a second server while a server runs, and survives a killed server', async () => {
    const first = await spawnServer(dataDir);
    running.push(first);
    expect(first.child.exitCode).toBeNull();

    // The command stops before writing, and says why.
    const refused = await createAdminCommand(dataDir, admin('it@nord.example'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The data directory ${join(dataDir, 'db')} is in use by another Macula Planner process`);
    expect(refused.stderr).toContain('Nothing was changed.');
    expect(refused.stdout).not.toContain('Invite link');
    expect(refused.ms).toBeLessThan(15_000);

    // A second server on the same directory ends with the same message instead of opening it.
    const second = await spawnServer(dataDir);
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('is in use by another Macula Planner process');
    // The first one is unharmed.
    expect((await fetch(`${first.url}/api/user/profile`)).status).toBe(401);

    // Killed without a chance to clean up: the next server still starts (its lock expires within seconds).
    first.child.kill('SIGKILL');
    await first.exited;
    const started = Date.now();
    const third = await spawnServer(dataDir, {}, 40_000);
    running.push(third);
    expect(third.child.exitCode).toBeNull();
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(third.output()).toContain('apparently by a process that stopped');

    // Stopped properly, the lock is released at once: the command runs, and the server that starts
    // next sees what it wrote.
    await stopServer(third);
    const created = await createAdminCommand(dataDir, admin('it@nord.example'));
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const link = created.stdout.match(/Invite link: (\S+)/)?.[1];
    expect(link).toBeTruthy();
    expect(created.ms).toBeLessThan(15_000);
    const fourth = await spawnServer(dataDir);
    running.push(fourth);
    expect(fourth.child.exitCode).toBeNull();
    expect(await inviteOf(fourth, link!)).toBe(200);
  }, 150_000);
});
