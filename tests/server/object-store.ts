// An S3-compatible server for tests (s3rver), on loopback in a temporary directory, with one bucket. It checks
// request signatures against its one account, so wrong credentials are refused as by a real store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export const OBJECT_STORE_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface ObjectStore {
  endpoint: string;
  bucket: string;
  /** The environment that points the server at this store (STORAGE_URL with `prefix`, endpoint, credentials). */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startObjectStore(bucket = 'macula-test'): Promise<ObjectStore> {
  const directory = mkdtempSync(join(tmpdir(), 'macula-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: (prefix = 'clinic-files') => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: OBJECT_STORE_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: OBJECT_STORE_CREDENTIALS.secretAccessKey,
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
