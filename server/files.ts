// File storage (avatars, exam files, fundus images, parameter sets) under DATA_DIR/files, one folder per
// clinic. Keys are generated here, never taken from a client, so no path can leave the store. Uploads are
// streamed into a staging folder first and moved into place once they were accepted.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload written to the staging folder, not yet part of the store. */
export interface StagedFile {
  readonly staged: true;
  path: string;
  size: number;
  sha256: string;
  /** The stream stopped at the size limit: the file is incomplete. */
  truncated: boolean;
  filename: string;
}

export interface FileStore {
  /**
   * Stores `data` under `kind` and returns its key. With `name` (a UUID) the key is always the same for the
   * same name, and the file is replaced whole (written beside it, then renamed): a job that runs again
   * after a crash overwrites what its last attempt left instead of leaving a second file.
   */
  put(clinicId: string, kind: string, data: Uint8Array, name?: string): Promise<string>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** Removes every file of a clinic's kind folder below `prefix` (e.g. a patient's). */
  removePrefix(prefix: string): Promise<void>;
  /** Streams an upload into the staging folder, hashing it on the way. */
  stage(source: Readable, filename: string, isTruncated: () => boolean): Promise<StagedFile>;
  /** Moves a staged file into the store under `kind` (which may name sub-folders); returns its key. */
  keep(file: StagedFile, clinicId: string, kind: string): Promise<string>;
  discard(file: StagedFile): Promise<void>;
  /** Removes staged files older than `maxAgeMs` (left behind by a process that stopped mid-upload). */
  sweepStaging(maxAgeMs: number): Promise<number>;
}

const KEY = /^[0-9a-f-]{36}\/[a-z-]+(\/[0-9a-f-]{36})*\/[0-9a-f-]{36}$/;
const KIND = /^[a-z-]+(\/[0-9a-f-]{36})*$/;

export const isStagedFile = (value: unknown): value is StagedFile =>
  typeof value === 'object' && value !== null && (value as StagedFile).staged === true;

export function createFileStore(root: string): FileStore {
  const stagingDir = join(root, '.staging');
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`invalid file key ${key}`);
    return join(root, key);
  };
  const newKey = (clinicId: string, kind: string, name: string = randomUUID()) => {
    if (!KIND.test(kind)) throw new Error(`invalid file kind ${kind}`);
    return `${clinicId}/${kind}/${name}`;
  };
  return {
    async put(clinicId, kind, data, name) {
      const key = newKey(clinicId, kind, name);
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      if (name === undefined) {
        await writeFile(path, data);
      } else {
        const partial = `${path}.${randomUUID()}.partial`;
        await writeFile(partial, data);
        await rename(partial, path);
      }
      return key;
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async removePrefix(prefix) {
      if (!/^[0-9a-f-]{36}(\/[a-z-]+(\/[0-9a-f-]{36}){0,2})?$/.test(prefix)) throw new Error(`invalid prefix ${prefix}`);
      await rm(join(root, prefix), { recursive: true, force: true });
    },
    async stage(source, filename, isTruncated) {
      await mkdir(stagingDir, { recursive: true });
      const path = join(stagingDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          size += chunk.length;
          callback(null, chunk);
        },
      });
      try {
        await pipeline(source, count, createWriteStream(path));
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
      const truncated = isTruncated();
      // An incomplete file is of no use to anyone: it goes at once.
      if (truncated) await rm(path, { force: true });
      return { staged: true, path, size, sha256: hash.digest('hex'), truncated, filename };
    },
    async keep(file, clinicId, kind) {
      const key = newKey(clinicId, kind);
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await rename(file.path, path);
      return key;
    },
    async discard(file) {
      await rm(file.path, { force: true });
    },
    async sweepStaging(maxAgeMs) {
      let names: string[];
      try {
        names = await readdir(stagingDir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const path = join(stagingDir, name);
        const info = await stat(path).catch(() => null);
        if (info && Date.now() - info.mtimeMs > maxAgeMs) {
          await rm(path, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
