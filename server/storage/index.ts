// The file store the configuration names: the local directory or S3-compatible object storage.
import { join } from 'node:path';
import type { Config } from '../config';
import type { Log } from '../context';
import { createDirectoryStore } from './directory';
import { createS3Store } from './s3';
import type { FileStore } from './store';

export { isStagedFile, StorageIntegrityError, StorageUnavailableError } from './store';
export type { FileStore, StagedFile } from './store';

export function createFileStore(config: Pick<Config, 'storage' | 'dataDir'>): FileStore {
  const { storage } = config;
  if (storage.kind === 'directory') return createDirectoryStore(storage.dir);
  // Uploads are staged on this instance's disk while their request lasts.
  return createS3Store({ ...storage, stagingDir: join(config.dataDir, 'staging') });
}

/**
 * Removes files that nothing refers to any more: after the change that dropped them was committed, or after
 * the change that would have used them failed. The store failing now must not turn a done change into an
 * error, nor hide the error that is being answered: the failure is logged and the files stay, unreferenced.
 */
export async function removeUnreferenced(log: Pick<Log, 'warn'> | undefined, what: string, remove: () => Promise<void>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    (log ?? { warn: (_: object, message: string) => console.warn(message) }).warn({ err: error }, `${what} stays in the file store, unreferenced`);
  }
}
