import { QueryClient, type Query } from '@tanstack/react-query';
import { ApiError } from './api-client';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Seed-spec §9: persisted cache entries older than this are dropped on restore. */
export const PERSIST_MAX_AGE = 24 * HOUR;
/** Seed-spec §9: writes of the persisted cache are throttled to one per second. */
export const PERSIST_THROTTLE_MS = 1000;

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /**
       * Opt in to the persisted cache (localStorage, 24 h). Queries are not persisted by default: the
       * cache holds patient data, which must not outlive the session unless a screen decides so.
       */
      persist?: boolean;
    };
  }
}

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

/** Only successful queries that opted in with `meta: { persist: true }` are written to storage. */
export function shouldPersistQuery(query: Query): boolean {
  return query.meta?.persist === true && query.state.status === 'success';
}
