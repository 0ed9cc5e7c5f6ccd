import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient } from './query-client';

const MINUTE = 60_000;

describe('createQueryClient', () => {
  const { queries, mutations } = createQueryClient().getDefaultOptions();

  it('keeps data 20 minutes fresh and 20 hours cached, refetches but not on focus, never retries mutations', () => {
    expect(queries).toMatchObject({
      staleTime: 20 * MINUTE,
      gcTime: 20 * 60 * MINUTE,
      refetchInterval: 20 * MINUTE,
      refetchOnReconnect: true,
      refetchOnMount: true,
      refetchOnWindowFocus: false,
    });
    expect(mutations).toMatchObject({ retry: 0 });
  });

  it('retries server and network failures, but not 4xx answers', () => {
    const retry = queries?.retry as (count: number, error: unknown) => boolean;
    const failure = (status: number) =>
      Object.assign(new ApiError(undefined), { status }) satisfies ApiError;
    expect(retry(0, failure(500))).toBe(true);
    expect(retry(0, failure(0))).toBe(true);
    expect(retry(3, failure(500))).toBe(false);
    expect(retry(0, failure(401))).toBe(false);
    expect(retry(0, failure(404))).toBe(false);
  });
});
