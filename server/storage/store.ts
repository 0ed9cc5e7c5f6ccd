// File storage (avatars, exam files, fundus images, parameter sets): one interface, kept in a local directory
// (the default) or in S3-compatible object storage. Keys are `<clinic>/<kind>[/<id>…]/<name>`, made here and
// never taken from a client, so no key can leave a clinic's folder or the store. Uploads are streamed into a
// staging folder on the instance's own disk first (hashed on the way) and moved into the store once accepted;
// a staged file lives only as long as its request.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';

/** An upload written to the staging folder, not yet part of the store. */
export interface StagedFile {
  readonly staged: true;
  path: string;
  size: number;
  sha256: string;
  /** Base64 MD5 of the bytes (object storage checks the transfer of a kept file with it). */
  md5: string;
  /** The stream stopped at the size limit: the file is incomplete. */
  truncated: boolean;
  filename: string;
}

/** A stored file opened for reading. */
export interface StoredFile {
  size: number;
  /** The bytes; where the store keeps a checksum, the stream fails at its end when they differ from it. */
  stream: Readable;
}

export interface FileStore {
  /** Where the files are, for the start-up line and the migration report (no credentials). */
  readonly location: string;
  /** Start-up check: the store can be written, read and cleaned up; throws StorageUnavailableError saying why not. */
  check(): Promise<void>;
  /** A cheap look (no file written) that the store answers, for health checks; throws StorageUnavailableError. */
  ping(): Promise<void>;
  /**
   * Stores `data` under `kind` and returns its key. With `name` (a UUID) the key is always the same for the
   * same name, and the file is replaced whole: a job that runs again after a crash overwrites what its last
   * attempt left instead of leaving a second file.
   */
  put(clinicId: string, kind: string, data: Uint8Array, name?: string): Promise<string>;
  /** The whole file (null when there is none), checked against its checksum where the store keeps one. */
  get(key: string): Promise<Buffer | null>;
  /** The file as a stream, for sending it on without holding it in memory (null when there is none). */
  open(key: string): Promise<StoredFile | null>;
  remove(key: string): Promise<void>;
  /** Removes every file below `prefix` (a clinic, a clinic's kind, or a patient's or session's folder). */
  removePrefix(prefix: string): Promise<void>;
  /** Streams an upload into the staging folder, hashing it on the way. */
  stage(source: Readable, filename: string, isTruncated: () => boolean): Promise<StagedFile>;
  /** Moves a staged file into the store under `kind` (which may name sub-folders); returns its key. */
  keep(file: StagedFile, clinicId: string, kind: string): Promise<string>;
  discard(file: StagedFile): Promise<void>;
  /** Removes staged files older than `maxAgeMs` (left behind by a process that stopped mid-upload). */
  sweepStaging(maxAgeMs: number): Promise<number>;
}

/** The store cannot be reached or refused the server's credentials: a request answers 503, the start stops. */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}

/** A stored file's bytes differ from the checksum stored with them. */
export class StorageIntegrityError extends Error {
  override name = 'StorageIntegrityError';
  constructor(readonly key: string) {
    super(`the stored file ${key} does not match its checksum`);
  }
}

const UUID = '[0-9a-f-]{36}';
export const FILE_KEY = new RegExp(`^${UUID}/[a-z-]+(/${UUID})*/${UUID}$`);
const KIND = new RegExp(`^[a-z-]+(/${UUID})*$`);
const PREFIX = new RegExp(`^${UUID}(/[a-z-]+(/${UUID}){0,2})?$`);

export const isStagedFile = (value: unknown): value is StagedFile =>
  typeof value === 'object' && value !== null && (value as StagedFile).staged === true;

export function checkedKey(key: string): string {
  if (!FILE_KEY.test(key)) throw new Error(`invalid file key ${key}`);
  return key;
}

export function newKey(clinicId: string, kind: string, name: string = randomUUID()): string {
  if (!KIND.test(kind)) throw new Error(`invalid file kind ${kind}`);
  return checkedKey(`${clinicId}/${kind}/${name}`);
}

export function checkedPrefix(prefix: string): string {
  if (!PREFIX.test(prefix)) throw new Error(`invalid prefix ${prefix}`);
  return prefix;
}

export const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
export const md5Base64 = (data: Uint8Array) => createHash('md5').update(data).digest('base64');

/** Size, SHA-256 (hex) and MD5 (base64) of bytes seen chunk by chunk. */
export class Digests {
  private readonly sha = createHash('sha256');
  private readonly md5 = createHash('md5');
  private size = 0;

  update(chunk: Buffer): void {
    this.sha.update(chunk);
    this.md5.update(chunk);
    this.size += chunk.length;
  }

  result(): { size: number; sha256: string; md5: string } {
    return { size: this.size, sha256: this.sha.digest('hex'), md5: this.md5.digest('base64') };
  }
}

/** Passes bytes through and fails at the end when their SHA-256 is not `expected`. */
export function verifying(expected: string, key: string): Transform {
  const hash = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      callback(hash.digest('hex') === expected ? null : new StorageIntegrityError(key));
    },
  });
}

/** The staging folder on this instance's disk, shared by both stores. */
export function stagingArea(dir: string): Pick<FileStore, 'stage' | 'discard' | 'sweepStaging'> {
  return {
    async stage(source, filename, isTruncated) {
      await mkdir(dir, { recursive: true });
      const path = join(dir, randomUUID());
      const digests = new Digests();
      const count = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          digests.update(chunk);
          callback(null, chunk);
        },
      });
      const file = createWriteStream(path);
      try {
        await pipeline(source, count, file);
      } catch (error) {
        // The pipeline fails as soon as its source does, while the file may still be being opened: removed
        // before the open completes, it would be created afterwards and stay (a body cut short, under load).
        await finished(file).catch(() => {});
        await rm(path, { force: true });
        throw error;
      }
      const truncated = isTruncated();
      // An incomplete file is of no use to anyone: it goes at once.
      if (truncated) await rm(path, { force: true });
      return { staged: true, path, ...digests.result(), truncated, filename };
    },
    async discard(file) {
      await rm(file.path, { force: true });
    },
    async sweepStaging(maxAgeMs) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const path = join(dir, name);
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
