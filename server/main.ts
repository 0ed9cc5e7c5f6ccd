// `npm start`: migrate, seed the demo clinic on an empty database (not in production), and serve the
// API and the built SPA on one port.
import { join } from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { systemClock, type AppContext } from './context';
import { openDatabase, pgliteDirIn } from './db/database';
import { migrate } from './db/migrate';
import { createFileStore } from './files';
import { loggerOptions } from './logging';
import { createMailer } from './mail/mailer';
import { releaseOrphans } from './jobs/queue';
import { isDatabaseEmpty, seedDemo } from './seed/demo';

// Uploads staged longer ago than this were left by a process that stopped mid-request.
const STAGING_MAX_AGE_MS = 60 * 60 * 1000;

async function main(): Promise<void> {
  const started = Date.now();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const { db, kind } = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDirIn(config.dataDir) });
  await migrate(db);
  const log = (message: string) => console.log(message);
  const ctx: AppContext = {
    config,
    db,
    clock: systemClock,
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), log }),
    files: createFileStore(join(config.dataDir, 'files')),
  };
  // Embedded PGlite belongs to this process alone: jobs left running were held by a process that is gone.
  if (kind === 'pglite') await releaseOrphans(db);
  await ctx.files.sweepStaging(STAGING_MAX_AGE_MS);
  let demo = null;
  if (!config.production && (await isDatabaseEmpty(db))) demo = await seedDemo(ctx);

  const app = await buildApp(ctx, {
    logger: loggerOptions(process.env.LOG_LEVEL ?? 'info'),
    spaDir: join(import.meta.dirname, '..', 'dist'),
  });
  await app.listen({ port: config.port, host: config.host });

  console.log(`\nMacula Planner is running on ${config.publicUrl} (database: ${kind}, ready in ${Date.now() - started} ms)`);
  if (demo) {
    console.log(`Demo clinic "${demo.clinicName}" — every account uses the password ${demo.password}`);
    for (const account of demo.accounts) console.log(`  ${account.role.padEnd(18)} ${account.email}`);
  }

  const stop = async () => {
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
