// File storage (avatars now; exam files and parameter sets later) under DATA_DIR/files, one folder per
// clinic. Keys are generated here, never taken from a client, so no path can leave the store.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface FileStore {
  put(clinicId: string, kind: string, data: Uint8Array): Promise<string>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** Removes every file of a clinic's kind folder below `prefix` (e.g. a patient's). */
  removePrefix(prefix: string): Promise<void>;
}

const KEY = /^[0-9a-f-]{36}\/[a-z-]+(\/[0-9a-f-]{36})*\/[0-9a-f-]{36}$/;

export function createFileStore(root: string): FileStore {
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`invalid file key ${key}`);
    return join(root, key);
  };
  return {
    async put(clinicId, kind, data) {
      const key = `${clinicId}/${kind}/${randomUUID()}`;
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
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
      if (!/^[0-9a-f-]{36}(\/[a-z-]+(\/[0-9a-f-]{36})?)?$/.test(prefix)) throw new Error(`invalid prefix ${prefix}`);
      await rm(join(root, prefix), { recursive: true, force: true });
    },
  };
}
