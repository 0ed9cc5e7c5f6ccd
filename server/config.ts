// Configuration from the environment, checked once at start: a wrong value stops the server with a
// message that names the variable, instead of failing later in a request.
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string | null;
  publicUrl: string;
  production: boolean;
  realtime: { appId: string; key: string; secret: string; cluster: string };
  /** Largest request body (uploads included), bytes. */
  bodyLimit: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (throttling, audit). */
  trustProxy: boolean;
  /**
   * Longest time a request may take to arrive whole (an exam upload over a slow clinic link included); after
   * it the connection is answered 408 and closed. Also the age after which a staged upload is surely stale.
   */
  requestTimeoutMs: number;
  /** Longest pause in a request's bytes (a stalled upload) before the connection is closed. */
  idleTimeoutMs: number;
  /** How long a background job stays claimed without its worker renewing it (a dead process's job is taken over after this). */
  jobLeaseMs: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Log lines as JSON or for people (pino-pretty); null: pretty on a terminal, JSON otherwise. */
  logFormat: 'pretty' | 'json' | null;
  /** Fault tests only (never in production): each processing job waits this long midway, so a test can kill the server there. */
  jobPauseMs: number;
}

export class ConfigError extends Error {}

function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, choices: readonly T[]): T | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  if (!choices.includes(raw as T)) throw new ConfigError(`${name} must be one of ${choices.join(', ')} (got "${raw}")`);
  return raw as T;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0 (got "${env[name]}")`);
}

function url(env: NodeJS.ProcessEnv, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${parsed.protocol}")`);
  }
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const production = env.NODE_ENV === 'production';
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const realtimeKey = env.PUSHER_APP_KEY ?? 'macula-local-key';
  const realtimeSecret = env.PUSHER_APP_SECRET ?? (production ? '' : 'macula-local-secret');
  if (!realtimeSecret) throw new ConfigError('PUSHER_APP_SECRET must be set when NODE_ENV=production');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    production,
    realtime: {
      appId: env.PUSHER_APP_ID ?? 'macula-local',
      key: realtimeKey,
      secret: realtimeSecret,
      cluster: env.PUSHER_CLUSTER ?? 'mt1',
    },
    bodyLimit: integer(env, 'MAX_UPLOAD_MB', 100, 1, 2048) * 1024 * 1024,
    trustProxy: flag(env, 'TRUST_PROXY'),
    jobLeaseMs: integer(env, 'JOB_LEASE_SECONDS', 60, 2, 3600) * 1000,
    // 100 MB at 1 Mbit/s takes about 14 minutes.
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_SECONDS', 900, 1, 86_400) * 1000,
    idleTimeoutMs: integer(env, 'IDLE_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    logLevel: choice(env, 'LOG_LEVEL', LOG_LEVELS) ?? 'info',
    logFormat: choice(env, 'LOG_FORMAT', ['pretty', 'json'] as const),
    jobPauseMs: production ? 0 : integer(env, 'MACULA_FAULT_JOB_PAUSE_MS', 0, 0, 600_000),
  };
}
