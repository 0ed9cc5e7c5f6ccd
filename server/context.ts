// What every handler and service receives: configuration, database, clock, mail, file storage and realtime.
import type { Config } from './config';
import type { Database } from './db/tables';
import type { FileStore } from './storage';
import type { Mailer } from './mail/mailer';
import type { Publisher } from './realtime/publisher';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The server's log as services use it (pino's signature; Fastify's logger is one). */
export interface Log {
  error(detail: object, message: string): void;
  warn(detail: object, message: string): void;
  info(detail: object, message: string): void;
}

/** Command-line tools and tests without a server log to the console. */
export const consoleLog: Log = {
  error: (detail, message) => console.error(message, detail),
  warn: (detail, message) => console.warn(message, detail),
  info: (detail, message) => console.info(message, detail),
};

export interface AppContext {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  files: FileStore;
  /** Realtime events (made by buildApp when absent; absent in command-line tools, which publish nothing). */
  realtime?: Publisher;
  /** The server's log (set by buildApp to Fastify's; absent in command-line tools, which log to the console). */
  log?: Log;
}

export const logOf = (ctx: Pick<AppContext, 'log'>): Log => ctx.log ?? consoleLog;
