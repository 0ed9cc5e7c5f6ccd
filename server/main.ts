// `npm start`: migrate, seed the demo clinic on an empty database (not in production), and serve the
// API and the built SPA on one port.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadConfigOrExplain } from './config';
import { systemClock, type AppContext } from './context';
import { openConfiguredDatabaseOrExplain } from './db/database';
import { migrate } from './db/migrate';
import { createFileStore, StorageUnavailableError } from './storage';
import { logFormatFor, loggerOptions } from './logging';
import { createMailer } from './mail/mailer';
import { releaseOrphans } from './jobs/queue';
import { isDatabaseEmpty, seedDemo } from './seed/demo';
import { holdWorkPool } from './workers/pool';


async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfigOrExplain();
  if (!config) process.exit(1);
  const opened = await openConfiguredDatabaseOrExplain(config);
  if (!opened) process.exit(1);
  const { db, kind } = opened;
  await migrate(db, { kind });
  // E-mail notes go to the server's log once it exists (the demo seed before it sends none).
  let app: FastifyInstance | null = null;
  const log = (message: string) => (app ? app.log.info(message) : console.log(message));
  const ctx: AppContext = {
    config,
    db,
    clock: systemClock,
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), log }),
    files: createFileStore(config),
  };
  try {
    await ctx.files.check();
  } catch (error) {
    if (error instanceof StorageUnavailableError) {
      console.error(`File storage is not usable: ${error.message}`);
      await db.destroy();
      process.exit(1);
    }
    throw error;
  }
  // Embedded PGlite belongs to this process alone: jobs left running were held by a process that is gone.
  if (kind === 'pglite') await releaseOrphans(db);
  // No request lasts longer than the request timeout: a staged upload older than that was left by a process
  // that stopped mid-upload (another instance's upload in flight is younger).
  await ctx.files.sweepStaging(config.requestTimeoutMs);
  // The demo seed processes its exams in the pool of worker threads before the server holds it too.
  const releaseWorkPool = holdWorkPool(config);
  let demo = null;
  if (!config.production && (await isDatabaseEmpty(db))) demo = await seedDemo(ctx);

  const format = logFormatFor(config.logFormat, process.stdout.isTTY === true);
  const { logger, requestLogging } = loggerOptions(config.logLevel, format);
  const server = await buildApp(ctx, { logger, requestLogging, spaDir: join(import.meta.dirname, '..', 'dist') });
  app = server;
  await server.listen({ port: config.port, host: config.host });

  const welcome = [`Macula Planner is running on ${config.publicUrl} (database: ${kind}, files: ${ctx.files.location}, ready in ${Date.now() - started} ms)`];
  if (demo) {
    welcome.push(`Demo clinic "${demo.clinicName}" — every account uses the password ${demo.password}`);
    for (const account of demo.accounts) welcome.push(`  ${account.role.padEnd(18)} ${account.email}`);
  }
  // A person reads the welcome as text; a log collector gets it as log lines like every other.
  if (format === 'pretty') console.log(`\n${welcome.join('\n')}`);
  else for (const line of welcome) server.log.info(line);

  const stop = async () => {
    await server.close();
    await releaseWorkPool();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
