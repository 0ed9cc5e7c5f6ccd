// `npm run storage:migrate [-- --from <dir>]`: copies every file of a data directory's file store
// (DATA_DIR/files unless --from names another) into the object storage STORAGE_URL names, under the same keys,
// so the database's references stay as they are. Each copy is checked (size and SHA-256 read back); a file
// already in the bucket with the same size and SHA-256 is left alone, so the command can run again after an
// interruption and a second run copies nothing. The local files stay where they are.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfigOrExplain } from '../config';
import { storedFiles } from '../storage/directory';
import { createS3Store, type S3FileStore } from '../storage/s3';
import { StorageUnavailableError } from '../storage/store';

export const USAGE = `Usage: STORAGE_URL=s3://bucket/prefix [S3_ENDPOINT=…] npm run storage:migrate [-- --from <directory>]

Copies the files of <directory> (default: DATA_DIR/files) into the bucket, checking each copy.`;

const COPIES_AT_ONCE = 4;

export interface MigrationReport {
  copied: number;
  copiedBytes: number;
  present: number;
  failed: { key: string; reason: string }[];
}

/** Copies every stored file below `dir` into `store`; `progress` hears of each file. */
export async function migrateDirectory(
  dir: string,
  store: S3FileStore,
  progress: (key: string, outcome: 'copied' | 'present' | 'failed') => void = () => {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, copiedBytes: 0, present: 0, failed: [] };
  const files = storedFiles(dir);
  const worker = async () => {
    for (let next = await files.next(); !next.done; next = await files.next()) {
      const { key, path } = next.value;
      try {
        const { outcome, size } = await store.copyIn(key, path);
        if (outcome === 'copied') {
          report.copied += 1;
          report.copiedBytes += size;
        } else {
          report.present += 1;
        }
        progress(key, outcome);
      } catch (error) {
        // The store went away: no point going on with the other files.
        if (error instanceof StorageUnavailableError) throw error;
        report.failed.push({ key, reason: (error as Error).message });
        progress(key, 'failed');
      }
    }
  };
  await Promise.all(Array.from({ length: COPIES_AT_ONCE }, worker));
  return report;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function main(argv: string[]): Promise<number> {
  let from: string | undefined;
  try {
    const { values } = parseArgs({ args: argv, options: { from: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    from = values.from;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfigOrExplain();
  if (!config) return 2;
  if (config.storage.kind !== 's3') {
    console.error(`STORAGE_URL must name the bucket to copy into (s3://bucket/prefix).\n\n${USAGE}`);
    return 2;
  }
  const dir = from ? resolve(from) : join(config.dataDir, 'files');
  const store = createS3Store({ ...config.storage, stagingDir: join(config.dataDir, 'staging') });
  try {
    await store.check();
    console.log(`Copying the files of ${dir} to ${store.location} …`);
    const started = Date.now();
    const report = await migrateDirectory(dir, store, (key, outcome) => {
      if (outcome === 'failed') console.error(`  failed: ${key}`);
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`Copied ${report.copied} files (${mib(report.copiedBytes)}) in ${seconds} s; ${report.present} were in the bucket already; ${report.failed.length} failed.`);
    for (const failure of report.failed) console.error(`  ${failure.key}: ${failure.reason}`);
    if (report.failed.length) {
      console.error('Run the command again to copy the files that failed.');
      return 1;
    }
    console.log(`Every file is in the bucket. The files in ${dir} were left in place: remove them once the servers run with STORAGE_URL.`);
    return 0;
  } catch (error) {
    if (error instanceof StorageUnavailableError) {
      console.error(`File storage is not usable: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    store.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
