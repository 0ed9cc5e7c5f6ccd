// Configuration from the environment, checked once at start: a wrong value stops the server with a
// message that names the variable, instead of failing later in a request.
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  storage: StorageConfig;
  smtpUrl: string | null;
  publicUrl: string;
  production: boolean;
  realtime: RealtimeConfig;
  /** Largest request body (uploads included), bytes. */
  bodyLimit: number;
  /**
   * Behind reverse proxies: which hops of X-Forwarded-For to believe for the client address (throttling,
   * audit): false none, a number that many proxies in front, or the proxies' own addresses and networks.
   * Never every hop: a client could then name its own address.
   */
  trustProxy: TrustProxy;
  /**
   * Longest time a request may take to arrive whole (an exam upload over a slow clinic link included); after
   * it the connection is answered 408 and closed. Also the age after which a staged upload is surely stale.
   */
  requestTimeoutMs: number;
  /** Longest pause in a request's bytes (a stalled upload) before the connection is closed. */
  idleTimeoutMs: number;
  /** How long a background job stays claimed without its worker renewing it (a dead process's job is taken over after this). */
  jobLeaseMs: number;
  /** Worker threads for heavy work (server/workers/pool.ts): one fewer than the cores by default, at least one. */
  workerThreads: number;
  /** Heavy tasks that may wait for a worker thread; one more is refused with 503 `server.busy`. */
  workerQueueLimit: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Log lines as JSON or for people (pino-pretty); null: pretty on a terminal, JSON otherwise. */
  logFormat: 'pretty' | 'json' | null;
  /** Devices' sync apps (issue 29): how often they send heartbeats, and the silence after which a device is Offline. */
  devices: DeviceTimingConfig;
  /** Fault tests only (never in production): each processing job waits this long midway, so a test can kill the server there. */
  jobPauseMs: number;
}

/** docs/deployment.md, "Connecting the lasers". */
export interface DeviceTimingConfig {
  /** Seconds between a sync app's heartbeats (DEVICE_HEARTBEAT_SECONDS, told to the sync app at enrolment and with each heartbeat). */
  heartbeatSeconds: number;
  /** Seconds without a heartbeat after which a device is shown Offline (DEVICE_OFFLINE_AFTER_SECONDS: three missed heartbeats by default). */
  offlineAfterSeconds: number;
}

/**
 * The Pusher-protocol realtime service. By default the server's own endpoint (`/app/{key}` on its port);
 * `PUSHER_HOST` (soketi, sockudo, a Pusher-compatible server) or `PUSHER_CLUSTER` alone (hosted Pusher
 * Channels) point publishing and the browsers elsewhere.
 */
export interface RealtimeConfig {
  appId: string;
  key: string;
  secret: string;
  cluster: string;
  /** Where events are published; null: this server's own endpoint (over loopback). */
  external: { host: string; port: number; useTLS: boolean } | null;
  /** What browsers connect to when the service is external (PUSHER_CLIENT_HOST/PORT, else the publishing address). */
  client: { host: string; port: number; forceTLS: boolean } | null;
  /** Seconds of silence after which either side pings (the protocol's activity_timeout). */
  activityTimeoutSeconds: number;
  /** Sockets one process holds at most; more are refused with 4100 (over capacity). */
  maxConnections: number;
  /** Sockets one client address may hold (REALTIME_MAX_PER_ADDRESS). */
  maxPerAddress: number;
  /** A socket that subscribes to no channel this long after opening is closed (REALTIME_SUBSCRIBE_TIMEOUT_SECONDS). */
  subscribeTimeoutSeconds: number;
  /** Addresses and networks the events API answers, straight and not through a proxy (REALTIME_EVENTS_API_FROM). */
  eventsApiFrom: string[];
  /** How often each process closes the sockets whose session has ended (REALTIME_SESSION_CHECK_SECONDS). */
  sessionCheckSeconds: number;
}

/**
 * Where files are kept: the local directory `DATA_DIR/files` (the default), or, with
 * `STORAGE_URL=s3://bucket/prefix`, S3-compatible object storage (`S3_ENDPOINT`, `S3_REGION`,
 * `S3_FORCE_PATH_STYLE`; credentials from the AWS SDK's usual sources, e.g. AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY).
 */
