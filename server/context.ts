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

export interface AppContext {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  files: FileStore;
  /** Realtime events (made by buildApp when absent; absent in command-line tools, which publish nothing). */
  realtime?: Publisher;
}
