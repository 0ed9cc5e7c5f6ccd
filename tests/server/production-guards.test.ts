// What production refuses or leaves out (issue 27, defects 8 and 11): no realtime secret, a short or placeholder
// one, a fault-injection pause, and the demo clinic. Each fails here when its guard is removed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { DEMO_PASSWORD } from '../../server/seed/demo';
import { spawnServer, TEST_REALTIME_SECRET, type ServerProcess } from './server-process';

const production = (env: Record<string, string> = {}) => ({ NODE_ENV: 'production', PUSHER_APP_SECRET: TEST_REALTIME_SECRET, ...env });

describe('the realtime secret in production', () => {
  it('must be set', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('PUSHER_APP_SECRET must be set when NODE_ENV=production');
    expect(() => loadConfig(production({ PUSHER_APP_SECRET: '' }))).toThrow('PUSHER_APP_SECRET must be set');
  });

  it('must be at least 20 characters', () => {
    expect(() => loadConfig(production({ PUSHER_APP_SECRET: '9f2c61ab07e4d3' }))).toThrow('PUSHER_APP_SECRET must be at least 20 characters');
  });

  it('must not be a placeholder: the compose file\'s, the development default, or one that says it is one', () => {
    for (const secret of ['change-me-realtime-please-1234', 'macula-local-secret', 'my-realtime-secret-for-the-clinic', 'placeholder-0123456789abcdef']) {
      expect(() => loadConfig(production({ PUSHER_APP_SECRET: secret })), secret).toThrow('PUSHER_APP_SECRET must not be a placeholder');
    }
  });

  it('is taken when it is long and random, and any one is taken outside production', () => {
    expect(loadConfig(production()).realtime.secret).toBe(TEST_REALTIME_SECRET);
    expect(loadConfig({ PUSHER_APP_SECRET: 'dev' }).realtime.secret).toBe('dev');
  });
});

describe('the fault-injection pause', () => {
  it('is forced to 0 in production, and kept elsewhere', () => {
    expect(loadConfig(production({ MACULA_FAULT_JOB_PAUSE_MS: '5000' })).jobPauseMs).toBe(0);
    expect(loadConfig({ MACULA_FAULT_JOB_PAUSE_MS: '5000' }).jobPauseMs).toBe(5000);
  });
});

describe('npm start in production', () => {
  const dirs: string[] = [];
  const processes: ServerProcess[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'macula-production-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const server of processes) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start without a realtime secret, naming it', async () => {
    const server = await spawnServer(dataDir(), { PUSHER_APP_SECRET: '' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PUSHER_APP_SECRET must be set');
  }, 60_000);

  it('seeds no demo clinic on an empty database: its accounts do not exist', async () => {
    const server = await spawnServer(dataDir());
    processes.push(server);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toContain('Demo clinic');
    const signIn = await fetch(`${server.url}/api/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@clinic.example', password: DEMO_PASSWORD }),
    });
    expect(signIn.status).toBe(401);
  }, 60_000);
});
