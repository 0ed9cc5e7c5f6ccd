import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const MAX_RETRIES = 3;

// A 4xx answer (bad token, missing rights, unknown id) does not change on retry: fail fast so that the
// screens (and the / redirect hub) react at once instead of after the back-off.
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

/** Seed-spec §9 cache rules. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 20 * MINUTE,
        gcTime: 20 * HOUR,
        refetchInterval: 20 * MINUTE,
        refetchOnReconnect: true,
        refetchOnMount: true,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
      },
      mutations: { retry: 0 },
    },
  });
}
