import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { blobFailureMessage } from './blob-failure';

/** A failed answer as the api client rejects it (its response, without the HTTP around it). */
const failure = (body: unknown, status = 501) =>
  new ApiError({ data: body, status, statusText: '', headers: {}, config: {} } as unknown as ConstructorParameters<typeof ApiError>[0]);
const json = (value: unknown) => new Blob([JSON.stringify(value)], { type: 'application/json' });

describe('the message of a failed download', () => {
  it('reads the envelope the server sent as a Blob', async () => {
    expect(await blobFailureMessage(failure(json({ status: 'Error', message: 'The parameter set is not available yet.' })))).toBe(
      'The parameter set is not available yet.',
    );
    expect(await blobFailureMessage(failure(json({ status: 'Error', message: { message: 'Nested first.' } })))).toBe('Nested first.');
  });

  it('has none for a body that is no envelope, or an error that is no download', async () => {
    expect(await blobFailureMessage(failure(new Blob(['<html>Bad gateway</html>'], { type: 'text/html' }), 502))).toBeUndefined();
    expect(await blobFailureMessage(failure(json({ status: 'Error' })))).toBeUndefined();
    expect(await blobFailureMessage(failure({ status: 'Error', message: 'JSON already' }))).toBeUndefined();
    expect(await blobFailureMessage(new Error('network'))).toBeUndefined();
  });
});
