import { defaultShouldDehydrateQuery, type Query } from '@tanstack/react-query';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { readStorage, removeStorage, tokenArea, writeStorage } from './auth-storage';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** false keeps a query out of browser storage (images, one-time links): a "non-persistent" query. */
      persist?: boolean;
      /** false keeps a query from refetching when realtime announces a change (src/app/realtime-invalidation.ts). */
      realtime?: boolean;
    };
  }
}

const HOUR = 3_600_000;

/** Storage key of the persisted query cache. */
export const QUERY_CACHE_KEY = 'queryCache';

/** Bumped when cached answers of an older build must not be restored. */
const CACHE_BUSTER = 'v1';

/*
 * The cache lives next to the token: in localStorage for a remembered sign-in, in sessionStorage (gone with
 * the tab) otherwise, and nowhere while signed out, so patient data never outlives a session in storage.
 */
const sessionBoundStorage = {
  getItem: (key: string) => {
    const area = tokenArea();
    return area ? readStorage(area, key) : null;
  },
  setItem: (key: string, value: string) => {
    const area = tokenArea();
    if (area) writeStorage(area, key, value);
  },
  removeItem: (key: string) => {
    removeStorage('localStorage', key);
    removeStorage('sessionStorage', key);
  },
};

export const shouldPersistQuery = (query: Query): boolean =>
  defaultShouldDehydrateQuery(query) && query.meta?.persist !== false;

/** Seed-spec §9: persisted for at most 24 hours, written at most once per 1000 ms. */
export function createPersistOptions(): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister: createSyncStoragePersister({
      storage: sessionBoundStorage,
      key: QUERY_CACHE_KEY,
      throttleTime: 1000,
    }),
    maxAge: 24 * HOUR,
    buster: CACHE_BUSTER,
    dehydrateOptions: {
      shouldDehydrateQuery: shouldPersistQuery,
      shouldDehydrateMutation: () => false,
    },
  };
}

/** Removes the persisted cache from both storage areas (sign-in, logout, 401). */
export function clearPersistedCache(): void {
  sessionBoundStorage.removeItem(QUERY_CACHE_KEY);
}