export type StorageConfig =
  | { kind: 'directory'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      prefix: string;
      endpoint: string | null;
      region: string;
      forcePathStyle: boolean;
      /** From AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY(/AWS_SESSION_TOKEN); absent: the SDK's other sources (profiles, instance roles). */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

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

/** The realtime secret of development and tests: known to everyone, so never taken in production. */
const DEVELOPMENT_REALTIME_SECRET = 'macula-local-secret';
/** Pusher's own app secrets are 20 characters; a shorter one is guessable, or a placeholder. */
export const MIN_REALTIME_SECRET_LENGTH = 20;
/** Words of placeholders in example files (the compose file's `change-me-realtime`). */
const PLACEHOLDER = /change-?me|placeholder|example|secret|xxx|todo/i;

/**
 * In production the realtime secret signs every socket's channel authorisation and the events API: it must be
 * set, at least 20 characters and no placeholder (`openssl rand -hex 20` makes one).
 */
function assertProductionSecret(secret: string): void {
  const advice = ' when NODE_ENV=production (e.g. `openssl rand -hex 20`)';
  if (!secret) throw new ConfigError(`PUSHER_APP_SECRET must be set${advice}`);
  if (secret === DEVELOPMENT_REALTIME_SECRET || PLACEHOLDER.test(secret)) throw new ConfigError(`PUSHER_APP_SECRET must not be a placeholder${advice}`);
  if (secret.length < MIN_REALTIME_SECRET_LENGTH) throw new ConfigError(`PUSHER_APP_SECRET must be at least ${MIN_REALTIME_SECRET_LENGTH} characters${advice}`);
}

export type TrustProxy = false | number | string[];

/** A proxy's address as proxy-addr (Fastify's) takes it: an IP, a network in CIDR, or a named range. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `0` (or unset) believes no X-Forwarded-For; a whole number is how many proxies stand in front
 * (1: one nginx or load balancer, whose own entry is the client's address), believed only from a peer on this
 * machine or a private network (server/http/client-address.ts); otherwise a comma-separated list of the
 * proxies' addresses or networks (`10.0.0.0/8,127.0.0.1`, or `loopback`).
 */
/** REALTIME_EVENTS_API_FROM: a comma-separated list of addresses, networks (CIDR) or named ranges; loopback unless set. */
function eventsApiFromOf(env: NodeJS.ProcessEnv): string[] {
  const value = env.REALTIME_EVENTS_API_FROM?.trim();
  if (!value) return ['loopback'];
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong) throw new ConfigError(`REALTIME_EVENTS_API_FROM: "${wrong}" is no address, network or named range (loopback, linklocal, uniquelocal)`);
  return entries;
}

function trustProxyOf(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= 10) return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every(isProxyAddress)) return entries;
  throw new ConfigError(
    `TRUST_PROXY must be 0, the number of proxies in front (1 to 10), or their addresses or networks, comma-separated (got "${raw}")`,
  );
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

// Bucket names as S3 allows them (3–63 lower-case letters, digits, dots and hyphens).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function storageConfig(env: NodeJS.ProcessEnv, dataDir: string): StorageConfig {
  const raw = url(env, 'STORAGE_URL', ['s3:']);
  if (!raw) return { kind: 'directory', dir: resolve(dataDir, 'files') };
  const parsed = new URL(raw);
  const bucket = parsed.hostname;
  if (!BUCKET.test(bucket)) throw new ConfigError(`STORAGE_URL must name a bucket: s3://bucket/prefix (got "${raw}")`);
  if (parsed.search || parsed.hash || parsed.username || parsed.port) {
    throw new ConfigError(`STORAGE_URL takes only a bucket and a prefix; endpoint, region and credentials come from S3_ENDPOINT, S3_REGION and AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (got "${raw}")`);
  }
  const path = decodeURIComponent(parsed.pathname).replace(/^\/+|\/+$/g, '');
  if (path.split('/').some((part) => part === '.' || part === '..') || /[^A-Za-z0-9._/-]/.test(path)) {
    throw new ConfigError(`STORAGE_URL's prefix may hold letters, digits, '.', '_', '-' and '/' (got "${path}")`);
  }
  const endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:']);
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together');
  return {
    kind: 's3',
    bucket,
    prefix: path ? `${path}/` : '',
    endpoint,
    region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
    // MinIO, Ceph and Garage are usually addressed by path; AWS by the bucket's host name.
    forcePathStyle: pathStyle === undefined || pathStyle === '' ? endpoint !== null : flag(env, 'S3_FORCE_PATH_STYLE'),
    ...(accessKeyId && secretAccessKey
      ? { credentials: { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } }
      : {}),
  };
}

