// What every handler and service receives: configuration, database, clock, mail and file storage.
import type { Config } from './config';
import type { Database } from './db/tables';
import type { FileStore } from './files';
import type { Mailer } from './mail/mailer';

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
}
