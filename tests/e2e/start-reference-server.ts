// Playwright's web server for the journeys: what `npm start` does (build the SPA, migrate, seed the demo
// clinic, serve SPA and API on one port), on a port of its own and with a fresh data directory, so that
// every run starts from the demo seed with an empty outbox and no throttling left from an earlier run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { REFERENCE_DATA_DIR, REFERENCE_PORT, REFERENCE_URL } from './reference-server';

rmSync(REFERENCE_DATA_DIR, { recursive: true, force: true });
mkdirSync(REFERENCE_DATA_DIR, { recursive: true });

// The production build into dist/ as `npm start` makes it (pre-compressed, no source maps), which the server
// serves (server/main.ts). A process of its own: Vite sets NODE_ENV=production in the process it builds in,
// which would turn off the demo seed.
execFileSync(process.execPath, ['scripts/build-spa.mjs'], { stdio: 'inherit' });

Object.assign(process.env, {
  PORT: String(REFERENCE_PORT),
  HOST: '127.0.0.1',
  DATA_DIR: REFERENCE_DATA_DIR,
  // The embedded database in DATA_DIR and the outbox there, even when the shell names others.
  DATABASE_URL: '',
  SMTP_URL: '',
  // The links in the e-mails must open the SPA under test.
  PUBLIC_URL: REFERENCE_URL,
  LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  // A device's sync app reports every 2 s and is Offline after 6 s of silence (10 s and 30 s in a clinic), so
  // that the journey of a laser going offline waits seconds, not half a minute.
  DEVICE_HEARTBEAT_SECONDS: '2',
  DEVICE_OFFLINE_AFTER_SECONDS: '6',
});
await import('../../server/main');