function realtimeConfig(env: NodeJS.ProcessEnv, key: string, secret: string): RealtimeConfig {
  const cluster = env.PUSHER_CLUSTER || 'mt1';
  const scheme = choice(env, 'PUSHER_SCHEME', ['http', 'https'] as const) ?? 'https';
  const useTLS = scheme === 'https';
  let external: RealtimeConfig['external'] = null;
  if (env.PUSHER_HOST) external = { host: env.PUSHER_HOST, port: integer(env, 'PUSHER_PORT', useTLS ? 443 : 80, 1, 65535), useTLS };
  else if (env.PUSHER_CLUSTER) external = { host: `api-${cluster}.pusher.com`, port: 443, useTLS: true };
  let client: RealtimeConfig['client'] = null;
  if (external) {
    const clientHost = env.PUSHER_CLIENT_HOST || (env.PUSHER_HOST ? external.host : `ws-${cluster}.pusher.com`);
    client = { host: clientHost, port: integer(env, 'PUSHER_CLIENT_PORT', external.useTLS ? 443 : external.port, 1, 65535), forceTLS: external.useTLS };
  }
  return {
    appId: env.PUSHER_APP_ID || 'macula-local',
    key,
    secret,
    cluster,
    external,
    client,
    activityTimeoutSeconds: integer(env, 'REALTIME_ACTIVITY_TIMEOUT_SECONDS', 120, 1, 3600),
    maxConnections: integer(env, 'REALTIME_MAX_CONNECTIONS', 20_000, 1, 1_000_000),
    maxPerAddress: integer(env, 'REALTIME_MAX_PER_ADDRESS', 500, 1, 1_000_000),
    subscribeTimeoutSeconds: integer(env, 'REALTIME_SUBSCRIBE_TIMEOUT_SECONDS', 30, 1, 3600),
    eventsApiFrom: eventsApiFromOf(env),
    sessionCheckSeconds: integer(env, 'REALTIME_SESSION_CHECK_SECONDS', 5, 1, 300),
  };
}

/** For the server's start and its commands: the configuration, or null after printing what is wrong with it. */
function deviceTimingOf(env: NodeJS.ProcessEnv): DeviceTimingConfig {
  const heartbeatSeconds = integer(env, 'DEVICE_HEARTBEAT_SECONDS', 10, 1, 3600);
  const offlineAfterSeconds = integer(env, 'DEVICE_OFFLINE_AFTER_SECONDS', 3 * heartbeatSeconds, 2, 24 * 3600);
  if (offlineAfterSeconds <= heartbeatSeconds) {
    throw new ConfigError(`DEVICE_OFFLINE_AFTER_SECONDS (${offlineAfterSeconds}) must be longer than DEVICE_HEARTBEAT_SECONDS (${heartbeatSeconds})`);
  }
  return { heartbeatSeconds, offlineAfterSeconds };
}

export function loadConfigOrExplain(env: NodeJS.ProcessEnv = process.env): Config | null {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    return null;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const production = env.NODE_ENV === 'production';
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const realtimeKey = env.PUSHER_APP_KEY ?? 'macula-local-key';
  const realtimeSecret = env.PUSHER_APP_SECRET ?? (production ? '' : DEVELOPMENT_REALTIME_SECRET);
  if (production) assertProductionSecret(realtimeSecret);
  const dataDir = resolve(env.DATA_DIR || './data');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    storage: storageConfig(env, dataDir),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    production,
    realtime: realtimeConfig(env, realtimeKey, realtimeSecret),
    bodyLimit: integer(env, 'MAX_UPLOAD_MB', 100, 1, 2048) * 1024 * 1024,
    trustProxy: trustProxyOf(env),
    jobLeaseMs: integer(env, 'JOB_LEASE_SECONDS', 60, 2, 3600) * 1000,
    workerThreads: integer(env, 'WORKER_THREADS', Math.max(1, availableParallelism() - 1), 1, 256),
    workerQueueLimit: integer(env, 'WORKER_QUEUE_LIMIT', 32, 1, 100_000),
    devices: deviceTimingOf(env),
    // 100 MB at 1 Mbit/s takes about 14 minutes.
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_SECONDS', 900, 1, 86_400) * 1000,
    idleTimeoutMs: integer(env, 'IDLE_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    logLevel: choice(env, 'LOG_LEVEL', LOG_LEVELS) ?? 'info',
    logFormat: choice(env, 'LOG_FORMAT', ['pretty', 'json'] as const),
    jobPauseMs: production ? 0 : integer(env, 'MACULA_FAULT_JOB_PAUSE_MS', 0, 0, 600_000),
  };
}
