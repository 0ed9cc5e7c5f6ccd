// What the reference sync app keeps between runs, in its state folder: the credential it enrolled with
// (readable by its own user only), and its records of what the server has. Written whole to a temporary file
// and renamed, so a crash never leaves half a file.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SavedCredential {
  server: string;
  credential: string;
  id: string;
  deviceId: string;
}

const CREDENTIAL_FILE = 'credential.json';

export async function writeJsonAtomically(file: string, value: unknown): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

export async function saveCredential(stateDir: string, saved: SavedCredential): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeJsonAtomically(join(stateDir, CREDENTIAL_FILE), saved);
}

/** The saved credential, or null when the folder has none. */
export async function loadCredential(stateDir: string): Promise<SavedCredential | null> {
  try {
    const saved = JSON.parse(await readFile(join(stateDir, CREDENTIAL_FILE), 'utf8')) as SavedCredential;
    return typeof saved.credential === 'string' && typeof saved.server === 'string' ? saved : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Records by key in a JSON file of the state folder, written whole after each change. */
export class Records<T> {
  private constructor(
    private readonly path: string,
    private readonly records: Record<string, T>,
  ) {}

  static async open<T>(stateDir: string, fileName: string): Promise<Records<T>> {
    const path = join(stateDir, fileName);
    try {
      return new Records<T>(path, JSON.parse(await readFile(path, 'utf8')) as Record<string, T>);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Records<T>(path, {});
      throw error;
    }
  }

  has(key: string): boolean {
    return Object.hasOwn(this.records, key);
  }

  get(key: string): T | undefined {
    return this.has(key) ? this.records[key] : undefined;
  }

  async set(key: string, record: T): Promise<void> {
    this.records[key] = record;
    await writeJsonAtomically(this.path, this.records);
  }
}
