// The files in S3-compatible object storage (AWS S3, MinIO, Ceph, Garage, …), below `prefix` in one
// bucket, never public: the server reads them and sends them on after its own clinic checks.
// Every object is written with its SHA-256 as metadata and its MD5 as Content-MD5 (the store refuses a
// transfer that arrives damaged); reads verify the SHA-256, whole or at the end of the stream.
// Uploads are staged on the instance's own disk and streamed into the bucket when accepted.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config';
import {
  checkedKey,
  checkedPrefix,
  Digests,
  type FileStore,
  md5Base64,
  newKey,
  sha256Hex,
  stagingArea,
  StorageIntegrityError,
  StorageUnavailableError,
  verifying,
} from './store';

export type S3StoreOptions = Omit<Extract<StorageConfig, { kind: 's3' }>, 'kind'> & {
  /** This instance's staging folder for uploads. */
  stagingDir: string;
};

export interface S3FileStore extends FileStore {
  /** Copies a local file into the bucket under `key` unless an equal object (size and SHA-256) is there already. */
  copyIn(key: string, path: string): Promise<{ outcome: 'copied' | 'present'; size: number; sha256: string }>;
  destroy(): void;
}

const SHA_META = 'sha256';
const DELETE_CONCURRENCY = 8;
const FILE_ATTEMPTS = 3;
// The SDK writes some failures to the console itself (e.g. a streamed upload that failed) unless given a
// logger: the failures reach our log through the calls that fail, so its own lines are dropped.
const QUIET = { debug() {}, info() {}, warn() {}, error() {} };

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);
const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || statusOf(error) === 404);

// Failures that mean "the store cannot be used now", as opposed to a mistake of ours.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const UNAVAILABLE_NAMES = new Set(['TimeoutError', 'CredentialsProviderError', 'RequestTimeout']);
function isUnavailable(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined) return status >= 500 || status === 401 || status === 403;
  const { code, name } = error as { code?: string; name?: string };
  return (code !== undefined && NETWORK_CODES.has(code)) || (name !== undefined && UNAVAILABLE_NAMES.has(name));
}

