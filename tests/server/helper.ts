// Starts the reference server for a test on loopback, on PGlite (default) or on PostgreSQL when
// DATABASE_URL is set (each server in a schema of its own, dropped afterwards). Every answer received
// through `call` is checked against the contract.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { AppContext, Clock } from '../../server/context';
import { openDatabase } from '../../server/db/database';
import { dropSchema, migrate } from '../../server/db/migrate';
import type { Database } from '../../server/db/tables';
import { createFileStore } from '../../server/storage';
import { createMailer } from '../../server/mail/mailer';
import { contractViolations } from './contract-validator';

export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let offset = 0;
  return { now: () => new Date(start + offset), advance: (ms) => void (offset += ms) };
}

export interface CallOptions {
  token?: string | null;
  json?: unknown;
  form?: FormData;
  body?: string;
  headers?: Record<string, string>;
  lang?: 'en' | 'de';
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  url: string;
  ctx: AppContext;
  db: Database;
  clock: TestClock;
  dataDir: string;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL schema of this server (null on PGlite). */
  schema: string | null;
  /** Calls the API (path below /api) and checks the answer against the contract. */
  call<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** E-mails written to the outbox, oldest first. */
  outbox(): { file: string; text: string }[];
  /** Resolves when this server's background worker has nothing left to do. */
  jobsIdle(): Promise<void>;
  /**
   * Restarts the HTTP server on the same database and data directory (and port, for clients that come back);
   * `jobs` switches the background worker on or off from then on.
   */
  restart(options?: { samePort?: boolean; jobs?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export interface ServerOptions {
  clock?: TestClock;
  dataDir?: string;
  spaDir?: string;
  /** Further configuration (e.g. MAX_UPLOAD_MB). */
  env?: Record<string, string>;
  /** Run the background worker (default true). */
  jobs?: boolean;
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'macula-server-'));
  const databaseUrl = process.env.DATABASE_URL || null;
  const schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  // Behind a (pretend) proxy, so that tests can speak for several client addresses.
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', PUBLIC_URL: 'http://127.0.0.1:8080', TRUST_PROXY: '1', ...options.env });
  const clock = options.clock ?? testClock();
  const pgliteDir = join(dataDir, 'db');
  // A new PGlite database starts as a copy of the run's migrated template (tests/server/pglite-template.ts).
  const template = databaseUrl ? null : inject('pgliteTemplate');
  if (template && !existsSync(pgliteDir)) cpSync(template, pgliteDir, { recursive: true });
  const { db, kind } = await openDatabase({ databaseUrl, pgliteDir, schema });
  await migrate(db, { kind, schema });
  const ctx: AppContext = {
    config: { ...config, databaseUrl },
    db,
    clock,
    mailer: createMailer({ smtpUrl: null, outboxDir: join(dataDir, 'outbox'), log: () => {} }),
    files: createFileStore(config),
  };
  const appOptions = { spaDir: options.spaDir, jobs: options.jobs };
  let app = await buildApp(ctx, appOptions);
  let url = await app.listen({ port: 0, host: '127.0.0.1' });

  const server: TestServer = {
    get url() {
      return url;
    },
    ctx,
    db,
    clock,
    dataDir,
    kind,
    schema: schema ?? null,
    async call<T>(method: string, path: string, call: CallOptions = {}) {
      const answer = await callApi<T>(url, method, path, call);
      // E-mails some calls send after their answer (password reset) are in the outbox when `call` returns.
      await ctx.mailer.settled?.();
      return answer;
    },
    outbox() {
      const dir = join(dataDir, 'outbox');
      let files: string[] = [];
      try {
        files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
      } catch {
        return [];
      }
      return files.map((file) => ({ file, text: decodeMail(readFileSync(join(dir, file), 'utf8')) }));
    },
    async jobsIdle() {
      await app.jobs?.idle();
    },
    async restart({ samePort = false, jobs } = {}) {
      if (jobs !== undefined) appOptions.jobs = jobs;
      // A new port unless asked: fetch's pooled keep-alive connections to the old port would meet a closed socket.
      const port = samePort ? Number(new URL(url).port) : 0;
      await app.close();
      app = await buildApp(ctx, appOptions);
      url = await app.listen({ port, host: '127.0.0.1' });
    },
    async close() {
      await app.close();
      if (schema) await dropSchema(db, schema);
      await db.destroy();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Calls the API of the server at `origin` (path below /api) and checks the answer against the contract. */
export async function callApi<T = Record<string, unknown>>(origin: string, method: string, path: string, call: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { Language: call.lang ?? 'en', ...call.headers };
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  let body: string | FormData | undefined = call.body ?? call.form;
  if (call.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(call.json);
  }
  const response = await fetch(`${origin}/api${path}`, { method, headers, body });
  const contentType = response.headers.get('content-type') ?? '';
  const parsed = contentType.includes('json') ? await response.json() : Buffer.from(await response.arrayBuffer());
  const violations = contractViolations(method, `/api${path}`, response.status, contentType, parsed);
  expect(violations, 'the answer must follow the contract').toEqual([]);
  return { status: response.status, headers: response.headers, body: parsed };
}

// Outbox e-mails are MIME; tests read their text (quoted-printable soft breaks and escapes undone).
function decodeMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The first link in the newest e-mail to `to`. */
export function linkFromMail(server: TestServer, to: string): URL {
  const mail = [...server.outbox()].reverse().find((m) => m.text.includes(`To: ${to}`));
  const link = mail?.text.match(/https?:\/\/[^\s]+/)?.[0];
  if (!link) throw new Error(`no e-mail with a link to ${to}`);
  return new URL(link);
}

export interface FolderWatch {
  /**
   * The names that appeared in the folder or left it since the watch began. Events arrive a moment after the
   * change: waits up to `timeoutMs` for the first one.
   */
  seen(timeoutMs?: number): Promise<string[]>;
  close(): void;
}

/**
 * Records the files that pass through a folder (made if it is missing). A "nothing left behind" check that
 * only reads an empty folder also passes when the files never went there (a renamed folder, an upload refused
 * before it was staged); with a watch it first proves that they did.
 */
export function watchFolder(dir: string): FolderWatch {
  mkdirSync(dir, { recursive: true });
  const names = new Set<string>();
  const watcher = watch(dir, (_event, name) => {
    if (name) names.add(name);
  });
  return {
    async seen(timeoutMs = 2000) {
      const end = Date.now() + timeoutMs;
      while (names.size === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
      return [...names];
    },
    close: () => watcher.close(),
  };
}
