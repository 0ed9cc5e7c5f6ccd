// The files in a local directory (DATA_DIR/files by default), one folder per clinic; uploads are staged in
// its `.staging` folder, on the same disk, so keeping one is a rename.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  checkedKey,
  checkedPrefix,
  FILE_KEY,
  type FileStore,
  newKey,
  stagingArea,
  StorageUnavailableError,
} from './store';

const STAGING = '.staging';

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export function createDirectoryStore(root: string): FileStore {
  const pathOf = (key: string) => join(root, checkedKey(key));
  return {
    location: root,
    async check() {
      const probe = join(root, STAGING, `check-${randomUUID()}`);
      try {
        await mkdir(dirname(probe), { recursive: true });
        await writeFile(probe, 'ok');
        await rm(probe);
      } catch (error) {
        throw new StorageUnavailableError(`The file directory ${root} cannot be written: ${(error as Error).message}`);
      }
    },
    async ping() {
      await access(root, constants.W_OK).catch((error: Error) => {
        throw new StorageUnavailableError(`The file directory ${root} cannot be written: ${error.message}`);
      });
    },
    async put(clinicId, kind, data, name) {
      const key = newKey(clinicId, kind, name);
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written beside its place, then renamed: a reader never sees half a file.
      const partial = `${path}.${randomUUID()}.partial`;
      await writeFile(partial, data);
      await rename(partial, path);
      return key;
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async open(key) {
      const path = pathOf(key);
      try {
        const { size } = await stat(path);
        return { size, stream: createReadStream(path) };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async removePrefix(prefix) {
      await rm(join(root, checkedPrefix(prefix)), { recursive: true, force: true });
    },
    ...stagingArea(join(root, STAGING)),
    async keep(file, clinicId, kind) {
      const key = newKey(clinicId, kind);
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await rename(file.path, path);
      return key;
    },
  };
}

/** Every stored file of a directory store with its size (staging and half-written files left out). */
export async function* storedFiles(root: string): AsyncGenerator<{ key: string; path: string; size: number }> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (missing(error)) return;
    throw error;
  }
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ path, key: relative(root, path).split(sep).join('/') }))
    .filter(({ key }) => FILE_KEY.test(key))
    .sort((a, b) => a.key.localeCompare(b.key));
  for (const file of files) {
    const info = await stat(file.path).catch(() => null);
    if (info) yield { ...file, size: info.size };
  }
}
