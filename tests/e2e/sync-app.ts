// The reference sync app (`npm run device:sync`, scripts/device-sync/) as a child process beside the journeys'
// reference server, with its state (and the laser's outbox, when asked) in folders of its own.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFERENCE_URL } from './reference-server';

export interface SyncAppOptions {
  /** Fetch the parameter sets for this laser into an outbox folder, and report each treated (`--simulate-treatment`). */
  simulateTreatment?: boolean;
}

export function startSyncApp(code: string, options: SyncAppOptions = {}) {
  const state = mkdtempSync(join(tmpdir(), 'macula-sync-app-'));
  const args = ['scripts/device-sync/main.ts', '--server', REFERENCE_URL, '--enrol', code, '--state', state];
  if (options.simulateTreatment) args.push('--outbox', join(state, 'outbox'), '--simulate-treatment');
  // Node itself with tsx as its loader, not tsx's command: that one relays a SIGTERM to the app and kills it (exit
  // 143) unless the app answers within 30 ms, which a busy 2-core machine can miss (a journey failed so).
  const app = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  app.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  app.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => app.once('exit', (exitCode) => resolve(exitCode)));
  return {
    output: () => output,
    /** Stops it as Ctrl-C would; resolves with its exit code. */
    async stop() {
      if (app.exitCode === null) app.kill('SIGTERM');
      const exitCode = await exited;
      rmSync(state, { recursive: true, force: true });
      return exitCode;
    },
  };
}
