// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import { afterEach, describe, expect, it } from 'vitest';
import { setToken } from './auth-storage';
import { clearPersistedCache, createPersistOptions, QUERY_CACHE_KEY } from './query-persistence';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

const options = createPersistOptions();

/** Saves a client holding one ordinary and one non-persistent query, and waits for the write. */
async function saveCache(): Promise<void> {
  const queryClient = new QueryClient();
  queryClient.setQueryData(['patients'], ['Erika Mustermann']);
  await queryClient.prefetchQuery({ queryKey: ['avatar'], queryFn: () => 'data:image/png;base64,AAAA', meta: { persist: false } });
  await persistQueryClientSave({ queryClient, ...options });
  // The persister throttles its writes (at most one per 1000 ms).
  await new Promise((resolve) => setTimeout(resolve, 1100));
}

const storedKeys = (storage: Storage): unknown[] =>
  JSON.parse(storage.getItem(QUERY_CACHE_KEY) ?? '{"clientState":{"queries":[]}}').clientState.queries.map(
    (query: { queryKey: unknown }) => query.queryKey,
  );

describe('persisted query cache', () => {
  it('follows a remembered sign-in into localStorage, without non-persistent queries', async () => {
    setToken('secret', true);
    await saveCache();
    expect(storedKeys(localStorage)).toEqual([['patients']]);
    expect(sessionStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
  });

  it('stays in sessionStorage for a sign-in that is not remembered', async () => {
    setToken('secret', false);
    await saveCache();
    expect(storedKeys(sessionStorage)).toEqual([['patients']]);
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
  });

  it('is not written at all while signed out', async () => {
    await saveCache();
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
    expect(sessionStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
  });

  it('is restored within 24 hours and gone after clearPersistedCache', async () => {
    setToken('secret', true);
    await saveCache();
    const restored = new QueryClient();
    await persistQueryClientRestore({ queryClient: restored, ...options });
    expect(restored.getQueryData(['patients'])).toEqual(['Erika Mustermann']);

    clearPersistedCache();
    const afterLogout = new QueryClient();
    await persistQueryClientRestore({ queryClient: afterLogout, ...options });
    expect(afterLogout.getQueryData(['patients'])).toBeUndefined();
  });

  it('keeps at most 24 hours', () => {
    expect(options.maxAge).toBe(24 * 3_600_000);
  });

  it('writes after the 1000 ms throttle, not on every change', async () => {
    setToken('secret', true);
    const queryClient = new QueryClient();
    queryClient.setQueryData(['patients'], ['Erika Mustermann']);
    await persistQueryClientSave({ queryClient, ...options });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(localStorage.getItem(QUERY_CACHE_KEY)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(storedKeys(localStorage)).toEqual([['patients']]);
  });
});