export function createS3Store(options: S3StoreOptions): S3FileStore {
  const { bucket, prefix } = options;
  const location = `s3://${bucket}/${prefix}${options.endpoint ? ` at ${options.endpoint}` : ` (${options.region})`}`;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint ?? undefined,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Checksums the SDK adds by default (CRC32, aws-chunked bodies) are not understood by every S3-compatible
    // store: we send Content-MD5 and keep our own SHA-256, which all of them accept.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    logger: QUIET,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
  const objectKey = (key: string) => `${prefix}${checkedKey(key)}`;

  /** Network failures, refused credentials and the store's own failures: the store is not usable now. */
  async function send<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUnavailable(error)) throw new StorageUnavailableError(`${what} in ${location} failed: ${describeError(error)}`, { cause: error });
      throw error;
    }
  }

  /**
   * Streams a file from this instance's disk into the bucket. The SDK does not retry a streamed body (it cannot
   * rewind it); a file can be opened again, so a passing failure gets two more tries here.
   */
  async function uploadFile(key: string, path: string, size: number, sha256: string, md5: string) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await upload(key, createReadStream(path), size, sha256, md5);
      } catch (error) {
        if (!(error instanceof StorageUnavailableError) || attempt === FILE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * 4 ** (attempt - 1)));
      }
    }
  }

  async function upload(key: string, body: Uint8Array | Readable, size: number, sha256: string, md5: string) {
    await send(`Storing ${key}`, () =>
      client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${prefix}${key}`,
          Body: body,
          ContentLength: size,
          ContentMD5: md5,
          ContentType: 'application/octet-stream',
          Metadata: { [SHA_META]: sha256 },
        }),
      ),
    );
  }

  async function read(key: string) {
    const Key = objectKey(key);
    try {
      return await send(`Reading ${key}`, () => client.send(new GetObjectCommand({ Bucket: bucket, Key })));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function describe(key: string) {
    const Key = objectKey(key);
    try {
      const head = await send(`Reading ${key}`, () => client.send(new HeadObjectCommand({ Bucket: bucket, Key })));
      return { size: head.ContentLength ?? 0, sha256: head.Metadata?.[SHA_META] ?? null };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function removeObject(objectKeyWithPrefix: string) {
    await send('Removing a file', () => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKeyWithPrefix })));
  }

  async function ping() {
    await send('Opening the bucket', () => client.send(new HeadBucketCommand({ Bucket: bucket }))).catch((error) => {
      if (isMissing(error)) throw new StorageUnavailableError(`The bucket of ${location} does not exist`);
      throw error;
    });
  }

  const staging = stagingArea(options.stagingDir);
  return {
    location,
    ping,
    async check() {
      await ping();
      // Written, read back and removed: the credentials may do all the server needs.
      const probe = `${prefix}.macula-check/${randomUUID()}`;
      const data = Buffer.from(`check ${new Date().toISOString()}`);
      await send('Writing a test object', () =>
        client.send(new PutObjectCommand({ Bucket: bucket, Key: probe, Body: data, ContentLength: data.length, ContentMD5: md5Base64(data) })),
      );
      const back = await send('Reading the test object', async () => {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: probe }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      });
      await removeObject(probe);
      if (!back.equals(data)) throw new StorageUnavailableError(`${location} returned other bytes than were written`);
    },
    async put(clinicId, kind, data, name) {
      const key = newKey(clinicId, kind, name);
      await upload(key, data, data.length, sha256Hex(data), md5Base64(data));
      return key;
    },
    async get(key) {
      const answer = await read(key);
      if (!answer) return null;
      const bytes = Buffer.from(await answer.Body!.transformToByteArray());
      const expected = answer.Metadata?.[SHA_META];
      if (expected && sha256Hex(bytes) !== expected) throw new StorageIntegrityError(key);
      return bytes;
    },
    async open(key) {
      const answer = await read(key);
      if (!answer) return null;
      const body = answer.Body as Readable;
      const expected = answer.Metadata?.[SHA_META];
      if (!expected) return { size: answer.ContentLength ?? 0, stream: body };
      // A download stopped by the client ends the request to the store too (pipeline destroys both ways).
      const checked = verifying(expected, key);
      pipeline(body, checked, () => {});
      return { size: answer.ContentLength ?? 0, stream: checked };
    },
    async remove(key) {
      await removeObject(objectKey(key));
    },
    async removePrefix(folder) {
      const listPrefix = `${prefix}${checkedPrefix(folder)}/`;
      let token: string | undefined;
      do {
        const page = await send('Listing files', () =>
          client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: listPrefix, ContinuationToken: token })),
        );
        const keys = (page.Contents ?? []).map((item) => item.Key!).filter(Boolean);
        // One by one (a few at a time): multi-object delete needs a checksum not every store accepts.
        for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
          await Promise.all(keys.slice(i, i + DELETE_CONCURRENCY).map(removeObject));
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    ...staging,
    async keep(file, clinicId, kind) {
      const key = newKey(clinicId, kind);
      await uploadFile(key, file.path, file.size, file.sha256, file.md5);
      await rm(file.path, { force: true });
      return key;
    },
    async copyIn(key, path) {
      const { size, sha256, md5 } = await hashFile(path);
      const present = await describe(key);
      if (present && present.size === size && present.sha256 === sha256) return { outcome: 'present', size, sha256 };
      await uploadFile(checkedKey(key), path, size, sha256, md5);
      const stored = await describe(key);
      if (!stored || stored.size !== size || stored.sha256 !== sha256) throw new StorageIntegrityError(key);
      return { outcome: 'copied', size, sha256 };
    },
    destroy() {
      client.destroy();
    },
  };
}

async function hashFile(path: string): Promise<{ size: number; sha256: string; md5: string }> {
  const digests = new Digests();
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) digests.update(chunk);
  return digests.result();
}

function describeError(error: unknown): string {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    if (status === 403 || status === 401) return `access denied (${error.name}): check the credentials and the bucket's policy`;
    return `${error.name}${status ? ` (HTTP ${status})` : ''}: ${error.message}`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message || String(error);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}
