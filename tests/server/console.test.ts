// What `npm start` prints: on a clean start no warnings; for a person (pretty) readable lines and no
// line per request at the default level; for a collector (JSON, the default when the output is not a
// terminal) one JSON object per line, requests included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnServer, stopServer } from './server-process';

const onPostgres = !!process.env.DATABASE_URL;
const dirs: string[] = [];
const running: ServerProcess[] = [];

afterAll(async () => {
  for (const server of running) await stopServer(server, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function startAndUse(env: Record<string, string>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'macula-console-'));
  dirs.push(dataDir);
  const server = await spawnServer(dataDir, env);
  running.push(server);
  expect(server.child.exitCode, server.output()).toBeNull();
  expect((await fetch(`${server.url}/api/user/profile`)).status).toBe(401);
  expect((await fetch(`${server.url}/api/no-such-call`)).status).toBe(404);
  await stopServer(server);
  return server.output();
}

// Each server opens its own PGlite directory; on PostgreSQL they would share the public schema.
describe.skipIf(onPostgres)('the console of npm start', () => {
  it('for a person: readable, no warnings, no line per request', async () => {
    const output = await startAndUse({ LOG_FORMAT: 'pretty' });
    expect(output).toContain('Macula Planner is running on');
    expect(output).not.toMatch(/WARN|warning|ContentTypeParser/i);
    expect(output).not.toMatch(/incoming request|request completed/);
    expect(output).not.toContain('{"level"');
  }, 60_000);

  it('for a collector: JSON lines with the requests, no warnings', async () => {
    const output = await startAndUse({});
    const lines = output.split('\n').filter((line) => line.trim());
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; req?: { url: string } });
    expect(entries.filter((entry) => entry.level >= 40)).toEqual([]);
    expect(entries.map((entry) => entry.msg)).toEqual(expect.arrayContaining([expect.stringContaining('Macula Planner is running on')]));
    // The start-up probe asks for the profile too, so it may appear more than once.
    const requested = entries.filter((entry) => entry.msg === 'incoming request').map((entry) => entry.req?.url);
    expect(new Set(requested)).toEqual(new Set(['/api/user/profile', '/api/no-such-call']));
  }, 60_000);
});
